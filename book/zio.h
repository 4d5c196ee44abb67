/*
 * zstd file helpers shared by the opening book, game records, training data and opening files.
 *
 * A record file is a plain concatenation of zstd frames, each with a content checksum, appended
 * one at a time and flushed (optionally synced) so that a killed writer leaves at most one
 * half-written frame at the end. zio_next_frame walks such a file frame by frame and tells a
 * complete frame, the end, a half-written tail (a frame cut short, or zero bytes left by a lost
 * write) and damage (bytes that are not a zstd frame, or a frame whose checksum fails) apart.
 *
 * It lives in book/, the lowest layer that uses zstd, so that the book and selfplay/ (records,
 * training data, openings) share it without either reaching up.
 */
#ifndef HNEFI_BOOK_ZIO_H
#define HNEFI_BOOK_ZIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What zio_next_frame found at the read position. */
enum zio_frame {
    ZIO_FRAME_OK,        /* one frame decompressed */
    ZIO_FRAME_END,       /* nothing left */
    ZIO_FRAME_TRUNCATED, /* the rest of the file is a half-written frame */
    ZIO_FRAME_DAMAGED,   /* not a zstd frame, or its checksum or contents fail */
};

/* The most a frame, or a text file read whole, may decompress to (a small file that would
   expand beyond it is refused, not followed into memory). */
#define ZIO_CONTENT_MAX ((size_t)1 << 30)

/* Tells whether buf starts with the zstd frame magic number. */
bool zio_is_zstd(const void *buf, size_t len);

/* Reads a whole file into memory (NUL-terminated); NULL with a reason in err. */
char *zio_read_file(const char *path, size_t *len, char *err, size_t errlen);

/*
 * Reads a file as text: decompressed if it is zstd (every frame must be whole and sound, and
 * the text at most ZIO_CONTENT_MAX bytes), as it is otherwise. NUL-terminated; NULL with a reason
 * in err.
 */
char *zio_read_text(const char *path, size_t *len, char *err, size_t errlen);

/*
 * Decompresses the frame at buf[*pos] (len bytes in all) into a new NUL-terminated buffer *out
 * of *outlen bytes and advances *pos past it. On TRUNCATED and DAMAGED, err says what and where.
 */
enum zio_frame zio_next_frame(const uint8_t *buf, size_t len, size_t *pos, char **out,
                              size_t *outlen, char *err, size_t errlen);

/* Called by zio_scan_frames for each whole frame: its bytes (NUL-terminated), where it starts in
   the file, and whether it ends the file; false stops the scan. */
typedef bool (*zio_frame_fn)(const char *frame, size_t len, size_t start, bool last, void *ctx);

/*
 * The one loop over a record file's frames (game records and training data both read theirs
 * with it): calls fn for each whole frame of buf[*pos..len) in order, advancing *pos past it.
 * Returns ZIO_FRAME_END after the last frame, TRUNCATED or DAMAGED where zio_next_frame found
 * them (err says what and where; *pos stays at the start of that part), or ZIO_FRAME_OK when fn
 * stopped (*pos is past the frame it stopped at).
 */
enum zio_frame zio_scan_frames(const uint8_t *buf, size_t len, size_t *pos, zio_frame_fn fn,
                               void *ctx, char *err, size_t errlen);

/*
 * Compresses data into one checksummed zstd frame at the given level (1-19) in a new buffer of
 * *outlen bytes; NULL with a reason in err.
 */
void *zio_compress(const void *data, size_t len, int level, size_t *outlen, char *err,
                   size_t errlen);

/* Writes len bytes to fd, retrying short writes; false with a reason in err. */
bool zio_write_all(int fd, const void *data, size_t len, char *err, size_t errlen);

/*
 * zio_next_frame for a frame that must state its content size in its header, at most max bytes
 * (SIZE_MAX: any size, stated or not); a frame that does not is DAMAGED.
 */
enum zio_frame zio_next_frame_max(const uint8_t *buf, size_t len, size_t *pos, size_t max,
                                  char **out, size_t *outlen, char *err, size_t errlen);

/* Compresses data into one checksummed frame and appends it to fd; syncs it if sync is set. */
bool zio_append_frame(int fd, const void *data, size_t len, bool sync, char *err, size_t errlen);

#endif

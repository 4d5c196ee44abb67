/* zstd frames: reading a file frame by frame with damage detection, appending checksummed frames.
 */
#include "book/zio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

/* Tells whether buf starts with the zstd frame magic number. */
bool zio_is_zstd(const void *buf, size_t len) {
    return len >= 4 && memcmp(buf, zstd_magic, 4) == 0;
}

/* Reads a whole file into memory (NUL-terminated); NULL with a reason in err. */
char *zio_read_file(const char *path, size_t *len, char *err, size_t errlen) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s is not a regular file", path);
        close(fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = malloc(size + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %s", path);
        close(fd);
        return NULL;
    }
    while (got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (got != size) {
        snprintf(err, errlen, "cannot read %s", path);
        free(buf);
        return NULL;
    }
    buf[size] = '\0';
    *len = size;
    return buf;
}

/* Tells whether the n bytes at p are all zero. */
static bool all_zero(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/*
 * Decompresses one whole frame (size bytes) of at most max bytes of content (cap: a first guess)
 * into a new buffer; false with a reason on failure.
 */
static bool decompress_frame(const uint8_t *src, size_t size, size_t cap, size_t max, char **out,
                             size_t *outlen, char *err, size_t errlen) {
    ZSTD_DStream *ds = ZSTD_createDStream();
    size_t used = 0;
    char *dst = malloc(cap + 1);
    if (!ds || !dst) {
        ZSTD_freeDStream(ds);
        free(dst);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    ZSTD_initDStream(ds);
    ZSTD_inBuffer in = {src, size, 0};
    size_t r = 1;
    while (r != 0) {
        if (used == cap) {
            if (cap >= max) {
                snprintf(err, errlen, "more than %zu bytes of content", max);
                r = (size_t)-1;
                break;
            }
            char *bigger = realloc(dst, cap * 2 + 1);
            if (!bigger) {
                snprintf(err, errlen, "out of memory");
                r = (size_t)-1;
                break;
            }
            dst = bigger;
            cap *= 2;
        }
        ZSTD_outBuffer o = {dst, cap, used};
        r = ZSTD_decompressStream(ds, &o, &in);
        used = o.pos;
        if (ZSTD_isError(r)) {
            snprintf(err, errlen, "%s", ZSTD_getErrorName(r));
            break;
        }
        if (r != 0 && in.pos == in.size && o.pos < o.size) {
            snprintf(err, errlen, "frame ends early");
            r = (size_t)-1;
            break;
        }
    }
    ZSTD_freeDStream(ds);
    if (r != 0) {
        free(dst);
        return false;
    }
    dst[used] = '\0';
    *out = dst;
    *outlen = used;
    return true;
}

/* Returns where the first whole zstd frame at or after byte from of buf starts, or len if none
   does (a frame cut short by the end of the file is the last thing a crash leaves). */
static size_t whole_frame_after(const uint8_t *buf, size_t len, size_t from) {
    for (size_t i = from; i + 4 <= len; i++) {
        if (buf[i] != zstd_magic[0] || memcmp(buf + i, zstd_magic, 4) != 0) continue;
        size_t size = ZSTD_findFrameCompressedSize(buf + i, len - i);
        if (!ZSTD_isError(size)) return i;
    }
    return len;
}

/*
 * Decompresses the frame at buf[*pos] (len bytes in all) into a new NUL-terminated buffer *out
 * of *outlen bytes and advances *pos past it. On TRUNCATED and DAMAGED, err says what and where.
 */
enum zio_frame zio_next_frame(const uint8_t *buf, size_t len, size_t *pos, char **out,
                              size_t *outlen, char *err, size_t errlen) {
    return zio_next_frame_max(buf, len, pos, SIZE_MAX, out, outlen, err, errlen);
}

/*
 * zio_next_frame for a frame that must state its content size in its header, at most max bytes
 * (SIZE_MAX: any size, stated or not); a frame that does not is DAMAGED.
 */
enum zio_frame zio_next_frame_max(const uint8_t *buf, size_t len, size_t *pos, size_t max,
                                  char **out, size_t *outlen, char *err, size_t errlen) {
    size_t at = *pos, left = len - at;
    if (left == 0) return ZIO_FRAME_END;
    if (all_zero(buf + at, left)) {
        snprintf(err, errlen, "byte %zu: %zu zero bytes of an unfinished write", at, left);
        return ZIO_FRAME_TRUNCATED;
    }
    if (left < 4) {
        if (memcmp(buf + at, zstd_magic, left) == 0) {
            snprintf(err, errlen, "byte %zu: a frame cut short after %zu bytes", at, left);
            return ZIO_FRAME_TRUNCATED;
        }
        snprintf(err, errlen, "byte %zu: not a zstd frame", at);
        return ZIO_FRAME_DAMAGED;
    }
    size_t size = ZSTD_findFrameCompressedSize(buf + at, left);
    if (ZSTD_isError(size)) {
        if (ZSTD_getErrorCode(size) == ZSTD_error_srcSize_wrong && zio_is_zstd(buf + at, left)) {
            /* cut short by the end of the file, unless whole frames follow: then it is damaged */
            size_t next = whole_frame_after(buf, len, at + 4);
            if (next < len) {
                snprintf(err, errlen,
                         "byte %zu: a damaged frame (it claims more bytes than the file has, "
                         "yet a whole frame follows at byte %zu)",
                         at, next);
                return ZIO_FRAME_DAMAGED;
            }
            snprintf(err, errlen, "byte %zu: a frame cut short after %zu bytes", at, left);
            return ZIO_FRAME_TRUNCATED;
        }
        snprintf(err, errlen, "byte %zu: not a zstd frame (%s)", at, ZSTD_getErrorName(size));
        return ZIO_FRAME_DAMAGED;
    }
    unsigned long long stated = ZSTD_getFrameContentSize(buf + at, size);
    bool known = stated != ZSTD_CONTENTSIZE_UNKNOWN && stated != ZSTD_CONTENTSIZE_ERROR;
    if (max != SIZE_MAX && (!known || stated > max)) {
        if (known)
            snprintf(err, errlen, "byte %zu: a frame of %llu bytes, more than %zu", at, stated,
                     max);
        else
            snprintf(err, errlen, "byte %zu: a frame that does not state its size", at);
        return ZIO_FRAME_DAMAGED;
    }
    /* a frame of any size (max SIZE_MAX) still stops at ZIO_CONTENT_MAX: no bomb fills memory */
    size_t limit = max == SIZE_MAX ? ZIO_CONTENT_MAX : max;
    if (known && stated > limit) {
        snprintf(err, errlen, "byte %zu: a frame of %llu bytes, more than %zu", at, stated, limit);
        return ZIO_FRAME_DAMAGED;
    }
    char why[120];
    size_t cap = known && stated < (1u << 26) ? (size_t)stated + 1 : 4096; /* a first guess */
    if (!decompress_frame(buf + at, size, cap, limit, out, outlen, why, sizeof why)) {
        snprintf(err, errlen, "byte %zu: damaged frame (%s)", at, why);
        return ZIO_FRAME_DAMAGED;
    }
    *pos = at + size;
    return ZIO_FRAME_OK;
}

/*
 * Reads a file as text: decompressed if it is zstd (every frame must be whole and sound),
 * as it is otherwise. NUL-terminated; NULL with a reason in err.
 */
char *zio_read_text(const char *path, size_t *len, char *err, size_t errlen) {
    size_t size;
    char *raw = zio_read_file(path, &size, err, errlen);
    if (!raw || !zio_is_zstd(raw, size)) {
        if (raw) *len = size;
        return raw;
    }
    size_t pos = 0, used = 0, cap = size * 4 + 64;
    char *text = malloc(cap + 1), *frame = NULL, why[200];
    size_t flen;
    enum zio_frame st = ZIO_FRAME_OK;
    while (text && (st = zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, why,
                                        sizeof why)) == ZIO_FRAME_OK) {
        if (used + flen > ZIO_CONTENT_MAX) {
            free(frame);
            free(raw);
            free(text);
            snprintf(err, errlen, "%s: more than %zu bytes of text once decompressed", path,
                     ZIO_CONTENT_MAX);
            return NULL;
        }
        if (used + flen > cap) {
            cap = (used + flen) * 2;
            char *bigger = realloc(text, cap + 1);
            if (!bigger) {
                free(frame);
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
        }
        memcpy(text + used, frame, flen);
        used += flen;
        free(frame);
    }
    free(raw);
    if (!text) {
        snprintf(err, errlen, "out of memory reading %s", path);
        return NULL;
    }
    if (st != ZIO_FRAME_END) {
        snprintf(err, errlen, "%s: %s", path, why);
        free(text);
        return NULL;
    }
    text[used] = '\0';
    *len = used;
    return text;
}

/* Compresses data into one checksummed zstd frame at the given level in a new buffer. */
void *zio_compress(const void *data, size_t len, int level, size_t *outlen, char *err,
                   size_t errlen) {
    size_t cap = ZSTD_compressBound(len);
    char *dst = malloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    if (!dst || !cc) {
        free(dst);
        ZSTD_freeCCtx(cc);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    size_t n = ZSTD_compress2(cc, dst, cap, data, len);
    ZSTD_freeCCtx(cc);
    if (ZSTD_isError(n)) {
        snprintf(err, errlen, "compression failed: %s", ZSTD_getErrorName(n));
        free(dst);
        return NULL;
    }
    *outlen = n;
    return dst;
}

/* Writes len bytes to fd, retrying short writes; false with a reason in err. */
bool zio_write_all(int fd, const void *data, size_t len, char *err, size_t errlen) {
    const char *p = data;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, p + done, len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            snprintf(err, errlen, "write failed: %s", w < 0 ? strerror(errno) : "no space");
            return false;
        }
        done += (size_t)w;
    }
    return true;
}

/* Compresses data into one checksummed frame and appends it to fd; syncs it if sync is set. */
bool zio_append_frame(int fd, const void *data, size_t len, bool sync, char *err, size_t errlen) {
    size_t n;
    char *dst = zio_compress(data, len, 3, &n, err, errlen);
    if (!dst) return false;
    bool ok = zio_write_all(fd, dst, n, err, errlen);
    free(dst);
    if (ok && sync && fdatasync(fd) != 0) {
        snprintf(err, errlen, "sync failed: %s", strerror(errno));
        return false;
    }
    return ok;
}

/* Calls fn for each whole frame of buf[*pos..len) in order; see zio.h for what it returns. */
enum zio_frame zio_scan_frames(const uint8_t *buf, size_t len, size_t *pos, zio_frame_fn fn,
                               void *ctx, char *err, size_t errlen) {
    enum zio_frame st;
    char *frame;
    size_t flen;
    for (;;) {
        size_t start = *pos;
        st = zio_next_frame(buf, len, pos, &frame, &flen, err, errlen);
        if (st != ZIO_FRAME_OK) return st;
        bool go_on = fn(frame, flen, start, *pos == len, ctx);
        free(frame);
        if (!go_on) return ZIO_FRAME_OK;
    }
}

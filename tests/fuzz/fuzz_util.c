/* Helpers shared by the fuzz targets: in-memory files, zstd wrapping, stopping on a break. */
#define _GNU_SOURCE /* memfd_create */
#include "fuzz_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "book/zio.h"

static int files[FUZZ_FILES] = {-1, -1, -1, -1};
static char paths[FUZZ_FILES][64];

/* Stops the run: a property of a reader was broken (what says which). */
_Noreturn void fuzz_broken(const char *what) {
    fprintf(stderr, "fuzz: broken: %s\n", what);
    abort();
}

/* Returns the descriptor of in-memory file number slot (created empty if new). */
int fuzz_file_fd(int slot) {
    if (files[slot] < 0) {
        files[slot] = memfd_create("hnefi-fuzz", 0);
        if (files[slot] < 0) fuzz_broken("memfd_create failed");
        snprintf(paths[slot], sizeof paths[slot], "/proc/self/fd/%d", files[slot]);
    }
    return files[slot];
}

/* Writes len bytes to in-memory file number slot and returns its path. */
const char *fuzz_file(int slot, const void *data, size_t len) {
    int fd = fuzz_file_fd(slot);
    if (ftruncate(fd, 0) != 0 || (len && pwrite(fd, data, len, 0) != (ssize_t)len))
        fuzz_broken("cannot write the in-memory file");
    lseek(fd, 0, SEEK_SET);
    return paths[slot];
}

/* Wraps data in checksummed zstd frames, one per line or one in all. */
uint8_t *fuzz_zstd(const uint8_t *data, size_t len, bool by_line, size_t *outlen) {
    size_t cap = len + 64, used = 0;
    uint8_t *out = malloc(cap);
    char err[200];
    for (size_t i = 0; out && (i < len || (i == 0 && len == 0));) {
        const uint8_t *nl = by_line ? memchr(data + i, '\n', len - i) : NULL;
        size_t n = nl ? (size_t)(nl - (data + i)) + 1 : len - i, flen;
        uint8_t *f = zio_compress(data + i, n, 1, &flen, err, sizeof err);
        if (!f) {
            free(out);
            return NULL;
        }
        if (used + flen > cap) {
            cap = (used + flen) * 2;
            uint8_t *bigger = realloc(out, cap);
            if (!bigger) {
                free(f);
                free(out);
                return NULL;
            }
            out = bigger;
        }
        memcpy(out + used, f, flen);
        used += flen;
        free(f);
        i += n;
        if (n == 0) break;
    }
    *outlen = used;
    return out;
}

/* Sends everything written to stdout to /dev/null from now on. */
void fuzz_quiet_stdout(void) {
    static bool done;
    if (done) return;
    fflush(stdout);
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, 1);
        close(fd);
    }
    done = true;
}

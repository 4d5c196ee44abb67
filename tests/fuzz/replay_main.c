/*
 * Replays fuzz inputs through a target without libFuzzer: every file named on the command line,
 * or held in a directory named there, is passed to LLVMFuzzerTestOneInput once. A broken
 * property aborts (the test fails); so does an empty set of inputs, so a lost directory is seen.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

/* Replays one file; returns 1 if it was read. */
static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t cap = 1 << 16, len = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger) break;
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf) return 0;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 1;
}

/* Replays the files and directories named in argv; fails if none was read. */
int main(int argc, char **argv) {
    int count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            count += replay_file(argv[i]);
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[i], &names, NULL, alphasort);
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            if (names[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                fprintf(stderr, "replay %s\n", path);
                count += replay_file(path);
            }
            free(names[k]);
        }
        free(names);
    }
    fprintf(stderr, "%d inputs replayed\n", count);
    return count > 0 ? 0 : 1;
}

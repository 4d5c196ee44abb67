/* Loads plain and zstd-compressed test data files. */
#include "data_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Reads a whole file; returns NULL on failure. */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}

/* Reads tests/data/<name> (a .zst file is decompressed); returns NULL after printing why. */
char *data_file_read(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HNEFI_TEST_DATA, name);
    size_t raw_len = 0;
    char *raw = slurp(path, &raw_len);
    if (!raw) {
        fprintf(stderr, "cannot read %s\n", path);
        return NULL;
    }
    size_t nlen = strlen(name);
    if (nlen < 4 || strcmp(name + nlen - 4, ".zst") != 0) {
        *len = raw_len;
        return raw;
    }
    unsigned long long size = ZSTD_getFrameContentSize(raw, raw_len);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1u << 30)) {
        fprintf(stderr, "%s: not a zstd frame with a known size\n", path);
        free(raw);
        return NULL;
    }
    char *out = malloc((size_t)size + 1);
    size_t got = out ? ZSTD_decompress(out, (size_t)size, raw, raw_len) : 0;
    free(raw);
    if (!out || ZSTD_isError(got) || got != size) {
        fprintf(stderr, "%s: zstd decompression failed\n", path);
        free(out);
        return NULL;
    }
    out[size] = 0;
    *len = (size_t)size;
    return out;
}

/* Copies the rules string of OpenTafl variant number n into out; false after printing why. */
bool data_opentafl_rules(int n, char *out, size_t outlen) {
    size_t len;
    char *text = data_file_read("opentafl-variants.tsv", &len);
    bool ok = false;
    for (char *save = NULL, *l = text ? strtok_r(text, "\n", &save) : NULL; l && !ok;
         l = strtok_r(NULL, "\n", &save)) {
        char *rules = strchr(l, '\t');
        if (l[0] == '#' || !rules || atoi(l) != n) continue;
        rules[1 + strcspn(rules + 1, "\r")] = '\0';
        ok = strlen(rules + 1) < outlen;
        if (ok) memcpy(out, rules + 1, strlen(rules + 1) + 1);
    }
    if (!ok)
        fprintf(stderr, "    OpenTafl variant %d: not in opentafl-variants.tsv, or too long\n", n);
    free(text);
    return ok;
}

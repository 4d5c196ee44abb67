/*
 * Helpers shared by the self-play tests: a scratch directory, running a command with its output
 * captured, and a record file's lines in sorted order (to compare two runs' records regardless of
 * the order in which their games finished).
 */
#ifndef HNEFI_TESTS_SELFPLAY_UTIL_H
#define HNEFI_TESTS_SELFPLAY_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "book/zio.h"

/* Makes a scratch directory named after the test in dir (64 bytes); false on failure. */
static inline bool scratch_make(char *dir, const char *test) {
    snprintf(dir, 64, "/tmp/hnefi-%s-XXXXXX", test);
    return mkdtemp(dir) != NULL;
}

/* Removes the scratch directory and everything in it. */
static inline void scratch_remove(const char *dir) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* Runs a shell command; returns its exit status and its output (stdout and stderr). */
static inline int run_command(const char *cmd, char *out, size_t outlen) {
    char full[2048];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *f = popen(full, "r");
    if (!f) return -1;
    size_t n = fread(out, 1, outlen - 1, f);
    out[n] = '\0';
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Orders two lines for qsort. */
static inline int compare_lines(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Returns a file's game lines (decompressed if zstd; comment lines left out) sorted, in one new
 * string; NULL if unreadable.
 */
static inline char *sorted_lines(const char *path) {
    char err[300];
    size_t len;
    char *text = zio_read_text(path, &len, err, sizeof err);
    if (!text) return NULL;
    char **lines = malloc((len + 1) * sizeof *lines), *out = calloc(len + 2, 1);
    size_t k = 0, used = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (l[0] != '#') lines[k++] = l; /* the games only, not the settings line */
    qsort(lines, k, sizeof *lines, compare_lines);
    for (size_t i = 0; i < k; i++) used += (size_t)sprintf(out + used, "%s\n", lines[i]);
    free(lines);
    free(text);
    return out;
}

#endif

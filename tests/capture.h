/*
 * Runs a command's entry point in-process with its stdout and stderr captured, for tests of
 * command-line front ends (hnefi mc, hnefi mc raid). The outputs are NUL-terminated and cut to
 * the buffers' sizes.
 */
#ifndef HNEFI_TESTS_CAPTURE_H
#define HNEFI_TESTS_CAPTURE_H

#include <stdio.h>
#include <unistd.h>

/* Reads a whole temporary file into buf (n bytes, NUL-terminated). */
static inline void capture_slurp(FILE *f, char *buf, size_t n) {
    fflush(f);
    rewind(f);
    size_t k = fread(buf, 1, n - 1, f);
    buf[k] = '\0';
}

/* Calls fn(argc, argv) with stdout and stderr going to out and err; returns fn's result. */
static inline int capture_call(int (*fn)(int, char **), int argc, char **argv, char *out,
                               size_t outn, char *err, size_t errn) {
    fflush(stdout);
    fflush(stderr);
    FILE *fo = tmpfile(), *fe = tmpfile();
    int so = dup(1), se = dup(2);
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    int rc = fn(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    capture_slurp(fo, out, outn);
    capture_slurp(fe, err, errn);
    fclose(fo);
    fclose(fe);
    return rc;
}

#endif

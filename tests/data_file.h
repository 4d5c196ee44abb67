/*
 * Test data loading: reads a file from tests/data/ into memory, decompressing it when its name
 * ends in .zst. The buffer is NUL-terminated and owned by the caller (free()).
 */
#ifndef HNEFI_TESTS_DATA_FILE_H
#define HNEFI_TESTS_DATA_FILE_H

#include <stddef.h>

/* Reads tests/data/<name> (a .zst file is decompressed); returns NULL after printing why. */
char *data_file_read(const char *name, size_t *len);

#endif

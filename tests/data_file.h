/*
 * Test data loading: reads a file from tests/data/ into memory, decompressing it when its name
 * ends in .zst. The buffer is NUL-terminated and owned by the caller (free()). Also picks one
 * OpenTafl rules string out of the variants' table.
 */
#ifndef HNEFI_TESTS_DATA_FILE_H
#define HNEFI_TESTS_DATA_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Reads tests/data/<name> (a .zst file is decompressed); returns NULL after printing why. */
char *data_file_read(const char *name, size_t *len);

/* Copies the rules string of OpenTafl variant number n (tests/data/opentafl-variants.tsv, as the
   host sends it) into out; false after printing why if it is missing or too long. */
bool data_opentafl_rules(int n, char *out, size_t outlen);

#endif

/*
 * A variant's rules as text: the option names of docs/rules.md (rules.md §3) with their values,
 * read one at a time and written all together.
 *
 * The written form is one "key value" line per option after the name, size and start position
 * (as a FEN); book files store it as their rule set, so the lines and their order are part of
 * the book format (docs/book.md). It lives apart from engine/variant.h because the start line
 * is written in notation, which sits above the variant data.
 */
#ifndef HNEFI_ENGINE_VARIANT_TEXT_H
#define HNEFI_ENGINE_VARIANT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/variant.h"

/* Sets one option by its rules.md name ("repetition", "king_capture", ...) from text. */
bool variant_set_option(struct variant *v, const char *key, const char *value, char *err,
                        size_t errlen);

/* Writes the name, size, start and every option of v as "key value" lines; returns the length or
   -1 if it did not fit. */
int variant_describe(const struct variant *v, char *out, size_t outlen);

#endif

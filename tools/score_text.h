/*
 * Scores in words for people: "defenders +0.45", or, for a forced result, how the game ends
 * ("attackers capture the king in 5 plies"). Shared by hnefi analyze and the OpenTafl status
 * line.
 */
#ifndef HNEFI_TOOLS_SCORE_TEXT_H
#define HNEFI_TOOLS_SCORE_TEXT_H

#include <stddef.h>

#include "search/search.h"

/* Writes the score of line l, searched from the current position of game, for people. */
void score_text_human(const struct tafl_game *game, const struct search_line *l, char *out,
                      size_t len);

#endif

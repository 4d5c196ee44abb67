/*
 * SVG board pictures: a tafl position with a line of moves drawn as numbered arrows (attackers'
 * moves dark red, defenders' moves blue), for players who want to read an analysis at a glance.
 *
 * Below the board come the title and the whole line as text ("1.f2i2 2.f4b4 ..."), both wrapped
 * to the board's width, so a 7x7 board's picture shows them as well as an 11x11 one's. Only the
 * first `arrows` moves get arrows (more would cover the board); the text then says how many. Each
 * arrow's number sits in a small disc beside its arrow, moved along the arrow where it would
 * cover an earlier number (a line that repeats a move puts two arrows on one path).
 */
#ifndef HNEFI_TOOLS_SVG_H
#define HNEFI_TOOLS_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/position.h"

enum {
    SVG_CELL = 48,         /* a square's side, in SVG units */
    SVG_MARGIN = 28,       /* the frame around the board (coordinates live in it) */
    SVG_LABEL_R = 10,      /* radius of an arrow's number disc */
    SVG_TITLE_FONT = 14,   /* font size of the title */
    SVG_LINE_FONT = 12,    /* font size of the line's text */
    SVG_DEFAULT_ARROWS = 8 /* arrows drawn by hnefi analyze */
};

/* Returns how many characters of text in a font of that size fit on one line of the picture. */
int svg_text_columns(int board_size, int font_size);

/*
 * Writes p with the moves of line (n of them, played from p) as an SVG document to out: arrows
 * for the first `arrows` moves, the title and the whole line as text. False on a write error.
 */
bool svg_write(FILE *out, const struct position *p, const move_t *line, int n, int arrows,
               const char *title);

#endif

/* Draws a position and a line of moves as SVG. */
#include "tools/svg.h"

#include <math.h>

enum { CELL = 48, MARGIN = 28 };

/* Returns the SVG x coordinate of the centre of a file. */
static double cx(int file) {
    return MARGIN + file * CELL + CELL / 2.0;
}

/* Returns the SVG y coordinate of the centre of a rank (rank 0 at the bottom). */
static double cy(int rank, int size) {
    return MARGIN + (size - 1 - rank) * CELL + CELL / 2.0;
}

/* Escapes a title for XML text. */
static void xml_text(FILE *out, const char *s) {
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else
            fputc(*s, out);
    }
}

/* Writes p with the moves of line (n of them, played from p) as an SVG document to out. */
bool svg_write(FILE *out, const struct position *p, const move_t *line, int n, const char *title) {
    const struct variant *v = p->v;
    int size = v->size, w = 2 * MARGIN + size * CELL, h = w + 30;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
            w, h, w, h);
    fprintf(out, "<defs><marker id=\"ha\" markerWidth=\"6\" markerHeight=\"6\" refX=\"3\" "
                 "refY=\"3\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"#8b1a1a\"/>"
                 "</marker><marker id=\"hd\" markerWidth=\"6\" markerHeight=\"6\" refX=\"3\" "
                 "refY=\"3\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"#1f4fa8\"/>"
                 "</marker></defs>\n");
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#f4ecd8\"/>\n", w, h);
    for (int sq = 0; sq < size * size; sq++) {
        int f = sq % size, r = sq / size;
        const char *fill = sq == v->throne_sq           ? "#c9a66b"
                           : bb_has(v->corner_mask, sq) ? "#c9a66b"
                           : (f + r) % 2                ? "#e8d9b5"
                                                        : "#efe3c6";
        fprintf(out,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                "stroke=\"#8a7a5a\" stroke-width=\"1\"/>\n",
                MARGIN + f * CELL, MARGIN + (size - 1 - r) * CELL, CELL, CELL, fill);
    }
    for (int i = 0; i < size; i++) {
        fprintf(out,
                "<text x=\"%.1f\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">%c</text>\n",
                cx(i), MARGIN + size * CELL + 18, 'a' + i);
        fprintf(out,
                "<text x=\"%d\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">%d</text>\n",
                MARGIN / 2, cy(i, size) + 5, i + 1);
    }
    for (int sq = 0; sq < size * size; sq++) {
        enum piece pc = pos_piece_at(p, sq);
        if (pc == PIECE_NONE) continue;
        double x = cx(sq % size), y = cy(sq / size, size);
        if (pc == PIECE_ATTACKER)
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"17\" fill=\"#2b2b2b\"/>\n", x, y);
        else
            fprintf(out,
                    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"17\" fill=\"#fafafa\" stroke=\"#333\" "
                    "stroke-width=\"2\"/>\n",
                    x, y);
        if (pc == PIECE_KING)
            fprintf(out,
                    "<path d=\"M%.1f,%.1f h16 M%.1f,%.1f v16\" stroke=\"#333\" "
                    "stroke-width=\"3\"/>\n",
                    x - 8, y, x, y - 8);
    }
    /* the line: arrows numbered in order, each drawn from the square it leaves */
    int side = p->side;
    for (int i = 0; i < n; i++, side = !side) {
        int from = move_from(line[i]), to = move_to(line[i]);
        double x1 = cx(from % size), y1 = cy(from / size, size);
        double x2 = cx(to % size), y2 = cy(to / size, size);
        double len = hypot(x2 - x1, y2 - y1);
        double ux = len > 0 ? (x2 - x1) / len : 0, uy = len > 0 ? (y2 - y1) / len : 0;
        const char *col = side == SIDE_ATTACKERS ? "#8b1a1a" : "#1f4fa8";
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"5\" stroke-opacity=\"0.8\" marker-end=\"url(#h%c)\"/>\n",
                x1, y1, x2 - ux * 12, y2 - uy * 12, col, side == SIDE_ATTACKERS ? 'a' : 'd');
        double mx = (x1 + x2) / 2 - uy * 12, my = (y1 + y2) / 2 + ux * 12;
        fprintf(out,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"10\" fill=\"%s\"/><text x=\"%.1f\" "
                "y=\"%.1f\" font-size=\"13\" fill=\"white\" text-anchor=\"middle\">%d</text>\n",
                mx, my, col, mx, my + 4.5, i + 1);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"14\">", MARGIN, h - 8);
    xml_text(out, title ? title : "");
    fprintf(out, "</text>\n</svg>\n");
    return !ferror(out);
}

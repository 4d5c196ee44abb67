/* Draws a position and a line of moves as SVG. */
#include "tools/svg.h"

#include <math.h>
#include <string.h>

#include "engine/notation.h"

enum {
    CELL = SVG_CELL,
    MARGIN = SVG_MARGIN,
    MAX_TEXT_LINES = 40, /* wrapped lines of title and line text at most */
    TEXT_MAX = 4096,
};

/* Returns the SVG x coordinate of the centre of a file. */
static double cx(int file) {
    return MARGIN + file * CELL + CELL / 2.0;
}

/* Returns the SVG y coordinate of the centre of a rank (rank 0 at the bottom). */
static double cy(int rank, int size) {
    return MARGIN + (size - 1 - rank) * CELL + CELL / 2.0;
}

/* Returns how many characters of text in a font of that size fit on one line of the picture. */
int svg_text_columns(int board_size, int font_size) {
    /* sans-serif averages about 0.55 em a character; 0.6 em leaves room for wide ones */
    return (int)((board_size * CELL) / (0.6 * font_size));
}

/* Escapes text for XML. */
static void xml_text(FILE *out, const char *s, size_t len) {
    for (size_t i = 0; i < len && s[i]; i++) {
        if (s[i] == '<')
            fputs("&lt;", out);
        else if (s[i] == '>')
            fputs("&gt;", out);
        else if (s[i] == '&')
            fputs("&amp;", out);
        else
            fputc(s[i], out);
    }
}

/*
 * Splits text into lines of at most cols characters at spaces (a longer word is cut); stores
 * each line's start and length and returns how many (at most max).
 */
static int wrap(const char *text, int cols, const char **start, int *len, int max) {
    int n = 0;
    const char *s = text;
    while (*s == ' ') s++;
    while (*s && n < max) {
        int take = 0, last_space = -1;
        while (s[take] && take < cols) {
            if (s[take] == ' ') last_space = take;
            take++;
        }
        if (s[take] && s[take] != ' ' && last_space > 0) take = last_space; /* break at a space */
        start[n] = s;
        len[n] = take;
        n++;
        s += take;
        while (*s == ' ') s++;
    }
    return n;
}

/* Returns the distance from (x, y) to the nearest of the n discs already placed. */
static double nearest(const double (*placed)[2], int n, double x, double y) {
    double best = 1e9;
    for (int i = 0; i < n; i++) {
        double d = hypot(placed[i][0] - x, placed[i][1] - y);
        if (d < best) best = d;
    }
    return best;
}

/*
 * Places the number disc of an arrow from (x1, y1) to (x2, y2): beside its middle, or, if that
 * covers an earlier disc, at another point along either side of the arrow (the freest one).
 */
static void place_label(const double (*placed)[2], int n, double x1, double y1, double x2,
                        double y2, double out[2]) {
    static const double along[] = {0.5, 0.3, 0.7, 0.15, 0.85};
    double len = hypot(x2 - x1, y2 - y1);
    double ux = len > 0 ? (x2 - x1) / len : 0, uy = len > 0 ? (y2 - y1) / len : 0;
    double best = -1;
    for (int side = 1; side >= -1; side -= 2)
        for (size_t k = 0; k < sizeof along / sizeof along[0]; k++) {
            double x = x1 + (x2 - x1) * along[k] - side * uy * 12;
            double y = y1 + (y2 - y1) * along[k] + side * ux * 12;
            double d = nearest(placed, n, x, y);
            if (d > best) {
                best = d;
                out[0] = x;
                out[1] = y;
            }
            if (d >= 2.0 * SVG_LABEL_R + 1) return;
        }
}

/* Writes the text of a line of moves ("line (arrows ...): 1.f2i2 2.f4b4 ...") into out. */
static void line_text(const move_t *line, int n, int arrows, int size, char *out, size_t outlen) {
    size_t used = 0;
    if (arrows < n)
        used = (size_t)snprintf(out, outlen, "line (arrows for moves 1-%d of %d):", arrows, n);
    else
        used = (size_t)snprintf(out, outlen, "line:");
    for (int i = 0; i < n && used < outlen; i++) {
        char mv[MOVE_TEXT_MAX];
        move_write(line[i], size, mv);
        used += (size_t)snprintf(out + used, outlen - used, " %d.%s", i + 1, mv);
    }
}

/* Writes p with the moves of line as an SVG document: arrows for the first ones, then text. */
bool svg_write(FILE *out, const struct position *p, const move_t *line, int n, int arrows,
               const char *title) {
    const struct variant *v = p->v;
    int size = v->size, w = 2 * MARGIN + size * CELL;
    if (arrows > n) arrows = n;
    if (arrows < 0) arrows = 0;
    /* the text below the board, wrapped to its width */
    static char moves[TEXT_MAX];
    moves[0] = '\0';
    if (n > 0) line_text(line, n, arrows, size, moves, sizeof moves);
    const char *tstart[MAX_TEXT_LINES], *lstart[MAX_TEXT_LINES];
    int tlen[MAX_TEXT_LINES], llen[MAX_TEXT_LINES];
    int nt = wrap(title ? title : "", svg_text_columns(size, SVG_TITLE_FONT), tstart, tlen,
                  MAX_TEXT_LINES / 2);
    int nl = wrap(moves, svg_text_columns(size, SVG_LINE_FONT), lstart, llen, MAX_TEXT_LINES / 2);
    int board_h = 2 * MARGIN + size * CELL, h = board_h + 6 + nt * 18 + nl * 16 + 6;
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
                           : bb_has(v->forts, sq)       ? "#d8c49a"
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
        if (bb_has(p->spec, sq)) /* a commander or a knight: a ring inside */
            fprintf(out,
                    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"%s\" "
                    "stroke-width=\"3\"/>\n",
                    x, y, pc == PIECE_ATTACKER ? "#fafafa" : "#333");
    }
    /* the line: arrows first, each drawn from the square it leaves, then their numbers on top */
    double label[SVG_DEFAULT_ARROWS * 8][2];
    int side = p->side, nlabels = 0;
    if (arrows > (int)(sizeof label / sizeof label[0])) arrows = sizeof label / sizeof label[0];
    for (int i = 0; i < arrows; i++, side = !side) {
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
        place_label((const double(*)[2])label, nlabels, x1, y1, x2, y2, label[nlabels]);
        nlabels++;
    }
    side = p->side;
    for (int i = 0; i < nlabels; i++, side = !side) {
        const char *col = side == SIDE_ATTACKERS ? "#8b1a1a" : "#1f4fa8";
        fprintf(out,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"white\" "
                "stroke-width=\"1\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" "
                "fill=\"white\" text-anchor=\"middle\">%d</text>\n",
                label[i][0], label[i][1], SVG_LABEL_R, col, label[i][0], label[i][1] + 4.5, i + 1);
    }
    /* the title and the line as text */
    int y = board_h + 6;
    for (int i = 0; i < nt; i++) {
        y += 18;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">", MARGIN, y, SVG_TITLE_FONT);
        xml_text(out, tstart[i], (size_t)tlen[i]);
        fprintf(out, "</text>\n");
    }
    for (int i = 0; i < nl; i++) {
        y += 16;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">", MARGIN, y, SVG_LINE_FONT);
        xml_text(out, lstart[i], (size_t)llen[i]);
        fprintf(out, "</text>\n");
    }
    fprintf(out, "</svg>\n");
    return !ferror(out);
}

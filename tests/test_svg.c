/*
 * SVG pictures (tools/svg.c): the caption and the line's text fit the picture on the smallest
 * board, arrows go to the first moves only while the text names every move, and no arrow's
 * number covers another's, even where a line plays the same move twice.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/notation.h"
#include "engine/tafl.h"
#include "tools/svg.h"

/* Writes a picture of the start of variant after nothing, with the moves (text) as its line. */
static char *picture(const char *variant, const char *moves, int arrows, const char *title) {
    const struct variant *v = variant_by_name(variant);
    struct position p;
    pos_init_start(&p, v);
    move_t line[64];
    int n = 0;
    char buf[512], err[200];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *save = NULL, *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        struct move_text mt;
        if (!CHECK(move_text_parse(m, v->size, &mt, err, sizeof err))) return NULL;
        line[n++] = move_make(mt.from, mt.to);
    }
    static char text[1 << 16];
    FILE *f = fmemopen(text, sizeof text, "w");
    CHECK(svg_write(f, &p, line, n, arrows, title));
    fclose(f);
    return text;
}

/* Counts the occurrences of needle in text. */
static int count(const char *text, const char *needle) {
    int n = 0;
    for (const char *s = text; (s = strstr(s, needle)); s += strlen(needle)) n++;
    return n;
}

/*
 * Collects the text lines of one font size: checks each fits the columns, and joins them with
 * spaces into out (so the whole text can be compared with what was asked for).
 */
static bool text_lines(const char *svg, int font, int columns, char *out, size_t outlen) {
    char tag[64];
    snprintf(tag, sizeof tag, "font-size=\"%d\">", font);
    bool fits = true;
    out[0] = '\0';
    for (const char *s = svg; (s = strstr(s, tag)); s += strlen(tag)) {
        const char *t = s + strlen(tag), *e = strstr(t, "</text>");
        if (!e) return false;
        if (e - t > columns) {
            fprintf(stderr, "    line of %d characters, %d fit: %.*s\n", (int)(e - t), columns,
                    (int)(e - t), t);
            fits = false;
        }
        size_t used = strlen(out);
        snprintf(out + used, outlen - used, "%s%.*s", used ? " " : "", (int)(e - t), t);
    }
    return fits;
}

/* A long caption and a long line on Brandubh's small board are wrapped, not cut off. */
static void test_wrapping(void) {
    const char *title = "brandubh, attackers to move: defenders escape in 11 plies (depth 12)";
    const char *moves = "d6e6 c4c5 d2c2 d5g5 f4f3 e4e2 b4b5 c5c7 c2c4 d4d5 c4f4 d3e3";
    char *svg = picture("brandubh", moves, SVG_DEFAULT_ARROWS, title);
    if (!svg) return;
    char text[2048];
    CHECK(text_lines(svg, SVG_TITLE_FONT, svg_text_columns(7, SVG_TITLE_FONT), text, sizeof text));
    CHECK_EQ_STR(text, title);
    CHECK(text_lines(svg, SVG_LINE_FONT, svg_text_columns(7, SVG_LINE_FONT), text, sizeof text));
    CHECK_EQ_STR(text, "line (arrows for moves 1-8 of 12): 1.d6e6 2.c4c5 3.d2c2 4.d5g5 5.f4f3 "
                       "6.e4e2 7.b4b5 8.c5c7 9.c2c4 10.d4d5 11.c4f4 12.d3e3");
    /* eight arrows, and every text line inside the picture's height */
    CHECK_EQ_INT(count(svg, "marker-end="), 8);
    int height = atoi(strstr(svg, "height=\"") + 8), last_y = 0;
    for (const char *s = svg; (s = strstr(s, "<text x=\"28\" y=\"")); s++)
        last_y = atoi(s + strlen("<text x=\"28\" y=\""));
    CHECK(last_y > 7 * SVG_CELL && last_y + 4 <= height);
    /* a line no longer than the arrows says plainly "line:" */
    svg = picture("brandubh", "d6e6 c4c5", SVG_DEFAULT_ARROWS, "short");
    CHECK(svg && strstr(svg, ">line: 1.d6e6 2.c4c5</text>") && count(svg, "marker-end=") == 2);
}

/* Moves that travel the same path (a line that repeats itself) get numbers apart. */
static void test_labels_apart(void) {
    /* attacker b4-b2, defender c4-c2, back, and again: moves 1, 5 and 3, 7 share paths */
    char *svg = picture("brandubh", "b4b2 c4c2 b2b4 c2c4 b4b2 c4c2 b2b4 c2c4", 8, "repeats");
    if (!svg) return;
    double at[16][2];
    int n = 0;
    char tag[32];
    snprintf(tag, sizeof tag, "\" r=\"%d\"", SVG_LABEL_R);
    for (const char *s = svg; (s = strstr(s, "<circle cx=\"")) && n < 16; s++) {
        double x, y;
        int r;
        if (sscanf(s, "<circle cx=\"%lf\" cy=\"%lf\" r=\"%d\"", &x, &y, &r) == 3 &&
            r == SVG_LABEL_R) {
            at[n][0] = x;
            at[n][1] = y;
            n++;
        }
    }
    CHECK_EQ_INT(n, 8);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            double d = hypot(at[i][0] - at[j][0], at[i][1] - at[j][1]);
            if (!CHECK(d >= 2 * SVG_LABEL_R))
                fprintf(stderr, "    numbers %d and %d are %.1f apart\n", j + 1, i + 1, d);
        }
}

/* Runs the SVG tests. */
int main(void) {
    test_wrapping();
    test_labels_apart();
    return check_done();
}

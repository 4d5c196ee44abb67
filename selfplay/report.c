/* The SVG match report: score, Elo with its interval, and LLR against games played. */
#include "selfplay/report.h"

#include <math.h>
#include <string.h>

enum { WIDTH = 760, PANEL_H = 190, LEFT = 70, RIGHT = 20, TOP = 40, GAP = 40, MAX_POINTS = 1000 };

/* One panel's frame: where it is and the ranges it shows. */
struct panel {
    double y0; /* top in SVG units */
    double xmax, lo, hi;
};

/* Maps a games count to x. */
static double px(const struct panel *p, double games) {
    return LEFT + (WIDTH - LEFT - RIGHT) * (p->xmax > 0 ? games / p->xmax : 0);
}

/* Maps a value to y, clipped to the panel. */
static double py(const struct panel *p, double v) {
    if (!(v == v)) v = p->lo;
    if (v < p->lo) v = p->lo;
    if (v > p->hi) v = p->hi;
    return p->y0 + PANEL_H * (1 - (v - p->lo) / (p->hi - p->lo));
}

/* Draws a panel's box, its name, its y labels (with that many decimals) and x labels. */
static void frame(FILE *out, const struct panel *p, const char *name, int decimals) {
    fprintf(out,
            "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#fbfaf6\" "
            "stroke=\"#999\"/>\n",
            LEFT, p->y0, WIDTH - LEFT - RIGHT, PANEL_H);
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">%s</text>\n",
            LEFT, p->y0 - 6, name);
    for (int k = 0; k <= 4; k++) {
        double v = p->lo + (p->hi - p->lo) * k / 4.0;
        char label[32];
        snprintf(label, sizeof label, "%.*f", decimals, v);
        fprintf(out,
                "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n"
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e0d4\"/>\n",
                LEFT - 6, py(p, v) + 4, label, LEFT, py(p, v), WIDTH - RIGHT, py(p, v));
    }
    for (int k = 0; k <= 4; k++) {
        double g = p->xmax * k / 4.0;
        fprintf(out,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%.0f</text>\n",
                px(p, g), p->y0 + PANEL_H + 14, g);
    }
}

/* Draws a horizontal reference line at v. */
static void hline(FILE *out, const struct panel *p, double v, const char *colour) {
    fprintf(out,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-dasharray=\"6,4\"/>\n",
            LEFT, py(p, v), WIDTH - RIGHT, py(p, v), colour);
}

/* Draws the series value(i) as a polyline over the thinned points. */
static void series(FILE *out, const struct panel *p, const struct match_point *pts, int64_t n,
                   int64_t step, int which, const char *colour) {
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"", colour);
    for (int64_t i = 0; i < n; i += step) {
        const struct match_point *q = &pts[i == 0 || i + step < n ? i : n - 1];
        double v = which == 0 ? 100 * q->score : which == 1 ? q->elo : q->llr;
        fprintf(out, "%.1f,%.1f ", px(p, (double)q->games), py(p, v));
        if (i + step >= n && i != n - 1) {
            q = &pts[n - 1];
            v = which == 0 ? 100 * q->score : which == 1 ? q->elo : q->llr;
            fprintf(out, "%.1f,%.1f ", px(p, (double)q->games), py(p, v));
        }
    }
    fprintf(out, "\"/>\n");
}

/* Writes the report of a history (sprt NULL: no SPRT bounds) under a plain-text title. */
bool report_write_svg(FILE *out, const struct match_point *pts, int64_t n, const struct sprt *sprt,
                      const char *title) {
    int height = TOP + 3 * (PANEL_H + GAP) + 10;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"%d\" y=\"22\" "
            "font-size=\"15\">",
            WIDTH, height, WIDTH, height, WIDTH, height, LEFT);
    for (const char *c = title; *c; c++) fputc(strchr("<>&", *c) ? ' ' : *c, out); /* no markup */
    fprintf(out, "</text>\n");
    double xmax = n > 0 ? (double)pts[n - 1].games : 2;
    int64_t step = n > MAX_POINTS ? n / MAX_POINTS : 1;
    /* the score panel */
    struct panel s = {TOP, xmax, 0, 100};
    frame(out, &s, "score of the first player (%)", 0);
    hline(out, &s, 50, "#888");
    if (n > 0) series(out, &s, pts, n, step, 0, "#1f4fa8");
    /* the Elo panel: range from the last nine tenths, clipped to +-800 */
    struct panel e = {TOP + PANEL_H + GAP, xmax, -10, 10};
    for (int64_t i = n / 10; i < n; i++) {
        double lo = pts[i].elo_lo, hi = pts[i].elo_hi;
        if (isfinite(lo) && lo < e.lo) e.lo = lo;
        if (isfinite(hi) && hi > e.hi) e.hi = hi;
    }
    if (e.lo < -800) e.lo = -800;
    if (e.hi > 800) e.hi = 800;
    frame(out, &e, "Elo difference with its 95% interval", 0);
    if (n > 0) {
        fprintf(out, "<polygon fill=\"#c9d8f2\" stroke=\"none\" points=\"");
        for (int64_t i = 0; i < n; i += step)
            fprintf(out, "%.1f,%.1f ", px(&e, (double)pts[i].games), py(&e, pts[i].elo_hi));
        fprintf(out, "%.1f,%.1f ", px(&e, (double)pts[n - 1].games), py(&e, pts[n - 1].elo_hi));
        fprintf(out, "%.1f,%.1f ", px(&e, (double)pts[n - 1].games), py(&e, pts[n - 1].elo_lo));
        for (int64_t i = (n - 1) / step * step; i >= 0; i -= step)
            fprintf(out, "%.1f,%.1f ", px(&e, (double)pts[i].games), py(&e, pts[i].elo_lo));
        fprintf(out, "\"/>\n");
        hline(out, &e, 0, "#888");
        series(out, &e, pts, n, step, 1, "#1f4fa8");
    }
    /* the LLR panel */
    struct panel l = {TOP + 2 * (PANEL_H + GAP), xmax, -3, 3};
    if (sprt) {
        l.lo = sprt->lower * 1.15;
        l.hi = sprt->upper * 1.15;
    }
    for (int64_t i = 0; i < n; i++) {
        if (pts[i].llr < l.lo) l.lo = pts[i].llr;
        if (pts[i].llr > l.hi) l.hi = pts[i].llr;
    }
    frame(out, &l, sprt ? "log-likelihood ratio and the SPRT bounds" : "log-likelihood ratio", 2);
    if (sprt) {
        hline(out, &l, sprt->lower, "#8b1a1a");
        hline(out, &l, sprt->upper, "#2a7a2a");
    }
    if (n > 0) series(out, &l, pts, n, step, 2, "#1f4fa8");
    fprintf(out, "</svg>\n");
    return !ferror(out);
}

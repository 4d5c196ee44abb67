/* The SVG match report: score, Elo with its interval, and LLR against games played. */
#include "tools/report.h"

#include <math.h>
#include <stdlib.h>

#include "tools/chart.h"

enum { TOP = 40, GAP = 40, MAX_POINTS = 1000 };

/* Writes the report of a history (sprt NULL: no SPRT bounds) under a plain-text title. */
bool report_write_svg(FILE *out, const struct match_point *pts, int64_t n, const struct sprt *sprt,
                      const char *title) {
    int height = TOP + 3 * (CHART_PANEL_H + GAP) + 10;
    chart_begin(out, height, title);
    /* long histories are thinned to about MAX_POINTS points, the last one always kept */
    int64_t step = n > MAX_POINTS ? (n + MAX_POINTS - 1) / MAX_POINTS : 1;
    int m = 0;
    size_t cap = (size_t)MAX_POINTS + 2;
    double *buf = malloc(6 * cap * sizeof *buf);
    if (!buf) return false;
    double *x = buf, *score = x + cap, *elo = score + cap, *lo = elo + cap, *hi = lo + cap;
    double *llr = hi + cap;
    for (int64_t i = 0; i < n; i += step) {
        int64_t k = i + step < n ? i : n - 1;
        x[m] = (double)pts[k].games;
        score[m] = 100 * pts[k].score;
        elo[m] = pts[k].elo;
        lo[m] = pts[k].elo_lo;
        hi[m] = pts[k].elo_hi;
        llr[m] = pts[k].llr;
        m++;
    }
    double xmax = n > 0 ? (double)pts[n - 1].games : 2;
    /* the score panel */
    struct chart_panel s = {TOP, 0, xmax, 0, 100};
    chart_frame(out, &s, "score of the first player (%)", 0);
    chart_hline(out, &s, 50, "#888");
    chart_line(out, &s, x, score, m, "#1f4fa8");
    /* the Elo panel: range from the last nine tenths, clipped to +-800 */
    struct chart_panel e = {TOP + CHART_PANEL_H + GAP, 0, xmax, -10, 10};
    for (int64_t i = n / 10; i < n; i++) {
        if (isfinite(pts[i].elo_lo) && pts[i].elo_lo < e.lo) e.lo = pts[i].elo_lo;
        if (isfinite(pts[i].elo_hi) && pts[i].elo_hi > e.hi) e.hi = pts[i].elo_hi;
    }
    if (e.lo < -800) e.lo = -800;
    if (e.hi > 800) e.hi = 800;
    chart_frame(out, &e, "Elo difference with its 95% interval", 0);
    chart_band(out, &e, x, lo, hi, m, "#c9d8f2");
    chart_hline(out, &e, 0, "#888");
    chart_line(out, &e, x, elo, m, "#1f4fa8");
    /* the LLR panel */
    struct chart_panel l = {TOP + 2 * (CHART_PANEL_H + GAP), 0, xmax, -3, 3};
    if (sprt) {
        l.lo = sprt->lower * 1.15;
        l.hi = sprt->upper * 1.15;
    }
    for (int64_t i = 0; i < n; i++) {
        if (pts[i].llr < l.lo) l.lo = pts[i].llr;
        if (pts[i].llr > l.hi) l.hi = pts[i].llr;
    }
    chart_frame(out, &l, sprt ? "log-likelihood ratio and the SPRT bounds" : "log-likelihood ratio",
                2);
    if (sprt) {
        chart_hline(out, &l, sprt->lower, "#8b1a1a");
        chart_hline(out, &l, sprt->upper, "#2a7a2a");
    }
    chart_line(out, &l, x, llr, m, "#1f4fa8");
    free(buf);
    return chart_end(out);
}

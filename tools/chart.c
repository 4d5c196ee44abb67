/* SVG line charts: frames, labels, reference lines, bands, polylines and legends. */
#include "tools/chart.h"

#include <string.h>

/* Maps x to SVG units. */
static double px(const struct chart_panel *p, double x) {
    double span = p->xmax - p->xmin;
    return CHART_LEFT +
           (CHART_WIDTH - CHART_LEFT - CHART_RIGHT) * (span > 0 ? (x - p->xmin) / span : 0);
}

/* Maps a value to y, clipped to the panel. */
static double py(const struct chart_panel *p, double v) {
    if (!(v == v)) v = p->lo;
    if (v < p->lo) v = p->lo;
    if (v > p->hi) v = p->hi;
    return p->y0 + CHART_PANEL_H * (1 - (v - p->lo) / (p->hi - p->lo));
}

/* Starts a picture of the given height with a plain-text title. */
void chart_begin(FILE *out, int height, const char *title) {
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"%d\" y=\"22\" "
            "font-size=\"15\">",
            CHART_WIDTH, height, CHART_WIDTH, height, CHART_WIDTH, height, CHART_LEFT);
    for (const char *c = title; *c; c++) fputc(strchr("<>&", *c) ? ' ' : *c, out); /* no markup */
    fprintf(out, "</text>\n");
}

/* Ends the picture; false if anything failed to write. */
bool chart_end(FILE *out) {
    fprintf(out, "</svg>\n");
    return !ferror(out);
}

/* Draws a panel's box, its name, its y labels (with that many decimals) and x labels. */
void chart_frame(FILE *out, const struct chart_panel *p, const char *name, int decimals) {
    fprintf(out,
            "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#fbfaf6\" "
            "stroke=\"#999\"/>\n",
            CHART_LEFT, p->y0, CHART_WIDTH - CHART_LEFT - CHART_RIGHT, CHART_PANEL_H);
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">%s</text>\n",
            CHART_LEFT, p->y0 - 6, name);
    for (int k = 0; k <= 4; k++) {
        double v = p->lo + (p->hi - p->lo) * k / 4.0;
        char label[32];
        snprintf(label, sizeof label, "%.*f", decimals, v);
        fprintf(out,
                "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n"
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e0d4\"/>\n",
                CHART_LEFT - 6, py(p, v) + 4, label, CHART_LEFT, py(p, v),
                CHART_WIDTH - CHART_RIGHT, py(p, v));
    }
    for (int k = 0; k <= 4; k++) {
        double x = p->xmin + (p->xmax - p->xmin) * k / 4.0;
        fprintf(out,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%.0f</text>\n",
                px(p, x), p->y0 + CHART_PANEL_H + 14, x);
    }
}

/* Draws a dashed horizontal reference line at v. */
void chart_hline(FILE *out, const struct chart_panel *p, double v, const char *colour) {
    fprintf(out,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-dasharray=\"6,4\"/>\n",
            CHART_LEFT, py(p, v), CHART_WIDTH - CHART_RIGHT, py(p, v), colour);
}

/* Draws the points (x[i], y[i]) as a polyline. */
void chart_line(FILE *out, const struct chart_panel *p, const double *x, const double *y, int n,
                const char *colour) {
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"", colour);
    for (int i = 0; i < n; i++) fprintf(out, "%.1f,%.1f ", px(p, x[i]), py(p, y[i]));
    fprintf(out, "\"/>\n");
}

/* Draws the band between lo[i] and hi[i] over x[i]. */
void chart_band(FILE *out, const struct chart_panel *p, const double *x, const double *lo,
                const double *hi, int n, const char *colour) {
    fprintf(out, "<polygon fill=\"%s\" stroke=\"none\" points=\"", colour);
    for (int i = 0; i < n; i++) fprintf(out, "%.1f,%.1f ", px(p, x[i]), py(p, hi[i]));
    for (int i = n - 1; i >= 0; i--) fprintf(out, "%.1f,%.1f ", px(p, x[i]), py(p, lo[i]));
    fprintf(out, "\"/>\n");
}

/* Draws a legend entry at row k of the panel's top right. */
void chart_legend(FILE *out, const struct chart_panel *p, int k, const char *text,
                  const char *colour) {
    double x = CHART_WIDTH - CHART_RIGHT - 200, y = p->y0 + 16 + 16 * k;
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>\n",
            x, y - 4, x + 20, y - 4, colour, x + 26, y, text);
}

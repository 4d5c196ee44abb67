/*
 * Line charts as SVG: panels with a frame, axis labels, reference lines, bands and polylines,
 * stacked in one picture. The match report (a match's course) and the training report (losses
 * per epoch) are drawn with it. Values outside a panel's range are clipped to its edge; a
 * non-number is drawn at the bottom.
 */
#ifndef HNEFI_TOOLS_CHART_H
#define HNEFI_TOOLS_CHART_H

#include <stdbool.h>
#include <stdio.h>

enum { CHART_WIDTH = 760, CHART_PANEL_H = 190, CHART_LEFT = 70, CHART_RIGHT = 20 };

/* One panel: where its top is and the ranges it shows. */
struct chart_panel {
    double y0;         /* top in SVG units */
    double xmin, xmax; /* the x range */
    double lo, hi;     /* the y range */
};

/* Starts a picture of the given height with a plain-text title (<, > and & become spaces). */
void chart_begin(FILE *out, int height, const char *title);

/* Ends the picture; false if anything failed to write. */
bool chart_end(FILE *out);

/* Draws a panel's box, its name, y labels (with that many decimals) and five x labels. */
void chart_frame(FILE *out, const struct chart_panel *p, const char *name, int decimals);

/* Draws a dashed horizontal reference line at v. */
void chart_hline(FILE *out, const struct chart_panel *p, double v, const char *colour);

/* Draws the points (x[i], y[i]) as a polyline. */
void chart_line(FILE *out, const struct chart_panel *p, const double *x, const double *y, int n,
                const char *colour);

/* Draws the band between lo[i] and hi[i] over x[i]. */
void chart_band(FILE *out, const struct chart_panel *p, const double *x, const double *lo,
                const double *hi, int n, const char *colour);

/* Draws a legend entry (a short line and its text) at row k of the panel's top right. */
void chart_legend(FILE *out, const struct chart_panel *p, int k, const char *text,
                  const char *colour);

#endif

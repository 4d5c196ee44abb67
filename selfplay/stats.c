/* Elo, LOS and the pentanomial SPRT under the normal approximation (formulas in stats.h). */
#include "selfplay/stats.h"

#include <math.h>
#include <stdio.h>

enum { WDL_VALUES = 3 };

static const double z95 = 1.959963984540054; /* the two-sided 95% normal quantile */

/* Returns the logistic Elo difference of a score in (0, 1); +-HUGE_VAL at 1 and 0. */
double stats_elo(double score) {
    if (score <= 0) return -HUGE_VAL;
    if (score >= 1) return HUGE_VAL;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* Returns the expected score of a logistic Elo difference. */
double stats_score(double elo) {
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Returns the standard normal distribution function at x. */
double stats_phi(double x) {
    return 0.5 * erfc(-x / sqrt(2.0));
}

/* The 95% Wilson score interval of a proportion p seen over n trials (see stats.h). */
void stats_wilson(double p, double n, double *lo, double *hi) {
    if (!(n > 0)) {
        *lo = 0;
        *hi = 1;
        return;
    }
    p = p < 0 ? 0 : p > 1 ? 1 : p;
    double z2 = z95 * z95, d = 1 + z2 / n;
    double centre = (p + z2 / (2 * n)) / d;
    double half = z95 / d * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    /* at p = 0 (1) the bound is 0 (1) exactly; rounding must not put p outside */
    *lo = centre - half < p ? (centre - half > 0 ? centre - half : 0) : p;
    *hi = centre + half > p ? (centre + half < 1 ? centre + half : 1) : p;
}

/* Fills an estimate from k weighted values x[i] with counts n[i] (units = sum of counts). */
static void estimate(const double *x, const double *n, int k, struct stats_estimate *out) {
    double total = 0, sum = 0, sq = 0;
    for (int i = 0; i < k; i++) {
        total += n[i];
        sum += n[i] * x[i];
    }
    out->units = (int64_t)llround(total);
    out->spread = false;
    if (total <= 0) {
        out->score = 0.5;
        out->var = out->se = out->elo = out->elo_lo = out->elo_hi = 0;
        out->los = 0.5;
        return;
    }
    double m = sum / total;
    for (int i = 0; i < k; i++) sq += n[i] * (x[i] - m) * (x[i] - m);
    out->score = m;
    out->var = sq / total;
    out->se = sqrt(out->var / total);
    out->elo = stats_elo(m);
    out->spread = out->var > 0;
    /* no spread: the error is unknown, so is the interval (not zero wide) */
    out->elo_lo = out->spread ? stats_elo(m - z95 * out->se) : -HUGE_VAL;
    out->elo_hi = out->spread ? stats_elo(m + z95 * out->se) : HUGE_VAL;
    if (out->se > 0)
        out->los = stats_phi((m - 0.5) / out->se);
    else
        out->los = m > 0.5 ? 1.0 : m < 0.5 ? 0.0 : 0.5;
}

/* Estimates from pentanomial counts (index = pair points * 2); zero pairs give score 0.5. */
void stats_penta_estimate(const int64_t n[STATS_PENTA], struct stats_estimate *out) {
    double x[STATS_PENTA], c[STATS_PENTA];
    for (int i = 0; i < STATS_PENTA; i++) {
        x[i] = i / 4.0;
        c[i] = (double)n[i];
    }
    estimate(x, c, STATS_PENTA, out);
}

/* Estimates from win, draw and loss counts of single games. */
void stats_wdl_estimate(int64_t wins, int64_t draws, int64_t losses, struct stats_estimate *out) {
    const double x[WDL_VALUES] = {1.0, 0.5, 0.0};
    const double c[WDL_VALUES] = {(double)wins, (double)draws, (double)losses};
    estimate(x, c, WDL_VALUES, out);
}

/* Returns how many pairs did not split 1-1 (scored 0, 1/2, 3/2 or 2 points). */
int64_t stats_penta_unsplit(const int64_t n[STATS_PENTA]) {
    return n[0] + n[1] + n[3] + n[4];
}

/* Tells whether the counts say anything on who is stronger: some pair did not split 1-1. */
bool stats_penta_informative(const int64_t n[STATS_PENTA]) {
    return stats_penta_unsplit(n) > 0;
}

/* Returns the pentanomial log-likelihood ratio of elo1 against elo0 (0 when uninformative). */
double stats_penta_llr(const int64_t n[STATS_PENTA], double elo0, double elo1) {
    if (!stats_penta_informative(n)) return 0.0; /* no pairs, or every pair split 1-1 */
    double x[STATS_PENTA], c[STATS_PENTA], total = 0, sum = 0, sq = 0;
    for (int i = 0; i < STATS_PENTA; i++) {
        x[i] = i / 4.0;
        c[i] = n[i] > 0 ? (double)n[i] : 1e-3; /* regularise empty counts */
        total += c[i];
        sum += c[i] * x[i];
    }
    double m = sum / total;
    for (int i = 0; i < STATS_PENTA; i++) sq += c[i] * (x[i] - m) * (x[i] - m);
    double var = sq / total, s0 = stats_score(elo0), s1 = stats_score(elo1);
    return total * (s1 - s0) * (2 * m - s0 - s1) / (2 * var);
}

/* Sets up an SPRT; false with a reason if the settings make no sense (alpha 0, elo1 <= elo0...). */
bool sprt_init(struct sprt *s, double elo0, double elo1, double alpha, double beta, char *err,
               size_t errlen) {
    if (!(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5)) {
        snprintf(err, errlen, "alpha and beta must lie between 0 and 0.5 (got %g and %g)", alpha,
                 beta);
        return false;
    }
    if (!(elo1 > elo0) || !isfinite(elo0) || !isfinite(elo1) || fabs(elo0) > 1000 ||
        fabs(elo1) > 1000) {
        snprintf(err, errlen, "elo1 must be above elo0, both within +-1000 (got %g and %g)", elo0,
                 elo1);
        return false;
    }
    s->elo0 = elo0;
    s->elo1 = elo1;
    s->alpha = alpha;
    s->beta = beta;
    s->lower = log(beta / (1 - alpha));
    s->upper = log((1 - beta) / alpha);
    s->min_pairs = SPRT_MIN_PAIRS;
    return true;
}

/* Decides on an LLR after so many pairs, unsplit of them not split 1-1. */
enum sprt_state sprt_decide(const struct sprt *s, double llr, int64_t pairs, int64_t unsplit) {
    if (pairs < s->min_pairs || unsplit < SPRT_MIN_UNSPLIT) return SPRT_CONTINUE;
    if (llr >= s->upper) return SPRT_H1;
    if (llr <= s->lower) return SPRT_H0;
    return SPRT_CONTINUE;
}

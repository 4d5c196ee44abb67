/*
 * Match statistics against values worked out by hand (the arithmetic is in the comments): Elo
 * and its interval, LOS, the pentanomial LLR and the SPRT's decisions and bounds, the Wilson
 * interval of a proportion.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "selfplay/stats.h"

/* Tells whether a and b agree to within tol. */
static bool near(double a, double b, double tol) {
    return fabs(a - b) <= tol;
}

/* Elo and score convert into each other; 50% is 0 Elo, 0 and 1 are infinite. */
static void test_elo_score(void) {
    CHECK(near(stats_elo(0.5), 0.0, 1e-12));
    /* 0.75: -400 log10(1/0.75 - 1) = -400 log10(1/3) = 190.8485 */
    CHECK(near(stats_elo(0.75), 190.848501887865, 1e-9));
    CHECK(near(stats_score(stats_elo(0.3)), 0.3, 1e-12));
    /* score(10) = 1 / (1 + 10^(-1/40)) = 0.5143872 */
    CHECK(near(stats_score(10), 0.514387184165999, 1e-12));
    CHECK(isinf(stats_elo(1.0)) && stats_elo(1.0) > 0);
    CHECK(isinf(stats_elo(0.0)) && stats_elo(0.0) < 0);
    CHECK(near(stats_phi(0), 0.5, 1e-15));
    CHECK(near(stats_phi(1.959963984540054), 0.975, 1e-12));
}

/*
 * Pairs 1, 2, 3, 2, 2 (10 pairs): mean = (0 + 2*.25 + 3*.5 + 2*.75 + 2*1) / 10 = 0.55;
 * variance = (.3025 + 2*.09 + 3*.0025 + 2*.04 + 2*.2025) / 10 = 0.0975; se = sqrt(.00975) =
 * 0.0987421; Elo(0.55) = 34.860; interval Elo(0.55 -+ 1.959964*0.0987421) = Elo(0.356467) ..
 * Elo(0.743533) = -102.619 .. 184.906; LOS = Phi(0.05 / 0.0987421) = Phi(0.506370) = 0.693701.
 */
static void test_penta_estimate(void) {
    const int64_t n[STATS_PENTA] = {1, 2, 3, 2, 2};
    struct stats_estimate e;
    stats_penta_estimate(n, &e);
    CHECK_EQ_INT(e.units, 10);
    CHECK(near(e.score, 0.55, 1e-12));
    CHECK(near(e.var, 0.0975, 1e-12));
    CHECK(near(e.se, 0.0987420882906575, 1e-12));
    CHECK(near(e.elo, 34.8600702875601, 1e-9));
    CHECK(near(e.elo_lo, -102.619034006907, 1e-8));
    CHECK(near(e.elo_hi, 184.905623156892, 1e-8));
    CHECK(near(e.los, 0.693701423576452, 1e-9));
}

/*
 * Games 6 won, 2 drawn, 2 lost: mean 0.7, variance (6*.09 + 2*.04 + 2*.49) / 10 = 0.16,
 * se = 0.126491; Elo(0.7) = 147.19; interval -33.40 .. 504.03; LOS = Phi(0.2/0.126491) = 0.94308.
 */
static void test_wdl_estimate(void) {
    struct stats_estimate e;
    stats_wdl_estimate(6, 2, 2, &e);
    CHECK_EQ_INT(e.units, 10);
    CHECK(near(e.score, 0.7, 1e-12));
    CHECK(near(e.var, 0.16, 1e-12));
    CHECK(near(e.elo, 147.190714117838, 1e-9));
    CHECK(near(e.elo_lo, -33.3993500016889, 1e-8));
    CHECK(near(e.elo_hi, 504.03329224499, 1e-8));
    CHECK(near(e.los, 0.943076850996671, 1e-9));
}

/* No pairs: a level estimate and a zero LLR, not a division by zero. */
static void test_empty(void) {
    const int64_t n[STATS_PENTA] = {0, 0, 0, 0, 0};
    struct stats_estimate e;
    stats_penta_estimate(n, &e);
    CHECK_EQ_INT(e.units, 0);
    CHECK(near(e.score, 0.5, 0) && near(e.elo, 0, 0) && near(e.los, 0.5, 0));
    CHECK(near(stats_penta_llr(n, 0, 10), 0.0, 0));
    /* all pairs level: zero variance, an LOS of one half */
    const int64_t level[STATS_PENTA] = {0, 0, 7, 0, 0};
    stats_penta_estimate(level, &e);
    CHECK(near(e.se, 0, 0) && near(e.los, 0.5, 0) && near(e.elo, 0, 1e-12));
}

/*
 * Samples without spread: the interval is unbounded, not zero wide. Every pair split 1-1 carries
 * no information on the players: LLR 0 and no decision however many pairs (the regularised
 * formula gave -66 for 20 such pairs with elo0 = 0, elo1 = 5: H0). Every pair won 2-0 still
 * decides for H1.
 */
static void test_no_spread(void) {
    const int64_t split[STATS_PENTA] = {0, 0, 20, 0, 0}, won[STATS_PENTA] = {0, 0, 0, 0, 20},
                  half[STATS_PENTA] = {0, 0, 0, 20, 0}, mixed[STATS_PENTA] = {0, 0, 19, 1, 0};
    struct stats_estimate e;
    stats_penta_estimate(split, &e);
    CHECK(!e.spread && isinf(e.elo_lo) && e.elo_lo < 0 && isinf(e.elo_hi) && e.elo_hi > 0);
    CHECK(near(e.elo, 0, 1e-12));
    CHECK(!stats_penta_informative(split));
    CHECK(near(stats_penta_llr(split, 0, 5), 0.0, 0));
    struct sprt s;
    char err[200];
    CHECK(sprt_init(&s, 0, 5, 0.05, 0.05, err, sizeof err));
    CHECK_EQ_INT(sprt_decide(&s, stats_penta_llr(split, 0, 5), 20, 0), SPRT_CONTINUE);
    stats_penta_estimate(half, &e);
    CHECK(!e.spread && isinf(e.elo_lo) && isinf(e.elo_hi) && stats_penta_informative(half));
    CHECK(stats_penta_llr(won, 0, 5) > s.upper && stats_penta_informative(won));
    CHECK_EQ_INT(sprt_decide(&s, stats_penta_llr(won, 0, 5), 20, 20), SPRT_H1);
    /* one pair that did not split: a spread, a finite interval and an LLR from the formula */
    stats_penta_estimate(mixed, &e);
    CHECK(e.spread && isfinite(e.elo_lo) && isfinite(e.elo_hi) && e.elo_lo < e.elo_hi);
    CHECK(stats_penta_informative(mixed) && stats_penta_llr(mixed, 0, 5) != 0.0);
}

/*
 * LLR = N (s1 - s0)(2m - s0 - s1) / (2 var). For 1, 2, 3, 2, 2 and elo0 = 0, elo1 = 10:
 * s0 = 0.5, s1 = 0.5143872, so 10 * 0.0143872 * (1.1 - 1.0143872) / (2 * 0.0975) = 0.0631655.
 * With empty counts (0, 1, 2, 1, 0) each empty count is 0.001 pair: N = 4.002, the mean is still
 * 0.5, so LLR = 4.002 * 0.0143872 * (1 - 1.0143872) / (2 var) with var = (2*.0625*1 +
 * 2*.25*.001) / 4.002 = 0.031359: -0.0132078.
 */
static void test_llr(void) {
    const int64_t a[STATS_PENTA] = {1, 2, 3, 2, 2}, b[STATS_PENTA] = {0, 1, 2, 1, 0};
    CHECK(near(stats_penta_llr(a, 0, 10), 0.0631655050447953, 1e-12));
    CHECK(near(stats_penta_llr(b, 0, 10), -0.0132078477158475, 1e-12));
    /* lopsided samples: far past the bounds, each in its direction */
    const int64_t win[STATS_PENTA] = {0, 0, 10, 30, 20}, loss[STATS_PENTA] = {20, 30, 10, 0, 0};
    CHECK(near(stats_penta_llr(win, 0, 10), 8.31593740106329, 1e-9));
    CHECK(near(stats_penta_llr(loss, -5, 5), -8.5280080752491, 1e-9));
}

/* The bounds are log(beta/(1-alpha)) and log((1-beta)/alpha); decisions follow them. */
static void test_sprt(void) {
    struct sprt s;
    char err[200];
    CHECK(sprt_init(&s, 0, 10, 0.05, 0.05, err, sizeof err));
    CHECK(near(s.lower, -2.94443897916644, 1e-12));
    CHECK(near(s.upper, 2.94443897916644, 1e-12));
    CHECK_EQ_INT(s.min_pairs, SPRT_MIN_PAIRS);
    CHECK_EQ_INT(sprt_decide(&s, 0.0, 100, SPRT_MIN_UNSPLIT), SPRT_CONTINUE);
    CHECK_EQ_INT(sprt_decide(&s, 2.95, 100, SPRT_MIN_UNSPLIT), SPRT_H1);
    CHECK_EQ_INT(sprt_decide(&s, -2.95, 100, SPRT_MIN_UNSPLIT), SPRT_H0);
    CHECK_EQ_INT(sprt_decide(&s, 2.94, 100, SPRT_MIN_UNSPLIT), SPRT_CONTINUE);
    /* too few pairs for the normal approximation: no decision yet */
    CHECK_EQ_INT(sprt_decide(&s, 9.0, SPRT_MIN_PAIRS - 1, SPRT_MIN_UNSPLIT), SPRT_CONTINUE);
    CHECK_EQ_INT(sprt_decide(&s, -9.0, SPRT_MIN_PAIRS - 1, SPRT_MIN_UNSPLIT), SPRT_CONTINUE);
    CHECK_EQ_INT(sprt_decide(&s, -9.0, SPRT_MIN_PAIRS, SPRT_MIN_UNSPLIT), SPRT_H0);
    /* Brandubh at movetime:100 (docs/selfplay.md): one pair lost and 36 split. The variance rests
     * on one pair: LLR = 37 (0.0215733)(2 (18/37) - 1.0215733) / (2 (0.2432432 / 37)) = -2.9505
     * (the 0.001 pairs of the empty counts move it little), past the lower bound; yet one pair is
     * no sample, so there is no decision until 20 pairs have not split. */
    const int64_t one_lost[STATS_PENTA] = {1, 0, 36, 0, 0}, after[STATS_PENTA] = {10, 0, 36, 0, 10};
    CHECK(sprt_init(&s, 0, 15, 0.05, 0.05, err, sizeof err));
    double llr = stats_penta_llr(one_lost, 0, 15);
    CHECK(llr < s.lower && llr > -3.0);
    CHECK_EQ_INT(stats_penta_unsplit(one_lost), 1);
    CHECK_EQ_INT(sprt_decide(&s, llr, 37, stats_penta_unsplit(one_lost)), SPRT_CONTINUE);
    CHECK_EQ_INT(stats_penta_unsplit(after), 20);
    CHECK_EQ_INT(sprt_decide(&s, -9.0, 56, stats_penta_unsplit(after)), SPRT_H0);
    CHECK_EQ_INT(sprt_decide(&s, -9.0, 56, SPRT_MIN_UNSPLIT - 1), SPRT_CONTINUE);
    /* alpha 0.1, beta 0.2: log(0.2/0.9) = -1.504077, log(0.8/0.1) = 2.079442 */
    CHECK(sprt_init(&s, -3, 3, 0.1, 0.2, err, sizeof err));
    CHECK(near(s.lower, -1.50407739677627, 1e-12));
    CHECK(near(s.upper, 2.07944154167984, 1e-12));
    /* settings that make no sense are refused with a reason */
    CHECK(!sprt_init(&s, 0, 10, 0, 0.05, err, sizeof err) && strstr(err, "alpha"));
    CHECK(!sprt_init(&s, 10, 10, 0.05, 0.05, err, sizeof err) && strstr(err, "elo1"));
    CHECK(!sprt_init(&s, 5, 0, 0.05, 0.05, err, sizeof err));
    CHECK(!sprt_init(&s, 0, 10, 0.05, 0.6, err, sizeof err));
    CHECK(!sprt_init(&s, NAN, 10, 0.05, 0.05, err, sizeof err));
}

/*
 * The Wilson score interval: (p + z^2 / 2n) / (1 + z^2 / n) -+ z / (1 + z^2 / n) sqrt(p (1 - p) / n
 * + z^2 / 4n^2), z = 1.959964. At p = 0.5, n = 100: 0.5 -+ 1.887456 * 0.0509513 = [0.403832,
 * 0.596168]. At p = 0, n = 2 the centre and the half-width are both 0.328810: [0, 0.657620], not
 * the zero-wide [0, 0] of the normal approximation; at p = 1 the mirror image.
 */
static void test_wilson(void) {
    double lo, hi;
    stats_wilson(0.5, 100, &lo, &hi);
    CHECK(near(lo, 0.4038315303659956, 1e-9) && near(hi, 0.5961684696340044, 1e-9));
    stats_wilson(0, 2, &lo, &hi);
    CHECK(lo == 0 && near(hi, 0.6576197724933469, 1e-9));
    stats_wilson(1, 2, &lo, &hi);
    CHECK(near(lo, 0.34238022750665303, 1e-9) && hi == 1);
    stats_wilson(0.2, 10, &lo, &hi); /* the normal approximation: [-0.0479, 0.4479] */
    CHECK(near(lo, 0.05668215145437519, 1e-9) && near(hi, 0.5098375284633583, 1e-9));
    stats_wilson(0.3, 0, &lo, &hi); /* no trials: nothing known */
    CHECK(lo == 0 && hi == 1);
    for (int n = 1; n <= 50; n++)
        for (int k = 0; k <= n; k++) {
            stats_wilson((double)k / n, n, &lo, &hi);
            CHECK(lo >= 0 && hi <= 1 && lo <= (double)k / n && (double)k / n <= hi && hi > lo);
        }
}

/* Runs the statistics tests. */
int main(void) {
    test_elo_score();
    test_penta_estimate();
    test_wdl_estimate();
    test_empty();
    test_no_spread();
    test_llr();
    test_sprt();
    test_wilson();
    return check_done();
}

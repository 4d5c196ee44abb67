/*
 * Match statistics: Elo from a score, its 95% interval, the likelihood of superiority (LOS), and
 * the pentanomial sequential probability ratio test (SPRT) that decides a match early.
 *
 * A match between two players is a list of game pairs: the same opening played twice with the
 * sides swapped. A pair scores 0, 0.5, 1, 1.5 or 2 points for the first player, so the results
 * are five counts (the pentanomial frequencies, index = points * 2). The per-game score of a pair
 * is points / 2, one of 0, 0.25, 0.5, 0.75, 1. Everything below is the normal approximation over
 * pairs, which takes the correlation between the two games of a pair into account:
 *
 *   mean   m  = sum(n_i * x_i) / N            (N pairs, x_i = i / 4)
 *   var    s2 = sum(n_i * (x_i - m)^2) / N    (the variance of one pair's score)
 *   error  se = sqrt(s2 / N)
 *   Elo    = -400 log10(1 / m - 1), interval = Elo(m -+ 1.959964 se)
 *   LOS    = Phi((m - 0.5) / se)              (Phi the standard normal distribution function)
 *   LLR    = N (s1 - s0) (2 m - s0 - s1) / (2 s2)
 *
 * where s0 and s1 are the expected scores of the logistic Elo bounds elo0 and elo1 (score(e) =
 * 1 / (1 + 10^(-e / 400))). For the LLR only, an empty count is taken as 0.001 pair so that the
 * variance is never zero (as fishtest and OpenBench regularise). The SPRT accepts H1 (elo1) when
 * LLR >= log((1 - beta) / alpha) and H0 (elo0) when LLR <= log(beta / (1 - alpha)), once
 * min_pairs pairs are in, SPRT_MIN_UNSPLIT of them pairs that did not split 1-1.
 *
 * The same estimates exist for plain win/draw/loss counts (three values 1, 0.5, 0 per game), for
 * tables of players that meet several opponents.
 *
 * Samples without spread. When every unit scored the same, the variance is zero and the normal
 * approximation has nothing to say about the error: the estimate is marked (spread false) and its
 * interval is unbounded (elo_lo -inf, elo_hi +inf), never the zero-width interval the formula
 * gives. When every pair split 1-1 (each side won its own game, or both were drawn, as in
 * self-play where the side decides), the games carry no information on which player is stronger:
 * the LLR is 0 and the SPRT stays undecided (the regularised formula would leap to a bound set by
 * the 0.001 pairs alone). Every pair won 2-0 (or lost) still counts for its side.
 */
#ifndef HNEFI_SELFPLAY_STATS_H
#define HNEFI_SELFPLAY_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The normal approximation needs a sample: with a handful of pairs, all alike (common in
 * deterministic self-play, where a pair often splits 1-1), the estimated variance is near zero and
 * the LLR leaps past a bound. A match therefore decides no earlier than SPRT_MIN_PAIRS pairs. The
 * same holds when many pairs split and only a few did not (a defenders' game such as Brandubh,
 * where 36 of 37 pairs split and the one lost pair alone drove the LLR to -2.94): the variance
 * then rests on those few, so a decision also waits for SPRT_MIN_UNSPLIT pairs that did not split.
 */
enum { STATS_PENTA = 5, SPRT_MIN_PAIRS = 20, SPRT_MIN_UNSPLIT = 20 };

/* An estimate from counts: mean score, its standard error, Elo with interval, LOS. */
struct stats_estimate {
    int64_t units; /* pairs (pentanomial) or games (win/draw/loss) */
    double score;  /* mean score per game, 0..1 */
    double var;    /* variance of one unit's score */
    double se;     /* standard error of the mean */
    double elo, elo_lo, elo_hi;
    double los;
    bool spread; /* the units' scores differ; false: every unit scored the same (or none) */
};

/* The SPRT's settings and its two bounds on the LLR. */
struct sprt {
    double elo0, elo1, alpha, beta;
    double lower, upper; /* log(beta / (1 - alpha)), log((1 - beta) / alpha) */
    int64_t min_pairs;   /* no decision before this many pairs (SPRT_MIN_PAIRS unless changed) */
};

/* What the SPRT says about an LLR. */
enum sprt_state { SPRT_CONTINUE, SPRT_H0, SPRT_H1 };

/* Returns the logistic Elo difference of a score in (0, 1); +-HUGE_VAL at 1 and 0. */
double stats_elo(double score);

/* Returns the expected score of a logistic Elo difference. */
double stats_score(double elo);

/* Returns the standard normal distribution function at x. */
double stats_phi(double x);

/*
 * The 95% Wilson score interval of a proportion p (a win rate, or a mean share in [0, 1]) seen
 * over n trials: [lo, hi] lies within [0, 1], holds p, and is not zero wide at p = 0 or 1 (where
 * the normal approximation p -+ 1.96 sqrt(p (1 - p) / n) collapses to a point). For a mean of
 * shares between 0 and 1 it is at least as wide as the shares' own spread calls for. With no
 * trials it is [0, 1].
 */
void stats_wilson(double p, double n, double *lo, double *hi);

/* Estimates from pentanomial counts (index = pair points * 2); zero pairs give score 0.5. */
void stats_penta_estimate(const int64_t n[STATS_PENTA], struct stats_estimate *out);

/* Estimates from win, draw and loss counts of single games. */
void stats_wdl_estimate(int64_t wins, int64_t draws, int64_t losses, struct stats_estimate *out);

/* Tells whether pentanomial counts say anything on who is stronger: false with no pairs, or
 * when every pair split 1-1. */
bool stats_penta_informative(const int64_t n[STATS_PENTA]);

/* Returns how many pairs did not split 1-1 (scored 0, 1/2, 3/2 or 2 points). */
int64_t stats_penta_unsplit(const int64_t n[STATS_PENTA]);

/* Returns the pentanomial log-likelihood ratio of elo1 against elo0 (0 with no pairs, and when
 * every pair split 1-1). */
double stats_penta_llr(const int64_t n[STATS_PENTA], double elo0, double elo1);

/* Sets up an SPRT; false with a reason if the settings make no sense (alpha 0, elo1 <= elo0...). */
bool sprt_init(struct sprt *s, double elo0, double elo1, double alpha, double beta, char *err,
               size_t errlen);

/* Decides on an LLR after so many pairs, unsplit of them not split 1-1. */
enum sprt_state sprt_decide(const struct sprt *s, double llr, int64_t pairs, int64_t unsplit);

#endif

/*
 * The exact solver for two-player Saekonungr.
 *
 * With two players the whole game is a finite stochastic game. Coins are conserved, so a
 * position is (player to move, ships mask, longship coins, first player's treasury); the second
 * treasury is the rest. The solver keeps, for every such position, the probability that player 0
 * wins (a) at the start of a turn (T), (b) after paying for a raid, before choosing Viking dice
 * (D), and (c) during a raid with k = 1..3 raid rolls owed (R). Raid-7 collections and the
 * Viking-dice choice are maximised (for the mover) over the current values; chance is averaged.
 * Value iteration (Gauss-Seidel sweeps) runs until no value moves by more than the tolerance.
 * The arrays are read-only after solving, so one solver can serve many threads. The solver
 * is also the Monte-Carlo policy `opt`, which joins search/mc.h's list when registered.
 */
#ifndef HNEFI_SEARCH_SAEK_SOLVER_H
#define HNEFI_SEARCH_SAEK_SOLVER_H

#include "engine/games/saek.h"

typedef struct saek_solver saek_solver;

/* Solves the game with `total` coins in play (two treasuries of total/2 at the start), with or
 * without Viking dice; returns NULL when out of memory or total is out of 2..120. */
saek_solver *saek_solver_solve(int total, int vikingdice, double tolerance);

/* Returns a solver shared by all callers for these settings, solving it on first use. */
const saek_solver *saek_solver_shared(int total, int vikingdice);

/* Frees a solver from saek_solver_solve. */
void saek_solver_free(saek_solver *sv);

/* Sweeps used and the largest change in the last sweep. */
void saek_solver_stats(const saek_solver *sv, int *sweeps, double *last_delta);

/* Probability that player 0 wins from a two-player state the solver covers (total coins and
 * Viking-dice option must match), or -1 when it does not cover it. */
double saek_solver_value(const saek_solver *sv, const saek_state *s);

/* At a decision node, writes each legal action and the mover's win probability after it;
 * returns the count, or -1 when the state is not covered. */
int saek_solver_actions(const saek_solver *sv, const saek_state *s, int *actions, double *value);

/* Makes the Monte-Carlo policy `opt` (the solver's best action, two players only) known to
 * mc_policy_init (search/mc.h); call it once before policies are built. */
void saek_solver_register_policy(void);

#endif

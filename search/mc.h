/*
 * Monte-Carlo playout policies over the generic game interface (engine/game.h).
 *
 * A policy is a small object: the game it plays, the spec it was built from, a data pointer
 * owned by the policy, and three operations: init (mc_policy_init, from a spec such as
 * "random", "heur", "flat:n=200", "ismcts:iters=1000,c=0.7,rollout=heur"), choose (one action
 * for one player at a decision or simultaneous node) and done (frees the data). A policy
 * instance is used by one thread at a time; the harness builds one per thread from the same
 * spec. Every random choice comes from the caller's generator, so a game is reproducible from
 * its seed. Policies that look ahead first determinize the state for the player they act for,
 * so they never see hidden cards.
 *
 * Known policies (mc_policy_help() prints this list with the parameters):
 *   random           uniformly random legal action;
 *   heur             the game's hand-written heuristic (random where the game has none);
 *   flat             flat Monte-Carlo: n playouts per action, the best mean win share wins;
 *   ismcts (or uct)  information-set MCTS with determinization, UCB1 selection with constant
 *                    c, decoupled UCB at simultaneous nodes, iters iterations per decision.
 * flat and ismcts take rollout=random|heur for their playouts. These know no game. A policy that
 * belongs to one game (an exact solver, such as Saekonungr's `opt` in search/saek_solver.h)
 * describes itself in a struct mc_policy_kind and joins with mc_policy_register.
 */
#ifndef HNEFI_SEARCH_MC_H
#define HNEFI_SEARCH_MC_H

#include <stddef.h>

#include "engine/game.h"

typedef struct mc_policy mc_policy;
typedef struct mc_policy_kind mc_policy_kind;

struct mc_policy {
    const game_def *game;       /* the game played */
    const mc_policy_kind *kind; /* a registered game's own policy, or NULL for the generic ones */
    char spec[128];             /* the spec it was built from */
    void *data;                 /* owned by the policy; freed by done */
    /* Returns the chosen action for `player` in `st`. */
    int (*choose)(mc_policy *p, const void *st, int player, game_rng *rng);
    /* Estimates each legal action of `player`: writes actions, mean win share (or -1 when
     * unknown) and sample counts; returns the count. NULL when the policy cannot estimate. */
    int (*analyze)(mc_policy *p, const void *st, int player, game_rng *rng, int *actions,
                   double *value, int *samples);
    /* Frees the data. */
    void (*done)(mc_policy *p);
};

/* A policy that plays one game only (an exact solver, say), made known by mc_policy_register. */
struct mc_policy_kind {
    const char *name;     /* its name in a spec, e.g. "opt" */
    const game_def *game; /* the one game it plays */
    const char *help;     /* its line in mc_policy_help, after the name */
    /* Fills p's choose, analyze, data and done from the spec's parameters (NULL: none); 0, or
     * -1 with a message. */
    int (*init)(mc_policy *p, const char *params, char *err, size_t errlen);
    /* Checks that it can play a game of that many players; 0, or -1 with a message. NULL: any. */
    int (*check_players)(int players, char *err, size_t errlen);
};

/* Makes a game's own policy known to mc_policy_init (a second call with it is a no-op); 0, or -1
 * when the list is full. Call it before threads start building policies. */
int mc_policy_register(const mc_policy_kind *k);

/* Builds a policy from a spec for a game; 0, or -1 with a message naming the bad part. */
int mc_policy_init(mc_policy *p, const game_def *g, const char *spec, char *err, size_t errlen);

/* Returns the policy's action for `player` at a decision or simultaneous node. */
int mc_choose(mc_policy *p, const void *st, int player, game_rng *rng);

/* Estimates every legal action of `player` (see mc_policy.analyze); -1 if unsupported. */
int mc_analyze(mc_policy *p, const void *st, int player, game_rng *rng, int *actions, double *value,
               int *samples);

/* Checks that a policy can play a game of that many players (a game's own policy may ask for a
 * count); 0, or -1 with a message. */
int mc_policy_check_players(const mc_policy *p, int players, char *err, size_t errlen);

/* Frees a policy's data. */
void mc_policy_done(mc_policy *p);

/* Plays one full step with policies per seat (chance drawn, decisions and simultaneous moves
 * asked of the seat's policy); returns 0, or 1 at a terminal node. */
int mc_step(mc_policy *const *seat_policy, const game_def *g, void *st, game_rng *rng);

/* Plays to the end (heuristic: follow the game's heuristic, else uniformly random); writes win
 * shares. */
void mc_rollout(const game_def *g, void *st, int heuristic, game_rng *rng, double *share);

/* Returns the list of policies (the registered ones included) and their parameters. */
const char *mc_policy_help(void);

/* Returns the action with the best value (the first on ties), for policies that value actions. */
int mc_best_of(const int *acts, const double *value, int n);

#endif

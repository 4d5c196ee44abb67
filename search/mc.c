/* Monte-Carlo policies: random, heuristic, flat Monte-Carlo, ISMCTS, and the games' own ones. */
#include "search/mc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parameters of the look-ahead policies. */
typedef struct mc_params {
    int n;         /* flat: playouts per action */
    int iters;     /* ismcts: iterations per decision */
    double c;      /* ismcts: exploration constant */
    int heuristic; /* rollouts follow the game's heuristic */
} mc_params;

/* Returns the action a rollout takes at a decision node. */
static int mc_rollout_action(const game_def *g, const void *st, int player, int heuristic,
                             game_rng *rng) {
    int acts[GAME_MAX_ACTIONS];
    int n = g->legal(st, player, acts);
    if (n <= 0) return GAME_NO_ACTION;
    if (heuristic && g->heuristic) return acts[g->heuristic(st, player, acts, n, rng)];
    return acts[rng_below(rng, (uint32_t)n)];
}

/* Plays to the end with a rollout policy; writes win shares. */
void mc_rollout(const game_def *g, void *st, int heuristic, game_rng *rng, double *share) {
    if (!heuristic && g->playout) {
        g->playout(st, rng);
    } else if (!heuristic) {
        game_playout_random(g, st, rng);
    } else {
        for (;;) {
            int kind = g->node(st);
            if (kind == GAME_NODE_TERMINAL) break;
            if (kind == GAME_NODE_CHANCE) {
                g->apply(st, game_sample_chance(g, st, rng));
            } else if (kind == GAME_NODE_DECISION) {
                g->apply(st, mc_rollout_action(g, st, g->to_move(st), 1, rng));
            } else {
                int joint[GAME_MAX_PLAYERS];
                for (int p = 0; p < g->players(st); p++)
                    joint[p] = mc_rollout_action(g, st, p, 1, rng);
                g->apply_joint(st, joint);
            }
        }
    }
    g->result(st, share);
}

/* random: a uniformly random legal action. */
static int mc_random_choose(mc_policy *p, const void *st, int player, game_rng *rng) {
    return mc_rollout_action(p->game, st, player, 0, rng);
}

/* heur: the game's heuristic. */
static int mc_heur_choose(mc_policy *p, const void *st, int player, game_rng *rng) {
    return mc_rollout_action(p->game, st, player, 1, rng);
}

/* Applies `action` for `player` at st (completing a simultaneous node with rollout choices). */
static void mc_apply_own(const game_def *g, void *st, int player, int action, int heuristic,
                         game_rng *rng) {
    if (g->node(st) == GAME_NODE_SIMULTANEOUS) {
        int joint[GAME_MAX_PLAYERS];
        for (int q = 0; q < g->players(st); q++)
            joint[q] = q == player ? action : mc_rollout_action(g, st, q, heuristic, rng);
        g->apply_joint(st, joint);
    } else {
        g->apply(st, action);
    }
}

/* flat: estimates every action with n determinized playouts. */
static int mc_flat_analyze(mc_policy *p, const void *st, int player, game_rng *rng, int *acts,
                           double *value, int *samples) {
    const game_def *g = p->game;
    const mc_params *prm = p->data;
    int n = g->legal(st, player, acts);
    game_buffer gb;
    void *buf = gb.bytes;
    double share[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int k = 0; k < prm->n; k++) {
            game_copy(g, buf, st);
            if (g->determinize) g->determinize(buf, player, rng);
            mc_apply_own(g, buf, player, acts[i], prm->heuristic, rng);
            mc_rollout(g, buf, prm->heuristic, rng, share);
            sum += share[player];
        }
        value[i] = sum / prm->n;
        samples[i] = prm->n;
    }
    return n;
}

/* Returns the action with the best value (the first on ties). */
int mc_best_of(const int *acts, const double *value, int n) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (value[i] > value[best]) best = i;
    return acts[best];
}

/* flat: chooses the best-estimated action. */
static int mc_flat_choose(mc_policy *p, const void *st, int player, game_rng *rng) {
    int acts[GAME_MAX_ACTIONS], samples[GAME_MAX_ACTIONS];
    double value[GAME_MAX_ACTIONS];
    int n = p->game->legal(st, player, acts);
    if (n == 1) return acts[0];
    n = mc_flat_analyze(p, st, player, rng, acts, value, samples);
    return mc_best_of(acts, value, n);
}

/* ----- ISMCTS ----- */

/* A tree node: an edge (key) from its parent plus statistics for the player who chose it.
 * Marginal entries (marg = 1) hold one player's statistics for one action at a simultaneous
 * node; ordinary children hold a decision, a chance outcome or a joint action. */
typedef struct mc_node {
    int key;       /* action, outcome, or joint-action hash */
    int actor;     /* the player whose reward this node collects (-1: none) */
    int marg;      /* 1 for a marginal entry of a simultaneous node */
    int child;     /* first child, or -1 */
    int sibling;   /* next sibling, or -1 */
    int visits;    /* times selected */
    int avail;     /* times available when its parent was visited */
    double reward; /* summed share of actor */
} mc_node;

/* The tree arena. */
typedef struct mc_tree {
    mc_node *nodes;
    int count, cap;
} mc_tree;

/* Adds a node as first child of parent; returns its index. */
static int mc_tree_add(mc_tree *t, int parent, int key, int actor, int marg) {
    if (t->count == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->nodes = realloc(t->nodes, (size_t)t->cap * sizeof *t->nodes);
        if (!t->nodes) {
            fprintf(stderr, "hnefi: out of memory in the MCTS tree\n");
            exit(2);
        }
    }
    int i = t->count++;
    mc_node *nd = &t->nodes[i];
    nd->key = key;
    nd->actor = actor;
    nd->marg = marg;
    nd->child = -1;
    nd->visits = 0;
    nd->avail = 0;
    nd->reward = 0;
    if (parent >= 0) {
        nd->sibling = t->nodes[parent].child;
        t->nodes[parent].child = i;
    } else {
        nd->sibling = -1;
    }
    return i;
}

/* Finds the child of parent with this key and kind, or -1. */
static int mc_tree_find(const mc_tree *t, int parent, int key, int marg) {
    for (int c = t->nodes[parent].child; c >= 0; c = t->nodes[c].sibling)
        if (t->nodes[c].key == key && t->nodes[c].marg == marg) return c;
    return -1;
}

/* Returns the child of parent with this key and kind, adding it if missing (*added set to 1). */
static int mc_tree_child(mc_tree *t, int parent, int key, int actor, int marg, int *added) {
    int ch = mc_tree_find(t, parent, key, marg);
    if (ch >= 0) return ch;
    *added = 1;
    return mc_tree_add(t, parent, key, actor, marg);
}

/* UCB1 selection among `acts` of player at node; untried actions first (random among them).
 * Creates missing children; returns the chosen child and sets *action. */
static int mc_select(mc_tree *t, int node, const int *acts, int n, int player, int marg, double c,
                     game_rng *rng, int *action) {
    int child[GAME_MAX_ACTIONS];
    int untried[GAME_MAX_ACTIONS], nu = 0;
    for (int i = 0; i < n; i++) {
        int added = 0;
        int ch = mc_tree_child(t, node, acts[i], player, marg, &added);
        child[i] = ch;
        t->nodes[ch].avail++;
        if (t->nodes[ch].visits == 0) untried[nu++] = i;
    }
    int pick;
    if (nu > 0) {
        pick = untried[rng_below(rng, (uint32_t)nu)];
    } else {
        pick = 0;
        double best = -1e300;
        for (int i = 0; i < n; i++) {
            const mc_node *nd = &t->nodes[child[i]];
            double v = nd->reward / nd->visits + c * sqrt(log((double)nd->avail) / nd->visits);
            if (v > best) {
                best = v;
                pick = i;
            }
        }
    }
    *action = acts[pick];
    return child[pick];
}

/* Hashes a joint action into a child key. */
static int mc_joint_key(const int *joint, int np) {
    uint32_t h = 2166136261u;
    for (int p = 0; p < np; p++) h = (h ^ (uint32_t)(joint[p] + 1)) * 16777619u;
    return (int)(h & 0x7fffffff);
}

/* Runs ISMCTS from st for `player`; leaves root statistics in the tree (root = node 0). */
static void mc_ismcts_run(mc_policy *p, mc_tree *t, const void *st, int player, game_rng *rng) {
    const game_def *g = p->game;
    const mc_params *prm = p->data;
    game_buffer gb;
    void *buf = gb.bytes;
    int path[4096], np;
    double share[GAME_MAX_PLAYERS];
    t->count = 0;
    mc_tree_add(t, -1, 0, -1, 0);
    for (int it = 0; it < prm->iters; it++) {
        game_copy(g, buf, st);
        if (g->determinize) g->determinize(buf, player, rng);
        int node = 0;
        np = 0;
        int expanded = 0;
        while (!expanded && np < 4000) {
            int kind = g->node(buf);
            if (kind == GAME_NODE_TERMINAL) break;
            int acts[GAME_MAX_ACTIONS];
            if (kind == GAME_NODE_CHANCE) {
                int o = game_sample_chance(g, buf, rng);
                int ch = mc_tree_child(t, node, o, -1, 0, &expanded);
                g->apply(buf, o);
                node = ch;
            } else if (kind == GAME_NODE_DECISION) {
                int q = g->to_move(buf);
                int n = g->legal(buf, q, acts);
                int a;
                int ch = mc_select(t, node, acts, n, q, 0, prm->c, rng, &a);
                if (t->nodes[ch].visits == 0) expanded = 1;
                g->apply(buf, a);
                path[np++] = ch;
                node = ch;
            } else {
                int joint[GAME_MAX_PLAYERS];
                int nplayers = g->players(buf);
                for (int q = 0; q < nplayers; q++) {
                    int n = g->legal(buf, q, acts);
                    if (n <= 0) {
                        joint[q] = GAME_NO_ACTION;
                        continue;
                    }
                    /* marginal keys are (player, action) */
                    for (int i = 0; i < n; i++) acts[i] = q * 65536 + acts[i];
                    int a;
                    int ch = mc_select(t, node, acts, n, q, 1, prm->c, rng, &a);
                    if (t->nodes[ch].visits == 0) expanded = 1;
                    path[np++] = ch;
                    joint[q] = a - q * 65536;
                }
                int key = mc_joint_key(joint, nplayers);
                int ch = mc_tree_child(t, node, key, -1, 0, &expanded);
                g->apply_joint(buf, joint);
                node = ch;
            }
        }
        mc_rollout(g, buf, prm->heuristic, rng, share);
        for (int i = 0; i < np; i++) {
            mc_node *nd = &t->nodes[path[i]];
            nd->visits++;
            nd->reward += share[nd->actor];
        }
    }
}

/* ismcts: estimates each root action by its visits and mean reward. */
static int mc_ismcts_analyze(mc_policy *p, const void *st, int player, game_rng *rng, int *acts,
                             double *value, int *samples) {
    const game_def *g = p->game;
    mc_tree t = {0};
    int n = g->legal(st, player, acts);
    mc_ismcts_run(p, &t, st, player, rng);
    int marg = g->node(st) == GAME_NODE_SIMULTANEOUS;
    for (int i = 0; i < n; i++) {
        int ch = mc_tree_find(&t, 0, marg ? player * 65536 + acts[i] : acts[i], marg);
        samples[i] = ch >= 0 ? t.nodes[ch].visits : 0;
        value[i] = samples[i] ? t.nodes[ch].reward / samples[i] : -1;
    }
    free(t.nodes);
    return n;
}

/* ismcts: chooses the most visited root action. */
static int mc_ismcts_choose(mc_policy *p, const void *st, int player, game_rng *rng) {
    int acts[GAME_MAX_ACTIONS], samples[GAME_MAX_ACTIONS];
    double value[GAME_MAX_ACTIONS];
    int n = p->game->legal(st, player, acts);
    if (n == 1) return acts[0];
    n = mc_ismcts_analyze(p, st, player, rng, acts, value, samples);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (samples[i] > samples[best] || (samples[i] == samples[best] && value[i] > value[best]))
            best = i;
    return acts[best];
}

/* ----- construction ----- */

enum { MC_KINDS_MAX = 8 };

/* The games' own policies, in the order they were registered. */
static const mc_policy_kind *mc_kinds[MC_KINDS_MAX];
static int mc_nkinds;

/* Makes a game's own policy known to mc_policy_init. */
int mc_policy_register(const mc_policy_kind *k) {
    for (int i = 0; i < mc_nkinds; i++)
        if (mc_kinds[i] == k) return 0;
    if (mc_nkinds >= MC_KINDS_MAX) return -1;
    mc_kinds[mc_nkinds++] = k;
    return 0;
}

/* Returns the registered policy called name, or NULL. */
static const mc_policy_kind *mc_kind_find(const char *name) {
    for (int i = 0; i < mc_nkinds; i++)
        if (strcmp(mc_kinds[i]->name, name) == 0) return mc_kinds[i];
    return NULL;
}

/* Frees the parameter block. */
static void mc_free_data(mc_policy *p) {
    free(p->data);
    p->data = NULL;
}

/* Reads a policy parameter "key=value"; 0, or -1 with a message. */
static int mc_parse_param(const char *name, const char *kv, mc_params *prm, char *err,
                          size_t errlen) {
    const char *eq = strchr(kv, '=');
    if (!eq) {
        snprintf(err, errlen, "policy %s: parameter '%s' is not key=value", name, kv);
        return -1;
    }
    size_t klen = (size_t)(eq - kv);
    const char *v = eq + 1;
    char *end;
    errno = 0;
    int is_flat = strcmp(name, "flat") == 0;
    if (klen == 1 && kv[0] == 'n' && is_flat) {
        long x = strtol(v, &end, 10);
        if (!*v || *end || errno || x < 1 || x > 100000000) {
            snprintf(err, errlen, "policy %s: n=%s is not a playout count (1..1e8)", name, v);
            return -1;
        }
        prm->n = (int)x;
    } else if (klen == 5 && strncmp(kv, "iters", 5) == 0 && !is_flat) {
        long x = strtol(v, &end, 10);
        if (!*v || *end || errno || x < 1 || x > 100000000) {
            snprintf(err, errlen, "policy %s: iters=%s is not an iteration count (1..1e8)", name,
                     v);
            return -1;
        }
        prm->iters = (int)x;
    } else if (klen == 1 && kv[0] == 'c' && !is_flat) {
        double x = strtod(v, &end);
        if (!*v || *end || errno || !(x >= 0) || x > 100) {
            snprintf(err, errlen, "policy %s: c=%s is not an exploration constant (0..100)", name,
                     v);
            return -1;
        }
        prm->c = x;
    } else if (klen == 7 && strncmp(kv, "rollout", 7) == 0) {
        if (strcmp(v, "random") == 0) {
            prm->heuristic = 0;
        } else if (strcmp(v, "heur") == 0) {
            prm->heuristic = 1;
        } else {
            snprintf(err, errlen, "policy %s: rollout=%s (expected random or heur)", name, v);
            return -1;
        }
    } else {
        snprintf(err, errlen, "policy %s: unknown parameter '%.*s'", name, (int)klen, kv);
        return -1;
    }
    return 0;
}

/* Builds a policy from a spec for a game. */
int mc_policy_init(mc_policy *p, const game_def *g, const char *spec, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    if (!spec || !*spec) {
        snprintf(err, errlen, "empty policy spec");
        return -1;
    }
    if (strlen(spec) >= sizeof p->spec) {
        snprintf(err, errlen, "policy spec too long: '%.30s...'", spec);
        return -1;
    }
    snprintf(p->spec, sizeof p->spec, "%s", spec);
    p->game = g;
    char name[32];
    size_t nlen = strcspn(spec, ":");
    if (nlen >= sizeof name) nlen = sizeof name - 1;
    memcpy(name, spec, nlen);
    name[nlen] = '\0';
    const char *params = spec[strcspn(spec, ":")] == ':' ? spec + strcspn(spec, ":") + 1 : NULL;
    if (strcmp(name, "uct") == 0) snprintf(name, sizeof name, "ismcts");
    if (strcmp(name, "random") == 0 || strcmp(name, "heur") == 0) {
        if (params && *params) {
            snprintf(err, errlen, "policy %s takes no parameters (got '%s')", name, params);
            return -1;
        }
        p->choose = name[0] == 'r' ? mc_random_choose : mc_heur_choose;
        return 0;
    }
    int is_flat = strcmp(name, "flat") == 0;
    if (!is_flat && strcmp(name, "ismcts") != 0) {
        const mc_policy_kind *k = mc_kind_find(name);
        if (k && k->game != g) {
            snprintf(err, errlen, "policy %s exists only for %s", name, k->game->name);
            return -1;
        }
        if (k) {
            p->kind = k;
            return k->init(p, params, err, errlen);
        }
        char known[256] = "random heur flat ismcts uct";
        for (int i = 0; i < mc_nkinds; i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), " %s", mc_kinds[i]->name);
        snprintf(err, errlen, "unknown policy '%s' (known: %s)", name, known);
        return -1;
    }
    mc_params prm = {.n = 100, .iters = 1000, .c = 0.7, .heuristic = 0};
    if (params) {
        char tmp[128];
        snprintf(tmp, sizeof tmp, "%s", params);
        for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save))
            if (mc_parse_param(name, tok, &prm, err, errlen)) return -1;
    }
    mc_params *d = malloc(sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *d = prm;
    p->data = d;
    p->done = mc_free_data;
    p->choose = is_flat ? mc_flat_choose : mc_ismcts_choose;
    p->analyze = is_flat ? mc_flat_analyze : mc_ismcts_analyze;
    return 0;
}

/* Returns the policy's action for `player`. */
int mc_choose(mc_policy *p, const void *st, int player, game_rng *rng) {
    return p->choose(p, st, player, rng);
}

/* Estimates every legal action of `player`; -1 if unsupported. */
int mc_analyze(mc_policy *p, const void *st, int player, game_rng *rng, int *actions, double *value,
               int *samples) {
    if (!p->analyze) return -1;
    return p->analyze(p, st, player, rng, actions, value, samples);
}

/* Frees a policy's data. */
void mc_policy_done(mc_policy *p) {
    if (p->done) p->done(p);
    p->data = NULL;
}

/* Plays one step with the seats' policies; returns 1 at a terminal node. */
int mc_step(mc_policy *const *seat_policy, const game_def *g, void *st, game_rng *rng) {
    int kind = g->node(st);
    switch (kind) {
    case GAME_NODE_TERMINAL: return 1;
    case GAME_NODE_CHANCE: g->apply(st, game_sample_chance(g, st, rng)); return 0;
    case GAME_NODE_DECISION: {
        int q = g->to_move(st);
        int acts[GAME_MAX_ACTIONS];
        int n = g->legal(st, q, acts);
        g->apply(st, n == 1 ? acts[0] : mc_choose(seat_policy[q], st, q, rng));
        return 0;
    }
    default: {
        int joint[GAME_MAX_PLAYERS], acts[GAME_MAX_ACTIONS];
        for (int q = 0; q < g->players(st); q++) {
            int n = g->legal(st, q, acts);
            joint[q] = n <= 0   ? GAME_NO_ACTION
                       : n == 1 ? acts[0]
                                : mc_choose(seat_policy[q], st, q, rng);
        }
        g->apply_joint(st, joint);
        return 0;
    }
    }
}

/* Checks that a policy can play a game of that many players; 0, or -1 with a message. */
int mc_policy_check_players(const mc_policy *p, int players, char *err, size_t errlen) {
    if (p->kind && p->kind->check_players) return p->kind->check_players(players, err, errlen);
    return 0;
}

/* Returns the list of policies (the registered ones included) and their parameters. */
const char *mc_policy_help(void) {
    static char help[1024];
    int len = snprintf(help, sizeof help, "%s",
                       "policies:\n"
                       "  random                        uniformly random legal action\n"
                       "  heur                          the game's hand-written heuristic\n"
                       "  flat:n=N,rollout=R            flat Monte-Carlo, N playouts per action "
                       "(100)\n"
                       "  ismcts:iters=N,c=C,rollout=R  information-set MCTS, N iterations (1000), "
                       "UCB1\n"
                       "                                constant C (0.7); 'uct' is the same "
                       "policy\n");
    for (int i = 0; i < mc_nkinds && len > 0 && (size_t)len < sizeof help; i++)
        len += snprintf(help + len, sizeof help - (size_t)len, "  %-30s%s\n", mc_kinds[i]->name,
                        mc_kinds[i]->help);
    if (len > 0 && (size_t)len < sizeof help)
        snprintf(help + len, sizeof help - (size_t)len, "  R is random (default) or heur\n");
    return help;
}

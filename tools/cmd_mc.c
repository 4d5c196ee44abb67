/* `hnefi mc`: tournaments, advice, bench and solver for the dice and card games (cmd_mc.h). */
#include "tools/cmd_mc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/playout_bench.h"
#include "engine/game.h"
#include "engine/games/eketorp.h"
#include "engine/games/saek.h"
#include "search/mc.h"
#include "search/saek_solver.h"
#include "selfplay/playout.h"
#include "selfplay/stats.h"

#include "engine/games/raid.h"
#include "tools/cli.h"
#include "tools/cmd_mc_raid.h"

static const char cmd_mc_usage[] =
    "usage: hnefi mc <game> [options]            a tournament between policies (options below)\n"
    "       hnefi mc <game> --advise STATE [--policy SPEC] [--player P] [--seed S] [--data F]\n"
    "                                            estimate each option of the player to act\n"
    "       hnefi mc <game> --show STATE [--data F]   draw a state\n"
    "       hnefi mc <game> bench [--seconds S | --games M] [--players N] [--options K=V,...]\n"
    "                             [--seed S] [--data F]   random playouts/s on one core\n"
    "       hnefi mc saek solve [--coins N] [--vikingdice 0|1]   exact two-player solution\n"
    "       hnefi mc saek compare --policy SPEC [--coins N] [--games M] [--seed S]\n"
    "                             [--threads T] [--quiet]   a policy against the optimum\n"
    "       hnefi mc raid odds|buy|play|bench    Viking Raid's own commands, with their own\n"
    "                                            options (hnefi mc raid --help)\n"
    "       hnefi mc list                        the games and their options\n"
    "games: saek (or saekonungr), eketorp, raid (or viking-raid), and the tafl variants\n"
    "       copenhagen, fetlar, tablut, linnaeus, brandubh (hnefi mc list)\n"
    "Each form takes only the options it shows; an option it would ignore is refused.\n"
    "tournament options:\n"
    "  --players N        seats (default: the game's default)\n"
    "  --options K=V,...  game options (see hnefi mc list)\n"
    "  --policy SPEC      policy of the next slot (repeat; the last one fills the rest)\n"
    "  --games M          games to play (default 1000)\n"
    "  --seed S           run seed (default 1); the same seed gives the same result\n"
    "  --threads T        worker threads (default: one per core)\n"
    "  --format F         text (default), csv or json\n"
    "  --quiet            no progress or timing on stderr (progress shows on a terminal)\n"
    "  --data F           eketorp: card values, item cards and hospital spaces from file F\n"
    "                     (format of engine/games/data/eketorp-rules.txt; default built in;\n"
    "                     that file is eketorp-rules.txt in the data directory)\n"
    "other options:\n"
    "  --player P         --advise at a simultaneous node: whose choice (default 0)\n"
    "  --seconds S        bench: seconds of CPU (default 2)\n"
    "  --coins N          solve, compare: coins each (default 15)\n"
    "  --vikingdice 0|1   solve: with or without the Viking dice (default 1)\n";

/* The full names of the games, besides the short names they are registered under. */
static const struct {
    const char *alias, *name;
} cmd_mc_aliases[] = {{"saekonungr", "saek"}, {"viking-raid", "raid"}};

/* Finds a game by its short or full name; NULL if there is none. */
static const game_def *cmd_mc_game(const char *name) {
    for (size_t i = 0; i < sizeof cmd_mc_aliases / sizeof cmd_mc_aliases[0]; i++)
        if (strcmp(name, cmd_mc_aliases[i].alias) == 0) return game_find(cmd_mc_aliases[i].name);
    return game_find(name);
}

/* Reads a whole decimal integer in [lo, hi]; prints an error naming the option when bad. */
static int cmd_mc_int(const char *opt, const char *text, long long lo, long long hi,
                      long long *out) {
    char *end;
    errno = 0;
    long long x = text ? strtoll(text, &end, 10) : 0;
    if (!text || !*text || *end || errno || x < lo || x > hi) {
        char range[64];
        cli_range_text(lo, hi, text && *text && !*end && x > 0 && (errno == ERANGE || x > hi),
                       range, sizeof range);
        fprintf(stderr, "hnefi mc: %s: '%s' is not a whole number%s\n", opt,
                text ? text : "(missing)", range);
        return -1;
    }
    *out = x;
    return 0;
}

/* Reads a positive number of seconds. */
static int cmd_mc_seconds(const char *opt, const char *text, double *out) {
    char *end;
    errno = 0;
    double x = text ? strtod(text, &end) : 0;
    if (!text || !*text || *end || errno || !(x > 0) || x > 1e6) {
        fprintf(stderr, "hnefi mc: %s: '%s' is not a positive number of seconds\n", opt,
                text ? text : "(missing)");
        return -1;
    }
    *out = x;
    return 0;
}

/* Everything the command line can set. */
typedef struct cmd_mc_args {
    const game_def *game;
    int players;
    const char *options;
    const char *policy[GAME_MAX_PLAYERS];
    int npolicy;
    long long games, seed, threads, player, coins, vikingdice;
    const char *format;
    const char *advise, *show, *data;
    double seconds;
    int quiet;
    const char *given[64]; /* the options given, to refuse the ones the mode does not use */
    int ngiven;
} cmd_mc_args;

/* Parses the options after the game (and subcommand) name; 0, or -1 after an error message. */
static int cmd_mc_parse(int argc, char **argv, int first, cmd_mc_args *a) {
    for (int i = first; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (a->ngiven < 64) a->given[a->ngiven++] = o;
        if (strcmp(o, "--players") == 0) {
            long long x;
            if (cmd_mc_int(o, v, 1, GAME_MAX_PLAYERS, &x)) return -1;
            a->players = (int)x;
        } else if (strcmp(o, "--options") == 0) {
            if (!v) goto missing;
            a->options = v;
        } else if (strcmp(o, "--policy") == 0) {
            if (!v) goto missing;
            if (a->npolicy >= GAME_MAX_PLAYERS) {
                fprintf(stderr, "hnefi mc: --policy: more than %d policies\n", GAME_MAX_PLAYERS);
                return -1;
            }
            a->policy[a->npolicy++] = v;
        } else if (strcmp(o, "--games") == 0) {
            if (cmd_mc_int(o, v, 1, 1000000000LL, &a->games)) return -1;
        } else if (strcmp(o, "--seed") == 0) {
            if (cmd_mc_int(o, v, 0, INT64_MAX, &a->seed)) return -1;
        } else if (strcmp(o, "--threads") == 0) {
            if (cmd_mc_int(o, v, 1, 256, &a->threads)) return -1;
        } else if (strcmp(o, "--player") == 0) {
            if (cmd_mc_int(o, v, 0, GAME_MAX_PLAYERS - 1, &a->player)) return -1;
        } else if (strcmp(o, "--coins") == 0) {
            if (cmd_mc_int(o, v, 1, 30, &a->coins)) return -1;
        } else if (strcmp(o, "--vikingdice") == 0) {
            if (cmd_mc_int(o, v, 0, 1, &a->vikingdice)) return -1;
        } else if (strcmp(o, "--format") == 0) {
            if (!v) goto missing;
            if (strcmp(v, "text") && strcmp(v, "csv") && strcmp(v, "json")) {
                fprintf(stderr, "hnefi mc: --format: '%s' is not text, csv or json\n", v);
                return -1;
            }
            a->format = v;
        } else if (strcmp(o, "--advise") == 0) {
            if (!v) goto missing;
            a->advise = v;
        } else if (strcmp(o, "--data") == 0) {
            if (!v) goto missing;
            a->data = v;
        } else if (strcmp(o, "--show") == 0) {
            if (!v) goto missing;
            a->show = v;
        } else if (strcmp(o, "--seconds") == 0) {
            if (cmd_mc_seconds(o, v, &a->seconds)) return -1;
        } else if (strcmp(o, "--quiet") == 0) {
            a->quiet = 1;
            takes = 0;
        } else {
            fprintf(stderr, "hnefi mc: unknown argument '%s' (try hnefi mc --help)\n", o);
            return -1;
        }
        i += takes;
        continue;
    missing:
        fprintf(stderr, "hnefi mc: %s needs a value\n", o);
        return -1;
    }
    return 0;
}

/*
 * Refuses an option the chosen mode would ignore: allowed lists the mode's options between
 * spaces. 0, or -1 after a message naming the option and the mode.
 */
static int cmd_mc_check_mode(const cmd_mc_args *a, const char *mode, const char *allowed) {
    for (int i = 0; i < a->ngiven; i++) {
        char word[64];
        snprintf(word, sizeof word, " %s ", a->given[i]);
        if (!strstr(allowed, word)) {
            fprintf(stderr, "hnefi mc: %s does not apply to %s (try hnefi mc --help)\n",
                    a->given[i], mode);
            return -1;
        }
    }
    return 0;
}

/* Loads Eketorp data from a file; 0, or -1 after a message naming the file and line. */
static int cmd_mc_load_data(const char *name) {
    char path[4096];
    if (!cli_data_file(name, "--data", path, sizeof path)) return -1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "hnefi mc: --data %s: %s\n", path, strerror(errno));
        return -1;
    }
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    int big = !feof(f);
    fclose(f);
    if (big) {
        fprintf(stderr, "hnefi mc: --data %s: file larger than 64 KiB\n", path);
        return -1;
    }
    text[n] = '\0';
    ekt_data d;
    char err[256];
    if (ekt_data_parse(text, &d, err, sizeof err)) {
        fprintf(stderr, "hnefi mc: --data %s: %s\n", path, err);
        return -1;
    }
    ekt_data_set(&d);
    return 0;
}

/* Sets up the game state for --advise/--show from STATE text. */
static int cmd_mc_state(const cmd_mc_args *a, const char *text, void *st) {
    char err[256];
    if (!a->game->parse) {
        fprintf(stderr, "hnefi mc: %s cannot read a STATE\n", a->game->name);
        return -1;
    }
    if (a->game->parse(st, text, err, sizeof err)) {
        fprintf(stderr, "hnefi mc: bad STATE: %s\n", err);
        return -1;
    }
    return 0;
}

/* --advise: each option of the player to act with its estimated win chance. */
static int cmd_mc_advise(const cmd_mc_args *a) {
    const game_def *g = a->game;
    game_buffer gb;
    void *st = gb.bytes;
    if (cmd_mc_state(a, a->advise, st)) return 2;
    int kind = g->node(st);
    int player;
    if (kind == GAME_NODE_DECISION) {
        player = g->to_move(st);
    } else if (kind == GAME_NODE_SIMULTANEOUS) {
        player = (int)a->player;
        int acts[GAME_MAX_ACTIONS];
        if (player >= g->players(st) || g->legal(st, player, acts) <= 0) {
            fprintf(stderr, "hnefi mc: --player %d has no choice to make in this STATE\n", player);
            return 2;
        }
    } else {
        fprintf(stderr, "hnefi mc: STATE is at a %s node: no decision to advise on\n",
                kind == GAME_NODE_TERMINAL ? "terminal" : "chance");
        return 2;
    }
    const char *spec = a->npolicy ? a->policy[0] : "flat:n=2000";
    mc_policy pol;
    char err[256];
    if (mc_policy_init(&pol, g, spec, err, sizeof err)) {
        fprintf(stderr, "hnefi mc: --policy: %s\n", err);
        return 2;
    }
    if (mc_policy_check_players(&pol, g->players(st), err, sizeof err)) {
        mc_policy_done(&pol);
        fprintf(stderr, "hnefi mc: --policy: %s\n", err);
        return 2;
    }
    game_rng rng;
    rng_seed(&rng, (uint64_t)a->seed);
    int acts[GAME_MAX_ACTIONS], samples[GAME_MAX_ACTIONS];
    double value[GAME_MAX_ACTIONS];
    int n = mc_analyze(&pol, st, player, &rng, acts, value, samples);
    if (n < 0) {
        mc_policy_done(&pol);
        fprintf(stderr, "hnefi mc: policy '%s' gives no estimates; use flat, ismcts or opt\n",
                spec);
        return 2;
    }
    char buf[2048];
    g->render(st, buf, sizeof buf);
    printf("%s", buf);
    printf("advice for player %d (%s):\n", player, spec);
    int best = 0;
    for (int i = 0; i < n; i++)
        if (value[i] > value[best]) best = i;
    for (int i = 0; i < n; i++) {
        char name[128];
        g->action_text(st, player, acts[i], name, sizeof name);
        if (samples[i] > 0 && value[i] >= 0) {
            double lo, hi; /* 95% interval of a mean of shares in [0, 1] */
            stats_wilson(value[i], samples[i], &lo, &hi);
            printf("  %c %-40s win %.4f [%.4f, %.4f]  (%d samples)\n", i == best ? '*' : ' ', name,
                   value[i], lo, hi, samples[i]);
        } else if (value[i] >= 0) {
            printf("  %c %-40s win %.4f  (exact)\n", i == best ? '*' : ' ', name, value[i]);
        } else {
            printf("  %c %-40s not sampled\n", i == best ? '*' : ' ', name);
        }
    }
    mc_policy_done(&pol);
    return 0;
}

/* Prints the games and their options. */
static int cmd_mc_list(void) {
    for (int i = 0; game_at(i); i++) {
        const game_def *g = game_at(i);
        printf("%s", g->name);
        for (size_t k = 0; k < sizeof cmd_mc_aliases / sizeof cmd_mc_aliases[0]; k++)
            if (strcmp(cmd_mc_aliases[k].name, g->name) == 0)
                printf(" (or %s)", cmd_mc_aliases[k].alias);
        printf(": %s, %d-%d players (default %d)\n%s\n", g->title, g->min_players, g->max_players,
               g->default_players, g->options_help);
    }
    printf("%s", mc_policy_help());
    return 0;
}

/* bench: random playouts per second on one core, generic and fast paths, for S seconds of CPU
 * or exactly M games (a fixed amount of work, for profilers and instruction counts). */
static int cmd_mc_bench(const cmd_mc_args *a) {
    const game_def *g = a->game;
    double secs = a->seconds > 0 ? a->seconds : 2.0;
    if (a->seconds > 0 && a->games > 0) {
        fprintf(stderr, "hnefi mc: bench takes --seconds or --games, not both\n");
        return 2;
    }
    int players = a->players ? a->players : g->default_players;
    for (int fast = 0; fast <= (g->playout ? 1 : 0); fast++) {
        playout_bench_result r;
        char err[256];
        if (playout_bench_run(g, players, a->options, fast, secs, (long)a->games, (uint64_t)a->seed,
                              &r, err, sizeof err)) {
            fprintf(stderr, "hnefi mc: %s\n", err);
            return 2;
        }
        printf("%s %d players, %s path: %ld games in %.2f s of CPU = %.0f games/s on one core, "
               "mean length %.1f, checksum %016" PRIx64 "\n",
               g->name, players, fast ? "fast" : "generic", r.games, r.cpu_seconds,
               r.games / (r.cpu_seconds > 0 ? r.cpu_seconds : 1e-9),
               (double)r.length / (double)r.games, r.checksum);
    }
    return 0;
}

/* solve: the exact two-player solution and its cost. */
static int cmd_mc_solve(const cmd_mc_args *a) {
    int coins = a->coins ? (int)a->coins : 15;
    int vd = a->vikingdice >= 0 ? (int)a->vikingdice : 1;
    /* wall and CPU time: the solver runs on this thread alone */
    double t0 = playout_bench_clock(CLOCK_MONOTONIC);
    double c0 = playout_bench_clock(CLOCK_THREAD_CPUTIME_ID);
    saek_solver *sv = saek_solver_solve(2 * coins, vd, 1e-10);
    double t = playout_bench_clock(CLOCK_MONOTONIC) - t0;
    double c = playout_bench_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
    if (!sv) {
        fprintf(stderr, "hnefi mc: solver: out of memory\n");
        return 1;
    }
    int sweeps;
    double delta;
    saek_solver_stats(sv, &sweeps, &delta);
    saek_state s;
    char err[128];
    char opts[32];
    snprintf(opts, sizeof opts, "coins=%d,vikingdice=%d,start=0", coins, vd);
    saek_init(&s, 2, opts, err, sizeof err);
    double v = saek_solver_value(sv, &s);
    printf("saek 2 players, %d coins each, Viking dice %s: solved in %.2f s (%.2f s of CPU, %d "
           "sweeps, last change %.1e)\n",
           coins, vd ? "on" : "off", t, c, sweeps, delta);
    printf("first player wins with probability %.6f under optimal play\n", v);
    saek_solver_free(sv);
    return 0;
}

/* compare: a policy against the optimum, by win rate and by decision agreement. */
static int cmd_mc_compare(const cmd_mc_args *a) {
    int coins = a->coins ? (int)a->coins : 15;
    const char *spec = a->npolicy ? a->policy[0] : "random";
    char opts[64];
    snprintf(opts, sizeof opts, "coins=%d", coins);
    playout_config cfg = {.game = &saek_game,
                          .players = 2,
                          .options = opts,
                          .policy = {spec, "opt"},
                          .games = a->games ? a->games : 1000,
                          .seed = (uint64_t)a->seed,
                          .threads = (int)a->threads,
                          .progress = !a->quiet && isatty(2)};
    playout_stats st;
    char err[256];
    const saek_solver *sv = saek_solver_shared(2 * coins, 1);
    if (!sv) {
        fprintf(stderr, "hnefi mc: solver: out of memory\n");
        return 1;
    }
    if (playout_run(&cfg, &st, err, sizeof err)) {
        fprintf(stderr, "hnefi mc: %s\n", err);
        return 2;
    }
    double m, lo, hi;
    playout_interval(&st.slot[0], &m, &lo, &hi);
    printf("%s against the optimum: win %.4f [%.4f, %.4f] over %lld games (0.5 = as good)\n", spec,
           m, lo, hi, (long long)st.games);
    playout_stats_free(&st);
    /* decision agreement: at decisions met in games of the policy against itself */
    mc_policy pol;
    if (mc_policy_init(&pol, &saek_game, spec, err, sizeof err)) {
        fprintf(stderr, "hnefi mc: --policy: %s\n", err);
        return 2;
    }
    game_rng rng;
    rng_seed(&rng, (uint64_t)a->seed ^ 0x5eedULL);
    long decisions = 0, agree = 0;
    double loss = 0;
    mc_policy *seats[2] = {&pol, &pol};
    for (int gi = 0; gi < 200 && decisions < 2000; gi++) {
        saek_state s;
        saek_init(&s, 2, opts, err, sizeof err);
        while (saek_game.node(&s) != GAME_NODE_TERMINAL) {
            if (saek_game.node(&s) == GAME_NODE_DECISION) {
                int acts[GAME_MAX_ACTIONS];
                double val[GAME_MAX_ACTIONS];
                int n = saek_solver_actions(sv, &s, acts, val);
                if (n > 1) {
                    int c = mc_choose(&pol, &s, s.to_move, &rng);
                    double best = val[0], mine = -1;
                    for (int i = 0; i < n; i++) {
                        if (val[i] > best) best = val[i];
                        if (acts[i] == c) mine = val[i];
                    }
                    decisions++;
                    if (mine >= best - 1e-9) agree++;
                    loss += best - mine;
                }
            }
            mc_step(seats, &saek_game, &s, &rng);
        }
    }
    printf("decision agreement with the optimum: %ld of %ld (%.1f%%), mean win chance lost per "
           "decision %.5f\n",
           agree, decisions, decisions ? 100.0 * agree / decisions : 0,
           decisions ? loss / decisions : 0);
    mc_policy_done(&pol);
    return 0;
}

/* Runs a tournament. */
static int cmd_mc_tournament(cmd_mc_args *a) {
    playout_config cfg = {0};
    cfg.game = a->game;
    cfg.players = a->players ? a->players : a->game->default_players;
    cfg.options = a->options;
    for (int k = 0; k < cfg.players; k++)
        cfg.policy[k] = a->npolicy == 0 ? "random" : a->policy[k < a->npolicy ? k : a->npolicy - 1];
    if (a->npolicy > cfg.players) {
        fprintf(stderr, "hnefi mc: %d policies for %d players\n", a->npolicy, cfg.players);
        return 2;
    }
    cfg.games = a->games ? a->games : 1000;
    cfg.seed = (uint64_t)a->seed;
    cfg.threads = (int)a->threads;
    cfg.progress = !a->quiet && isatty(2);
    playout_stats st;
    char err[256];
    if (playout_run(&cfg, &st, err, sizeof err)) {
        fprintf(stderr, "hnefi mc: %s\n", err);
        return 2;
    }
    if (strcmp(a->format, "csv") == 0)
        playout_write_csv(stdout, &cfg, &st);
    else if (strcmp(a->format, "json") == 0)
        playout_write_json(stdout, &cfg, &st);
    else
        playout_write_text(stdout, &cfg, &st);
    if (!a->quiet) {
        double rate = st.games / (st.seconds > 0 ? st.seconds : 1e-9);
        fprintf(stderr, "%lld games in %.2f s (%.*f games/s)\n", (long long)st.games, st.seconds,
                rate < 10 ? 2 : 0, rate);
    }
    playout_stats_free(&st);
    return 0;
}

/* Runs `hnefi mc ...`. */
int cmd_mc(int argc, char **argv) {
    saek_solver_register_policy(); /* the games' own policies join the list */
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        printf("%s", cmd_mc_usage);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "list") == 0) return cmd_mc_list();
    cmd_mc_args a = {0};
    a.format = "text";
    a.seed = 1;
    a.vikingdice = -1;
    a.game = cmd_mc_game(argv[1]);
    if (!a.game) {
        fprintf(stderr, "hnefi mc: unknown game '%s' (try hnefi mc list)\n", argv[1]);
        return 2;
    }
    bool raid = strcmp(a.game->name, "raid") == 0;
    if (raid && argc >= 3 && argv[2][0] != '-') { /* odds, buy, play, bench, help */
        char *raid_argv[64];
        int n = argc - 1 < 63 ? argc - 1 : 63;
        raid_argv[0] = "raid";
        for (int i = 1; i < n; i++) raid_argv[i] = argv[i + 1];
        raid_argv[n] = NULL;
        return cmd_mc_raid(n, raid_argv);
    }
    const char *sub = argc >= 3 && argv[2][0] != '-' ? argv[2] : NULL;
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            if (raid) { /* raid's own commands first, then the shared tournament's options */
                char *help[] = {"raid", "--help", NULL};
                cmd_mc_raid(2, help);
                printf("\n");
            }
            printf("%s\n%s:\n%s%s", cmd_mc_usage, a.game->name, a.game->options_help,
                   mc_policy_help());
            return 0;
        }
    if (cmd_mc_parse(argc, argv, sub ? 3 : 2, &a)) return 2;
    if (a.data) {
        if (a.game != &ekt_game) {
            fprintf(stderr, "hnefi mc: --data applies to eketorp only\n");
            return 2;
        }
        if (cmd_mc_load_data(a.data)) return 1;
    }
    if (a.players && (a.players < a.game->min_players || a.players > a.game->max_players)) {
        fprintf(stderr, "hnefi mc: --players %d: %s takes %d to %d players\n", a.players,
                a.game->name, a.game->min_players, a.game->max_players);
        return 2;
    }
    /* each mode and the options it uses */
    const char *mode = "a tournament", *allowed = " --players --options --policy --games --seed "
                                                  "--threads --format --quiet --data ";
    if (sub && strcmp(sub, "bench") == 0)
        mode = "bench", allowed = " --seconds --games --players --options --seed --data ";
    else if (sub && strcmp(sub, "solve") == 0)
        mode = "solve", allowed = " --coins --vikingdice ";
    else if (sub && strcmp(sub, "compare") == 0)
        mode = "compare", allowed = " --coins --policy --games --seed --threads --quiet ";
    else if (!sub && a.show)
        mode = "--show", allowed = " --show --data ";
    else if (!sub && a.advise)
        mode = "--advise", allowed = " --advise --policy --seed --player --data ";
    if (cmd_mc_check_mode(&a, mode, allowed)) return 2;
    if (sub) {
        if (strcmp(sub, "bench") == 0) return cmd_mc_bench(&a);
        if (a.game == &saek_game && strcmp(sub, "solve") == 0) return cmd_mc_solve(&a);
        if (a.game == &saek_game && strcmp(sub, "compare") == 0) return cmd_mc_compare(&a);
        fprintf(stderr, "hnefi mc: unknown subcommand '%s' for %s\n", sub, a.game->name);
        return 2;
    }
    if (a.show) {
        game_buffer gb;
        if (cmd_mc_state(&a, a.show, gb.bytes)) return 2;
        char buf[4096];
        a.game->render(gb.bytes, buf, sizeof buf);
        printf("%s", buf);
        a.game->format(gb.bytes, buf, sizeof buf);
        printf("STATE %s\n", buf);
        return 0;
    }
    if (a.advise) return cmd_mc_advise(&a);
    return cmd_mc_tournament(&a);
}

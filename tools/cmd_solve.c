/* hnefi solve: the exact solver (search/solver.h) on one position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/tactics.h"
#include "engine/notation.h"
#include "search/solver.h"
#include "tools/cli.h"

/* hnefi solve: proves or refutes a forced win (declared for tools/hnefi.c). */
int cmd_solve(int argc, char **argv);

static const char solve_usage[] =
    "usage: hnefi solve [options] --plies N\n"
    "Proves whether the side to move can force a win within N plies, by exhaustive AND-OR\n"
    "search over every legal move (no evaluation, no pruning; repetition is ignored). Prints the\n"
    "result, the fewest plies of a forced win, every first move that forces it that fast, the\n"
    "kind of win at the end of a principal line, the nodes and the time.\n"
    "  --plies N        look for wins within N plies, 1..15 (default 5; 9 is about the\n"
    "                   practical limit on 11x11)\n"
    "  --nodes N        give up after about N nodes (default: no limit)\n"
    "  --hash MiB       the solver's table (default 64)\n"
    "  --no-line        do not look for a principal line and the kind of win\n";

/* Returns seconds on a monotonic clock. */
static double solve_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads the value of a numeric option at argv[*i]; prints an error and returns false if bad. */
static bool solve_num(int argc, char **argv, int *i, long lo, long hi, long *out) {
    if (*i + 1 >= argc) {
        fprintf(stderr, "hnefi solve: option %s needs a value\n", argv[*i]);
        return false;
    }
    (*i)++;
    return cli_parse_int(argv[*i], lo, hi, argv[*i - 1], out);
}

/* hnefi solve: reads the options, solves the position and prints what was proved. */
int cmd_solve(int argc, char **argv) {
    struct cli_game g;
    cli_game_init(&g);
    struct solve_limits lim = {.plies = 5, .want_line = true};
    long hash = 64, val;
    for (int i = 1; i < argc; i++) {
        int r = cli_game_option(&g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        const char *a = argv[i];
        if (strcmp(a, "--plies") == 0) {
            if (!solve_num(argc, argv, &i, 1, SOLVER_MAX_PLIES, &val)) return 2;
            lim.plies = (int)val;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!solve_num(argc, argv, &i, 1, 1000000000000L, &val)) return 2;
            lim.max_nodes = (uint64_t)val;
        } else if (strcmp(a, "--hash") == 0) {
            if (!solve_num(argc, argv, &i, 1, 65536, &val)) return 2;
            hash = val;
        } else if (strcmp(a, "--no-line") == 0) {
            lim.want_line = false;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s%s", solve_usage, cli_game_usage);
            return 0;
        } else {
            fprintf(stderr, "hnefi solve: unknown argument '%s' (try --help)\n", a);
            return 2;
        }
    }
    if (!cli_game_finish(&g)) {
        cli_game_free(&g);
        return 2;
    }
    if (g.game->v->berserk != BERSERK_NONE) {
        /* the proof search alternates the sides ply by ply; a berserk turn does not */
        fprintf(stderr,
                "hnefi solve: %s has berserk turns, which the solver does not play "
                "(hnefi analyze searches them)\n",
                g.game->v->name);
        cli_game_free(&g);
        return 2;
    }
    struct solver *s = solver_new((size_t)hash);
    struct solve_result *res = malloc(sizeof *res);
    if (!s || !res) {
        fprintf(stderr, "hnefi solve: out of memory for a %ld MiB table\n", hash);
        solver_free(s);
        free(res);
        cli_game_free(&g);
        return 1;
    }
    const struct position *p = tafl_pos(g.game);
    char fen[FEN_MAX];
    fen_write(p, fen);
    printf("position: %s\n", fen);
    double t0 = solve_now();
    if (g.game->result == RESULT_NONE)
        solver_solve(s, p, &lim, res);
    else
        *res = (struct solve_result){.game_over = true}; /* ended by the rules (any of them) */
    double dt = solve_now() - t0;
    const char *side = p->side == SIDE_ATTACKERS ? "attackers" : "defenders";
    char text[TACTICS_MOVES_MAX];
    if (res->game_over || g.game->result != RESULT_NONE) {
        char status[96];
        printf("result: over (%s)\n",
               tafl_status_text(g.game->result, g.game->reason, status, sizeof status));
    } else if (res->status == SOLVE_UNKNOWN) {
        printf("result: unknown (node limit reached; no win within %d plies proved)\n",
               res->proved);
    } else if (res->status == SOLVE_NO_WIN) {
        printf("result: none (the %s cannot force a win within %d %s)\n", side, res->proved,
               res->proved == 1 ? "ply" : "plies");
    } else {
        printf("result: win (the %s force a win in %d plies)\n", side, res->plies);
        printf("plies: %d\n", res->plies);
        tactics_moves_text(res->moves, res->nmoves, p->v->size, text, sizeof text);
        printf("moves: %s\n", text);
        if (lim.want_line) {
            printf("kind: %s\n", solver_kind_name(res->kind));
            text[0] = 0;
            for (int i = 0, len = 0; i < res->line_len; i++) {
                char mv[MOVE_TEXT_MAX];
                move_write(res->line[i], p->v->size, mv);
                len += snprintf(text + len, sizeof text - (size_t)len, "%s%s", i ? " " : "", mv);
            }
            printf("line: %s\n", text);
        }
    }
    printf("nodes: %llu\n", (unsigned long long)res->nodes);
    printf("time: %.3f s (%.0f nodes/s)\n", dt, dt > 0 ? (double)res->nodes / dt : 0.0);
    free(res);
    solver_free(s);
    cli_game_free(&g);
    return 0;
}

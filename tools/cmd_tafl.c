/* The tafl commands that inspect positions: show and perft. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/perft.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/threats.h"
#include "engine/variant_text.h"
#include "tools/cli.h"

/* Returns seconds on a monotonic clock. */
static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prints the seed-Tablut announcements: raichi/tuichi and "watch your king". */
static void print_announcements(const struct tafl_game *t) {
    const struct position *p = tafl_pos(t);
    int routes = threat_escape_routes(p);
    if (routes == 1) printf("raichi: the king has an open route to an escape square\n");
    if (routes >= 2) printf("tuichi: the king has open routes to %d escape squares\n", routes);
    struct position q = *p;
    q.side = SIDE_ATTACKERS;
    if (t->result == RESULT_NONE && threat_attackers_win_in_one(&q))
        printf("watch your king: the attackers could capture him on their move\n");
}

/* hnefi show: the board, side to move, status and legal moves. */
int cmd_show(int argc, char **argv) {
    struct cli_game g;
    cli_game_init(&g);
    for (int i = 1; i < argc; i++) {
        int r = cli_game_option(&g, argc, argv, &i);
        if (r < 0) return 2;
        if (r == 0) {
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                printf("usage: hnefi show [options]\n"
                       "Shows a position: the board, side to move, game status, legal moves.\n%s",
                       cli_game_usage);
                return 0;
            }
            fprintf(stderr, "hnefi show: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (!cli_game_finish(&g)) {
        cli_game_free(&g);
        return 2;
    }
    const struct tafl_game *t = g.game;
    const struct position *p = tafl_pos(t);
    char fen[FEN_MAX], text[MOVE_TEXT_MAX], status[96];
    printf("variant %s, %d plies played\n", p->v->name, t->n);
    cli_print_board(p);
    fen_write(p, fen);
    printf("fen %s\n", fen);
    printf("to move: %s\n", p->side == SIDE_ATTACKERS ? "attackers" : "defenders");
    printf("status: %s\n", tafl_status_text(t->result, t->reason, status, sizeof status));
    print_announcements(t);
    move_t moves[MAX_MOVES];
    int n = tafl_legal_moves(t, moves);
    printf("legal moves: %d\n", n);
    for (int i = 0; i < n; i++) {
        move_write(moves[i], p->v->size, text);
        printf("%s%s", text, (i + 1) % 12 == 0 || i + 1 == n ? "\n" : " ");
    }
    cli_game_free(&g);
    return 0;
}

/* Prints one root move of a perft divide. */
static void divide_line(move_t m, uint64_t count, void *ctx) {
    char text[MOVE_TEXT_MAX];
    move_write(m, *(const int *)ctx, text);
    printf("%s %llu\n", text, (unsigned long long)count);
}

/* hnefi perft [--divide] DEPTH: counts the positions DEPTH plies ahead. */
int cmd_perft(int argc, char **argv) {
    struct cli_game g;
    cli_game_init(&g);
    bool divide = false;
    long depth = -1;
    for (int i = 1; i < argc; i++) {
        int r = cli_game_option(&g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (strcmp(argv[i], "--divide") == 0) {
            divide = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: hnefi perft [options] [--divide] DEPTH\n"
                   "Counts the positions exactly DEPTH plies ahead (docs/rules.md, perft).\n"
                   "  --divide         also print the count below each first move\n%s",
                   cli_game_usage);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] && (argv[i][1] < '0' || argv[i][1] > '9')) {
            fprintf(stderr, "hnefi perft: unknown option '%s' (try --help)\n", argv[i]);
            return 2;
        } else if (depth >= 0) {
            fprintf(stderr, "hnefi perft: more than one depth ('%s')\n", argv[i]);
            return 2;
        } else if (!cli_parse_int(argv[i], 0, 20, "perft depth", &depth)) {
            return 2;
        }
    }
    if (depth < 0) {
        fprintf(stderr, "hnefi perft: missing DEPTH (try --help)\n");
        return 2;
    }
    if (!cli_game_finish(&g)) {
        cli_game_free(&g);
        return 2;
    }
    const struct position *p = tafl_pos(g.game);
    int size = p->v->size;
    double t0 = now_seconds();
    uint64_t nodes =
        divide ? perft_divide(p, (int)depth, divide_line, &size) : perft(p, (int)depth);
    double dt = now_seconds() - t0;
    printf("perft %ld: %llu nodes, %.3f s, %.0f nodes/s\n", depth, (unsigned long long)nodes, dt,
           dt > 0 ? (double)nodes / dt : 0.0);
    cli_game_free(&g);
    return 0;
}

/* hnefi variant: prints a variant's rule options and its OpenTafl rules string. */
int cmd_variant(int argc, char **argv) {
    struct cli_game g;
    cli_game_init(&g);
    for (int i = 1; i < argc; i++) {
        int r = cli_game_option(&g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: hnefi variant [options]\n"
                   "Prints every rule option of a variant (docs/rules.md) and its OpenTafl rules "
                   "string.\n%s",
                   cli_rules_usage);
            return 0;
        }
        fprintf(stderr, "hnefi variant: unknown argument '%s' (try --help)\n", argv[i]);
        return 2;
    }
    if (g.fen || g.moves) {
        fprintf(stderr,
                "hnefi variant: %s does not apply: variant prints rules, not a position (try "
                "hnefi show)\n",
                g.fen ? "--fen" : "--moves");
        return 2;
    }
    char text[2048];
    if (variant_describe(&g.variant, text, sizeof text) < 0 ||
        opentafl_write_rules(&g.variant, text + strlen(text), sizeof text - strlen(text)) < 0) {
        fprintf(stderr, "hnefi variant: description too long\n");
        return 1;
    }
    printf("%s\n", text);
    return 0;
}

/* The hnefi program: git-style commands for the tafl engine and the dice and card games. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/opentafl.h"
#include "tools/cli.h"
#include "tools/cmd_match.h"
#include "tools/cmd_mc.h"
#include "tools/proto_session.h"

/* hnefi tune (tools/cmd_tune.c): fits the evaluation weights to game results. */
int cmd_tune(int argc, char **argv);

/* hnefi train (tools/cmd_train.c): fits the learned evaluation to self-play data. */
int cmd_train(int argc, char **argv);

/* hnefi book (tools/cmd_book.c): builds, grows, shows and merges opening books. */
int cmd_book(int argc, char **argv);

/* hnefi solve (tools/cmd_solve.c): proves or refutes a forced win by exhaustive search. */
int cmd_solve(int argc, char **argv);

/* hnefi tactics (tools/cmd_tactics.c): tactics suites: verify, run the search, mine. */
int cmd_tactics(int argc, char **argv);

#if HNEFI_WIDE_BOARDS
/* The same commands of the wide build (boards up to 19x19): the sources compiled again with
   HNEFI_WIDE, their names prefixed hnefi_w_ (tools/wide_names.cmake). */
int hnefi_w_cmd_analyze(int argc, char **argv);
int hnefi_w_cmd_show(int argc, char **argv);
int hnefi_w_cmd_variant(int argc, char **argv);
int hnefi_w_cmd_perft(int argc, char **argv);
int hnefi_w_cmd_match(int argc, char **argv);
int hnefi_w_cmd_selfplay(int argc, char **argv);
int hnefi_w_cmd_uci(int argc, char **argv);
int hnefi_w_cmd_otep(int argc, char **argv);
int hnefi_w_cmd_htp(int argc, char **argv);
int hnefi_w_cmd_games(int argc, char **argv);
int hnefi_w_cmd_train(int argc, char **argv);
int hnefi_w_cmd_book(int argc, char **argv);
int hnefi_w_proto_auto(void);
bool hnefi_w_opentafl_rules_ok(const char *rules, char *err, size_t errlen);
struct variant;
const struct variant *hnefi_w_variant_by_name(const char *name);
int hnefi_w_variant_size(const struct variant *v);
#define WIDE(f)   hnefi_w_##f
#define WIDE_AUTO auto_wide
#else
#define WIDE(f)   NULL
#define WIDE_AUTO NULL
#endif

/* One command: its name, its entry points (the wide one NULL for commands on 11x11 and smaller
   boards only) and a line of help. */
struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    int (*run_wide)(int argc, char **argv);
    const char *help;
};

static const struct command commands[] = {
    {"analyze", cmd_analyze, WIDE(cmd_analyze),
     "analyze a position: one line per depth, then the best move"},
    {"bench", cmd_bench, NULL, "search the bench positions: the node signature and nodes/s"},
    {"show", cmd_show, WIDE(cmd_show), "show a position: board, side to move, status, legal moves"},
    {"variant", cmd_variant, WIDE(cmd_variant),
     "print a variant's rule options and its OpenTafl rules string"},
    {"perft", cmd_perft, WIDE(cmd_perft),
     "count the positions N plies ahead, with nodes per second"},
    {"mc", cmd_mc, NULL,
     "Monte-Carlo players: Saekonungr, Eketorp, Viking Raid, the tafl variants"},
    {"match", cmd_match, WIDE(cmd_match),
     "a tournament between hnefi configurations and external engines"},
    {"selfplay", cmd_selfplay, WIDE(cmd_selfplay),
     "hnefi against itself: matches, SPRT, training data"},
    {"solve", cmd_solve, NULL, "prove whether the side to move forces a win within N plies"},
    {"tactics", cmd_tactics, NULL, "tactics suites: re-prove, measure the search, mine from games"},
    {"games", cmd_games, WIDE(cmd_games), "list, filter, convert and summarise game record files"},
    {"book", cmd_book, WIDE(cmd_book),
     "opening books: build from games, grow by search, show, merge"},
    {"tune", cmd_tune, NULL, "fit the evaluation weights to the results of finished games"},
    {"train", cmd_train, WIDE(cmd_train),
     "train the learned evaluation (a network) on self-play data"},
    {"uci", cmd_uci, WIDE(cmd_uci), "speak the UCI-like protocol (the default with no command)"},
    {"otep", cmd_otep, WIDE(cmd_otep), "speak the OpenTafl engine protocol"},
    {"htp", cmd_htp, WIDE(cmd_htp), "speak the hnefatafl.org text protocol"},
};

/* Prints the list of commands. */
static void usage(FILE *out) {
    fprintf(out, "usage: hnefi <command> [options]   (hnefi <command> --help for more)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(out, "\n  hnefi --version  the version and the data directory (HNEFI_DATA overrides "
                 "it)\n");
}

/* Prints the version and where the data files are looked for. */
static void version(void) {
    const char *dir = cli_data_dir(), *env = getenv("HNEFI_DATA");
    printf("hnefi %s\n", PROTO_ENGINE_VERSION);
    printf("data directory: %s (%s%s)\n", *dir ? dir : "(unknown)",
           env && *env ? "from HNEFI_DATA" : "next to the program",
           *dir && access(dir, R_OK) != 0 ? ", missing" : "");
}

/*
 * Tells whether a command's arguments name a board beyond 11x11, which only the wide build
 * plays: `--variant V` for a variant of the wide build's table only, or `--rules` with dim:N,
 * N > 11.
 */
static bool wants_wide(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--rules") == 0) {
            const char *d = strstr(argv[i + 1], "dim:");
            if (d && atoi(d + 4) > 11) return true;
        }
#if HNEFI_WIDE_BOARDS
        if (strcmp(argv[i], "--variant") == 0) {
            const struct variant *v = hnefi_w_variant_by_name(argv[i + 1]);
            if (v && hnefi_w_variant_size(v) > 11) return true;
        }
#endif
    }
    return false;
}

/* Runs a command: on PROTO_SWITCH (a protocol session's rules, or a record file's variant, need
   the other build) the same command of the other build goes on, as often as the rules change
   build. */
static int run_switching(int (*first)(int, char **), int (*other)(int, char **), int argc,
                         char **argv) {
    int rc = first(argc, argv);
    for (bool in_other = false; rc == PROTO_SWITCH && other; in_other = !in_other)
        rc = in_other ? first(argc, argv) : other(argc, argv);
    return rc == PROTO_SWITCH ? 1 : rc;
}

/* hnefi with no command, as a command of the narrow or the wide build. */
static int auto_narrow(int argc, char **argv) {
    (void)argc, (void)argv;
    return proto_auto();
}

#if HNEFI_WIDE_BOARDS
/* The same, of the wide build. */
static int auto_wide(int argc, char **argv) {
    (void)argc, (void)argv;
    return hnefi_w_proto_auto();
}
#endif

/* Tells whether the 128-bit build has a built-in variant of this name. */
static bool narrow_variant_known(const char *name) {
    return variant_by_name(name) != NULL;
}

#if HNEFI_WIDE_BOARDS
/* Tells whether the wide build has a built-in variant of this name. */
static bool wide_variant_known(const char *name) {
    return hnefi_w_variant_by_name(name) != NULL;
}
#endif

/* Runs the command named by argv[1]. */
int main(int argc, char **argv) {
    /* the protocols hand a session to the other build when its rules need it (proto_session.h) */
    hnefi_shared_handoff.rules_ok[0] = opentafl_rules_ok;
    hnefi_shared_handoff.variant_known[0] = narrow_variant_known;
#if HNEFI_WIDE_BOARDS
    hnefi_shared_handoff.rules_ok[1] = hnefi_w_opentafl_rules_ok;
    hnefi_shared_handoff.variant_known[1] = wide_variant_known;
#endif
    if (argc < 2) /* UCI, or OpenTafl if the first line is `rules` */
        return run_switching(auto_narrow, HNEFI_WIDE_BOARDS ? WIDE_AUTO : NULL, argc, argv);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "hnefi --version: unexpected argument '%s' (it takes none)\n", argv[2]);
            return 2;
        }
        version();
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        const struct command *c = &commands[i];
        if (strcmp(argv[1], c->name) != 0) continue;
        if (c->run_wide && wants_wide(argc - 1, argv + 1)) /* it starts there, may come back */
            return run_switching(c->run_wide, c->run, argc - 1, argv + 1);
        return run_switching(c->run, c->run_wide, argc - 1, argv + 1);
    }
    fprintf(stderr, "hnefi: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

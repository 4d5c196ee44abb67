/* The hnefi program: git-style commands for the tafl engine and the dice and card games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* One command: its name, its entry point and a line of help. */
struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
};

static const struct command commands[] = {
    {"analyze", cmd_analyze, "analyze a position: one line per depth, then the best move"},
    {"bench", cmd_bench, "search the bench positions: the node signature and nodes/s"},
    {"show", cmd_show, "show a position: board, side to move, status, legal moves"},
    {"variant", cmd_variant, "print a variant's rule options and its OpenTafl rules string"},
    {"perft", cmd_perft, "count the positions N plies ahead, with nodes per second"},
    {"mc", cmd_mc, "Monte-Carlo players: Saekonungr, Eketorp, Viking Raid, the tafl variants"},
    {"match", cmd_match, "a tournament between hnefi configurations and external engines"},
    {"selfplay", cmd_selfplay, "hnefi against itself: matches, SPRT, training data"},
    {"solve", cmd_solve, "prove whether the side to move forces a win within N plies"},
    {"tactics", cmd_tactics, "tactics suites: re-prove, measure the search, mine from games"},
    {"games", cmd_games, "list, filter, convert and summarise game record files"},
    {"book", cmd_book, "opening books: build from games, grow by search, show, merge"},
    {"tune", cmd_tune, "fit the evaluation weights to the results of finished games"},
    {"train", cmd_train, "train the learned evaluation (a network) on self-play data"},
    {"uci", cmd_uci, "speak the UCI-like protocol (the default with no command)"},
    {"otep", cmd_otep, "speak the OpenTafl engine protocol"},
    {"htp", cmd_htp, "speak the hnefatafl.org text protocol"},
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

/* Runs the command named by argv[1]. */
int main(int argc, char **argv) {
    if (argc < 2) return proto_auto(); /* UCI, or OpenTafl if the first line is `rules` */
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
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "hnefi: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

/*
 * Shared command-line plumbing for the hnefi program: the game options every tafl command takes
 * (--variant, --rules, --rule, --fen, --moves) and small helpers for numbers and errors.
 *
 * A struct cli_game owns its variant copy (so --rule can change options) and the game built from
 * it. cli_game_option consumes one option if it is a game option; cli_game_finish builds the game
 * once all options are read, reporting the first bad FEN or move with its reason.
 */
#ifndef HNEFI_TOOLS_CLI_H
#define HNEFI_TOOLS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/tafl.h"
#include "search/eval.h"
#include "search/nnue.h"
#include "search/params.h"

struct cli_game {
    struct variant variant;
    const char *fen;
    const char *moves;
    struct tafl_game *game;
};

/* Sets g to the default: Copenhagen from its start position. */
void cli_game_init(struct cli_game *g);

/*
 * If argv[*i] is a game option, consumes it (and its value) and returns 1; returns 0 if it is not
 * one, -1 after printing an error.
 */
int cli_game_option(struct cli_game *g, int argc, char **argv, int *i);

/* Builds the game from the options; prints an error and returns false on bad input. */
bool cli_game_finish(struct cli_game *g);

/* Frees the game. */
void cli_game_free(struct cli_game *g);

/* Reads a whole decimal number in [lo, hi]; prints an error naming what and returns false. */
bool cli_parse_int(const char *text, long lo, long hi, const char *what, long *out);

/* Reads the value of --param at argv[*i] into p (NAME=V, docs/search.md) and steps over it;
   false after printing "<cmd>: --param: <why>" when it is missing, unknown or out of range. */
bool cli_param(int argc, char **argv, int *i, struct search_params *p, const char *cmd);

/*
 * Writes what a whole number in [lo, hi] may be, for an error message: "from 1 to 64"; when hi
 * is only an internal cap (CLI_INT_CAP or more, beyond any real use), ", 0 or more", unless the
 * number given was above it (above): then "at most hi", the cap the user hit.
 */
void cli_range_text(long long lo, long long hi, bool above, char *out, size_t outlen);

enum { CLI_INT_CAP = 1000000000 };

/*
 * Reads an evaluation weights file (name=value pairs, plain or zstd) into *w; on failure prints
 * "<who>: <reason>" naming the file and returns false, leaving *w as it was.
 */
bool cli_load_weights(struct eval_weights *w, const char *path, const char *who);

/*
 * Which evaluation a command or a protocol session searches with: the learned one (the built-in
 * network of the variant, or a network read from a file) or the classical one. A network file
 * replaces the built-in network only while it fits the variant in play.
 */
struct cli_eval {
    bool classic;        /* --eval classic */
    bool nnue;           /* --eval nnue: asked for by name, not by default */
    struct nnue_net net; /* a network read from a file, if have_net */
    bool have_net;
    char net_path[256];
};

/* The usage text of the evaluation options (--eval, --net). */
extern const char cli_eval_usage[];

/* Returns the network to search v with, or NULL for the classical evaluation. */
const struct nnue_net *cli_eval_net(const struct cli_eval *e, const struct variant *v);

/*
 * Reads a network file for variant v (it must fit v); on failure the choice stays as it was and
 * err says why, naming the file.
 */
bool cli_eval_load(struct cli_eval *e, const char *path, const struct variant *v, char *err,
                   size_t errlen);

/* Reads a network file for variant v into *net (it must fit v); false with the reason in err,
   naming the file. */
bool cli_net_read(struct nnue_net *net, const char *path, const struct variant *v, char *err,
                  size_t errlen);

/* Makes net (read from path by cli_net_read) e's network; e owns it from now on. */
void cli_eval_adopt(struct cli_eval *e, struct nnue_net *net, const char *path);

/* Sets the evaluation by name ("nnue" or "classic"); false if the name is neither. */
bool cli_eval_set_kind(struct cli_eval *e, const char *name);

/*
 * Tells whether the learned evaluation was asked for by name (--eval nnue) and no network serves
 * v (no built-in one for it, and no network file that fits it): a command refuses that rather
 * than search with the classical evaluation instead.
 */
bool cli_eval_missing(const struct cli_eval *e, const struct variant *v);

/* Returns a short description of what cli_eval_net gives for v ("network copenhagen.nnue"). */
const char *cli_eval_describe(const struct cli_eval *e, const struct variant *v, char *out,
                              size_t outlen);

/* Frees a loaded network. */
void cli_eval_free(struct cli_eval *e);

/*
 * Tells whether a file can be written at path, before long work that ends by writing it; a file
 * the check creates is removed again. Prints "<who>: cannot write <path>: <reason>" if not.
 */
bool cli_check_writable(const char *path, const char *who);

/*
 * hnefi's data directory (the shipped opening file, real-game records, Eketorp's rule data):
 * $HNEFI_DATA if set, else the directory HNEFI_DATA_REL (set by the build: "../share/hnefi" in
 * the usual layout) from the running program's own directory, so an installed hnefi finds
 * <prefix>/share/hnefi and a built one the copy in its build tree. "" if it cannot be found out.
 */
const char *cli_data_dir(void);

/*
 * Finds an input file named on the command line: a name with a '/', or one that exists here, is
 * used as it is; otherwise it is looked up in the data directory. Writes the path to out; false
 * after printing "hnefi: <what> '<name>': ..." if the name is found in neither place.
 */
bool cli_data_file(const char *name, const char *what, char *out, size_t outlen);

/*
 * Sets *out to the variant a training-data file holds, for the command cmd ("train"): returns
 * 0; 1 after printing why not; or PROTO_SWITCH (tools/proto_session.h) when only the other
 * build plays it (a board beyond 11x11, or one up to it), which then runs the command instead.
 * ho tells what each build plays (&hnefi_shared_handoff).
 */
struct proto_handoff;
int cli_data_variant(const char *cmd, const char *path, struct variant *out,
                     const struct proto_handoff *ho);

/* Prints the board of p as a diagram with coordinates. */
void cli_print_board(const struct position *p);

/* Prints the board of p as a diagram with coordinates to out. */
void cli_fprint_board(FILE *out, const struct position *p);

/* The usage text of the game options, and of the ones that choose the rules (no --fen, --moves). */
extern const char cli_game_usage[], cli_rules_usage[];

/* Each command: the rest of argv after the command name (argv[0] is the command). */
int cmd_show(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_variant(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif

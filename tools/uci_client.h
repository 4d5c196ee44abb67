/*
 * The external-engine player of matches: a program started as a process and driven through its
 * standard input and output with the UCI-like protocol (docs/uci.md, TaflZero's dialect).
 *
 * The engine is started with /bin/sh -c "exec COMMAND" (its standard error is discarded), asked
 * `uci` (answer `uciok` within the start-up time), given its options with `setoption`, the variant
 * if it is not standard Copenhagen (`setoption name Variant` or `Rules`), and `isready`. Each game
 * begins with `ucinewgame` and `isready`; each move sends `position fen <start> moves ...` and
 * `go nodes|depth|movetime|wtime btime winc binc` (white = defenders, black = attackers) and
 * waits for `bestmove`, reading `score cp`/`score mate` from `info` lines on the way.
 *
 * Faults end the game for this engine, never the match: end of output or a failed write is a
 * crash (the exit status is reported), no `bestmove` by the referee's deadline a hang (the process
 * is killed), an unreadable move or `bestmove (none)`/`a1a1` a bad move. A dead engine is started
 * again at the next game.
 */
#ifndef HNEFI_TOOLS_UCI_CLIENT_H
#define HNEFI_TOOLS_UCI_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "selfplay/player.h"

enum { UCI_CLIENT_MAX_OPTIONS = 32 };

/* How to start an engine: its command and the options to set (what player_spec.ext points to). */
struct uci_engine {
    const char *cmd;
    int nopts;
    const char *opt_name[UCI_CLIENT_MAX_OPTIONS];
    const char *opt_value[UCI_CLIENT_MAX_OPTIONS];
    int64_t startup_ms; /* time allowed for uciok and readyok (0: 10 s) */
};

/* Makes an external-engine player from spec (spec->ext is a struct uci_engine). */
bool uci_player_create(const struct player_spec *spec, struct player *out, char *err,
                       size_t errlen);

#endif

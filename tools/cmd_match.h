/*
 * The tournament commands: `hnefi match` and `hnefi selfplay` (docs/selfplay.md) and `hnefi games`
 * (record files). Each takes the arguments after the program name (argv[0] is the command), prints
 * results on stdout, progress and errors on stderr, and returns the exit status (2 for bad
 * arguments, 1 for failures).
 */
#ifndef HNEFI_TOOLS_CMD_MATCH_H
#define HNEFI_TOOLS_CMD_MATCH_H

/* Runs `hnefi match ...`: players from --player, in-process or external. */
int cmd_match(int argc, char **argv);

/* Runs `hnefi selfplay ...`: like match, with two in-process hnefi players by default. */
int cmd_selfplay(int argc, char **argv);

/* Runs `hnefi games ...`: lists, filters, converts and summarises record files. */
int cmd_games(int argc, char **argv);

#endif

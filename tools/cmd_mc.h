/*
 * `hnefi mc`: Monte-Carlo players for the dice and card games (tournaments, advice on a decision,
 * the random-playout bench, and the exact two-player Saekonungr solver).
 *
 * cmd_mc takes the arguments after the program name with argv[0] == "mc". It prints results on
 * stdout, errors (naming the bad argument) on stderr, and returns 0 on success, 2 on bad arguments
 * (an option, a game, a policy, a STATE), 1 when a file cannot be used or memory runs out.
 * A Viking Raid front-end joins through tools/cmd_mc_raid.h when that header exists: it must
 * declare `int cmd_mc_raid(int argc, char **argv);`, which receives `raid <word> ...` for every
 * `hnefi mc raid <word>` whose word does not begin with '-'.
 */
#ifndef HNEFI_TOOLS_CMD_MC_H
#define HNEFI_TOOLS_CMD_MC_H

/* Runs `hnefi mc ...`; returns the exit status. */
int cmd_mc(int argc, char **argv);

#endif

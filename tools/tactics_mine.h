/*
 * hnefi tactics mine: builds a tactics suite (bench/tactics.h) from game records. Every candidate
 * position is proved by the exact solver; the choice among them is seeded and deterministic.
 */
#ifndef HNEFI_TOOLS_TACTICS_MINE_H
#define HNEFI_TOOLS_TACTICS_MINE_H

/* Runs hnefi tactics mine with the arguments after the word "tactics" (argv[0] is "mine"). */
int tactics_mine(int argc, char **argv);

#endif

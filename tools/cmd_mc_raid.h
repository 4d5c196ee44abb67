/*
 * `hnefi mc raid ...`: the Viking Raid front-end (issue 7).
 *
 * Subcommands: `odds` (exact combat odds: melee per round and whole fight, missile volleys, the
 * dagger in the back, wild beasts, the tomb, with an optional seeded Monte-Carlo check), `buy`
 * (the loadout optimiser and its Pareto front), `play` (a tournament of the abstract raid day
 * with win rates, 95% intervals and war-chest distributions), `bench` (random playouts per
 * second) and `help`. The plain tournament
 * `hnefi mc raid --games N --policy ...` is served by tools/cmd_mc.c through raid_game.
 * cmd_mc_raid receives argv[0] == "raid"; it prints results on stdout, errors naming the bad
 * argument on stderr, and returns 0 on success, 2 on bad arguments (1 if memory runs out).
 */
#ifndef HNEFI_TOOLS_CMD_MC_RAID_H
#define HNEFI_TOOLS_CMD_MC_RAID_H

/* Runs `hnefi mc raid <subcommand> ...`; returns the exit status. */
int cmd_mc_raid(int argc, char **argv);

#endif

/*
 * Tournaments across machines with MPI (built with -DHNEFI_MPI=ON): `mpirun -np N hnefi selfplay
 * ...` starts N copies of the same command. Rank 0 holds the schedule, hands out game numbers on
 * request, collects every result, writes the records and the statistics, and tells every rank to
 * stop once the tournament is decided; every rank (rank 0 included) plays games with its own
 * worker threads. Because statistics take game pairs in order (selfplay/match.h), the result is
 * the one of a threaded run with the same seed and games.
 */
#ifndef HNEFI_SELFPLAY_MATCH_MPI_H
#define HNEFI_SELFPLAY_MATCH_MPI_H

#include <stdbool.h>
#include <stddef.h>

#include "selfplay/match.h"

/* Tells whether this process was started by an MPI launcher (and MPI support is built in). */
bool match_mpi_launched(void);

/* Returns the number of ranks on this machine according to the launcher (1 if unknown). */
int match_mpi_local_ranks(void);

/*
 * Runs the tournament over every rank. *root says whether this process is rank 0, the one whose
 * status and errors count. 0, or -1 with a reason in err.
 */
int match_run_mpi(const struct match_config *cfg, struct match_status *out, bool *root, char *err,
                  size_t errlen);

#endif

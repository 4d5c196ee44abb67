/*
 * Self-play across MPI ranks: `mpirun -np 2 hnefi selfplay ...` gives the same statistics and the
 * same records as the threaded run with the same seed and games, both ranks play games, and an
 * SPRT stops every rank at the same pair as the threaded run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "test_selfplay_util.h"

static char dir[64];

/* Copies the statistics part of a run's output: from the encounter line to the ends line. */
static void stats_part(const char *out, char *part, size_t len) {
    const char *a = strstr(out, "a vs b:"), *b = a ? strstr(a, "average game") : NULL;
    snprintf(part, len, "%.*s", a && b ? (int)(b - a) : 0, a ? a : "");
}

/* Runs the same tournament threaded and over two ranks and compares them. */
static void compare(const char *args, const char *tag, bool sprt) {
    char cmd[1500], out1[16384], out2[16384], s1[8192], s2[8192], r1[200], r2[200];
    snprintf(r1, sizeof r1, "%s/%s-threads.zst", dir, tag);
    snprintf(r2, sizeof r2, "%s/%s-mpi.zst", dir, tag);
    snprintf(cmd, sizeof cmd, "%s %s --concurrency 2 --records %s", HNEFI_BINARY, args, r1);
    CHECK_EQ_INT(run_command(cmd, out1, sizeof out1), 0);
    snprintf(cmd, sizeof cmd, "%s -np 2 --oversubscribe %s %s --concurrency 1 --records %s",
             MPIEXEC, HNEFI_BINARY, args, r2);
    CHECK_EQ_INT(run_command(cmd, out2, sizeof out2), 0);
    stats_part(out1, s1, sizeof s1);
    stats_part(out2, s2, sizeof s2);
    CHECK(s1[0] != '\0');
    CHECK_EQ_STR(s1, s2);
    /* both ranks played: "games per rank: X Y" with X, Y > 0 */
    const char *per = strstr(out2, "games per rank:");
    long x = 0, y = 0;
    CHECK(per && sscanf(per, "games per rank: %ld %ld", &x, &y) == 2 && x > 0 && y > 0);
    if (sprt) {
        CHECK(strstr(out1, "accepted") != NULL);
        const char *l1 = strstr(out1, "SPRT"), *l2 = strstr(out2, "SPRT");
        CHECK(l1 && l2 && strncmp(l1, l2, strcspn(l1, "\n")) == 0);
    } else {
        char *a = sorted_lines(r1), *b = sorted_lines(r2);
        CHECK(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
    }
    if (!s1[0] || strcmp(s1, s2) != 0) fprintf(stderr, "threads:\n%s\nmpi:\n%s\n", out1, out2);
}

/* Runs the MPI comparisons in a scratch directory. */
int main(void) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    if (!scratch_make(dir, "mpi")) return 1;
    compare("selfplay --games 12 --seed 9 --quiet --player name=a tc=nodes:400 --player name=b "
            "tc=nodes:1200",
            "plain", false);
    compare("selfplay --games 400 --seed 4 --quiet --sprt elo0=0,elo1=40 --player name=a "
            "tc=nodes:1500 --player name=b tc=nodes:100",
            "sprt", true);
    scratch_remove(dir);
    return check_done();
}

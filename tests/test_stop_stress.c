/*
 * Stop stress: `stop` sent at random instants of a search, thousands of times, through the UCI
 * protocol of the real hnefi binary (tests/pipe_process.h). Each round sets a random position
 * (a few random legal plies from the start of Copenhagen or Brandubh), starts a search of a
 * random kind (infinite, ponder, a move time, a node or depth limit, which may end by itself
 * before the stop or after), waits a random 0-3 ms, sends `stop` and `isready`, and checks that
 * exactly one `bestmove` came before `readyok`, naming a legal move of that position.
 *
 * The result does not depend on the machine's speed: whichever comes first, the stop or the
 * search's own end, exactly one bestmove is due. 2000 rounds (300 with HNEFI_QUICK=1, as under
 * the sanitizers; 20000 with HNEFI_LONG=1); the seed is fixed, or HNEFI_SEED.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "engine/notation.h"
#include "engine/tafl.h"
#include "pipe_process.h"

enum { WAIT = 300000 }; /* ms: a hang fails, never a slow run */

static uint64_t rng = 0x5EED5EED1234ULL;

/* Returns the next random number (xorshift64*). */
static uint64_t rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}

/* Sleeps us microseconds. */
static void sleep_us(long us) {
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

/* Plays up to n random legal plies on t, leaving a position with a legal move; writes them into
   text as `moves m1 m2 ...` (or nothing). */
static void random_game(struct tafl_game *t, int n, char *text, size_t len) {
    move_t moves[MAX_MOVES];
    size_t k = 0;
    text[0] = 0;
    for (int i = 0; i < n; i++) {
        int count = tafl_legal_moves(t, moves);
        move_t m = moves[rnd() % (uint64_t)count];
        tafl_play(t, m);
        if (t->result != RESULT_NONE || tafl_legal_moves(t, moves) == 0) {
            tafl_undo(t);
            break;
        }
        char mv[MOVE_TEXT_MAX];
        move_write(m, t->v->size, mv);
        k += (size_t)snprintf(text + k, len - k, "%s%s", k ? " " : " moves ", mv);
    }
}

/* Runs one round; returns false (after a message) if the reply was wrong. */
static bool round_ok(struct pipe_process *p, const struct variant *v, long round) {
    static const char *const kinds[] = {"go infinite",   "go ponder",  "go movetime 2",
                                        "go nodes 3000", "go depth 3", "go"};
    struct tafl_game *t = tafl_new(v);
    char moves[4096], cmd[4200], line[1 << 16];
    random_game(t, (int)(rnd() % 12), moves, sizeof moves);
    snprintf(cmd, sizeof cmd, "position startpos%s", moves);
    const char *kind = kinds[rnd() % (sizeof kinds / sizeof *kinds)];
    long delay = (long)(rnd() % 4) == 0 ? 0 : (long)(rnd() % 3000);
    bool ok = pipe_process_send(p, cmd, WAIT) && pipe_process_send(p, kind, WAIT);
    if (delay) sleep_us(delay);
    ok = ok && pipe_process_send(p, "stop", WAIT) && pipe_process_send(p, "isready", WAIT);
    int bestmoves = 0;
    bool legal = true;
    while (ok) {
        int r = pipe_process_read_line(p, line, sizeof line, WAIT);
        if (r != 1) {
            fprintf(stderr, "round %ld: the engine stopped answering\n", round);
            ok = false;
        } else if (strcmp(line, "readyok") == 0) {
            break;
        } else if (strncmp(line, "bestmove ", 9) == 0) {
            bestmoves++;
            char mv[64];
            move_t m;
            char err[200];
            sscanf(line + 9, "%63s", mv);
            legal = move_parse_legal(tafl_pos(t), mv, &m, err, sizeof err) &&
                    tafl_move_legal(t, m, NULL, 0);
            if (!legal)
                fprintf(stderr, "round %ld (%s, %s): '%s' is not legal\n", round, cmd, kind, line);
        } else if (strncmp(line, "info string error", 17) == 0) {
            fprintf(stderr, "round %ld: %s\n", round, line);
            ok = false;
        }
    }
    if (ok && bestmoves != 1)
        fprintf(stderr, "round %ld (%s, %s, stop after %ld us): %d bestmove lines\n", round, cmd,
                kind, delay, bestmoves);
    tafl_free(t);
    return ok && bestmoves == 1 && legal;
}

/* Runs the rounds against one hnefi uci process. */
int main(void) {
    long rounds = getenv("HNEFI_LONG") && atoi(getenv("HNEFI_LONG"))     ? 20000
                  : getenv("HNEFI_QUICK") && atoi(getenv("HNEFI_QUICK")) ? 300
                                                                         : 2000;
    if (getenv("HNEFI_SEED")) rng = strtoull(getenv("HNEFI_SEED"), NULL, 10) | 1;
    struct pipe_process *p = malloc(sizeof *p);
    char *argv[] = {HNEFI_BINARY, "uci", "--hash", "4", "--no-book", NULL};
    CHECK(p && pipe_process_start(p, argv, NULL));
    if (!p) return check_done();
    long good = 0;
    const char *names[] = {"copenhagen", "brandubh"};
    for (long i = 0; i < rounds; i++) {
        if (i % (rounds / 4) == 0) { /* change the variant now and then */
            char cmd[100];
            snprintf(cmd, sizeof cmd, "setoption name Variant value %s",
                     names[(i / (rounds / 4)) % 2]);
            pipe_process_send(p, cmd, WAIT);
        }
        const struct variant *v = variant_by_name(names[(i / (rounds / 4)) % 2]);
        if (!round_ok(p, v, i)) break;
        good++;
    }
    CHECK_EQ_INT(good, rounds);
    CHECK_EQ_INT(pipe_process_wait(p, WAIT), 0);
    printf("%ld rounds of stop at a random instant: one legal bestmove each\n", good);
    free(p);
    return check_done();
}

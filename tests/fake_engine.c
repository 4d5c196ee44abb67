/*
 * A scripted engine for match tests: it speaks just enough of the UCI-like protocol (uci,
 * isready, ucinewgame, setoption name Variant, position, go, quit) and plays a legal move chosen
 * from the position's key, unless told to misbehave after N moves of this process:
 *   --crash-after N    exit with status 3 instead of answering
 *   --hang-after N     never answer again
 *   --illegal-after N  answer a move that is not legal
 *   --garbage-after N  answer "bestmove zz99"
 *   --none-after N     answer "bestmove (none)"
 *   --slow MS          wait MS milliseconds before each answer
 *   --score CP         report "info ... score cp CP" before each answer
 *   --no-uciok         never finish the handshake
 *   --readyok-only N   answer only the first N isready of this process
 *   --pid-file PATH    write its process id to PATH at start
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/notation.h"
#include "engine/tafl.h"

/* What the command line asked for. */
struct script {
    long crash, hang, illegal, garbage, none, slow_ms, score, readyok_only;
    int no_uciok, has_score;
};

/* Waits ms milliseconds. */
static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Sets up the game from a position command; leaves it alone on bad input. */
static void position(struct tafl_game *t, const struct variant *v, char *args) {
    struct position p;
    char err[200];
    char *moves = strstr(args, " moves");
    if (moves) *moves = '\0';
    if (strncmp(args, "startpos", 8) == 0) {
        pos_init_start(&p, v);
    } else if (strncmp(args, "fen ", 4) != 0 || !fen_parse(&p, v, args + 4, err, sizeof err)) {
        printf("info string bad position\n");
        return;
    }
    tafl_reset(t, &p);
    if (!moves) return;
    for (char *save = NULL, *m = strtok_r(moves + 6, " ", &save); m; m = strtok_r(NULL, " ", &save))
        if (!tafl_play_text(t, m, err, sizeof err)) {
            printf("info string bad move %s\n", m);
            return;
        }
}

/* Answers a go command according to the script. */
static void go(struct tafl_game *t, const struct script *s, long done) {
    if (s->crash >= 0 && done >= s->crash) exit(3);
    if (s->hang >= 0 && done >= s->hang) {
        for (;;) sleep_ms(1000);
    }
    if (s->slow_ms) sleep_ms(s->slow_ms);
    if (s->has_score) printf("info depth 1 score cp %ld nodes 1 time 1 pv\n", s->score);
    move_t moves[MAX_MOVES];
    int n = tafl_legal_moves(t, moves);
    char text[MOVE_TEXT_MAX] = "(none)";
    if (s->garbage >= 0 && done >= s->garbage) {
        strcpy(text, "zz99");
    } else if (s->none >= 0 && done >= s->none) {
        strcpy(text, "(none)");
    } else if (s->illegal >= 0 && done >= s->illegal) {
        /* a man moving onto its own neighbour's square, or off its line: never legal */
        const struct position *p = tafl_pos(t);
        int from = bb_lsb(pos_side_pieces(p, p->side)), size = p->v->size;
        int to = from % size + 1 < size ? from + size + 1 : from + size - 1;
        move_write(move_make(from, to), size, text);
    } else if (n > 0) {
        move_write(moves[tafl_pos(t)->key % (uint64_t)n], t->v->size, text);
    }
    printf("bestmove %s\n", text);
}

/* Reads the script from the command line. */
static void read_script(struct script *s, int argc, char **argv) {
    memset(s, 0, sizeof *s);
    s->crash = s->hang = s->illegal = s->garbage = s->none = s->readyok_only = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v = i + 1 < argc ? atol(argv[i + 1]) : 0;
        if (strcmp(a, "--no-uciok") == 0) {
            s->no_uciok = 1;
            continue;
        }
        if (strcmp(a, "--pid-file") == 0 && i + 1 < argc) {
            FILE *f = fopen(argv[++i], "w");
            if (f) fprintf(f, "%ld\n", (long)getpid()), fclose(f);
            continue;
        }
        if (strcmp(a, "--crash-after") == 0) s->crash = v;
        if (strcmp(a, "--hang-after") == 0) s->hang = v;
        if (strcmp(a, "--illegal-after") == 0) s->illegal = v;
        if (strcmp(a, "--garbage-after") == 0) s->garbage = v;
        if (strcmp(a, "--none-after") == 0) s->none = v;
        if (strcmp(a, "--slow") == 0) s->slow_ms = v;
        if (strcmp(a, "--readyok-only") == 0) s->readyok_only = v;
        if (strcmp(a, "--score") == 0) s->score = v, s->has_score = 1;
        i++;
    }
}

/* Runs the protocol loop on stdin and stdout. */
int main(int argc, char **argv) {
    struct script s;
    read_script(&s, argc, argv);
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct variant *v = variant_by_name("copenhagen");
    struct tafl_game *t = tafl_new(v);
    char line[65536];
    long done = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "uci") == 0) {
            printf("id name fake\n");
            if (!s.no_uciok) printf("uciok\n");
        } else if (strcmp(line, "isready") == 0) {
            if (s.readyok_only < 0 || s.readyok_only-- > 0) printf("readyok\n");
        } else if (strncmp(line, "setoption name Variant value ", 29) == 0) {
            const struct variant *nv = variant_by_name(line + 29);
            if (nv) {
                v = nv;
                tafl_free(t);
                t = tafl_new(v);
            }
        } else if (strncmp(line, "position ", 9) == 0) {
            position(t, v, line + 9);
        } else if (strncmp(line, "go", 2) == 0) {
            go(t, &s, done++);
        } else if (strcmp(line, "quit") == 0) {
            break;
        }
    }
    tafl_free(t);
    return 0;
}

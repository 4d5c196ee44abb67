/*
 * Transcript tests of the OpenTafl engine protocol: hnefi otep driven through pipes the way the
 * real OpenTafl host drives it (../shared/ref/otep.md §8): rules before hello, clock lines with a
 * trailing space before play (or none), opponent moves without captures, a host record that
 * disagrees with our board, error 2 and a second play, finish twice, no goodbye; the analysis
 * flow; goodbye and end of input during a search; bad input; and full games between two hnefi
 * engines refereed by the test, which plays the host. The engine's board is checked through
 * `analyze 64`: on a small board its lines start with every legal move, which the test compares
 * with its own game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data_file.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/tafl.h"
#include "pipe_process.h"

enum { WAIT = 300000 }; /* ms: a hang fails, never a slow run (sanitizers, a loaded machine) */

#define BRANDUB                                                                                    \
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"

static char line[1 << 16];

/* Starts hnefi otep with extra arguments (NULL-terminated list). */
static bool start(struct pipe_process *p, const char *a1, const char *a2) {
    char *argv[] = {HNEFI_BINARY, "otep", (char *)a1, (char *)a2, NULL};
    return pipe_process_start(p, argv, NULL);
}

/* The test's own copy of the game: the variant from a rules string and the game. */
struct host {
    struct variant v;
    struct tafl_game *t;
};

/* Sets the host's game to the start of rules; false if they do not load. */
static bool host_init(struct host *h, const char *rules) {
    char err[200];
    if (!CHECK(opentafl_read_rules(&h->v, rules, err, sizeof err))) return false;
    h->t = tafl_new(&h->v);
    return true;
}

/* Writes the host game's current position record. */
static const char *host_record(const struct host *h) {
    static char rec[256];
    opentafl_record_write(tafl_pos(h->t), rec, sizeof rec);
    return rec;
}

/* Checks that a `move` line is exactly `move <from>-<to>` and legal; plays it on the host game. */
static bool check_engine_move(struct host *h, const char *l, char *mv, size_t mvlen) {
    char err[200];
    move_t m;
    const char *t = l + 5;
    bool shape = strncmp(l, "move ", 5) == 0 && strspn(t, "abcdefghijk0123456789-") == strlen(t) &&
                 strchr(t, '-') && !strchr(t, ' ') && !strchr(t, '\r');
    if (!check_record(shape, __FILE__, __LINE__, "move line shape")) {
        fprintf(stderr, "    got '%s'\n", l);
        return false;
    }
    if (!check_record(move_parse_legal(tafl_pos(h->t), t, &m, err, sizeof err) &&
                          tafl_move_legal(h->t, m, err, sizeof err),
                      __FILE__, __LINE__, "engine move legal")) {
        fprintf(stderr, "    '%s': %s\n", t, err);
        return false;
    }
    snprintf(mv, mvlen, "%s", t);
    tafl_play(h->t, m);
    return true;
}

/* Reads lines up to the engine's reply starting with prefix; status lines are skipped. */
static bool reply(struct pipe_process *p, const char *prefix) {
    for (;;) {
        if (pipe_process_read_line(p, line, sizeof line, WAIT) != 1) return false;
        if (strncmp(line, "status ", 7) == 0) continue;
        if (strncmp(line, prefix, strlen(prefix)) == 0) return true;
        fprintf(stderr, "    expected '%s...', got '%s'\n", prefix, line);
        return false;
    }
}

/*
 * Asks `analyze 64` and checks the lines: odd token count, evals numbers, and the first moves
 * exactly the legal moves of the host's game (the board has at most 64 of them).
 */
static void check_board(struct pipe_process *p, const struct host *h) {
    move_t legal[MAX_MOVES];
    int nlegal = tafl_legal_moves(h->t, legal);
    pipe_process_send(p, "analyze 64 0.3", WAIT);
    if (!CHECK(reply(p, "analysis "))) return;
    char copy[1 << 16];
    snprintf(copy, sizeof copy, "%s", line);
    char *save = NULL, *tok = strtok_r(line, " ", &save);
    int tokens = 0, n = -1, seen = 0;
    bool found[MAX_MOVES] = {false};
    for (tok = strtok_r(NULL, " ", &save); tok; tok = strtok_r(NULL, " ", &save), tokens++) {
        if (tokens == 0) {
            n = atoi(tok);
            continue;
        }
        if (tokens % 2 == 0) {
            char *end;
            strtod(tok, &end);
            CHECK(*end == 0); /* an eval */
            continue;
        }
        struct move_text mt;
        char err[200], first[64];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(tok, "|"), tok);
        if (!CHECK(move_text_parse(first, h->v.size, &mt, err, sizeof err))) continue;
        move_t m = move_make(mt.from, mt.to);
        for (int i = 0; i < nlegal; i++)
            if (legal[i] == m && !found[i]) {
                found[i] = true;
                seen++;
            }
    }
    CHECK(tokens % 2 == 1); /* the host wants an odd count after the word */
    CHECK_EQ_INT(n, nlegal);
    if (!CHECK(seen == nlegal))
        fprintf(stderr, "    %d of %d legal moves seen in %s\n", seen, nlegal, copy);
}

/* Sets both host and engine to rules with the given start record; the engine gets `rules`. */
static bool both_rules(struct pipe_process *p, struct host *h, const char *rules) {
    char cmd[512];
    tafl_free(h->t);
    if (!host_init(h, rules)) return false;
    snprintf(cmd, sizeof cmd, "rules %s", rules);
    return pipe_process_send(p, cmd, WAIT);
}

/* The host quirks: rules first, opponent moves without captures, resync, error 2, finish. */
static void test_host_quirks(void) {
    struct pipe_process p;
    struct host h = {0};
    char cmd[512], mv[64];
    if (!CHECK(start(&p, "--movetime", "100"))) return;
    /* rules arrive before our hello */
    const char *rules = "dim:7 name:Capture surf:n atkf:y ks:w cenh: cenhe: "
                        "start:/7/7/7/t2K3/2T4/2t4/7/";
    CHECK(both_rules(&p, &h, rules));
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && !strcmp(line, "hello"));
    /* we play the defenders: the opponent's a4-c4 captures c5, but the move says nothing */
    char err[200];
    CHECK(tafl_play_text(h.t, "a4c4", err, sizeof err));
    CHECK(bb_any(h.t->captures[0]));
    snprintf(cmd, sizeof cmd, "opponent-move a4-c4 %s", host_record(&h));
    pipe_process_send(&p, cmd, WAIT);
    check_board(&p, &h);
    /* untimed: no clock line; then play */
    pipe_process_send(&p, "play defenders", WAIT);
    if (CHECK(reply(&p, "move ")) && check_engine_move(&h, line, mv, sizeof mv)) {
        /* the host refuses it (error 2) and asks again: we must answer from the same board */
        tafl_undo(h.t);
        pipe_process_send(&p, "error 2", WAIT);
        pipe_process_send(&p, "clock 60000 60000 0 0 0 ", WAIT);
        pipe_process_send(&p, "play defenders", WAIT);
        CHECK(reply(&p, "move ") && check_engine_move(&h, line, mv, sizeof mv));
        snprintf(cmd, sizeof cmd, "move %s", host_record(&h));
        pipe_process_send(&p, cmd, WAIT);
    }
    /* the opponent answers with a capture-less simple move */
    move_t legal[MAX_MOVES];
    if (CHECK(tafl_legal_moves(h.t, legal) > 0)) {
        char a[SQ_NAME_MAX], b[SQ_NAME_MAX];
        sq_name(move_from(legal[0]), h.v.size, a);
        sq_name(move_to(legal[0]), h.v.size, b);
        tafl_play(h.t, legal[0]);
        snprintf(cmd, sizeof cmd, "opponent-move %s-%s %s", a, b, host_record(&h));
        pipe_process_send(&p, cmd, WAIT);
    }
    /* the clock comes before play, with a trailing space and overtime marks */
    pipe_process_send(&p, "clock 500* 60000 5 1 3 ", WAIT);
    pipe_process_send(&p, "play defenders", WAIT);
    CHECK(reply(&p, "move ") && check_engine_move(&h, line, mv, sizeof mv));
    /* finish twice, and no goodbye: end of input must end the engine */
    pipe_process_send(&p, "finish 3", WAIT);
    pipe_process_send(&p, "finish 3", WAIT);
    CHECK(!pipe_process_poll(&p, 300)); /* nothing more is said */
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    tafl_free(h.t);
}

/* The host's record disagrees with our board after a move (its rules have gaps): resync. */
static void test_resync(void) {
    struct pipe_process p;
    struct host h = {0};
    char cmd[512], mv[64];
    if (!CHECK(start(&p, "--depth", "3"))) return;
    CHECK(both_rules(&p, &h,
                     "dim:7 name:Capture surf:n atkf:y ks:w cenh: cenhe: "
                     "start:/7/7/7/t2K3/2T4/2t4/7/"));
    CHECK(pipe_process_expect(&p, "hello", NULL, 0, WAIT));
    /* a4-b4 captures nothing, yet the host's record has lost the attacker on c6 */
    struct position after;
    char err[200];
    CHECK(fen_parse(&after, &h.v, "7/7/7/2d4/1a1k3/7/7 d", err, sizeof err));
    tafl_reset(h.t, &after);
    snprintf(cmd, sizeof cmd, "opponent-move a4-b4 %s", host_record(&h));
    pipe_process_send(&p, cmd, WAIT);
    check_board(&p, &h);
    pipe_process_send(&p, "play defenders", WAIT);
    CHECK(reply(&p, "move ") && check_engine_move(&h, line, mv, sizeof mv));
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    tafl_free(h.t);
}

/* The host plays on where our history says the game is over (a repetition it judges otherwise). */
static void test_play_after_repetition(void) {
    struct pipe_process p;
    struct host h = {0};
    char cmd[512], mv[64], err[200];
    if (!CHECK(start(&p, "--depth", "2"))) return;
    CHECK(pipe_process_expect(&p, "hello", NULL, 0, WAIT));
    CHECK(both_rules(&p, &h, BRANDUB));
    static const char *const cycle[] = {"a4-a3", "c4-c3", "a3-a4", "c3-c4"};
    for (int i = 0; i < 8; i++) {
        CHECK(tafl_play_text(h.t, cycle[i % 4], err, sizeof err));
        snprintf(cmd, sizeof cmd, "opponent-move %s %s", cycle[i % 4], host_record(&h));
        pipe_process_send(&p, cmd, WAIT);
    }
    CHECK_EQ_INT(h.t->reason, END_REPETITION); /* our rules: a draw by threefold repetition */
    struct position now = *tafl_pos(h.t);
    tafl_reset(h.t, &now);
    pipe_process_send(&p, "play attackers", WAIT);
    CHECK(reply(&p, "move ") && check_engine_move(&h, line, mv, sizeof mv));
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    tafl_free(h.t);
}

/* The analysis flow: rules, position, side, clock, analyze n seconds; dump fragments. */
static void test_analysis(void) {
    struct pipe_process p;
    struct host h = {0};
    if (!CHECK(start(&p, NULL, NULL))) return;
    CHECK(both_rules(&p, &h, BRANDUB));
    CHECK(pipe_process_expect(&p, "hello", NULL, 0, WAIT));
    char err[200];
    CHECK(tafl_play_text(h.t, "d2c2", err, sizeof err));
    /* rebuild from the record with the defenders to move, as the engine will */
    struct position pos = *tafl_pos(h.t);
    tafl_reset(h.t, &pos);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position %s", host_record(&h));
    pipe_process_send(&p, cmd, WAIT);
    pipe_process_send(&p, "side defenders", WAIT);
    pipe_process_send(&p, "clock 30000 30000 0 0 0 ", WAIT);
    check_board(&p, &h);
    pipe_process_send(&p, "analyze 3 0.2", WAIT);
    if (CHECK(reply(&p, "analysis 3 "))) {
        int tokens = 0;
        for (char *t = strtok(line, " "); t; t = strtok(NULL, " ")) tokens++;
        CHECK_EQ_INT(tokens, 8);
    }
    /* `dump 3` arrives without a newline; the command behind it must still count */
    snprintf(cmd, sizeof cmd, "dump 3rules %s", BRANDUB);
    pipe_process_send(&p, cmd, WAIT);
    tafl_free(h.t);
    host_init(&h, BRANDUB);
    check_board(&p, &h);
    /* a start with the king between two attackers: nothing was captured, the game is on */
    CHECK(both_rules(&p, &h,
                     "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: "
                     "start:/7/1tKt3/7/7/7/2T4/5t1/"));
    CHECK(h.t->result == RESULT_NONE);
    check_board(&p, &h);
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    tafl_free(h.t);
}

/* Bad input: error 0 for malformed known commands, silence for unknown ones, state kept. */
static void test_bad_input(void) {
    struct pipe_process p;
    struct host h = {0};
    if (!CHECK(start(&p, "--depth", "2"))) return;
    CHECK(pipe_process_expect(&p, "hello", NULL, 0, WAIT));
    CHECK(both_rules(&p, &h, BRANDUB));
    static const struct {
        const char *cmd, *want;
    } cases[] = {
        {"rules", "error 0 rules: missing"},
        {"clock 1000 2000", "error 0 clock: expected 5 values"},
        {"clock x 2000 0 0 0", "error 0 clock: bad time"},
        {"clock 1000 2000 -1 0 0", "error 0 clock: bad overtime"},
        {"play sideways", "error 0 play: expected"},
        {"play", "error 0 play: expected"},
        {"side up", "error 0 side: expected"},
        {"position /nonsense/", "error 0 position:"},
        {"position", "error 0 position: expected"},
        {"analyze 0 1", "error 0 analyze: expected"},
        {"analyze 3 -1", "error 0 analyze: expected"},
        {"analyze 3 soon", "error 0 analyze: expected"},
        {"opponent-move", "error 0 opponent-move: expected"},
        {"opponent-move zz-zz", "error 0 opponent-move:"},
        {"opponent-move d1-d9 /bad/", "error 0 position record"},
        {"opponent-move ||", "error 0 opponent-move: no move in '||'"},
        /* a legal first move does not stay played when a later one or the record is bad */
        {"opponent-move b4-b2|zz", "error 0 opponent-move: move 'zz'"},
        {"opponent-move b4-b2 /bad/", "error 0 position record"},
        {"opponent-move aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
         "error 0 opponent-move: a move of 70 bytes is too long"},
        /* the record's error once, not "position record: position record row 1: ..." */
        {"move /x6/7/7/7/7/7/7/", "error 0 position record row 1: unknown piece 'x'"},
        {"move", "error 0 move: expected"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pipe_process_send(&p, cases[i].cmd, WAIT);
        if (!CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 &&
                   strncmp(line, cases[i].want, strlen(cases[i].want)) == 0))
            fprintf(stderr, "    after '%s': got '%s'\n", cases[i].cmd, line);
    }
    /* unknown lines and host errors are taken silently */
    pipe_process_send(&p, "hello", WAIT);
    pipe_process_send(&p, "frobnicate 1 2 3", WAIT);
    pipe_process_send(&p, "error 5", WAIT);
    pipe_process_send(&p, "dump 7", WAIT);
    pipe_process_write(&p, "\x01\x02\xff binary\n", 11, WAIT);
    check_board(&p, &h); /* the next line is the analysis: nothing was said in between */
    /* a NUL byte and a megabyte line get error 0 */
    pipe_process_write(&p, "play\0attackers\n", 15, WAIT);
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && strstr(line, "NUL byte"));
    CHECK(pipe_process_send_long(&p, "rules ", 't', 1 << 20, WAIT));
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 &&
          strstr(line, "error 0 line of 1048576 bytes ignored"));
    check_board(&p, &h); /* rules and board survived all of it */
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    tafl_free(h.t);
}

/* Sends a line and checks that the one reply starts with want and holds also (if not NULL). */
static void expect_reply(struct pipe_process *p, const char *send, const char *want,
                         const char *also) {
    pipe_process_send(p, send, WAIT);
    bool ok = pipe_process_read_line(p, line, sizeof line, WAIT) == 1 &&
              strncmp(line, want, strlen(want)) == 0 && (!also || strstr(line, also));
    if (!check_record(ok, __FILE__, __LINE__, "the expected reply"))
        fprintf(stderr, "    after '%.60s': got '%s', expected '%s'...'%s'\n", send, line, want,
                also ? also : "");
}

/*
 * Berserk turns on the engine protocol, as the OpenTafl host runs them: our capture that leaves
 * our piece a capture gets the host's `move` and then `play` for the same side again, and we
 * move that piece; the opponent's whole turn arrives as one `opponent-move m1|m2`, with jumps.
 */
static void test_berserk(void) {
    static const char rules[] =
        "rules dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c "
        "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";
    struct pipe_process p;
    if (!CHECK(start(&p, "--depth", "2"))) return;
    CHECK(pipe_process_expect(&p, "hello", NULL, 0, WAIT));
    pipe_process_send(&p, rules, WAIT);
    /* the commander on h9 takes g6 against the empty throne and, moving again through the
       throne, takes the king between two commanders */
    pipe_process_send(&p, "position /11/11/11/11/11/2cK2T4/11/11/7c3/11/11/", WAIT);
    pipe_process_send(&p, "play attackers", WAIT);
    CHECK(reply(&p, "move h9-h6"));
    pipe_process_send(&p, "move /11/11/11/11/11/2cK3c3/11/11/11/11/11/", WAIT);
    pipe_process_send(&p, "play attackers", WAIT);
    CHECK(reply(&p, "move h6-e6"));
    pipe_process_send(&p, "finish 2", WAIT);
    /* the host's test of a jumping capture: the knight's jump was ours (e5-e3 over e4), then
       the attackers' commander jumps a8 (a7^a9), takes a10, and goes on to take c10 */
    pipe_process_send(&p, rules, WAIT);
    pipe_process_send(&p, "position /11/4c6/11/4t6/4N6/5Kc4/c4t5/T10/5t4c/T1T7T/2t8/", WAIT);
    pipe_process_send(&p, "side defenders", WAIT);
    pipe_process_send(&p, "play defenders", WAIT);
    CHECK(reply(&p, "move "));
    /* whatever we chose, the host's board says what was played */
    pipe_process_send(&p, "position /11/4c6/4N6/11/11/5Kc4/c4t5/T10/5t4c/T1T7T/2t8/", WAIT);
    pipe_process_send(&p, "side attackers", WAIT);
    pipe_process_send(&p, "opponent-move a7^a9|a9=c9", WAIT); /* no record: errors show */
    pipe_process_send(&p, "play defenders", WAIT);
    CHECK(reply(&p, "move "));
    /* a move by another piece than the berserker is refused by our own board, too */
    pipe_process_send(&p, "position /11/4c6/4N6/11/11/5Kc4/c4t5/T10/5t4c/T1T7T/2t8/", WAIT);
    pipe_process_send(&p, "side attackers", WAIT);
    expect_reply(&p, "opponent-move a7-a9|f9-f10",
                 "error 0 opponent-move: ", "only the piece on a9 may move");
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* Sends rules hnefi cannot play: one error naming why, then no move for play or analyze. */
static void check_refused(struct pipe_process *p, const char *cmd, const char *why) {
    expect_reply(p, cmd, "error 0 unsupported rules: ", why);
    CHECK(strstr(line, "makes no moves") != NULL);
    pipe_process_send(p, "clock 60000 60000 3 3 3 ", WAIT);
    expect_reply(p, "play attackers", "error 0 no move: the rules were refused", why);
    /* the host's board of the refused game is not read (no error about it either) */
    pipe_process_send(p, "opponent-move e1-e2 /3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
                      WAIT);
    expect_reply(p, "play defenders", "error 0 no move", NULL);
    expect_reply(p, "analyze 3 1", "error 0 no move", NULL);
    CHECK(!pipe_process_poll(p, 300)); /* nothing else was said: no move line */
}

/*
 * The 14 variants of the real OpenTafl host, sent as it sends them (tests/data/
 * opentafl-variants.tsv): those hnefi plays get a move; the others are refused once, clearly,
 * and then every play and analyze gets an error and no move (a move under the previous rules
 * is what the host used to reject until hnefi lost on time), until rules hnefi plays arrive.
 */
static void test_opentafl_variants(void) {
    /* what the refusal names, by OpenTafl's variant number; NULL: hnefi plays it */
    static const char *const why[15] = {
#if !HNEFI_WIDE_BOARDS /* a program built without boards beyond 11x11 */
        [12] = "need hnefi's build of larger boards",
        [13] = "need hnefi's build of larger boards",
        [14] = "need hnefi's build of larger boards",
#endif
    };
    size_t len;
    char *text = data_file_read("opentafl-variants.tsv", &len);
    struct pipe_process p;
    if (!CHECK(text != NULL) || !CHECK(start(&p, "--depth", "1"))) {
        free(text);
        return;
    }
    CHECK(pipe_process_expect(&p, "hello", NULL, 0, WAIT));
    int played = 0, refused = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (l[0] == '#') continue;
        int number = atoi(l);
        char *rules = strchr(l, '\t'), cmd[1024];
        if (!CHECK(rules && number >= 1 && number <= 14)) continue;
        snprintf(cmd, sizeof cmd, "rules %s", rules + 1);
        if (!why[number]) {
            pipe_process_send(&p, cmd, WAIT);
            pipe_process_send(&p, "play attackers", WAIT);
            if (!CHECK(reply(&p, "move ")))
                fprintf(stderr, "    OpenTafl variant %d: no move\n", number);
            pipe_process_send(&p, "finish 0", WAIT);
            played++;
            continue;
        }
        check_refused(&p, cmd, why[number]);
        refused++;
    }
    /* 12, 13 and 14 (15x15, 13x13, 19x19) on the wide build */
    CHECK_EQ_INT(played, HNEFI_WIDE_BOARDS ? 14 : 11);
    CHECK_EQ_INT(refused, HNEFI_WIDE_BOARDS ? 0 : 3);
    /* rules no build plays: speed limits for men */
    check_refused(&p,
                  "rules dim:9 name:Fast spd:2 "
                  "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
                  "a speed limit for men");
    /* rules it plays after a refusal: moves again */
    pipe_process_send(&p, "rules " BRANDUB, WAIT);
    pipe_process_send(&p, "play attackers", WAIT);
    CHECK(reply(&p, "move "));
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    free(text);
}

/* Writes a transcript line to the file named by HNEFI_TRANSCRIPT, if any. */
static void note(FILE *f, const char *who, const char *text) {
    if (f) fprintf(f, "%s %s\n", who, text);
}

/* Sends a host line to engine e and logs it. */
static void host_send(struct pipe_process *e, FILE *log, int side, const char *text) {
    char who[8];
    snprintf(who, sizeof who, "<%c", side == SIDE_ATTACKERS ? 'A' : 'D');
    note(log, who, text);
    pipe_process_send(e, text, WAIT);
}

/*
 * A full game between two hnefi otep engines, the test playing the host: rules to both, then
 * for each turn the clock, play, the engine's move checked and confirmed with `move`, and the
 * opponent told with a capture-less `opponent-move`; at the end finish twice and end of input.
 * Returns the number of plies.
 */
static int full_game(const char *rules, const char *clock_ms, FILE *log, int max_plies) {
    struct pipe_process e[2];
    struct host h = {0};
    char cmd[512], mv[64], clock[64];
    if (!host_init(&h, rules)) return 0;
    for (int s = 0; s < 2; s++) {
        if (!CHECK(start(&e[s], NULL, NULL))) return 0;
        snprintf(cmd, sizeof cmd, "rules %s", rules);
        host_send(&e[s], log, s, cmd);
        CHECK(pipe_process_expect(&e[s], "hello", NULL, 0, WAIT));
    }
    int plies = 0;
    while (h.t->result == RESULT_NONE && plies < max_plies) {
        int side = tafl_pos(h.t)->side;
        struct pipe_process *me = &e[side];
        /* a timed game: the clock before play, with OpenTafl's trailing space */
        snprintf(clock, sizeof clock, "clock %s %s 0 0 0 ", clock_ms, clock_ms);
        host_send(me, log, side, clock);
        host_send(me, log, side, side == SIDE_ATTACKERS ? "play attackers" : "play defenders");
        if (!CHECK(reply(me, "move "))) break;
        note(log, side == SIDE_ATTACKERS ? "A>" : "D>", line);
        if (!check_engine_move(&h, line, mv, sizeof mv)) break;
        plies++;
        if (h.t->result != RESULT_NONE) break; /* the host sends finish instead of move */
        snprintf(cmd, sizeof cmd, "move %s", host_record(&h));
        host_send(me, log, side, cmd);
        snprintf(cmd, sizeof cmd, "opponent-move %s %s", mv, host_record(&h));
        host_send(&e[!side], log, !side, cmd);
    }
    char st[96];
    const char *fin = h.t->result == RESULT_ATTACKERS   ? "finish 2"
                      : h.t->result == RESULT_DEFENDERS ? "finish 3"
                      : h.t->result == RESULT_DRAW      ? "finish 1"
                                                        : "finish 0";
    note(log, "#", tafl_status_text(h.t->result, h.t->reason, st, sizeof st));
    for (int s = 0; s < 2; s++) {
        host_send(&e[s], log, s, fin);
        host_send(&e[s], log, s, fin);
        CHECK_EQ_INT(pipe_process_wait(&e[s], WAIT), 0); /* no goodbye: end of input */
    }
    tafl_free(h.t);
    return plies;
}

/* goodbye, and the end of input, while a long search runs: the engine leaves at once (a 10-minute
   move time outlasts the hang guard, so waiting for the search to end would fail). */
static void test_quit_during_search(void) {
    for (int eof = 0; eof < 2; eof++) {
        struct pipe_process p;
        if (!CHECK(start(&p, "--movetime", "600000"))) return;
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rules %s", BRANDUB);
        pipe_process_send(&p, cmd, WAIT);
        pipe_process_send(&p, "play attackers", WAIT);
        if (eof)
            pipe_process_close_input(&p);
        else
            pipe_process_send(&p, "goodbye", WAIT);
        CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    }
}

/* Runs every OpenTafl protocol transcript. */
int main(void) {
    test_berserk();
    test_host_quirks();
    test_resync();
    test_play_after_repetition();
    test_analysis();
    test_quit_during_search();
    test_bad_input();
    test_opentafl_variants();
    const char *path = getenv("HNEFI_TRANSCRIPT");
    FILE *log = path ? fopen(path, "w") : NULL;
    int plies = full_game(BRANDUB, "1500", log, 400);
    printf("full Brandub game: %d plies\n", plies);
    CHECK(plies > 0);
    const char *copenhagen = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y "
                             "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/"
                             "5t5/3ttttt3/";
    plies = full_game(copenhagen, "1000", NULL, getenv("HNEFI_QUICK") ? 16 : 60);
    printf("Copenhagen game (capped): %d plies\n", plies);
    CHECK(plies > 0);
    if (log) fclose(log);
    return check_done();
}

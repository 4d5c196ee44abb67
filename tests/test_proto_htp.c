/*
 * Transcript tests of the hnefatafl.org text protocol: hnefi htp driven through pipes. Seeded
 * random games are played move by move against the test's own model of the reference engine's
 * rules (Copenhagen with the defender repeat ban; its Brandubh on 7x7), so every `= <captures>`
 * reply, play_from, play_to and final_status is checked against the model; then every error
 * reply, the clock, resigning, undo, generate_move, the light server's bare lines (--server and
 * --connect to a listening socket) and bad input.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/tafl.h"
#include "pipe_process.h"

enum { WAIT = 300000 }; /* ms: a hang fails, never a slow run (sanitizers, a loaded machine) */

static char line[1 << 16];

/* Starts hnefi htp with up to two extra arguments. */
static bool start(struct pipe_process *p, const char *a1, const char *a2) {
    char *argv[] = {HNEFI_BINARY, "htp", "--depth", "2", (char *)a1, (char *)a2, NULL};
    return pipe_process_start(p, argv, NULL);
}

/* The test's model of the reference engine's rules for a board size and first side. */
static void model_variant(struct variant *v, int size, int first) {
    *v = *variant_by_name("copenhagen");
    v->repetition = REP_ILLEGAL_DEFENDER_REPEAT;
    if (size == 7) {
        v->start = variant_by_name("brandubh")->start;
        v->size = 7;
        v->king_capture = KING_CAPTURE_THRONE_FOUR;
        v->throne_pass = THRONE_KING;
        v->exit_fort = false;
    }
    v->start.side = first == SIDE_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS;
    variant_finish(v);
}

/* Names a square the HTP way: f6, or 0d4 on 7x7. */
static const char *sqn(int sq, int size, char *out) {
    snprintf(out, 8, "%s%c%d", size == 7 ? "0" : "", 'a' + sq % size, (sq / size + 1) % 100);
    return out;
}

/* Names a role. */
static const char *role(int side) {
    return side == SIDE_ATTACKERS ? "attacker" : "defender";
}

/* Sends cmd and reads the reply line (the first line starting with = or ?). */
static const char *ask(struct pipe_process *p, const char *cmd) {
    pipe_process_send(p, cmd, WAIT);
    while (pipe_process_read_line(p, line, sizeof line, WAIT) == 1)
        if (line[0] == '=' || line[0] == '?') return line;
    return "";
}

/* Sends cmd and checks the reply is exactly want. */
static bool ask_is(struct pipe_process *p, const char *cmd, const char *want) {
    const char *got = ask(p, cmd);
    bool ok = strcmp(got, want) == 0;
    if (!ok) fprintf(stderr, "    '%s': expected '%s', got '%s'\n", cmd, want, got);
    return ok;
}

/*
 * Counts the lines of a multi-line reply already asked for: sends `name` and reads up to its
 * answer want, so the count waits for the engine however slow it is (-1 if the output ends).
 */
static int lines_before(struct pipe_process *p, const char *want) {
    pipe_process_send(p, "name", WAIT);
    for (int n = 0; pipe_process_read_line(p, line, sizeof line, WAIT) == 1; n++)
        if (strcmp(line, want) == 0) return n;
    return -1;
}

/* Sends cmd and checks for `? <want...>` followed by an empty line. */
static bool fails(struct pipe_process *p, const char *cmd, const char *want) {
    const char *got = ask(p, cmd);
    bool ok = got[0] == '?' && strncmp(got + 2, want, strlen(want)) == 0;
    if (!ok) fprintf(stderr, "    '%s': expected '? %s', got '%s'\n", cmd, want, got);
    int r = pipe_process_read_line(p, line, sizeof line, WAIT);
    return ok && r == 1 && line[0] == 0;
}

/* Turns a reply's squares (after "= ", each followed by a space) into a set of squares. */
static bb_t square_set(const char *reply, int size, int skip_words) {
    bb_t set = BB_EMPTY;
    char buf[4096], *save = NULL;
    snprintf(buf, sizeof buf, "%s", reply + 2);
    int i = 0;
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save), i++) {
        if (i < skip_words) continue;
        const char *s = w + (size == 7 && w[0] == '0');
        int sq = (atoi(s + 1) - 1) * size + (s[0] - 'a');
        set |= bb_sq(sq);
    }
    return set;
}

/* Returns the model's final_status word. */
static const char *status_word(const struct tafl_game *t) {
    return t->result == RESULT_ATTACKERS   ? "= attacker_wins"
           : t->result == RESULT_DEFENDERS ? "= defender_wins"
           : t->result == RESULT_DRAW      ? "= draw"
                                           : "= ongoing";
}

/* Checks play_from and play_to against the model. */
static void check_moves_lists(struct pipe_process *p, const struct tafl_game *t, int size) {
    move_t moves[MAX_MOVES];
    int n = tafl_legal_moves(t, moves);
    bb_t from = BB_EMPTY, to = BB_EMPTY;
    for (int i = 0; i < n; i++) from |= bb_sq(move_from(moves[i]));
    const char *r = ask(p, "play_from");
    CHECK(strncmp(r + 2, role(tafl_pos(t)->side), 8) == 0);
    CHECK(bb_eq(square_set(r, size, 1), from));
    if (n == 0) return;
    char cmd[64], a[8];
    for (int i = 0; i < n; i++)
        if (move_from(moves[i]) == move_from(moves[0])) to |= bb_sq(move_to(moves[i]));
    snprintf(cmd, sizeof cmd, "play_to %s %s", role(tafl_pos(t)->side),
             sqn(move_from(moves[0]), size, a));
    CHECK(bb_eq(square_set(ask(p, cmd), size, 0), to));
}

/* Plays a seeded random game through `play`, checking every reply against the model. */
static int random_game(struct pipe_process *p, int size, unsigned seed, int max_plies) {
    unsigned seed0 = seed;
    struct variant v;
    model_variant(&v, size, size == 7 ? SIDE_DEFENDERS : SIDE_ATTACKERS);
    struct tafl_game *t = tafl_new(&v);
    char cmd[128], a[8], b[8];
    snprintf(cmd, sizeof cmd, "board_size %d", size);
    CHECK(ask_is(p, cmd, "= "));
    int plies = 0, king_captures = 0;
    while (t->result == RESULT_NONE && plies < max_plies) {
        move_t moves[MAX_MOVES];
        int n = tafl_legal_moves(t, moves);
        seed = seed * 1103515245u + 12345u;
        move_t m = moves[(seed >> 8) % (unsigned)n];
        int side = tafl_pos(t)->side;
        tafl_play(t, m);
        bb_t caps = t->captures[t->n - 1];
        if (t->reason == END_KING_CAPTURED) {
            caps |= bb_sq(tafl_pos(t)->king_sq);
            king_captures++;
        }
        snprintf(cmd, sizeof cmd, "play %s %s %s", role(side), sqn(move_from(m), size, a),
                 sqn(move_to(m), size, b));
        const char *r = ask(p, cmd);
        if (!CHECK(r[0] == '=' && bb_eq(square_set(r, size, 0), caps))) {
            fprintf(stderr, "    '%s' -> '%s'\n", cmd, r);
            break;
        }
        plies++;
        if (plies % 7 == 0 || t->result != RESULT_NONE) {
            CHECK(ask_is(p, "final_status", status_word(t)));
            check_moves_lists(p, t, size);
        }
    }
    if (t->result != RESULT_NONE) {
        snprintf(cmd, sizeof cmd, "play attacker %s %s", sqn(1, size, a), sqn(2, size, b));
        CHECK(fails(p, cmd, "play: the game is already over"));
        CHECK(fails(p, "generate_move", "message: play: the game is already over"));
    }
    char st[96];
    printf("  %dx%d seed %u: %d plies, %s%s\n", size, size, seed0, plies,
           tafl_status_text(t->result, t->reason, st, sizeof st),
           king_captures ? " (king captured)" : "");
    tafl_free(t);
    return plies;
}

/* Random games on both boards, checked against the model ply by ply. */
static void test_games(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, NULL, NULL))) return;
    int games = getenv("HNEFI_QUICK") ? 2 : 8, plies = 0;
    for (int g = 0; g < games; g++) plies += random_game(&p, g % 2 ? 7 : 11, 1000u + g, 400);
    printf("%d random games, %d plies checked\n", games, plies);
    CHECK(plies > games * 10);
    CHECK(ask_is(&p, "name", "= hnefi"));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* The information commands, comments, empty lines, boards. */
static void test_information(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, NULL, NULL))) return;
    pipe_process_send(&p, "# a comment", WAIT);
    pipe_process_send(&p, "", WAIT);
    pipe_process_send(&p, "   # another", WAIT);
    CHECK(ask_is(&p, "name  # trailing comment", "= hnefi"));
    CHECK(ask_is(&p, "protocol_version", "= 1-beta"));
    CHECK(ask(&p, "version")[0] == '=');
    CHECK(ask_is(&p, "known_command play_undo", "= true"));
    CHECK(ask_is(&p, "known_command frobnicate", "= false"));
    CHECK(ask_is(&p, "list_commands", "= "));
    CHECK_EQ_INT(lines_before(&p, "= hnefi"), 17);
    CHECK(ask_is(&p, "show_board_open_tafl",
                 "= /3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/"));
    CHECK(ask_is(&p, "show_board", "= "));
    CHECK_EQ_INT(lines_before(&p, "= hnefi"), 12); /* 11 ranks and the file letters */
    CHECK(ask_is(&p, "board_size 7", "= "));
    CHECK(ask_is(&p, "show_board_open_tafl", "= /3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/"));
    CHECK(ask_is(&p, "play_from", "= defender 0d3 0c4 0e4 0d5"));
    CHECK(ask_is(&p, "play_to d 0d3", "= 0a3 0b3 0c3 0e3 0f3 0g3"));
    CHECK(ask_is(&p, "first_move attacker", "= "));
    CHECK(strncmp(ask(&p, "play_from"), "= attacker ", 11) == 0);
    CHECK(ask_is(&p, "play A 0D1 0C1", "= "));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* Every error reply: `? <message>` and an empty line, and nothing changed. */
static void test_errors(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, NULL, NULL))) return;
    static const struct {
        const char *cmd, *want;
    } cases[] = {
        {"frobnicate", "message: unrecognized command: frobnicate"},
        {"play", "message: play: expected"},
        {"play attacker d1", "message: play: expected"},
        {"play attacker resign", "message: play: expected"},
        {"play attacker d1 d3 d5", "message: play: expected"},
        {"play knight d1 d3", "message: play: invalid role"},
        {"play attacker z1 d3", "message: play: the first letter is not a legal char"},
        {"play attacker d1 dx", "message: play: invalid coordinate"},
        {"play attacker d1 d99", "message: play: invalid coordinate"},
        {"play attacker 0d1 0d3", "message: play: the square is not on the 11x11 board"},
        {"play attacker d1 d12", "message: play: the square is not on the 11x11 board"},
        {"play attacker f01 f3", "message: play: invalid coordinate"},
        {"play defender f4 f2", "play: it isn't your turn"},
        {"play attacker c1 c3", "play: it isn't your turn"},
        {"play attacker f6 f7", "play: it isn't your turn"},
        {"play attacker d1 d1", "play: you have to change location"},
        {"play attacker d1 e2", "play: you can only play in a straight line"},
        {"play attacker d1 f1", "play: you have to play through empty locations"},
        {"play attacker d1 a1", "play: only the king may move to a restricted square"},
        {"play defender resigns", "play: you can't resign for the other player"},
        {"play_undo", "play undo: it is the first move"},
        {"play_to attacker", "message: play_to: expected"},
        {"play_to defender d1", "play: it isn't your turn"},
        {"play_to attacker q1", "message: play_to: the first letter"},
        {"board_size 9", "message: board_size: expected"},
        {"board_size", "message: board_size: expected"},
        {"first_move nobody", "message: first_move: expected"},
        {"time_settings", "message: time_settings: expected"},
        {"time_settings fischer 5", "message: time_settings: expected"},
        {"time_settings fischer x 5", "message: time_settings: expected"},
        {"time_settings fischer -1 5", "message: time_settings: expected"},
        {"time_settings bronstein 5 5", "message: time_settings: expected"},
        {"known_command", "message: known_command: expected"},
        {"\x01\xff\xfe", "message: unrecognized command: ???"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(fails(&p, cases[i].cmd, cases[i].want));
    /* the defender repeat ban: a defender may not recreate an earlier board */
    CHECK(ask_is(&p, "play attacker d1 d2", "= "));
    CHECK(ask_is(&p, "play defender e5 e2", "= "));
    CHECK(ask_is(&p, "play attacker d2 d1", "= "));
    CHECK(fails(&p, "play defender e2 e5", "play: you already reached that position"));
    /* a NUL byte, a megabyte line */
    CHECK(pipe_process_write(&p, "name\0x\n", 7, WAIT));
    CHECK(strstr(ask(&p, ""), "NUL byte"));
    pipe_process_read_line(&p, line, sizeof line, WAIT);
    CHECK(pipe_process_send_long(&p, "", 'a', 1 << 20, WAIT));
    CHECK(strstr(ask(&p, ""), "line of 1048576 bytes ignored"));
    pipe_process_read_line(&p, line, sizeof line, WAIT);
    /* nothing above changed the game: the defenders are still to move, the ban still holds */
    CHECK(ask_is(&p, "play_to defender e2", "= a2 b2 c2 d2 e3 e4"));
    CHECK(ask_is(&p, "final_status", "= ongoing"));
    CHECK(ask_is(&p, "play_undo", "= "));
    CHECK(ask_is(&p, "play_undo", "= "));
    CHECK(ask_is(&p, "play defender e5 e2", "= "));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* board_size 13: hnefatafl.org's 13x13 game, on the wide build (its moves, first_move there);
   then back to 11x11, where the attackers move first again. */
static void test_board_13(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, NULL, NULL))) return;
#if !HNEFI_WIDE_BOARDS /* a program built without it says so and keeps its 11x11 board */
    CHECK(strstr(ask(&p, "board_size 13"), "? message: board_size: boards of 13x13 need hnefi's"));
    CHECK(ask_is(&p, "play attacker d1 d2", "= "));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    return;
#endif
    CHECK(ask_is(&p, "board_size 13", "= "));
    CHECK(ask_is(&p, "first_move defender", "= "));
    const char *r = ask(&p, "generate_move");
    char role[16], from[8], to[8];
    CHECK(sscanf(r, "= play %15s %7s %7s", role, from, to) == 3 && !strcmp(role, "defender"));
    /* the 13x13 board has files a-m and ranks 1-13 */
    CHECK(from[0] >= 'a' && from[0] <= 'm' && atoi(from + 1) >= 1 && atoi(from + 1) <= 13);
    CHECK(ask_is(&p, "play defender a1 a2", "? play: it isn't your turn"));
    CHECK(ask_is(&p, "play attacker 0d4 0d5",
                 "? message: play: the square is not on the 13x13 board"));
    CHECK(ask_is(&p, "board_size 11", "= "));
    CHECK(ask_is(&p, "play defender f4 b4", "? play: it isn't your turn"));
    CHECK(ask_is(&p, "play attacker d1 d2", "= "));
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* generate_move, resigning, undo and the Fischer clock. */
static void test_play(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, NULL, NULL))) return;
    struct variant v;
    model_variant(&v, 11, SIDE_ATTACKERS);
    struct tafl_game *t = tafl_new(&v);
    char err[200], mv[16];
    for (int i = 0; i < 4; i++) {
        const char *r = ask(&p, "generate_move");
        int side = tafl_pos(t)->side;
        char want[32];
        snprintf(want, sizeof want, "= play %s ", role(side));
        if (!CHECK(strncmp(r, want, strlen(want)) == 0)) break;
        const char *sqs = r + strlen(want);
        snprintf(mv, sizeof mv, "%.*s-%s", (int)strcspn(sqs, " "), sqs,
                 sqs + strcspn(sqs, " ") + 1);
        CHECK(tafl_play_text(t, mv, err, sizeof err));
        CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && line[0] == 0);
    }
    check_moves_lists(&p, t, 11); /* the engine played the moves on its own board */
    CHECK(ask_is(&p, "play attacker resigns", "= "));
    CHECK(ask_is(&p, "final_status", "= defender_wins"));
    CHECK(fails(&p, "play defender e5 e4", "play: the game is already over"));
    CHECK(ask_is(&p, "play_undo", "= "));
    CHECK(ask_is(&p, "final_status", "= ongoing"));
    /* a clock of 0 minutes: the first move comes too late, is not played, and loses */
    CHECK(ask_is(&p, "time_settings fischer 0 1", "= "));
    CHECK(ask_is(&p, "play attacker d1 d3", "= "));
    CHECK(ask_is(&p, "final_status", "= defender_wins"));
    CHECK(ask_is(&p, "show_board_open_tafl",
                 "= /3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/"));
    /* a real clock: generate_move thinks within it */
    CHECK(ask_is(&p, "time_settings fischer 1 1", "= "));
    CHECK(strncmp(ask(&p, "generate_move"), "= play attacker ", 16) == 0);
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && line[0] == 0);
    CHECK(ask_is(&p, "time_settings un-timed", "= "));
    /* a bad line right behind generate_move is answered after it, in order */
    CHECK(pipe_process_write(&p, "generate_move\nfinal\0status\n", 27, WAIT));
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 &&
          strncmp(line, "= play attacker ", 16) == 0);
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && line[0] == 0);
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && strstr(line, "NUL byte"));
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && line[0] == 0);
    /* board_size after moves drops the time settings; a new game either way */
    CHECK(ask_is(&p, "board_size 11", "= "));
    CHECK(ask_is(&p, "final_status", "= ongoing"));
    /* quit: no reply, exit at once */
    pipe_process_send(&p, "quit", WAIT);
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 0);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    tafl_free(t);
    /* end of input right after generate_move: the answer still comes */
    if (!CHECK(start(&p, NULL, NULL))) return;
    pipe_process_send(&p, "generate_move", WAIT);
    pipe_process_close_input(&p);
    CHECK(strncmp(ask(&p, ""), "= play attacker ", 16) == 0);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* Reads one line from fd byte by byte (at most len - 1 bytes); false at the end. */
static bool read_fd_line(int fd, char *buf, size_t len) {
    size_t n = 0;
    while (n < len - 1) {
        if (read(fd, buf + n, 1) != 1) return false;
        if (buf[n] == '\n') break;
        n++;
    }
    buf[n] = 0;
    return true;
}

/*
 * Plays the light server's side of three turns: `generate_move attacker` answered with a bare
 * `play attacker FROM TO` (checked legal), then a defender move sent as a bare play line that
 * must get no answer at all.
 */
static void server_exchange(int wfd, int rfd) {
    char buf[256], err[200];
    struct variant v;
    model_variant(&v, 11, SIDE_ATTACKERS);
    struct tafl_game *t = tafl_new(&v);
    for (int turn = 0; turn < 3; turn++) {
        const char *ask_line = "generate_move attacker\n";
        CHECK(write(wfd, ask_line, strlen(ask_line)) == (ssize_t)strlen(ask_line));
        char from[8], to[8], mv[20];
        if (!CHECK(read_fd_line(rfd, buf, sizeof buf))) break;
        if (!CHECK(sscanf(buf, "play attacker %7s %7s", from, to) == 2)) break;
        snprintf(mv, sizeof mv, "%s-%s", from, to);
        CHECK(tafl_play_text(t, mv, err, sizeof err));
        move_t moves[MAX_MOVES];
        if (!CHECK(tafl_legal_moves(t, moves) > 0)) break;
        char a[8], b[8], reply[64];
        int len = snprintf(reply, sizeof reply, "play defender %s %s\n",
                           sqn(move_from(moves[0]), 11, a), sqn(move_to(moves[0]), 11, b));
        tafl_play(t, moves[0]);
        CHECK(write(wfd, reply, (size_t)len) == len);
    }
    tafl_free(t);
}

/* The light server: --server on pipes, and --connect to a listening socket. */
static void test_server(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, "--server", NULL))) return;
    server_exchange(p.to_child, p.from_child);
    pipe_process_close_input(&p);
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 0); /* nothing else was said */
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);

    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof addr;
    if (!CHECK(ls >= 0 && bind(ls, (struct sockaddr *)&addr, sizeof addr) == 0 &&
               listen(ls, 1) == 0 && getsockname(ls, (struct sockaddr *)&addr, &alen) == 0))
        return;
    char target[64];
    snprintf(target, sizeof target, "127.0.0.1:%d", ntohs(addr.sin_port));
    if (!CHECK(start(&p, "--connect", target))) return;
    int fd = accept(ls, NULL, NULL);
    if (CHECK(fd >= 0)) {
        server_exchange(fd, fd);
        close(fd); /* the server closes the connection at the end of the game */
    }
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 0); /* stdout stays empty */
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
#if HNEFI_WIDE_BOARDS
    /* a 13x13 game over the connection: the wide build goes on with the same socket, and back */
    if (!CHECK(start(&p, "--connect", target))) return;
    fd = accept(ls, NULL, NULL);
    if (CHECK(fd >= 0)) {
        static const char *const sizes[] = {"13", "11"};
        for (int i = 0; i < 2; i++) {
            char ask_line[64], buf[256], from[8], to[8];
            int len = snprintf(ask_line, sizeof ask_line, "board_size %s\ngenerate_move attacker\n",
                               sizes[i]);
            CHECK(write(fd, ask_line, (size_t)len) == len);
            bool moved = false;
            for (int k = 0; k < 4 && !moved && read_fd_line(fd, buf, sizeof buf); k++)
                moved = sscanf(buf, "play attacker %7s %7s", from, to) == 2;
            if (CHECK(moved)) /* a square of the board asked for: files a-m on 13x13 */
                CHECK(atoi(from + 1) <= atoi(sizes[i]) && from[0] < 'a' + atoi(sizes[i]));
        }
        close(fd);
    }
    CHECK(pipe_process_read_line(&p, line, sizeof line, WAIT) == 0);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
#endif
    close(ls);
}

/* Runs every hnefatafl.org protocol transcript. */
int main(void) {
    test_information();
    test_errors();
    test_play();
    test_board_13();
    test_games();
    test_server();
    return check_done();
}

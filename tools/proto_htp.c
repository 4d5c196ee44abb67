/*
 * The hnefatafl.org text protocol (docs/protocol.md, ../shared/ref/htp.md): GTP-like commands
 * answered `= <text>` or `? <message>` and an empty line, the reference engine's rules
 * (Copenhagen with the defender repeat ban on 11x11; its Brandubh on 7x7), Fischer clocks kept
 * by wall time, and the light server's bare `play` lines (--server, --connect HOST:PORT).
 *
 * generate_move searches on the session's search thread, which applies the move and prints the
 * answer; a line that arrives meanwhile waits for it (except `quit`), so replies keep order.
 */
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "tools/proto_session.h"

enum { HTP_MSG_MAX = 1024 };

static const char *const htp_commands[] = {
    "board_size",    "final_status",  "first_move",
    "generate_move", "known_command", "list_commands",
    "name",          "play",          "play_from",
    "play_to",       "play_undo",     "protocol_version",
    "quit",          "show_board",    "show_board_open_tafl",
    "time_settings", "version",
};
enum { HTP_COMMANDS = sizeof htp_commands / sizeof htp_commands[0] };

struct htp {
    struct proto_session *s;
    const struct proto_config *cfg;
    bool server;       /* the light server: bare play lines, other replies to stderr */
    bool repeat_moves; /* the defender repeat ban is off */
    int size, first;   /* board size (7, 11 or 13) and the side that moves first */
    bool timed;
    int64_t minutes_ms, add_ms, clock_ms[SIDE_NB];
    struct timespec turn_start; /* when the clock of the side to move started */
    int end_result;             /* a win by resignation or time (enum result), RESULT_NONE else */
};

/* Returns the milliseconds since t. */
static int64_t ms_since(const struct timespec *t) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* Writes a reply: to stdout, or to stderr in server mode (the server reads only play lines). */
static void htp_write(struct htp *h, const char *text, size_t len) {
    if (h->server) {
        fwrite(text, 1, len, stderr);
        fflush(stderr);
    } else {
        proto_out_raw(text, len);
    }
}

/* Writes a reply: kind ('=' or '?'), the text, a newline, and an empty line if blank. */
__attribute__((format(printf, 4, 0))) static void htp_reply(struct htp *h, char kind, bool blank,
                                                            const char *fmt, va_list ap) {
    char buf[HTP_MSG_MAX];
    int n = vsnprintf(buf + 2, sizeof buf - 4, fmt, ap);
    if (n < 0) n = 0;
    if ((size_t)n > sizeof buf - 5) n = (int)sizeof buf - 5;
    buf[n + 2] = 0;
    if (kind == '?') proto_clean(buf + 2);
    buf[0] = kind;
    buf[1] = ' ';
    buf[n + 2] = '\n';
    buf[n + 3] = '\n';
    htp_write(h, buf, (size_t)n + (blank ? 4 : 3));
}

/* Answers `= <text>`. */
__attribute__((format(printf, 2, 3))) static void htp_ok(struct htp *h, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    htp_reply(h, '=', false, fmt, ap);
    va_end(ap);
}

/* Answers `? <message>` and an empty line; unprintable bytes are shown as '?'. */
__attribute__((format(printf, 2, 3))) static void htp_fail(struct htp *h, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    htp_reply(h, '?', true, fmt, ap);
    va_end(ap);
}

/* Reads a role (a, attacker, d, defender, any case); -1 if it is none. */
static int parse_role(const char *w) {
    if (strcasecmp(w, "a") == 0 || strcasecmp(w, "attacker") == 0) return SIDE_ATTACKERS;
    if (strcasecmp(w, "d") == 0 || strcasecmp(w, "defender") == 0) return SIDE_DEFENDERS;
    return -1;
}

/* Names a role. */
static const char *role_name(int side) {
    return side == SIDE_ATTACKERS ? "attacker" : "defender";
}

/* Writes a square as HTP writes it (`f6` on 11x11, `0d4` on 7x7) into out (8 bytes). */
static void htp_sq_name(int sq, int size, char *out) {
    snprintf(out, 8, "%s%c%d", size == 7 ? "0" : "", 'a' + sq % size, (sq / size + 1) % 100);
}

/* Reads a square (`f6`, `F6`, `0d4`) for the board in play; -1 with a reason in why if bad. */
static int htp_sq(const char *w, int size, const char **why) {
    const char *p = w;
    bool seven = *p == '0';
    if (seven) p++;
    int file = tolower((unsigned char)*p) - 'a';
    if (file < 0 || file > 12) {
        *why = "the first letter is not a legal char";
        return -1;
    }
    p++;
    int64_t rank;
    if (!proto_parse_i64(p, 1, 13, &rank) || *p == '+' || *p == '-' || *p == '0') {
        *why = "invalid coordinate";
        return -1;
    }
    if (seven != (size == 7) || file >= size || rank > size) {
        *why = size == 7    ? "the square is not on the 7x7 board (write it as 0d4)"
               : size == 13 ? "the square is not on the 13x13 board"
                            : "the square is not on the 11x11 board";
        return -1;
    }
    return (int)(rank - 1) * size + file;
}

/* Builds the reference engine's rules for a board of size with side first to move. */
static void htp_variant(const struct htp *h, struct variant *v) {
#if HNEFI_WIDE
    if (h->size == 13) { /* hnefatafl.org's 13x13 game */
        *v = *variant_by_name("copenhagen13");
        if (h->repeat_moves) v->repetition = REP_NONE;
        snprintf(v->name, sizeof v->name, "htp-copenhagen13");
        v->start.side = h->first == SIDE_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS;
        variant_finish(v);
        return;
    }
#endif
    *v = *variant_by_name("copenhagen");
    v->repetition = h->repeat_moves ? REP_NONE : REP_ILLEGAL_DEFENDER_REPEAT;
    if (h->size == 7) {
        v->start = variant_by_name("brandubh")->start;
        v->size = 7;
        v->king_capture = KING_CAPTURE_THRONE_FOUR; /* four at the throne, two elsewhere */
        v->throne_pass = THRONE_KING;
        v->exit_fort = false;
    }
    snprintf(v->name, sizeof v->name, "htp-%s", h->size == 7 ? "brandubh" : "copenhagen");
    v->start.side = h->first == SIDE_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS;
    variant_finish(v);
}

/* Starts a new game with the current size, first side and time settings. */
static void new_game(struct htp *h) {
    struct variant v;
    htp_variant(h, &v);
    proto_session_set_variant(h->s, &v);
    search_clear(h->s->search);
    h->clock_ms[0] = h->clock_ms[1] = h->minutes_ms;
    clock_gettime(CLOCK_MONOTONIC, &h->turn_start);
    h->end_result = RESULT_NONE;
}

/* Returns the game's result, counting resignations and lost clocks. */
static int game_result(const struct htp *h) {
    return h->end_result != RESULT_NONE ? h->end_result : h->s->game->result;
}

/* Runs the clock of the side to move up to now; true if it has run out (the game is then lost). */
static bool clock_out(struct htp *h) {
    if (!h->timed) return false;
    int side = tafl_pos(h->s->game)->side;
    h->clock_ms[side] -= ms_since(&h->turn_start);
    clock_gettime(CLOCK_MONOTONIC, &h->turn_start);
    if (h->clock_ms[side] > 0) return false;
    h->end_result = side == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
    return true;
}

/* Plays a legal move for the side to move and writes its captures (king included) into out. */
static void play_move(struct htp *h, move_t m, char *out, size_t outlen) {
    struct tafl_game *g = h->s->game;
    int side = tafl_pos(g)->side, size = h->size;
    tafl_play(g, m);
    bb_t caps = g->captures[g->n - 1];
    if (g->reason == END_KING_CAPTURED) caps |= bb_sq(tafl_pos(g)->king_sq);
    size_t n = 0;
    out[0] = 0;
    for (int sq = 0; sq < size * size; sq++)
        if (bb_has(caps, sq) && n + 8 < outlen) {
            htp_sq_name(sq, size, out + n);
            n += strlen(out + n);
            out[n++] = ' ';
            out[n] = 0;
        }
    if (h->timed) {
        h->clock_ms[side] += h->add_ms;
        clock_gettime(CLOCK_MONOTONIC, &h->turn_start);
    }
}

/* Says why the move from-to by role is not legal now, in the reference engine's words. */
static const char *illegal_reason(const struct htp *h, int role, int from, int to) {
    const struct tafl_game *g = h->s->game;
    const struct position *p = tafl_pos(g);
    int size = h->size;
    enum piece pc = pos_piece_at(p, from);
    bool mine =
        role == SIDE_ATTACKERS ? pc == PIECE_ATTACKER : pc == PIECE_DEFENDER || pc == PIECE_KING;
    if (role != p->side || !mine) return "play: it isn't your turn";
    if (from == to) return "play: you have to change location";
    if (from / size != to / size && from % size != to % size)
        return "play: you can only play in a straight line";
    int step = from / size == to / size ? (to > from ? 1 : -1) : (to > from ? size : -size);
    for (int sq = from + step;; sq += step) {
        if (bb_has(pos_occupied(p), sq)) return "play: you have to play through empty locations";
        if (sq == to) break;
    }
    move_t m = move_make(from, to);
    if (!movegen_is_legal(p, m)) return "play: only the king may move to a restricted square";
    if (!tafl_move_legal(g, m, NULL, 0)) return "play: you already reached that position";
    return NULL;
}

/* play ROLE FROM TO | play ROLE resigns: replies `= <captures>`. */
static void cmd_play(struct htp *h, int n, char **w) {
    const char *why;
    char caps[256];
    int role = n >= 2 ? parse_role(w[1]) : -1;
    if (n < 3 || n > 4 || (n == 3 && strcmp(w[2], "resigns") != 0)) {
        htp_fail(h, "message: play: expected 'play ROLE FROM TO' or 'play ROLE resigns'");
        return;
    }
    if (role < 0) {
        htp_fail(h, "message: play: invalid role '%.24s' (attacker or defender)", w[1]);
        return;
    }
    int from = -1, to = -1;
    if (n == 4 &&
        ((from = htp_sq(w[2], h->size, &why)) < 0 || (to = htp_sq(w[3], h->size, &why)) < 0)) {
        htp_fail(h, "message: play: %s", why);
        return;
    }
    if (game_result(h) != RESULT_NONE) {
        htp_fail(h, "play: the game is already over");
        return;
    }
    int side = tafl_pos(h->s->game)->side;
    if (n == 3) {
        if (role != side) {
            htp_fail(h, "play: you can't resign for the other player");
            return;
        }
        h->end_result = side == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
        if (!h->server) htp_ok(h, "%s", "");
        return;
    }
    if (clock_out(h)) {
        if (!h->server) htp_ok(h, "%s", ""); /* the move comes too late: it is not played */
        return;
    }
    if ((why = illegal_reason(h, role, from, to))) {
        htp_fail(h, "%s", why);
        return;
    }
    play_move(h, move_make(from, to), caps, sizeof caps);
    if (!h->server) htp_ok(h, "%s", caps);
}

/* Search thread: plays the move found and answers generate_move (or resigns without one). */
static void htp_on_done(const struct search_result *r, void *ctx) {
    struct htp *h = ctx;
    int side = tafl_pos(h->s->game)->side;
    char line[128], a[8], b[8], caps[256];
    if (!r->best) {
        h->end_result = side == SIDE_ATTACKERS ? RESULT_DEFENDERS : RESULT_ATTACKERS;
        snprintf(line, sizeof line, "play %s resigns _", role_name(side));
    } else {
        htp_sq_name(move_from(r->best), h->size, a);
        htp_sq_name(move_to(r->best), h->size, b);
        if (h->timed) {
            h->clock_ms[side] -= ms_since(&h->turn_start);
            clock_gettime(CLOCK_MONOTONIC, &h->turn_start);
        }
        play_move(h, r->best, caps, sizeof caps);
        snprintf(line, sizeof line, "play %s %s %s", role_name(side), a, b);
    }
    if (h->server)
        proto_out("%s", line);
    else
        proto_out("= %s\n", line);
}

/* generate_move [...]: searches, plays and answers `= play ROLE FROM TO` (arguments ignored). */
static void cmd_generate_move(struct htp *h, int n, char **w) {
    (void)n;
    (void)w;
    if (game_result(h) != RESULT_NONE) {
        htp_fail(h, "message: play: the game is already over");
        return;
    }
    struct search_limits lim;
    int side = tafl_pos(h->s->game)->side;
    proto_think_limits(h->cfg, &lim);
    if (h->timed && !h->cfg->depth && !h->cfg->nodes) {
        memset(&lim, 0, sizeof lim);
        lim.time_ms[0] = lim.time_ms[1] = -1;
        int64_t left = h->clock_ms[side] - ms_since(&h->turn_start);
        lim.time_ms[side] = left > 1 ? left : 1;
        lim.inc_ms[side] = h->add_ms;
    }
    struct proto_hooks hooks = {.on_done = htp_on_done, .ctx = h};
    if (proto_session_play_book(h->s, &hooks)) return;
    proto_session_go(h->s, &lim, false, &hooks);
}

/* board_size 7|11|13: a new game on that board (13x13: copenhagen13, on the wide build). */
static void cmd_board_size(struct htp *h, int n, char **w) {
    int64_t size;
    if (n != 2 || !proto_parse_i64(w[1], 1, 1000, &size) ||
        (size != 7 && size != 11 && size != 13)) {
        htp_fail(h, "message: board_size: expected 'board_size 7', 'board_size 11' or "
                    "'board_size 13'");
        return;
    }
    char err[160];
    bool other = proto_other_build((int)size, NULL, err, sizeof err);
    if (err[0]) { /* a program without the other build: the board stays as it was */
        htp_fail(h, "message: board_size: %s", err);
        return;
    }
    if (h->s->game->n > 0) h->timed = false; /* time settings survive only an unplayed game */
    if (other) {                             /* the other build goes on, with these settings */
        struct proto_handoff *ho = &hnefi_shared_handoff;
        char line[32];
        ho->htp_first = h->first;
        ho->htp_timed = h->timed;
        ho->htp_minutes_ms = h->minutes_ms;
        ho->htp_add_ms = h->add_ms;
        snprintf(line, sizeof line, "board_size %d", (int)size);
        proto_session_stop(h->s, false);
        proto_session_switch(h->s, line);
        return;
    }
    h->size = (int)size;
    h->first = size == 7 ? SIDE_DEFENDERS : SIDE_ATTACKERS;
    new_game(h);
    htp_ok(h, "%s", "");
}

/* first_move ROLE: a new game with ROLE to move first. */
static void cmd_first_move(struct htp *h, int n, char **w) {
    int role = n == 2 ? parse_role(w[1]) : -1;
    if (role < 0) {
        htp_fail(h, "message: first_move: expected 'first_move ROLE' (attacker or defender)");
        return;
    }
    h->first = role;
    new_game(h);
    htp_ok(h, "%s", "");
}

/* time_settings un-timed | fischer MINUTES ADD_SECONDS: a new game with that clock. */
static void cmd_time_settings(struct htp *h, int n, char **w) {
    int64_t minutes, add;
    if (n == 2 && (strcmp(w[1], "un-timed") == 0 || strcmp(w[1], "none") == 0)) {
        h->timed = false;
    } else if (n == 4 && strcmp(w[1], "fischer") == 0 &&
               proto_parse_i64(w[2], 0, 1000000, &minutes) &&
               proto_parse_i64(w[3], 0, 1000000, &add) && w[2][0] != '-' && w[3][0] != '-' &&
               (minutes > 0 || add > 0)) {
        h->timed = true;
        h->minutes_ms = minutes * 60000;
        h->add_ms = add * 1000;
    } else {
        htp_fail(h, "message: time_settings: expected 'time_settings un-timed' or "
                    "'time_settings fischer MINUTES ADD_SECONDS' (whole numbers)");
        return;
    }
    new_game(h);
    htp_ok(h, "%s", "");
}

/* final_status: ongoing, attacker_wins, defender_wins or draw. */
static void cmd_final_status(struct htp *h, int n, char **w) {
    (void)n;
    (void)w;
    int r = game_result(h);
    htp_ok(h, "%s",
           r == RESULT_ATTACKERS   ? "attacker_wins"
           : r == RESULT_DEFENDERS ? "defender_wins"
           : r == RESULT_DRAW      ? "draw"
                                   : "ongoing");
}

/* play_from: the side to move and every square holding one of its pieces that can move. */
static void cmd_play_from(struct htp *h, int n, char **w) {
    (void)n;
    (void)w;
    move_t moves[MAX_MOVES];
    char text[HTP_MSG_MAX], sq[8];
    int k = game_result(h) != RESULT_NONE ? 0 : tafl_legal_moves(h->s->game, moves);
    bb_t from = BB_EMPTY;
    for (int i = 0; i < k; i++) from |= bb_sq(move_from(moves[i]));
    size_t len = (size_t)snprintf(text, sizeof text, "%s", role_name(tafl_pos(h->s->game)->side));
    for (int s = 0; s < h->size * h->size; s++)
        if (bb_has(from, s)) {
            htp_sq_name(s, h->size, sq);
            len += (size_t)snprintf(text + len, sizeof text - len, " %s", sq);
        }
    htp_ok(h, "%s", text);
}

/* play_to ROLE FROM: the legal destinations of the piece on FROM. */
static void cmd_play_to(struct htp *h, int n, char **w) {
    const char *why;
    int role = n == 3 ? parse_role(w[1]) : -1, from;
    if (role < 0) {
        htp_fail(h, "message: play_to: expected 'play_to ROLE FROM'");
        return;
    }
    if ((from = htp_sq(w[2], h->size, &why)) < 0) {
        htp_fail(h, "message: play_to: %s", why);
        return;
    }
    if (game_result(h) != RESULT_NONE) {
        htp_fail(h, "play: the game is already over");
        return;
    }
    const struct position *p = tafl_pos(h->s->game);
    enum piece pc = pos_piece_at(p, from);
    bool mine =
        role == SIDE_ATTACKERS ? pc == PIECE_ATTACKER : pc == PIECE_DEFENDER || pc == PIECE_KING;
    if (role != p->side || !mine) {
        htp_fail(h, "play: it isn't your turn");
        return;
    }
    move_t moves[MAX_MOVES];
    char text[HTP_MSG_MAX] = "", sq[8];
    size_t len = 0;
    int k = tafl_legal_moves(h->s->game, moves);
    bb_t to = BB_EMPTY;
    for (int i = 0; i < k; i++)
        if (move_from(moves[i]) == from) to |= bb_sq(move_to(moves[i]));
    for (int s = 0; s < h->size * h->size; s++)
        if (bb_has(to, s)) {
            htp_sq_name(s, h->size, sq);
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", len ? " " : "", sq);
        }
    htp_ok(h, "%s", text);
}

/* play_undo: takes back the last play (a resignation or a lost clock counts as one). */
static void cmd_play_undo(struct htp *h, int n, char **w) {
    (void)n;
    (void)w;
    if (h->end_result != RESULT_NONE) {
        h->end_result = RESULT_NONE;
    } else if (!tafl_undo(h->s->game)) {
        htp_fail(h, "play undo: it is the first move");
        return;
    }
    htp_ok(h, "%s", "");
}

/* known_command WORD: true or false. */
static void cmd_known_command(struct htp *h, int n, char **w) {
    if (n != 2) {
        htp_fail(h, "message: known_command: expected 'known_command WORD'");
        return;
    }
    bool known = false;
    for (int i = 0; i < HTP_COMMANDS; i++) known |= strcmp(w[1], htp_commands[i]) == 0;
    htp_ok(h, "%s", known ? "true" : "false");
}

/* list_commands: `= ` and then one command per line. */
static void cmd_list_commands(struct htp *h, int n, char **w) {
    (void)n;
    (void)w;
    char text[HTP_MSG_MAX] = "";
    size_t len = 0;
    for (int i = 0; i < HTP_COMMANDS; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "\n%s", htp_commands[i]);
    htp_ok(h, "%s", text);
}

/* name, version, protocol_version. */
static void cmd_name(struct htp *h, int n, char **w) {
    (void)n;
    htp_ok(h, "%s",
           strcmp(w[0], "name") == 0      ? PROTO_ENGINE_NAME
           : strcmp(w[0], "version") == 0 ? PROTO_ENGINE_VERSION
                                          : "1-beta");
}

/* show_board: `= ` and a drawing for people. */
static void cmd_show_board(struct htp *h, int n, char **w) {
    (void)n;
    (void)w;
    char *board = proto_board_text(tafl_pos(h->s->game));
    size_t len = board ? strlen(board) : 0;
    if (len) board[len - 1] = 0; /* htp_ok adds the last newline */
    htp_ok(h, "\n%s", board ? board : "");
    free(board);
}

/* show_board_open_tafl: `= /rows/` from the top row down, A attacker, D defender, K king. */
static void cmd_show_board_open_tafl(struct htp *h, int n, char **w) {
    (void)n;
    (void)w;
    char fen[FEN_MAX];
    fen_write(tafl_pos(h->s->game), fen);
    *strchr(fen, ' ') = 0;
    for (char *c = fen; *c; c++) *c = (char)toupper((unsigned char)*c);
    htp_ok(h, "/%s/", fen);
}

/* One command: its name and handler. */
struct htp_command {
    const char *name;
    void (*run)(struct htp *h, int n, char **w);
};

static const struct htp_command htp_table[] = {
    {"board_size", cmd_board_size},
    {"final_status", cmd_final_status},
    {"first_move", cmd_first_move},
    {"generate_move", cmd_generate_move},
    {"known_command", cmd_known_command},
    {"list_commands", cmd_list_commands},
    {"name", cmd_name},
    {"play", cmd_play},
    {"play_from", cmd_play_from},
    {"play_to", cmd_play_to},
    {"play_undo", cmd_play_undo},
    {"protocol_version", cmd_name},
    {"show_board", cmd_show_board},
    {"show_board_open_tafl", cmd_show_board_open_tafl},
    {"time_settings", cmd_time_settings},
    {"version", cmd_name},
};

/* Handles one line; returns false on quit. */
static bool htp_line(struct htp *h, struct proto_line *line) {
    char q[64], **w = h->s->words;
    int n = 0;
    if (!line->overlong && !line->has_nul) {
        char *hash = strchr(line->text, '#');
        if (hash) *hash = 0;
        n = proto_split(line->text, w, PROTO_MAX_TOKENS);
        if (n == 0) return true; /* empty or a comment: no reply at all */
        if (n > 0 && strcmp(w[0], "quit") == 0) return false;
    }
    /* a generate_move still searching answers first */
    proto_session_wait(h->s);
    if (line->overlong) {
        htp_fail(h, "message: line of %zu bytes ignored: longer than %d bytes", line->full_len,
                 PROTO_LINE_MAX - 1);
        return true;
    }
    if (line->has_nul) {
        htp_fail(h, "message: line ignored: it holds a NUL byte");
        return true;
    }
    if (n < 0) {
        htp_fail(h, "message: line ignored: more than %d words", PROTO_MAX_TOKENS);
        return true;
    }
    for (size_t i = 0; i < sizeof htp_table / sizeof htp_table[0]; i++)
        if (strcmp(w[0], htp_table[i].name) == 0) {
            htp_table[i].run(h, n, w);
            return true;
        }
    htp_fail(h, "message: unrecognized command: %s", proto_quote(w[0], q, sizeof q));
    return true;
}

/* Runs the HTP loop (see proto_loop). */
int proto_htp_loop(struct proto_session *s, struct proto_reader *r, struct proto_line *line,
                   bool have, const struct proto_config *cfg) {
    struct htp *h = calloc(1, sizeof *h);
    if (!h) return 1;
    h->s = s;
    h->cfg = cfg;
    h->server = cfg->server;
    h->repeat_moves = cfg->repeat_moves;
    h->size = HNEFI_WIDE ? 13 : 11;
    h->first = SIDE_ATTACKERS;
    if (s->continued) { /* going on from the other build: its settings */
        const struct proto_handoff *ho = &hnefi_shared_handoff;
        h->first = ho->htp_first;
        h->timed = ho->htp_timed;
        h->minutes_ms = ho->htp_minutes_ms;
        h->add_ms = ho->htp_add_ms;
    }
    new_game(h);
    if (s->startup_note[0] && !s->continued) fprintf(stderr, "hnefi htp: %s\n", s->startup_note);
    bool more = !have || htp_line(h, line);
    while (more && !s->switch_line && proto_read_line(r, line)) more = htp_line(h, line);
    if (s->switch_line) {
        free(h);
        return PROTO_SWITCH;
    }
    /* quit stops a search; at the end of input a generate_move still gets its answer */
    if (more)
        proto_session_wait(s);
    else
        proto_session_stop(s, false);
    free(h);
    return 0;
}

enum { HTP_HOST_MAX = 256 };

/* Tells whether addr has the form HOST:PORT; false after printing why. */
static bool htp_address_ok(const char *addr) {
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr || colon - addr >= HTP_HOST_MAX || !colon[1]) {
        fprintf(stderr, "hnefi htp: --connect '%s': expected HOST:PORT\n", addr);
        return false;
    }
    return true;
}

/* Connects to host:port (the light server); returns the socket or -1 after a message. */
static int htp_connect(const char *addr) {
    char host[HTP_HOST_MAX];
    const char *colon = strrchr(addr, ':');
    snprintf(host, sizeof host, "%.*s", (int)(colon - addr), addr);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "hnefi htp: --connect '%s': %s\n", addr, gai_strerror(rc));
        return -1;
    }
    int fd = -1, why = 0;
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            why = errno; /* the last address's reason is the one told */
            if (fd >= 0) close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        fprintf(stderr, "hnefi htp: --connect '%s': cannot connect: %s\n", addr, strerror(why));
    return fd;
}

/* The arguments only hnefi htp takes: --server, --connect HOST:PORT, --repeat-moves. */
static int htp_extra(int argc, char **argv, int *i, struct proto_config *cfg) {
    if (strcmp(argv[*i], "--server") == 0) {
        cfg->server = true;
    } else if (strcmp(argv[*i], "--repeat-moves") == 0) {
        cfg->repeat_moves = true;
    } else if (strcmp(argv[*i], "--connect") == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "hnefi htp: option --connect needs HOST:PORT\n");
            return -1;
        }
        cfg->connect = argv[++*i];
        if (!htp_address_ok(cfg->connect)) return -1; /* a bad argument; an unreachable host: 1 */
        cfg->server = true;
    } else {
        return 0;
    }
    return 1;
}

/* hnefi htp: the hnefatafl.org text protocol. */
int cmd_htp(int argc, char **argv) {
    struct proto_config cfg;
    proto_config_default(&cfg);
    int rc =
        proto_args(argc, argv, &cfg,
                   "usage: hnefi htp [options]\n"
                   "Speaks the hnefatafl.org text protocol on stdin/stdout (docs/protocol.md).\n"
                   "  --server         the light server's exchange: generate_move is answered\n"
                   "                   with a bare 'play ROLE FROM TO', play lines silently\n"
                   "  --connect H:P    connect to a light server at H:P and play (implies "
                   "--server)\n"
                   "  --repeat-moves   allow a defender move that repeats a board\n",
                   true, htp_extra);
    if (rc >= 0) return rc;
    /* a session going on from the other build keeps its connection (proto_run takes it from
       the handoff), and one handed on leaves it open */
    int fd = 0;
    bool connect = cfg.connect && !proto_continuing();
    if (connect) {
        if ((fd = htp_connect(cfg.connect)) < 0) return 1;
        proto_out_set_fd(fd);
    }
    rc = proto_run(&cfg, fd, false, proto_htp_loop);
    if (connect && rc != PROTO_SWITCH) close(fd);
    return rc;
}

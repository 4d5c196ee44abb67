/*
 * The OpenTafl engine protocol (docs/protocol.md, ../shared/ref/otep.md), as the real OpenTafl
 * host speaks it: `rules` before our `hello`, `clock` before `play` or no clock at all, opponent
 * moves without captures (the position record is the check, and we resync to it), `finish`
 * perhaps twice, and end of input instead of `goodbye`. Every reply is one line written in one
 * piece; nothing goes to stderr; unknown lines are ignored, malformed known ones get
 * `error 0 <message>`.
 *
 * Rules that hnefi cannot play are refused once with `error 0 unsupported rules: <why>`, and
 * from then on until rules it can play arrive, hnefi makes no move and no analysis under any
 * other rules: each `play` and `analyze` gets `error 0 no move: ...` instead, and the host's
 * boards for the refused game (moves, positions) are ignored. (OpenTafl's own advice, to play on
 * under the nearest rules, had the host reject move after move until the engine lost on time.)
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/notation.h"
#include "engine/opentafl.h"
#include "tools/cli_book.h"
#include "tools/proto_session.h"
#include "tools/score_text.h"

enum { OTEP_WIN_EVAL = 5050 };

enum otep_mode { OTEP_PLAY, OTEP_ANALYZE };

struct otep {
    struct proto_session *s;
    const struct proto_config *cfg;
    int our_side; /* from the last `play`, -1 before */
    /* our last move, until the host confirms it with `move`: the search thread's report writes
       it and then sets have_pending (release), before the host can have seen the move */
    atomic_bool have_pending;
    move_t pending;
    bool finished;
    /* the last rules were refused: no moves until rules that load; why they were refused */
    bool refused;
    char refused_why[300];
    /* the last `clock` line */
    bool have_clock;
    int64_t clock_ms[SIDE_NB], ot_ms;
    bool overtime[SIDE_NB];
    int ot_left[SIDE_NB];
    /* what the search is for; analysis keeps its current and its fullest finished iteration */
    enum otep_mode mode;
    struct search_line cur[SEARCH_MAX_MULTIPV], full[SEARCH_MAX_MULTIPV];
    int ncur, nfull;
};

/* Sends `error 0 <message>` (shown to the user; play goes on), unprintable bytes as '?'. */
__attribute__((format(printf, 1, 2))) static void otep_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proto_out_message("error 0 ", fmt, ap);
    va_end(ap);
}

/* Reads `attackers` or `defenders`; -1 if it is neither. */
static int parse_side(const char *w) {
    if (strcmp(w, "attackers") == 0) return SIDE_ATTACKERS;
    if (strcmp(w, "defenders") == 0) return SIDE_DEFENDERS;
    return -1;
}

/* Loads an OpenTafl position record with side to move into p; false with err on failure. */
static bool record_load(struct otep *o, const char *rec, int side, struct position *p, char *err,
                        size_t errlen) {
    char rows[FEN_MAX + 4], fen[FEN_MAX + 8];
    int size = o->s->variant.size;
    if (strlen(rec) > FEN_MAX) {
        snprintf(err, errlen, "position record of %zu bytes is too long", strlen(rec));
        return false;
    }
    if (!opentafl_record_to_rows(rec, size, false, rows, sizeof rows, err, errlen)) return false;
    snprintf(fen, sizeof fen, "%s %c", rows, side == SIDE_ATTACKERS ? 'a' : 'd');
    return fen_parse(p, &o->s->variant, fen, err, errlen);
}

/* Restarts the game from the current placement with side to move (history is dropped). */
static void set_side(struct otep *o, int side) {
    const struct position *cur = tafl_pos(o->s->game);
    if (cur->side == side) return;
    char fen[FEN_MAX], err[200];
    struct position p, placed = *cur;
    placed.berserk = 0; /* the other side to move: no berserk turn goes on */
    fen_write(&placed, fen);
    fen[strlen(fen) - 1] = side == SIDE_ATTACKERS ? 'a' : 'd';
    if (fen_parse(&p, &o->s->variant, fen, err, sizeof err)) proto_session_reset_to(o->s, &p);
}

/* Restarts the game from the host's board p unless ours already matches it. */
static void resync_to(struct otep *o, const struct position *p) {
    const struct position *cur = tafl_pos(o->s->game);
    if (bb_eq(cur->att, p->att) && bb_eq(cur->def, p->def) && bb_eq(cur->king, p->king) &&
        cur->side == p->side)
        return;
    proto_session_reset_to(o->s, p);
}

/* Reads the host's record with side to move; false after an error line naming what is wrong. */
static bool record_read(struct otep *o, const char *rec, int side, struct position *p) {
    char err[200];
    if (record_load(o, rec, side, p, err, sizeof err)) return true;
    /* the notation's messages name the position record already */
    otep_error("%s%s", strncmp(err, "position record", 15) == 0 ? "" : "position record: ", err);
    return false;
}

/*
 * Checks our board against the host's record; if they differ (or our move replay failed), the
 * game restarts from the record with side to move.
 */
static void resync(struct otep *o, const char *rec, int side) {
    struct position p;
    if (record_read(o, rec, side, &p)) resync_to(o, &p);
}

/* Takes the last `analyze` iteration into the fullest one if it has at least as many lines. */
static void analysis_settle(struct otep *o) {
    if (o->ncur > 0 && o->ncur >= o->nfull) {
        memcpy(o->full, o->cur, (size_t)o->ncur * sizeof o->cur[0]);
        o->nfull = o->ncur;
    }
    o->ncur = 0;
}

/* Converts a score for the side to move into OpenTafl's eval, from the attackers' view. */
static int attackers_eval(int score, int side) {
    int plies, e = score;
    if (score_is_win(score, &plies)) {
        int far = OTEP_WIN_EVAL + (SCORE_WIN - SCORE_WIN_MIN) - plies;
        e = score > 0 ? far : -far;
    }
    return side == SIDE_ATTACKERS ? e : -e;
}

/* Search thread: a status line per iteration in play, collected lines in analysis. */
static void otep_on_line(const struct search_line *l, void *ctx) {
    struct otep *o = ctx;
    if (o->mode == OTEP_ANALYZE) {
        if (l->multipv == 1) analysis_settle(o);
        if (o->ncur < SEARCH_MAX_MULTIPV) o->cur[o->ncur++] = *l;
        return;
    }
    char score[96], pv[PROTO_PV_TEXT_MAX];
    score_text_human(o->s->search_game, l, score, sizeof score);
    struct search_line shortl = *l;
    if (shortl.pv_len > 8) shortl.pv_len = 8;
    proto_pv_text(&shortl, o->s->variant.size, true, ' ', pv, sizeof pv);
    proto_out("status depth %d: %s, %s", l->depth, score, pv);
}

/* Search thread: sends our move, or the analysis line. */
static void otep_on_done(const struct search_result *r, void *ctx) {
    struct otep *o = ctx;
    int size = o->s->variant.size;
    if (o->mode == OTEP_ANALYZE) {
        analysis_settle(o);
        int side = tafl_pos(o->s->search_game)->side, keep[SEARCH_MAX_MULTIPV], k = 0;
        /* the host shows only first moves: one line per first move */
        for (int i = 0; i < o->nfull; i++) {
            bool again = o->full[i].pv_len == 0;
            for (int j = 0; j < k; j++) again |= o->full[keep[j]].pv[0] == o->full[i].pv[0];
            if (!again) keep[k++] = i;
        }
        char *text = malloc((size_t)k * (PROTO_PV_TEXT_MAX + 24) + 32);
        if (!text) return;
        size_t n = (size_t)sprintf(text, "analysis %d", k);
        for (int i = 0; i < k; i++) {
            const struct search_line *l = &o->full[keep[i]];
            text[n++] = ' ';
            proto_pv_text(l, size, true, '|', text + n, PROTO_PV_TEXT_MAX);
            n += strlen(text + n);
            n += (size_t)sprintf(text + n, " %d", attackers_eval(l->score, side));
        }
        proto_out("%s", text);
        free(text);
        return;
    }
    if (!r->best) {
        /* OpenTafl cannot take a resignation; say why nothing comes */
        proto_out("status no legal move");
        return;
    }
    char mv[MOVE_TEXT_MAX];
    move_write_captures(r->best, BB_EMPTY, size, mv);
    o->pending = r->best;
    atomic_store_explicit(&o->have_pending, true, memory_order_release);
    proto_out("move %s", mv);
}

/* Waits for a search that has already reported, so its results are ours to read. */
static void settle(struct otep *o) {
    if (proto_session_state(o->s) == PROTO_DONE) proto_session_stop(o->s, true);
}

/* Plays our pending move on our board once the host has confirmed it (or moved on). */
static void apply_pending(struct otep *o) {
    if (!atomic_exchange_explicit(&o->have_pending, false, memory_order_acquire)) return;
    if (tafl_move_legal(o->s->game, o->pending, NULL, 0)) tafl_play(o->s->game, o->pending);
}

/* Says which book move is played (a status line, which the host shows). */
static void otep_on_book(move_t m, const struct book_move *info, void *ctx) {
    struct otep *o = ctx;
    char mv[MOVE_TEXT_MAX], score[48];
    move_write_captures(m, BB_EMPTY, o->s->variant.size, mv);
    cli_book_score_text(info, score, sizeof score);
    proto_out("status book move %s: %u games, score %s", mv, info->games, score);
}

/* Starts a search in the given mode (a move for play comes from the book if it has one). */
static void start_search(struct otep *o, enum otep_mode mode, const struct search_limits *lim,
                         int multipv) {
    struct proto_hooks hooks = {
        .on_line = otep_on_line, .on_done = otep_on_done, .on_book = otep_on_book, .ctx = o};
    proto_session_stop(o->s, false);
    o->mode = mode;
    o->ncur = o->nfull = 0;
    o->s->opt.multipv = multipv;
    if (mode == OTEP_PLAY && proto_session_play_book(o->s, &hooks)) return;
    proto_session_go(o->s, lim, false, &hooks);
}

/* rules <OpenTafl rules string>: new rules, a new game from their start. */
static void otep_rules(struct otep *o, const char *text) {
    struct variant v;
    char err[300];
    text += 5;
    while (*text == ' ' || *text == '\t') text++;
    if (!*text) {
        otep_error("rules: missing rules string");
        return;
    }
    if (proto_other_build(opentafl_rules_dim(text), text, err, sizeof err)) {
        /* a board the other build plays: it goes on */
        char line[PROTO_LINE_MAX];
        snprintf(line, sizeof line, "rules %s", text);
        proto_session_stop(o->s, false);
        proto_session_switch(o->s, line);
        return;
    }
    if (err[0] || !opentafl_read_rules(&v, text, err, sizeof err)) {
        proto_session_stop(o->s, false);
        atomic_store_explicit(&o->have_pending, false, memory_order_relaxed);
        o->refused = true;
        snprintf(o->refused_why, sizeof o->refused_why, "%s", err);
        otep_error("unsupported rules: %s; hnefi makes no moves until it gets rules it can play",
                   err);
        return;
    }
    o->refused = false;
    proto_session_set_variant(o->s, &v);
    search_clear(o->s->search);
    o->our_side = -1;
    atomic_store_explicit(&o->have_pending, false, memory_order_relaxed);
    o->have_clock = false;
    o->finished = false;
}

/* clock <att_ms>[*] <def_ms>[*] <ot_s> <att_ot> <def_ot>: the time left on both clocks. */
static void otep_clock(struct otep *o, int n, char **w) {
    int64_t ms[2], ot_s, left[2];
    bool star[2];
    if (n != 6) {
        otep_error("clock: expected 5 values, got %d", n - 1);
        return;
    }
    for (int i = 0; i < 2; i++) {
        size_t len = strlen(w[1 + i]);
        star[i] = len > 1 && w[1 + i][len - 1] == '*';
        if (star[i]) w[1 + i][len - 1] = 0;
        if (!proto_parse_i64(w[1 + i], -1000000000000LL, 1000000000000LL, &ms[i])) {
            otep_error("clock: bad time '%.32s'", w[1 + i]);
            return;
        }
    }
    if (!proto_parse_i64(w[3], 0, 100000000, &ot_s) ||
        !proto_parse_i64(w[4], 0, 1000000, &left[0]) ||
        !proto_parse_i64(w[5], 0, 1000000, &left[1])) {
        otep_error("clock: bad overtime values '%.16s %.16s %.16s'", w[3], w[4], w[5]);
        return;
    }
    o->have_clock = true;
    o->ot_ms = ot_s * 1000;
    for (int i = 0; i < 2; i++) {
        o->clock_ms[i] = ms[i];
        o->overtime[i] = star[i];
        o->ot_left[i] = (int)left[i];
    }
}

/* Fills the search limits for our move from the last clock line (or the untimed setting). */
static void play_limits(struct otep *o, int me, struct search_limits *lim) {
    proto_think_limits(o->cfg, lim);
    if (!o->have_clock || o->cfg->depth || o->cfg->nodes) return; /* a fixed search */
    memset(lim, 0, sizeof *lim);
    lim->time_ms[0] = lim->time_ms[1] = -1;
    int64_t t = o->clock_ms[me];
    if (o->overtime[me] || (t <= 0 && o->ot_left[me] > 0)) {
        /* in overtime: this period must last the move */
        lim->time_ms[me] = o->overtime[me] ? t : o->ot_ms;
        lim->movestogo = 1;
    } else {
        lim->time_ms[me] = t;
        lim->inc_ms[me] = o->ot_left[me] > 0 ? o->ot_ms : 0;
    }
    if (lim->time_ms[me] < 1) lim->time_ms[me] = 1;
}

/* play attackers|defenders: search and answer with exactly one `move` line. */
static void otep_play(struct otep *o, int n, char **w) {
    int side = n == 2 ? parse_side(w[1]) : -1;
    if (side < 0) {
        otep_error("play: expected 'play attackers' or 'play defenders'");
        return;
    }
    if (o->refused) {
        otep_error("no move: the rules were refused (%s)", o->refused_why);
        return;
    }
    proto_session_stop(o->s, false);
    apply_pending(o);
    o->our_side = side;
    o->finished = false;
    set_side(o, side);
    if (o->s->game->result != RESULT_NONE) {
        /* the host plays on where our history says the game is over (its repetition rules
           differ): forget the history and move from the board as it stands */
        struct position p = *tafl_pos(o->s->game);
        proto_session_reset_to(o->s, &p);
    }
    struct search_limits lim;
    play_limits(o, side, &lim);
    start_search(o, OTEP_PLAY, &lim, 1);
}

/* Strips a piece letter in front and status marks (+, -) behind an OTN move, and writes its
   move type (-, ^ a jump, = a berserk move, ^=) as -, in place. */
static char *clean_move(char *m) {
    if (strchr("tcnkmgTCNKMG", m[0]) && m[0] && m[1] >= 'a' && m[1] <= 's') m++;
    size_t len = strlen(m);
    while (len > 0 && (m[len - 1] == '+' || m[len - 1] == '-')) m[--len] = 0;
    char *o = m;
    for (char *c = m; *c; c++) {
        if (*c == '^' || *c == '=' || *c == '-') {
            if (o == m || o[-1] != '-') *o++ = '-';
        } else {
            *o++ = *c;
        }
    }
    *o = 0;
    return m;
}

/* opponent-move <m1>[|<m2>...] <record>: play it with our captures, then check the record; a
   move we cannot play, with no record to resync to, or a record that does not load changes
   nothing. */
static void otep_opponent_move(struct otep *o, int n, char **w) {
    if (n < 2 || n > 3) {
        otep_error("opponent-move: expected moves and a position record");
        return;
    }
    settle(o);
    proto_session_stop(o->s, false);
    apply_pending(o);
    int mover = tafl_pos(o->s->game)->side;
    int after = o->our_side >= 0 ? o->our_side : !mover;
    struct position host;
    if (n == 3 && !record_read(o, w[2], after, &host)) return;
    enum { TURN_MOVES_MAX = 64 }; /* a berserk turn is a move and one more for each capture */
    char err[200] = "", *save = NULL, *moves[TURN_MOVES_MAX];
    int k = 0;
    bool ok = true;
    for (char *m = strtok_r(w[1], "|", &save); m && ok; m = strtok_r(NULL, "|", &save)) {
        char *mv = clean_move(m);
        if (k == TURN_MOVES_MAX) {
            snprintf(err, sizeof err, "more than %d moves in one turn", TURN_MOVES_MAX);
            ok = false;
        } else if (strlen(mv) >= MOVE_TEXT_MAX) {
            snprintf(err, sizeof err, "a move of %zu bytes is too long", strlen(mv));
            ok = false;
        } else {
            moves[k++] = mv;
        }
    }
    if (ok && k == 0) {
        snprintf(err, sizeof err, "no move in '%s'", w[1]);
        ok = false;
    }
    if (ok) ok = proto_session_play_moves(o->s, moves, k, err, sizeof err);
    if (n == 3)
        resync_to(o, &host);
    else if (!ok)
        otep_error("opponent-move: %s", err);
}

/* move <record>: the host confirms our move; play it and check the record. */
static void otep_move(struct otep *o, int n, char **w) {
    if (n != 2) {
        otep_error("move: expected a position record");
        return;
    }
    settle(o);
    int mover = tafl_pos(o->s->game)->side;
    apply_pending(o);
    /* a berserk turn: our capture gives our piece another move, and the host says play again */
    const struct position *now = tafl_pos(o->s->game);
    if (pos_berserker(now) >= 0 && now->side == mover)
        resync(o, w[1], mover);
    else
        resync(o, w[1], o->our_side >= 0 ? !o->our_side : !mover);
}

/* position <record>: the board for analysis; the side to move comes with `side`. */
static void otep_position(struct otep *o, int n, char **w) {
    struct position p;
    char err[200];
    if (n != 2) {
        otep_error("position: expected a position record");
        return;
    }
    if (!record_load(o, w[1], tafl_pos(o->s->game)->side, &p, err, sizeof err)) {
        otep_error("position: %s", err);
        return;
    }
    proto_session_stop(o->s, false);
    atomic_store_explicit(&o->have_pending, false, memory_order_relaxed);
    proto_session_reset_to(o->s, &p);
}

/* side attackers|defenders: the side to move of the position to analyse. */
static void otep_side(struct otep *o, int n, char **w) {
    int side = n == 2 ? parse_side(w[1]) : -1;
    if (side < 0) {
        otep_error("side: expected 'side attackers' or 'side defenders'");
        return;
    }
    proto_session_stop(o->s, false);
    set_side(o, side);
}

/* analyze <n> <seconds>: up to n lines within the time, as one `analysis` line. */
static void otep_analyze(struct otep *o, int n, char **w) {
    int64_t lines;
    char *end;
    double sec = n == 3 ? strtod(w[2], &end) : 0;
    if (n != 3 || !proto_parse_i64(w[1], 1, 1000, &lines) || *end || !(sec > 0) || sec > 1e6) {
        otep_error("analyze: expected 'analyze <lines 1-1000> <seconds above 0>'");
        return;
    }
    if (o->refused) {
        otep_error("no move: the rules were refused (%s)", o->refused_why);
        return;
    }
    struct search_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.time_ms[0] = lim.time_ms[1] = -1;
    lim.movetime_ms = (int64_t)(sec * 1000);
    if (lim.movetime_ms < 1) lim.movetime_ms = 1;
    start_search(o, OTEP_ANALYZE, &lim,
                 lines > SEARCH_MAX_MULTIPV ? SEARCH_MAX_MULTIPV : (int)lines);
}

/* error <code>: the host refused our move (1 wrong side, 2 illegal); forget it. */
static void otep_host_error(struct otep *o, int n, char **w) {
    (void)n;
    (void)w;
    settle(o);
    atomic_store_explicit(&o->have_pending, false, memory_order_relaxed);
}

/* Handles one line; returns false on goodbye. */
static bool otep_line(struct otep *o, struct proto_line *line) {
    if (line->overlong) {
        otep_error("line of %zu bytes ignored: longer than %d bytes", line->full_len,
                   PROTO_LINE_MAX - 1);
        return true;
    }
    if (line->has_nul) {
        otep_error("line ignored: it holds a NUL byte");
        return true;
    }
    char *text = line->text + strspn(line->text, " \t");
    /* `dump <n>` comes without a newline, so the next command may follow it on the same line */
    if (strncmp(text, "dump", 4) == 0) {
        text += 4;
        text += strspn(text, " \t");
        text += strspn(text, "0123456789");
        text += strspn(text, " \t");
        if (!*text || strncmp(text, "dump", 4) == 0) return true;
    }
    if (strncmp(text, "rules", 5) == 0 && (text[5] == 0 || text[5] == ' ' || text[5] == '\t')) {
        otep_rules(o, text);
        return true;
    }
    char **w = o->s->words;
    int n = proto_split(text, w, PROTO_MAX_TOKENS);
    if (n <= 0) return true;
    if (strcmp(w[0], "goodbye") == 0) return false;
    /* under refused rules the host's boards are of a game hnefi does not play: not read */
    if (o->refused && (strcmp(w[0], "opponent-move") == 0 || strcmp(w[0], "move") == 0 ||
                       strcmp(w[0], "position") == 0 || strcmp(w[0], "side") == 0))
        return true;
    if (strcmp(w[0], "play") == 0)
        otep_play(o, n, w);
    else if (strcmp(w[0], "opponent-move") == 0)
        otep_opponent_move(o, n, w);
    else if (strcmp(w[0], "move") == 0)
        otep_move(o, n, w);
    else if (strcmp(w[0], "clock") == 0)
        otep_clock(o, n, w);
    else if (strcmp(w[0], "position") == 0)
        otep_position(o, n, w);
    else if (strcmp(w[0], "side") == 0)
        otep_side(o, n, w);
    else if (strcmp(w[0], "analyze") == 0)
        otep_analyze(o, n, w);
    else if (strcmp(w[0], "error") == 0)
        otep_host_error(o, n, w);
    else if (strcmp(w[0], "finish") == 0) {
        proto_session_stop(o->s, false);
        atomic_store_explicit(&o->have_pending, false, memory_order_relaxed);
        o->finished = true;
    }
    /* anything else (hello, unknown words) is ignored, as the protocol asks */
    return true;
}

/* Runs the OpenTafl loop (see proto_loop). */
int proto_otep_loop(struct proto_session *s, struct proto_reader *r, struct proto_line *line,
                    bool have, const struct proto_config *cfg) {
    struct otep *o = calloc(1, sizeof *o);
    if (!o) return 1;
    o->s = s;
    o->our_side = -1;
    o->cfg = cfg;
    if (!s->continued) { /* a session going on from the other build has said hello */
        proto_out("hello");
        if (s->startup_note[0]) otep_error("%s", s->startup_note);
    }
    bool more = !have || otep_line(o, line);
    while (more && !s->switch_line && proto_read_line(r, line)) more = otep_line(o, line);
    if (s->switch_line) {
        free(o);
        return PROTO_SWITCH;
    }
    /* goodbye or end of input: the host is gone, so nothing more is sent */
    proto_session_stop(s, false);
    free(o);
    return 0;
}

/* hnefi otep: the OpenTafl engine protocol. */
int cmd_otep(int argc, char **argv) {
    struct proto_config cfg;
    proto_config_default(&cfg);
    int rc =
        proto_args(argc, argv, &cfg,
                   "usage: hnefi otep [options]\n"
                   "Speaks the OpenTafl engine protocol on stdin/stdout (docs/protocol.md,\n"
                   "docs/opentafl-engine.ini). With a clock from the host the time is planned\n"
                   "from it; without one, --movetime, --depth or --nodes say how long to think.\n",
                   true, NULL);
    return rc >= 0 ? rc : proto_run(&cfg, 0, false, proto_otep_loop);
}

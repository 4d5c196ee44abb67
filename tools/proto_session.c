/* The shared plumbing of the protocol front ends: lines in, lines out, the background search. */
#include "tools/proto_session.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "engine/notation.h"
#include "tools/cli.h"
#include "tools/cli_book.h"

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static int out_fd = 1;

/* The session handed between the builds (see proto_session.h); weak, so the copies of this file
   in both builds are one object. */
__attribute__((weak)) struct proto_handoff hnefi_shared_handoff;

/* Starts a reader on fd. */
void proto_reader_init(struct proto_reader *r, int fd) {
    r->fd = fd;
    r->eof = false;
    r->start = r->end = 0;
    r->pre = NULL;
    r->pre_len = r->pre_at = 0;
}

/* Frees what the reader holds (lines handed over and not read). */
void proto_reader_free(struct proto_reader *r) {
    free(r->pre);
    r->pre = NULL;
    r->pre_len = r->pre_at = 0;
}

/* Takes the next line of the reader's handed-over lines into line; false when there is none. */
static bool reader_pre_line(struct proto_reader *r, struct proto_line *line) {
    if (!r->pre) return false;
    if (r->pre_at >= r->pre_len) {
        proto_reader_free(r);
        return false;
    }
    const char *from = r->pre + r->pre_at;
    const char *nl = memchr(from, '\n', r->pre_len - r->pre_at);
    size_t len = nl ? (size_t)(nl - from) : r->pre_len - r->pre_at;
    r->pre_at += len + (nl ? 1 : 0);
    if (len > PROTO_LINE_MAX - 1) len = PROTO_LINE_MAX - 1; /* lines this program wrote itself */
    memcpy(line->text, from, len);
    line->text[len] = 0;
    line->len = line->full_len = len;
    line->overlong = line->has_nul = false;
    return true;
}

/* Refills the reader's buffer; false at the end of input (or on a read error). */
static bool reader_fill(struct proto_reader *r) {
    while (!r->eof) {
        ssize_t n = read(r->fd, r->buf, sizeof r->buf);
        if (n > 0) {
            r->start = 0;
            r->end = (size_t)n;
            return true;
        }
        if (n < 0 && errno == EINTR) continue;
        r->eof = true;
    }
    return false;
}

/* Reads the next line into line; returns false at the end of input. */
bool proto_read_line(struct proto_reader *r, struct proto_line *line) {
    if (reader_pre_line(r, line)) return true;
    size_t len = 0, full = 0;
    bool got = false;
    for (;;) {
        if (r->start == r->end && !reader_fill(r)) {
            if (!got) return false;
            break; /* a last line without '\n' */
        }
        got = true;
        char *from = r->buf + r->start;
        char *nl = memchr(from, '\n', r->end - r->start);
        size_t chunk = nl ? (size_t)(nl - from) : r->end - r->start;
        size_t room = PROTO_LINE_MAX - 1 - len;
        size_t take = chunk < room ? chunk : room;
        memcpy(line->text + len, from, take);
        len += take;
        full += chunk;
        r->start += chunk + (nl ? 1 : 0);
        if (nl) break;
    }
    line->has_nul = memchr(line->text, 0, len) != NULL;
    line->overlong = full > PROTO_LINE_MAX - 1;
    line->full_len = full;
    while (len > 0 && (line->text[len - 1] == '\r' || line->text[len - 1] == ' ' ||
                       line->text[len - 1] == '\t'))
        len--;
    line->text[len] = 0;
    line->len = len;
    return true;
}

/* Tells whether c separates words. */
static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits text in place into words separated by blanks; returns their count, -1 if more than max. */
int proto_split(char *text, char **words, int max) {
    int n = 0;
    char *p = text;
    for (;;) {
        while (is_blank(*p)) p++;
        if (!*p) return n;
        if (n == max) return -1;
        words[n++] = p;
        while (*p && !is_blank(*p)) p++;
        if (*p) *p++ = 0;
    }
}

/* Reads a whole decimal number in [lo, hi]; false if it is not one. */
bool proto_parse_i64(const char *text, int64_t lo, int64_t hi, int64_t *out) {
    const char *p = text;
    if (*p == '-' || *p == '+') p++;
    if (*p < '0' || *p > '9') return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*end || errno || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* Copies text for a message: at most PROTO_QUOTE_MAX bytes, unprintable bytes as '?'. */
const char *proto_quote(const char *text, char *out, size_t outlen) {
    size_t n = 0, i = 0;
    for (; text[i] && i < PROTO_QUOTE_MAX && n + 1 < outlen; i++) {
        unsigned char c = (unsigned char)text[i];
        out[n++] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
    }
    if (text[i] && n + 4 < outlen) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = 0;
    return out;
}

/* Writes all len bytes to fd, retrying short writes; gives up quietly on errors. */
static void write_all(int fd, const char *p, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        p += n;
        len -= (size_t)n;
    }
}

/* Writes one formatted line and a '\n' to stdout in a single write. */
void proto_out(const char *fmt, ...) {
    char stack[4096], *buf = stack;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(stack, sizeof stack - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof stack - 1) {
        buf = malloc((size_t)n + 2);
        if (!buf) return;
        va_start(ap, fmt);
        vsnprintf(buf, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    buf[n] = '\n';
    proto_out_raw(buf, (size_t)n + 1);
    if (buf != stack) free(buf);
}

/* Replaces every unprintable byte of text with '?' (messages quote what they were sent). */
void proto_clean(char *text) {
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || (unsigned char)*text >= 0x7f) *text = '?';
}

/* Writes prefix and the formatted message (unprintable bytes as '?') as one line. */
void proto_out_message(const char *prefix, const char *fmt, va_list ap) {
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    proto_clean(msg);
    proto_out("%s%s", prefix, msg);
}

/* Writes len bytes to stdout as they are, in one write under the output lock. */
void proto_out_raw(const char *text, size_t len) {
    pthread_mutex_lock(&out_lock);
    write_all(out_fd, text, len);
    pthread_mutex_unlock(&out_lock);
}

/* Makes proto_out write to fd instead of stdout (the HTP --connect socket). */
void proto_out_set_fd(int fd) {
    out_fd = fd;
}

/* Returns the board of p as a diagram (cli_fprint_board) in a malloc'd string; NULL if no memory.
 */
char *proto_board_text(const struct position *p) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    cli_fprint_board(f, p);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Writes a line's moves joined by sep, as `d1d3` or (dash) `d1-d3`; returns out. */
char *proto_pv_text(const struct search_line *l, int size, bool dash, char sep, char *out,
                    size_t outlen) {
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < l->pv_len && n + MOVE_TEXT_MAX + 2 < outlen; i++) {
        if (i) out[n++] = sep;
        n += (size_t)(dash ? move_write_captures(l->pv[i], BB_EMPTY, size, out + n)
                           : move_write(l->pv[i], size, out + n));
    }
    out[n] = 0;
    return out;
}

/* Copies the used part of a game (a struct tafl_game is large; most of it is unused). */
static void game_copy(struct tafl_game *dst, const struct tafl_game *src) {
    dst->v = src->v;
    dst->n = src->n;
    dst->result = src->result;
    dst->reason = src->reason;
    memcpy(dst->pos, src->pos, (size_t)(src->n + 1) * sizeof src->pos[0]);
    memcpy(dst->keys, src->keys, (size_t)(src->n + 1) * sizeof src->keys[0]);
    memcpy(dst->moves, src->moves, (size_t)src->n * sizeof src->moves[0]);
    memcpy(dst->captures, src->captures, (size_t)src->n * sizeof src->captures[0]);
}

/* Sets up a session for variant v with a table of hash_mib MiB; false if out of memory. */
bool proto_session_init(struct proto_session *s, const struct variant *v, long hash_mib) {
    memset(s, 0, sizeof *s);
    s->variant = *v;
    s->hash_mib = hash_mib;
    search_options_default(&s->opt);
    s->game = tafl_new(&s->variant);
    s->scratch = tafl_new(&s->variant);
    s->search_game = tafl_new(&s->variant);
    s->search = search_new((size_t)hash_mib);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    s->state = PROTO_IDLE;
    s->bk.own = -1;
    snprintf(s->bk.name, sizeof s->bk.name, "default");
    proto_session_book_seed(s, 0);
    if (!s->game || !s->scratch || !s->search_game || !s->search) {
        proto_session_free(s);
        return false;
    }
    return true;
}

/* Stops any search (without a report) and frees the session. */
void proto_session_free(struct proto_session *s) {
    proto_session_stop(s, false);
    search_free(s->search);
    cli_eval_free(&s->eval);
    tafl_free(s->game);
    tafl_free(s->scratch);
    tafl_free(s->search_game);
    s->search = NULL;
    s->game = s->scratch = s->search_game = NULL;
    book_free(&s->bk.book);
    s->bk.loaded = false;
    free(s->options_log);
    free(s->switch_line);
    s->options_log = s->switch_line = NULL;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
}

/* Appends text and a newline to a malloc'd log of *len bytes; false if out of memory. */
static bool log_append(char **log, size_t *len, const char *text) {
    size_t n = strlen(text);
    char *grown = realloc(*log, *len + n + 2);
    if (!grown) return false;
    memcpy(grown + *len, text, n);
    grown[*len + n] = '\n';
    grown[*len + n + 1] = 0;
    *log = grown;
    *len += n + 1;
    return true;
}

/* Records an option line that took effect, to be set again if the session changes build; it
   replaces an earlier line for the same option (the text before " value "), so a GUI that sets
   its options before every game does not grow the log. */
void proto_session_log_option(struct proto_session *s, const char *line) {
    const char *v = strstr(line, " value ");
    size_t key = v ? (size_t)(v - line) + 7 : strlen(line);
    char *log = s->options_log;
    size_t kept = 0;
    for (size_t at = 0; log && at < s->options_len;) {
        size_t n = strcspn(log + at, "\n") + 1; /* with its newline */
        if (!(n > key && strncasecmp(log + at, line, key) == 0)) {
            memmove(log + kept, log + at, n);
            kept += n;
        }
        at += n;
    }
    if (log) log[kept] = 0;
    s->options_len = kept;
    log_append(&s->options_log, &s->options_len, line);
}

/* Tells whether the session should go on in the other build for an n x n board (see .h). */
bool proto_other_build(int n, const char *rules, char *err, size_t errlen) {
    err[0] = '\0';
    if (!proto_other_width(n)) return false;
    bool (*ok)(const char *, char *, size_t) = hnefi_shared_handoff.rules_ok[!HNEFI_WIDE];
    if (!ok) {
        snprintf(err, errlen,
                 "boards of %dx%d need hnefi's build of %s boards, not in this program", n, n,
                 HNEFI_WIDE ? "11x11 and smaller" : "larger");
        return false;
    }
    return !rules || ok(rules, err, errlen);
}

/* Ends the session's loop so that the other build goes on with line. */
void proto_session_switch(struct proto_session *s, const char *line) {
    free(s->switch_line);
    s->switch_line = strdup(line);
}

/*
 * Makes v the rules in play and restarts the game from its start position. Stops a running
 * search without a report.
 */
void proto_session_set_variant(struct proto_session *s, const struct variant *v) {
    struct position start;
    proto_session_stop(s, false);
    s->variant = *v;
    pos_init_start(&start, &s->variant);
    tafl_reset(s->game, &start);
}

/*
 * Builds a game from a FEN (NULL: the variant's start) and moves, all or nothing: on success it
 * becomes the session's game; on failure the game is unchanged and err names the bad FEN or the
 * bad move with its ply.
 */
bool proto_session_set_position(struct proto_session *s, const char *fen, char *const *moves,
                                int nmoves, char *err, size_t errlen) {
    struct position start;
    char e[200];
    if (!fen)
        pos_init_start(&start, &s->variant);
    else if (!fen_parse(&start, &s->variant, fen, e, sizeof e)) {
        snprintf(err, errlen, "%s", e);
        return false;
    }
    tafl_reset(s->scratch, &start);
    for (int i = 0; i < nmoves; i++) {
        if (!tafl_play_text(s->scratch, moves[i], e, sizeof e)) {
            snprintf(err, errlen, "ply %d: %s", i + 1, e);
            return false;
        }
    }
    struct tafl_game *t = s->game;
    s->game = s->scratch;
    s->scratch = t;
    return true;
}

/* Plays moves on a copy of the session's game, which it becomes only if all of them are legal. */
bool proto_session_play_moves(struct proto_session *s, char *const *moves, int nmoves, char *err,
                              size_t errlen) {
    game_copy(s->scratch, s->game);
    for (int i = 0; i < nmoves; i++)
        if (!tafl_play_text(s->scratch, moves[i], err, errlen)) return false;
    struct tafl_game *t = s->game;
    s->game = s->scratch;
    s->scratch = t;
    return true;
}

/* Restarts the game from position p (which must belong to the session's variant). */
void proto_session_reset_to(struct proto_session *s, const struct position *p) {
    tafl_reset(s->game, p);
}

/* Forwards an iteration to the protocol unless the search was discarded. */
static void session_on_iteration(const struct search_line *l, void *ctx) {
    struct proto_session *s = ctx;
    pthread_mutex_lock(&s->lock);
    bool discard = s->discard;
    pthread_mutex_unlock(&s->lock);
    if (!discard && s->hooks.on_line) s->hooks.on_line(l, s->hooks.ctx);
}

/* Body of the search thread: search, wait while held, report, end. */
static void *session_search_main(void *arg) {
    struct proto_session *s = arg;
    struct search_callbacks cb = {.on_iteration = session_on_iteration, .ctx = s};
    struct search_result res;
    search_run(s->search, s->search_game, &s->limits, &s->opt, &cb, &res);
    pthread_mutex_lock(&s->lock);
    s->result = res;
    if (s->hold && !s->released) {
        s->state = PROTO_HELD;
        pthread_cond_broadcast(&s->cond);
        while (!s->released) pthread_cond_wait(&s->cond, &s->lock);
    }
    bool report = !s->discard;
    pthread_mutex_unlock(&s->lock);
    if (report && s->hooks.on_done) s->hooks.on_done(&s->result, s->hooks.ctx);
    pthread_mutex_lock(&s->lock);
    s->state = PROTO_DONE;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Joins the search thread if there is one (it must be ending). */
static void session_join(struct proto_session *s) {
    if (!s->thread_live) return;
    pthread_join(s->thread, NULL);
    s->thread_live = false;
    s->state = PROTO_IDLE;
}

/* Cuts a perft depth to the session's bound (proto_caps). */
int proto_session_perft_depth(const struct proto_session *s, int depth) {
    return s->caps.perft_depth > 0 && depth > s->caps.perft_depth ? s->caps.perft_depth : depth;
}

/* Bounds a search's limits and options by the session's caps (proto_caps). */
static void caps_apply(struct proto_session *s, struct search_limits *l) {
    const struct proto_caps *c = &s->caps;
    if (c->threads > 0 && s->opt.threads > c->threads) s->opt.threads = c->threads;
    if (!c->nodes) return;
    /* nodes and depth only: a search that never looks at the clock ends the same way */
    l->movetime_ms = 0;
    l->time_ms[0] = l->time_ms[1] = -1;
    l->inc_ms[0] = l->inc_ms[1] = 0;
    l->movestogo = 0;
    if (!l->nodes || l->nodes > c->nodes) l->nodes = c->nodes;
}

/* Starts a search of the current game on the search thread; any earlier search must be over. */
void proto_session_go(struct proto_session *s, const struct search_limits *limits, bool hold,
                      const struct proto_hooks *hooks) {
    proto_session_stop(s, false);
    game_copy(s->search_game, s->game);
    s->opt.net = cli_eval_net(&s->eval, &s->variant);
    s->limits = *limits;
    caps_apply(s, &s->limits);
    s->hold = hold;
    s->released = false;
    s->discard = false;
    s->hooks = *hooks;
    s->state = PROTO_RUNNING;
    if (pthread_create(&s->thread, NULL, session_search_main, s) == 0) {
        s->thread_live = true;
        return;
    }
    /* no thread: search right here, and never hold */
    s->hold = false;
    session_search_main(s);
    s->state = PROTO_IDLE;
}

/* Returns the state of the search. */
enum proto_search_state proto_session_state(struct proto_session *s) {
    pthread_mutex_lock(&s->lock);
    enum proto_search_state st = s->state;
    pthread_mutex_unlock(&s->lock);
    return st;
}

/* Tells whether a search is running or held (it has not reported yet). */
bool proto_session_busy(struct proto_session *s) {
    enum proto_search_state st = proto_session_state(s);
    return st == PROTO_RUNNING || st == PROTO_HELD;
}

/* Lets a held search report (and end) without stopping anything. */
void proto_session_release(struct proto_session *s) {
    pthread_mutex_lock(&s->lock);
    s->released = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* Stops the search, reporting its result if report is true, and waits for its thread. */
void proto_session_stop(struct proto_session *s, bool report) {
    if (!s->thread_live) return;
    pthread_mutex_lock(&s->lock);
    if (!report) s->discard = true;
    s->released = true;
    pthread_cond_broadcast(&s->cond);
    /* search_run clears the stop flag when it starts, so keep asking until it has returned */
    while (s->state == PROTO_RUNNING) {
        search_stop(s->search);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 2000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&s->cond, &s->lock, &until);
    }
    pthread_mutex_unlock(&s->lock);
    session_join(s);
}

/* Waits for a search that ends by itself (not held), then for its thread. */
void proto_session_wait(struct proto_session *s) {
    if (!s->thread_live) return;
    if (s->hold) {
        proto_session_stop(s, true);
        return;
    }
    session_join(s);
}

/* Stops the session's search without a report (a resize's hook, once the new table is found). */
static void stop_quietly(void *session) {
    proto_session_stop(session, false);
}

/* Resizes the table to mib MiB; false (table and search unchanged) if out of memory. */
bool proto_session_set_hash(struct proto_session *s, long mib) {
    if (s->caps.hash_mib > 0 && mib > s->caps.hash_mib) mib = s->caps.hash_mib;
    if (!search_set_hash(s->search, (size_t)mib, stop_quietly, s)) return false;
    s->hash_mib = mib;
    return true;
}

/* Returns the next value of a splitmix64 sequence. */
static uint64_t book_draw(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Sets the seed of weighted book choices (0: from the clock) and restarts their sequence. */
void proto_session_book_seed(struct proto_session *s, uint64_t seed) {
    s->bk.seed = seed;
    if (seed) {
        s->bk.rng = seed;
    } else {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        s->bk.rng = (uint64_t)t.tv_nsec ^ ((uint64_t)t.tv_sec << 30) ^ ((uint64_t)getpid() << 48);
    }
}

/*
 * Reads the book the session asks for now (the variant's shipped one for "default"), unless it
 * is loaded already; false with a reason in err.
 */
static bool book_resolve(struct proto_session *s, bool retry, char *err, size_t errlen) {
    const char *name = s->bk.own == 1 ? s->bk.name : "default";
    char path[4200];
    if (!cli_book_path(name, &s->variant, path, sizeof path, err, errlen)) return false;
    if (s->bk.loaded && strcmp(path, s->bk.loaded_path) == 0) return true;
    if (!retry && strcmp(path, s->bk.failed_path) == 0) {
        snprintf(err, errlen, "%.400s did not load", path);
        return false;
    }
    struct book b;
    memset(&b, 0, sizeof b);
    if (!book_load(&b, path, err, errlen)) {
        snprintf(s->bk.failed_path, sizeof s->bk.failed_path, "%s", path);
        return false;
    }
    book_free(&s->bk.book);
    s->bk.book = b;
    s->bk.loaded = true;
    s->bk.failed_path[0] = '\0';
    snprintf(s->bk.loaded_path, sizeof s->bk.loaded_path, "%s", path);
    return true;
}

/* Returns the book in use for the variant in play, or NULL. */
const struct book *proto_session_book(struct proto_session *s) {
    char err[600];
    const struct cli_book_default *d = cli_book_default_of(&s->variant);
    bool on = s->bk.own == 1 || (s->bk.own == -1 && d && d->on);
    if (!on || !book_resolve(s, false, err, sizeof err)) return NULL;
    return book_fits(&s->bk.book, &s->variant, err, sizeof err) ? &s->bk.book : NULL;
}

/*
 * Reads the book asked for now and checks it fits the rules in play; false with why, and
 * *unreadable set when the book cannot be read at all (rather than not fitting the rules).
 */
static bool book_check(struct proto_session *s, char *err, size_t errlen, bool *unreadable) {
    char why[600];
    *unreadable = !book_resolve(s, true, why, sizeof why);
    if (*unreadable) {
        snprintf(err, errlen, "%s", why);
        return false;
    }
    if (!book_fits(&s->bk.book, &s->variant, why, sizeof why)) {
        snprintf(err, errlen, "%.300s: %.300s; not used until the rules fit", s->bk.loaded_path,
                 why);
        return false;
    }
    return true;
}

/* Returns ok; a book that cannot be read is given up: the session's book choice goes back to
   what it was before (name, on or off; the book loaded then is still loaded), and err says so. */
static bool keep_book(struct proto_session *s, bool ok, bool unreadable, const char *old_name,
                      int old_own, char *err, size_t errlen) {
    if (ok || !unreadable) return ok;
    snprintf(s->bk.name, sizeof s->bk.name, "%s", old_name);
    s->bk.own = old_own;
    size_t n = strlen(err);
    if (n < errlen) snprintf(err + n, errlen - n, "; the book stays as it was");
    return false;
}

/* Asks for the book name and turns the book on; reads it now (book_check's results). */
static bool book_ask(struct proto_session *s, const char *name, char *err, size_t errlen,
                     bool *unreadable) {
    if (s->caps.no_files && strcmp(name, "default") != 0) {
        snprintf(err, errlen, "book files are off in this session");
        *unreadable = true;
        return false;
    }
    snprintf(s->bk.name, sizeof s->bk.name, "%s", name);
    s->bk.own = 1;
    return book_check(s, err, errlen, unreadable);
}

/* Asks for the book name (a file, or "default") and turns the book on; reads it now. */
bool proto_session_set_book(struct proto_session *s, const char *name, char *err, size_t errlen) {
    char old_name[sizeof s->bk.name];
    snprintf(old_name, sizeof old_name, "%s", s->bk.name);
    int old_own = s->bk.own;
    bool unreadable = false, ok = book_ask(s, name, err, errlen, &unreadable);
    return keep_book(s, ok, unreadable, old_name, old_own, err, errlen);
}

/* Turns the book on (own 1), off (0) or back to the default switch (-1). */
bool proto_session_own_book(struct proto_session *s, int own, char *err, size_t errlen) {
    bool unreadable = false;
    int old_own = s->bk.own;
    s->bk.own = own;
    if (own != 1) return true;
    char old_name[sizeof s->bk.name];
    snprintf(old_name, sizeof old_name, "%s", s->bk.name);
    bool ok = book_check(s, err, errlen, &unreadable);
    return keep_book(s, ok, unreadable, old_name, old_own, err, errlen);
}

/* Plays from the book if it holds a move for the current game (see proto_session.h). */
bool proto_session_play_book(struct proto_session *s, const struct proto_hooks *hooks) {
    const struct book *b = proto_session_book(s);
    if (!b) return false;
    const struct book_move *info = NULL;
    uint64_t draw = book_draw(&s->bk.rng);
    move_t m = book_choose(b, s->game, &s->bk.play, draw, &info);
    if (m == MOVE_NONE) return false;
    proto_session_stop(s, false);
    game_copy(s->search_game, s->game);
    memset(&s->result, 0, sizeof s->result);
    s->result.best = m;
    s->result.score = info->depth ? info->score : 0;
    if (hooks->on_book) hooks->on_book(m, info, hooks->ctx);
    if (hooks->on_done) hooks->on_done(&s->result, hooks->ctx);
    return true;
}

/* Makes the session search with the network in path (NULL: the built-in one again). */
bool proto_session_set_net(struct proto_session *s, const char *path, char *err, size_t errlen) {
    if (!path) {
        proto_session_stop(s, false);
        cli_eval_free(&s->eval);
        return true;
    }
    if (s->caps.no_files) {
        snprintf(err, errlen, "network files are off in this session");
        return false;
    }
    /* read first: a file refused leaves the search running */
    struct nnue_net net;
    if (!cli_net_read(&net, path, &s->variant, err, errlen)) return false;
    proto_session_stop(s, false);
    cli_eval_adopt(&s->eval, &net, path);
    return true;
}

/* Sets the defaults: Copenhagen, 64 MiB, one thread, 30 ms overhead, 3 s a move without a clock. */
void proto_config_default(struct proto_config *cfg) {
    struct search_options opt;
    search_options_default(&opt);
    memset(cfg, 0, sizeof *cfg);
    cfg->variant = variant_by_name("copenhagen");
    cfg->hash_mib = PROTO_HASH_DEFAULT;
    cfg->threads = 1;
    cfg->move_overhead_ms = opt.move_overhead_ms;
    cfg->movetime_ms = 3000;
    cfg->book_own = -1;
}

const char proto_common_usage[] =
    "  --hash MiB       transposition table size (default 64)\n"
    "  --threads T      search threads (default 1)\n"
    "  --move-overhead MS  time kept back from a clock for each move, for the host's delays\n"
    "                   (default 30; a fixed move time is used whole)\n"
    "  --book FILE      play from this opening book (docs/book.md); 'default': the shipped\n"
    "                   book of the variant in play\n"
    "  --no-book        no book, not even a shipped one switched on by default\n"
    "  --book-depth N   no book move once the game has N plies (default 0: no limit)\n"
    "  --book-variety best|weighted   the best book move, or a random one by the book's\n"
    "                   weights (default best)\n"
    "  --book-seed S    the seed of weighted choices (default 0: from the clock)\n"
    "  --eval nnue|classic  the learned evaluation (default, where the variant has a network)\n"
    "                   or the classical one (docs/nnue.md)\n"
    "  --net FILE       search with this network instead of the built-in one\n";

const char proto_thinking_usage[] =
    "  --movetime MS    think MS milliseconds a move when there is no clock (default 3000)\n"
    "  --depth N        search N plies a move instead (also with a clock)\n"
    "  --nodes N        search about N nodes a move instead (also with a clock)\n";

/*
 * Reads one of the options every protocol command takes (--hash, --threads, --move-overhead),
 * and with thinking also --movetime, --depth and --nodes, at argv[*i]; returns 1 if consumed, 0
 * if not one of them, -1 after an error message.
 */
int proto_common_option(int argc, char **argv, int *i, struct proto_config *cfg, bool thinking) {
    const char *a = argv[*i];
    if (strcmp(a, "--eval") == 0 || strcmp(a, "--net") == 0) {
        bool is_eval = a[2] == 'e';
        if (*i + 1 >= argc) {
            fprintf(stderr, "hnefi: option %s needs a value\n", a);
            return -1;
        }
        const char *v = argv[++*i];
        struct cli_eval probe = {0};
        if (is_eval && !cli_eval_set_kind(&probe, v)) {
            fprintf(stderr, "hnefi: --eval '%s': expected nnue or classic\n", v);
            return -1;
        }
        *(is_eval ? &cfg->eval : &cfg->net) = v;
        return 1;
    }
    if (strcmp(a, "--no-book") == 0) {
        if (cfg->book_own == 1) {
            fprintf(stderr, "hnefi: --book and --no-book are alternatives: give one of them\n");
            return -1;
        }
        cfg->book_own = 0;
        cfg->book = NULL;
        return 1;
    }
    if (!strcmp(a, "--book") || !strcmp(a, "--book-depth") || !strcmp(a, "--book-variety") ||
        !strcmp(a, "--book-seed")) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "hnefi: option %s needs a value\n", a);
            return -1;
        }
        const char *v = argv[++*i];
        long n;
        if (strcmp(a, "--book") == 0) {
            if (!*v) {
                fprintf(stderr, "hnefi: --book needs a file name (or default)\n");
                return -1;
            }
            if (cfg->book_own == 0) {
                fprintf(stderr, "hnefi: --book and --no-book are alternatives: give one of them\n");
                return -1;
            }
            cfg->book = v;
            cfg->book_own = 1;
        } else if (strcmp(a, "--book-depth") == 0) {
            if (!cli_parse_int(v, 0, MAX_GAME_PLIES, a, &n)) return -1;
            cfg->book_depth = (int)n;
        } else if (strcmp(a, "--book-variety") == 0) {
            if (!cli_book_variety(v, &cfg->book_variety)) {
                fprintf(stderr, "hnefi: --book-variety '%s': expected best or weighted\n", v);
                return -1;
            }
        } else {
            if (!cli_parse_int(v, 0, 2147483647L, a, &n)) return -1;
            cfg->book_seed = (uint64_t)n;
        }
        return 1;
    }
    static const struct {
        const char *name;
        long lo, hi;
    } opts[] = {{"--hash", 1, PROTO_HASH_MAX},
                {"--threads", 1, SEARCH_MAX_THREADS},
                {"--move-overhead", 0, PROTO_OVERHEAD_MAX},
                {"--movetime", 1, 1000000000L},
                {"--depth", 1, SEARCH_MAX_PLY - 8},
                {"--nodes", 1, 1000000000000L}};
    int count = thinking ? (int)(sizeof opts / sizeof opts[0]) : 3;
    for (int k = 0; k < count; k++) {
        if (strcmp(argv[*i], opts[k].name) != 0) continue;
        if (*i + 1 >= argc) {
            fprintf(stderr, "hnefi: option %s needs a value\n", argv[*i]);
            return -1;
        }
        long v;
        if (!cli_parse_int(argv[*i + 1], opts[k].lo, opts[k].hi, opts[k].name, &v)) return -1;
        /* how long to think: --movetime, --depth or --nodes, one of them */
        bool given[3] = {cfg->movetime_given, cfg->depth > 0, cfg->nodes > 0};
        for (int o = 3; k >= 3 && o < 6; o++)
            if (o != k && given[o - 3]) {
                fprintf(stderr, "hnefi: %s and %s are alternatives: give one of them\n",
                        opts[o].name, opts[k].name);
                return -1;
            }
        ++*i;
        switch (k) {
        case 0: cfg->hash_mib = v; break;
        case 1: cfg->threads = (int)v; break;
        case 2: cfg->move_overhead_ms = (int)v; break;
        case 3:
            cfg->movetime_ms = v;
            cfg->movetime_given = true;
            break;
        case 4: cfg->depth = (int)v; break;
        default: cfg->nodes = (uint64_t)v; break;
        }
        return 1;
    }
    return 0;
}

/* Fills limits for a move without a clock, from cfg. */
void proto_think_limits(const struct proto_config *cfg, struct search_limits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->time_ms[0] = limits->time_ms[1] = -1;
    limits->depth = cfg->depth;
    limits->nodes = cfg->nodes;
    if (!cfg->depth && !cfg->nodes) limits->movetime_ms = cfg->movetime_ms;
}

/* Tells whether a line is an OpenTafl `rules` line. */
static bool is_rules_line(const struct proto_line *l) {
    const char *t = l->text + strspn(l->text, " \t");
    return !l->has_nul && strncmp(t, "rules", 5) == 0 && (t[5] == 0 || t[5] == ' ' || t[5] == '\t');
}

/*
 * Reads the arguments of a protocol command (argv[0] is its name): the common options (and the
 * thinking ones if thinking), --help (prints usage and the usage of those options), and what
 * extra accepts (it returns like proto_common_option). Returns -1 to go on, else the exit status.
 */
int proto_args(int argc, char **argv, struct proto_config *cfg, const char *usage, bool thinking,
               int (*extra)(int argc, char **argv, int *i, struct proto_config *cfg)) {
    for (int i = 1; i < argc; i++) {
        int r = extra ? extra(argc, argv, &i, cfg) : 0;
        if (r == 0) r = proto_common_option(argc, argv, &i, cfg, thinking);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("%s%s%s", usage, proto_common_usage, thinking ? proto_thinking_usage : "");
            return 0;
        }
        fprintf(stderr, "hnefi %s: unknown argument '%s' (try --help)\n", argv[0], argv[i]);
        return 2;
    }
    return -1;
}

/*
 * Sets up a session from cfg, reads lines from in_fd and runs loop on them; with detect, the
 * first non-blank line picks OpenTafl if it is a `rules` line. Returns the exit status.
 */
int proto_run(const struct proto_config *cfg, int in_fd, bool detect, proto_loop loop) {
    signal(SIGPIPE, SIG_IGN);
    struct proto_session *s = malloc(sizeof *s);
    struct proto_reader *r = malloc(sizeof *r);
    struct proto_line *line = malloc(sizeof *line);
    long hash_mib = cfg->hash_mib;
    if (cfg->caps.hash_mib > 0 && hash_mib > cfg->caps.hash_mib) hash_mib = cfg->caps.hash_mib;
    if (!s || !r || !line || !proto_session_init(s, cfg->variant, hash_mib)) {
        fprintf(stderr, "hnefi: out of memory\n");
        free(s);
        free(r);
        free(line);
        return 1;
    }
    s->caps = cfg->caps;
    s->opt.threads = cfg->threads;
    s->opt.move_overhead_ms = cfg->move_overhead_ms;
    char err[700];
    if (cfg->eval) cli_eval_set_kind(&s->eval, cfg->eval);
    bool net_ok = !cfg->net || proto_session_set_net(s, cfg->net, err, sizeof err);
    bool book_ok = true, unreadable = false;
    s->bk.play.max_ply = cfg->book_depth;
    s->bk.play.variety = cfg->book_variety;
    proto_session_book_seed(s, cfg->book_seed);
    s->bk.own = cfg->book_own;
    if (net_ok && cfg->book) book_ok = book_ask(s, cfg->book, err, sizeof err, &unreadable);
    /* a network or a book the command line names must be readable: refused at the start (a
       book that only does not fit the rules yet waits for them: the host may send others) */
    if (!net_ok || unreadable) {
        fprintf(stderr, "hnefi: %s: %s\n", net_ok ? "--book" : "--net", err);
        proto_session_free(s);
        free(s);
        free(r);
        free(line);
        return 1;
    }
    if (!book_ok) snprintf(s->startup_note, sizeof s->startup_note, "--book: %.580s", err);
    proto_reader_init(r, in_fd);
    int rc = 0;
    static const proto_loop loops[] = {proto_uci_loop, proto_otep_loop, proto_htp_loop};
    if (hnefi_shared_handoff.active) {
        /* the other build's session goes on here: its input, its output, its loop */
        *r = hnefi_shared_handoff.reader;
        proto_out_set_fd(hnefi_shared_handoff.out_fd);
        loop = loops[hnefi_shared_handoff.kind];
        hnefi_shared_handoff.active = false;
        s->continued = true;
        detect = false;
    }
    if (!detect) {
        rc = loop(s, r, line, false, cfg);
    } else {
        /* skip blank lines; the first real line picks the protocol */
        bool have;
        while ((have = proto_read_line(r, line)) && line->text[strspn(line->text, " \t")] == 0)
            ;
        if (have && is_rules_line(line)) loop = proto_otep_loop;
        if (have) rc = loop(s, r, line, true, cfg);
    }
    if (rc == PROTO_SWITCH && s->switch_line) {
        /* hand over: the option lines, the line that asked, then the input not yet read */
        struct proto_handoff *h = &hnefi_shared_handoff;
        size_t len = s->options_len;
        char *pre = s->options_log;
        s->options_log = NULL;
        if (!log_append(&pre, &len, s->switch_line)) rc = 1;
        h->kind = loop == proto_otep_loop  ? PROTO_KIND_OTEP
                  : loop == proto_htp_loop ? PROTO_KIND_HTP
                                           : PROTO_KIND_UCI;
        proto_reader_free(r); /* lines handed to this session: all read before the switch */
        h->reader = *r;
        h->reader.pre = pre;
        h->reader.pre_len = len;
        h->reader.pre_at = 0;
        h->out_fd = out_fd;
        h->active = rc == PROTO_SWITCH;
        if (!h->active) free(pre);
    }
    proto_session_free(s);
    free(s);
    proto_reader_free(r);
    free(r);
    free(line);
    return rc;
}

/* Tells whether a protocol command goes on from the other build's session (PROTO_SWITCH). */
bool proto_continuing(void) {
    return hnefi_shared_handoff.active;
}

/* Growing a book by search: choosing positions best first, searching them, the journal. */
#include "book/expand.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "book/build.h"
#include "book/zio.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "search/nnue.h"

#define JOURNAL_PREFIX "hnefi book journal 1: "

/* A journal entry: its head, then per line the move code (as the book file stores it, 2 or 4
   bytes), the score (2) and the depth (1). */
enum {
    JOURNAL_LINE_MAX = 512,
    ENTRY_HEAD = 12,
    ENTRY_MOVE_MAX = 7,
    MAX_WORKERS = SEARCH_MAX_THREADS
};

/* One searched position: its key, side to move, and the lines found. */
struct entry {
    uint64_t key;
    int side;
    int n;
    move_t moves[SEARCH_MAX_MULTIPV]; /* canonical */
    int16_t score[SEARCH_MAX_MULTIPV];
    uint8_t depth[SEARCH_MAX_MULTIPV];
};

/* Sets the defaults: 100000 nodes, 100 positions, 1 thread, 3 lines, 10 per ply, 60 plies. */
void book_expand_default(struct book_expand_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->nodes = 100000;
    cfg->positions = 100;
    cfg->threads = 1;
    cfg->width = 3;
    cfg->ply_cost = 10;
    cfg->max_ply = 60;
    cfg->hash_mib = 16;
    search_options_default(&cfg->opt);
}

/* Writes the journal's name for the book at path. */
void book_journal_path(const char *path, char *out, size_t outlen) {
    snprintf(out, outlen, "%s.journal", path);
}

/* Writes the settings a run is resumed only with (threads may change). */
static void settings_text(const struct book_expand_config *c, char *out, size_t outlen) {
    snprintf(out, outlen,
             "nodes=%llu time=%lld positions=%d width=%d ply-cost=%d max-ply=%d hash=%zu eval=%s",
             (unsigned long long)c->nodes, (long long)c->time_ms, c->positions, c->width,
             c->ply_cost, c->max_ply, c->hash_mib, c->opt.net ? c->opt.net->variant : "classic");
}

/* Reads a little-endian value of n bytes. */
static uint64_t get_le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Writes a little-endian value of n bytes. */
static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Encodes an entry of a book of this board size as a journal frame's contents; returns its
   length. */
static size_t entry_encode(const struct entry *e, int size, uint8_t *out) {
    int cb = book_code_bytes(size), em = cb + 3;
    put_le(out, e->key, 8);
    put_le(out + 8, (uint64_t)e->side, 2);
    put_le(out + 10, (uint64_t)e->n, 2);
    for (int i = 0; i < e->n; i++) {
        uint8_t *o = out + ENTRY_HEAD + em * i;
        put_le(o, book_move_pack(size, e->moves[i]), cb);
        put_le(o + cb, (uint16_t)e->score[i], 2);
        o[cb + 2] = e->depth[i];
    }
    return ENTRY_HEAD + (size_t)em * (size_t)e->n;
}

/* Decodes a journal frame of a book of this board size into an entry; false if it is not one. */
static bool entry_decode(const uint8_t *d, size_t len, int size, struct entry *e) {
    int cb = book_code_bytes(size), em = cb + 3, bits = book_square_bits(size);
    if (len < ENTRY_HEAD) return false;
    e->key = get_le(d, 8);
    e->side = (int)get_le(d + 8, 2);
    e->n = (int)get_le(d + 10, 2);
    if (e->side > 1 || e->n > SEARCH_MAX_MULTIPV || len != ENTRY_HEAD + (size_t)em * (size_t)e->n)
        return false;
    for (int i = 0; i < e->n; i++) {
        const uint8_t *o = d + ENTRY_HEAD + em * i;
        uint32_t raw = (uint32_t)get_le(o, cb);
        e->moves[i] = book_move_unpack(size, raw);
        e->score[i] = (int16_t)(uint16_t)get_le(o + cb, 2);
        e->depth[i] = o[cb + 2];
        uint32_t from = raw & ((1u << bits) - 1), to = raw >> bits, sq = (uint32_t)(size * size);
        bool line = from / (uint32_t)size == to / (uint32_t)size ||
                    from % (uint32_t)size == to % (uint32_t)size;
        if (e->depth[i] == 0 || from >= sq || to >= sq || from == to || !line ||
            e->score[i] < -BOOK_SCORE_FORCED || e->score[i] > BOOK_SCORE_FORCED)
            return false;
    }
    return true;
}

/* Folds a searched position into the book being grown; false if out of memory. */
static bool entry_apply(struct book_builder *bb, const struct entry *e) {
    struct book_node *node = book_builder_node(bb, e->key, e->side, true);
    if (!node) return false;
    node->flags |= BOOK_POS_SEARCHED;
    for (int i = 0; i < e->n; i++) {
        struct book_move *m = book_builder_move(node, e->moves[i], true);
        if (!m) return false;
        m->score = e->score[i];
        m->depth = e->depth[i];
        m->flags = 0;
    }
    return true;
}

/* A position met by the walk: where it came from and what its line cost. */
struct walk_node {
    struct position pos;
    int parent;
    move_t move; /* from the parent */
    int ply, cost;
};

/* The walk's state: its nodes, a heap of them by (cost, ply, order), and the keys seen. */
struct walk {
    struct walk_node *nodes;
    int n, cap;
    int *heap;
    int nheap;
    uint64_t *seen;
    bool *used;
    size_t seen_cap, nseen;
};

/* Tells whether walk node a comes before b. */
static bool walk_before(const struct walk *w, int a, int b) {
    const struct walk_node *x = &w->nodes[a], *y = &w->nodes[b];
    if (x->cost != y->cost) return x->cost < y->cost;
    if (x->ply != y->ply) return x->ply < y->ply;
    return a < b;
}

/* Adds a node to the walk and its heap; false if out of memory. */
static bool walk_push(struct walk *w, const struct walk_node *node) {
    if (w->n == w->cap) {
        int cap = w->cap ? w->cap * 2 : 1024;
        struct walk_node *nodes = realloc(w->nodes, (size_t)cap * sizeof *nodes);
        int *heap = realloc(w->heap, (size_t)cap * sizeof *heap);
        if (nodes) w->nodes = nodes;
        if (heap) w->heap = heap;
        if (!nodes || !heap) return false;
        w->cap = cap;
    }
    w->nodes[w->n] = *node;
    int i = w->nheap++;
    w->heap[i] = w->n++;
    while (i > 0 && walk_before(w, w->heap[i], w->heap[(i - 1) / 2])) {
        int t = w->heap[i];
        w->heap[i] = w->heap[(i - 1) / 2];
        w->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
    return true;
}

/* Removes and returns the first node of the heap. */
static int walk_pop(struct walk *w) {
    int top = w->heap[0], i = 0;
    w->heap[0] = w->heap[--w->nheap];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < w->nheap && walk_before(w, w->heap[l], w->heap[m])) m = l;
        if (r < w->nheap && walk_before(w, w->heap[r], w->heap[m])) m = r;
        if (m == i) break;
        int t = w->heap[i];
        w->heap[i] = w->heap[m];
        w->heap[m] = t;
        i = m;
    }
    return top;
}

/* Marks a key as seen; returns false if it was already (or on no memory: then nothing new). */
static bool walk_see(struct walk *w, uint64_t key) {
    if ((w->nseen + 1) * 2 > w->seen_cap) {
        size_t cap = w->seen_cap ? w->seen_cap * 2 : 4096;
        uint64_t *seen = calloc(cap, sizeof *seen);
        bool *used = calloc(cap, sizeof *used);
        if (!seen || !used) {
            free(seen);
            free(used);
            return false;
        }
        for (size_t i = 0; i < w->seen_cap; i++) {
            if (!w->used[i]) continue;
            size_t j = (size_t)(w->seen[i] * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1);
            while (used[j]) j = (j + 1) & (cap - 1);
            seen[j] = w->seen[i];
            used[j] = true;
        }
        free(w->seen);
        free(w->used);
        w->seen = seen;
        w->used = used;
        w->seen_cap = cap;
    }
    size_t j = (size_t)(key * 0x9E3779B97F4A7C15ULL >> 20) & (w->seen_cap - 1);
    while (w->used[j]) {
        if (w->seen[j] == key) return false;
        j = (j + 1) & (w->seen_cap - 1);
    }
    w->seen[j] = key;
    w->used[j] = true;
    w->nseen++;
    return true;
}

/* Frees a walk. */
static void walk_free(struct walk *w) {
    free(w->nodes);
    free(w->heap);
    free(w->seen);
    free(w->used);
}

/* One chosen position: the line to it from the start. */
struct target {
    int n;
    move_t line[MAX_GAME_PLIES];
};

/*
 * Walks the book best first and picks up to want positions to search into targets; returns
 * how many (-1 if out of memory).
 */
static int choose_targets(struct book_builder *bb, const struct book_expand_config *cfg,
                          struct target *targets, int want) {
    struct walk w = {0};
    struct walk_node start = {.parent = -1};
    pos_init_start(&start.pos, &bb->v);
    int found = 0;
    bool ok = walk_push(&w, &start);
    while (ok && w.nheap > 0 && found < want) {
        int i = walk_pop(&w);
        struct walk_node cur = w.nodes[i];
        struct book_canon c;
        book_canon(&cur.pos, bb->syms, &c);
        if (!walk_see(&w, c.key) || cur.pos.result != RESULT_NONE) continue;
        struct book_node *node = book_builder_node(bb, c.key, cur.pos.side, false);
        if (!node || !(node->flags & BOOK_POS_SEARCHED)) {
            struct target *t = &targets[found++];
            t->n = cur.ply;
            for (int k = i, p = cur.ply; k > 0; k = w.nodes[k].parent)
                t->line[--p] = w.nodes[k].move;
            continue;
        }
        int plies;
        if (!node->has_value || score_is_win(node->value, &plies) || cur.ply >= cfg->max_ply)
            continue; /* nothing to follow, a forced result, or deep enough */
        /* a move from games that the search did not score counts as the worst scored one */
        int worst = node->value;
        for (int k = 0; k < node->n; k++)
            if (node->moves[k].depth && node->moves[k].score < worst) worst = node->moves[k].score;
        for (int k = 0; k < node->n && ok; k++) {
            const struct book_move *m = &node->moves[k];
            if (m->depth == 0 && m->games == 0) continue;
            move_t mv = book_move_from_book(&c, m->move);
            if (!movegen_is_legal(&cur.pos, mv)) continue;
            struct walk_node next = {.parent = i, .move = mv, .ply = cur.ply + 1};
            make_move(&next.pos, &cur.pos, mv);
            next.cost = cur.cost + (node->value - (m->depth ? m->score : worst)) + cfg->ply_cost;
            ok = walk_push(&w, &next);
        }
    }
    walk_free(&w);
    return ok ? found : -1;
}

/* What one searching thread holds. */
struct worker {
    struct search *s;
    struct tafl_game *game;
    const struct book_expand_config *cfg;
    const struct target *target;
    unsigned syms;
    struct entry entry;
    uint64_t nodes;
    /* the lines of the last whole iteration, and of the one being reported */
    struct search_line full[SEARCH_MAX_MULTIPV], cur[SEARCH_MAX_MULTIPV];
    int nfull, ncur, want;
};

/* Collects a search's lines, iteration by iteration. */
static void worker_line(const struct search_line *l, void *ctx) {
    struct worker *w = ctx;
    if (l->multipv == 1) w->ncur = 0;
    if (w->ncur < SEARCH_MAX_MULTIPV) w->cur[w->ncur++] = *l;
    if (w->ncur == w->want) {
        memcpy(w->full, w->cur, sizeof w->cur[0] * (size_t)w->ncur);
        w->nfull = w->ncur;
    }
}

/* Adds one line's first move to the entry unless it is there at least as deep. */
static void entry_add(struct entry *e, const struct book_canon *c, const struct search_line *l) {
    if (l->pv_len == 0) return;
    move_t m = book_move_to_book(c, l->pv[0]);
    int score = l->score > BOOK_SCORE_MAX    ? BOOK_SCORE_MAX
                : l->score < -BOOK_SCORE_MAX ? -BOOK_SCORE_MAX
                                             : l->score;
    int depth = l->depth < 1 ? 1 : l->depth > 255 ? 255 : l->depth;
    for (int i = 0; i < e->n; i++)
        if (e->moves[i] == m) {
            if (depth >= e->depth[i]) {
                e->score[i] = (int16_t)score;
                e->depth[i] = (uint8_t)depth;
            }
            return;
        }
    if (e->n == SEARCH_MAX_MULTIPV) return;
    e->moves[e->n] = m;
    e->score[e->n] = (int16_t)score;
    e->depth[e->n++] = (uint8_t)depth;
}

/* Searches one target and fills the worker's entry (thread body). */
static void *worker_run(void *arg) {
    struct worker *w = arg;
    const struct variant *v = w->game->v;
    struct position start;
    pos_init_start(&start, v);
    tafl_reset(w->game, &start);
    for (int i = 0; i < w->target->n; i++) tafl_play(w->game, w->target->line[i]);
    struct book_canon c;
    book_canon(tafl_pos(w->game), w->syms, &c);
    w->entry.key = c.key;
    w->entry.side = tafl_pos(w->game)->side;
    w->entry.n = 0;
    w->nfull = w->ncur = 0;
    move_t legal[MAX_MOVES];
    int nlegal = tafl_legal_moves(w->game, legal);
    /* in a symmetric position, moves that are images of each other are one book move: ask for
       enough lines that width different ones can come */
    int lines = w->cfg->width * __builtin_popcount(c.stab);
    if (lines > SEARCH_MAX_MULTIPV) lines = SEARCH_MAX_MULTIPV;
    w->want = nlegal < lines ? nlegal : lines;
    if (w->want == 0) return NULL;
    struct search_options opt = w->cfg->opt;
    opt.threads = 1;
    opt.multipv = w->want;
    struct search_limits lim = {.time_ms = {-1, -1}};
    if (w->cfg->nodes)
        lim.nodes = w->cfg->nodes;
    else
        lim.movetime_ms = w->cfg->time_ms;
    struct search_callbacks cb = {.on_iteration = worker_line, .ctx = w};
    struct search_result r;
    search_clear(w->s); /* the same position searches alike whenever it comes */
    search_run(w->s, w->game, &lim, &opt, &cb, &r);
    w->nodes += r.nodes;
    for (int i = 0; i < w->nfull; i++) entry_add(&w->entry, &c, &w->full[i]);
    if (w->ncur < w->want) /* a last iteration cut short adds its deeper lines */
        for (int i = 0; i < w->ncur; i++) entry_add(&w->entry, &c, &w->cur[i]);
    return NULL;
}

/* Returns a fresh run id. */
static uint64_t new_run_id(uint64_t base) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t z =
        base ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

/* Names the first word of two settings texts that differs ("nodes=1000 ... nodes=2000"). */
static void settings_diff(const char *was, const char *now, char *out, size_t outlen) {
    out[0] = '\0';
    const char *a = was, *b = now;
    while (*a || *b) {
        size_t la = strcspn(a, " "), lb = strcspn(b, " ");
        if (la != lb || strncmp(a, b, la) != 0) {
            snprintf(out, outlen, "%.*s in the journal, %.*s now", (int)la, a, (int)lb, b);
            return;
        }
        a += la + (a[la] == ' ');
        b += lb + (b[lb] == ' ');
    }
}

/*
 * Reads the journal at jpath, if any, and folds its positions into bb (see book_expand).
 * Returns 1 to resume (fd open for appending in *fd, *done entries read, *run its id), 0 when
 * there is no journal to resume (a finished one is removed), -1 with a reason in err.
 */
static int journal_resume(const char *jpath, const struct book *b, const char *settings,
                          struct book_builder *bb, int *fd, int *done, uint64_t *run, char *note,
                          size_t notelen, char *err, size_t errlen) {
    if (access(jpath, F_OK) != 0) return 0;
    size_t size, pos = 0, flen, good = 0;
    char why[400], *frame = NULL;
    char *raw = zio_read_file(jpath, &size, why, sizeof why);
    if (!raw) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    enum zio_frame st =
        zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, why, sizeof why);
    unsigned long long id = 0, base = 0;
    char was[JOURNAL_LINE_MAX] = "";
    if (st != ZIO_FRAME_OK || strncmp(frame, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) != 0 ||
        sscanf(frame + strlen(JOURNAL_PREFIX), "run=%16llx base=%16llx ", &id, &base) != 2 ||
        !strstr(frame, " settings=")) {
        snprintf(err, errlen, "%s is not a book journal%s%s; remove it to start afresh", jpath,
                 st == ZIO_FRAME_OK ? "" : ": ", st == ZIO_FRAME_OK ? "" : why);
        free(frame);
        free(raw);
        return -1;
    }
    snprintf(was, sizeof was, "%.*s", (int)strcspn(strstr(frame, " settings=") + 10, "\n"),
             strstr(frame, " settings=") + 10);
    free(frame);
    if (b->run == id) { /* the book already holds this run: only the removal was missed */
        free(raw);
        unlink(jpath);
        snprintf(note, notelen, "removed %s: the run it records had finished", jpath);
        return 0;
    }
    if (b->body_hash != base) {
        snprintf(err, errlen,
                 "%s belongs to another state of the book (an unfinished run on a book that has "
                 "changed since); remove it to start afresh",
                 jpath);
        free(raw);
        return -1;
    }
    if (strcmp(was, settings) != 0) {
        char diff[JOURNAL_LINE_MAX * 2];
        settings_diff(was, settings, diff, sizeof diff);
        snprintf(err, errlen,
                 "%s holds an unfinished run with other settings (%s): run the same command to "
                 "resume it, or remove the journal to drop it",
                 jpath, diff);
        free(raw);
        return -1;
    }
    good = pos;
    int n = 0;
    while ((st = zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, why,
                                sizeof why)) == ZIO_FRAME_OK) {
        struct entry e;
        bool fine =
            entry_decode((const uint8_t *)frame, flen, bb->v.size, &e) && entry_apply(bb, &e);
        free(frame);
        if (!fine) {
            snprintf(err, errlen, "%s is damaged: entry %d is not a searched position", jpath,
                     n + 1);
            free(raw);
            return -1;
        }
        n++;
        good = pos;
    }
    free(raw);
    if (st == ZIO_FRAME_DAMAGED) {
        snprintf(err, errlen, "%s is damaged: %s", jpath, why);
        return -1;
    }
    if (st == ZIO_FRAME_TRUNCATED) {
        if (truncate(jpath, (off_t)good) != 0) {
            snprintf(err, errlen, "cannot cut the half-written end off %s: %s", jpath,
                     strerror(errno));
            return -1;
        }
        snprintf(note, notelen,
                 "resumed %d searched positions from %s (dropped a half-written one)", n, jpath);
    } else {
        snprintf(note, notelen, "resumed %d searched positions from %s", n, jpath);
    }
    *fd = open(jpath, O_WRONLY | O_APPEND);
    if (*fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", jpath, strerror(errno));
        return -1;
    }
    *done = n;
    *run = id;
    return 1;
}

/* Fills the status's book figures from the builder. */
static void status_book(struct book_builder *bb, struct book_expand_status *st) {
    st->positions = bb->count;
    struct position start;
    pos_init_start(&start, &bb->v);
    struct book_canon c;
    book_canon(&start, bb->syms, &c);
    struct book_node *root = book_builder_node(bb, c.key, start.side, false);
    st->root_known = root && root->has_value;
    st->root_value = st->root_known ? root->value : 0;
}

/* Runs (or resumes) an expansion of the book at path (see expand.h). */
bool book_expand(const char *path, const struct book_expand_config *cfg,
                 struct book_expand_status *st, char *note, size_t notelen, char *err,
                 size_t errlen) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(st, 0, sizeof *st);
    note[0] = '\0';
    st->total = cfg->positions;
    char jpath[4200], settings[JOURNAL_LINE_MAX], why[600];
    book_journal_path(path, jpath, sizeof jpath);
    settings_text(cfg, settings, sizeof settings);
    struct book b;
    memset(&b, 0, sizeof b);
    if (!book_load(&b, path, err, errlen)) return false;
    struct book_builder bb;
    if (!book_builder_init(&bb, &b.variant)) {
        snprintf(err, errlen, "out of memory");
        book_free(&b);
        return false;
    }
    if (!book_builder_add_book(&bb, &b, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        book_free(&b);
        book_builder_free(&bb);
        return false;
    }
    int fd = -1, threads = cfg->threads < 1             ? 1
                           : cfg->threads > MAX_WORKERS ? MAX_WORKERS
                                                        : cfg->threads;
    uint64_t run = 0;
    int r =
        journal_resume(jpath, &b, settings, &bb, &fd, &st->done, &run, note, notelen, err, errlen);
    bool ok = r >= 0;
    st->resumed = st->done;
    if (r == 0) { /* a new run: its journal starts with the run's id and settings */
        run = new_run_id(b.body_hash);
        char head[JOURNAL_LINE_MAX + 128];
        snprintf(head, sizeof head, "%srun=%016llx base=%016llx settings=%s\n", JOURNAL_PREFIX,
                 (unsigned long long)run, (unsigned long long)b.body_hash, settings);
        fd = open(jpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ok = fd >= 0 && zio_append_frame(fd, head, strlen(head), true, why, sizeof why);
        if (!ok)
            snprintf(err, errlen, "cannot write %s: %s", jpath, fd < 0 ? strerror(errno) : why);
    }
    book_free(&b);
    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    struct target *targets = calloc((size_t)threads, sizeof *targets);
    if (ok && (!workers || !targets)) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    for (int i = 0; ok && i < threads; i++) {
        workers[i].cfg = cfg;
        workers[i].syms = bb.syms;
        workers[i].s = search_new(cfg->hash_mib);
        workers[i].game = tafl_new(&bb.v);
        if (!workers[i].s || !workers[i].game) {
            snprintf(err, errlen, "out of memory for %d searches of %zu MiB", threads,
                     cfg->hash_mib);
            ok = false;
        }
    }
    book_builder_backup(&bb);
    status_book(&bb, st);
    bool exhausted = false;
    while (ok && st->done < st->total && !exhausted) {
        int want = st->total - st->done < threads ? st->total - st->done : threads;
        int k = choose_targets(&bb, cfg, targets, want);
        if (k < 0) {
            snprintf(err, errlen, "out of memory");
            ok = false;
            break;
        }
        exhausted = k == 0;
        pthread_t tid[MAX_WORKERS];
        bool live[MAX_WORKERS] = {false};
        for (int i = 0; i < k; i++) {
            workers[i].target = &targets[i];
            live[i] = k > 1 && pthread_create(&tid[i], NULL, worker_run, &workers[i]) == 0;
            if (!live[i]) worker_run(&workers[i]);
        }
        for (int i = 0; i < k; i++)
            if (live[i]) pthread_join(tid[i], NULL);
        for (int i = 0; i < k && ok; i++) {
            uint8_t buf[ENTRY_HEAD + ENTRY_MOVE_MAX * SEARCH_MAX_MULTIPV];
            size_t len = entry_encode(&workers[i].entry, bb.v.size, buf);
            if (!zio_append_frame(fd, buf, len, true, why, sizeof why)) {
                snprintf(err, errlen, "cannot write %s: %s", jpath, why);
                ok = false;
            } else if (!entry_apply(&bb, &workers[i].entry)) {
                snprintf(err, errlen, "out of memory");
                ok = false;
            } else {
                st->done++;
                st->ply = targets[i].n;
            }
        }
        book_builder_backup(&bb);
        status_book(&bb, st);
        st->nodes = 0;
        for (int i = 0; i < threads; i++) st->nodes += workers[i].nodes;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        st->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (cfg->on_progress) cfg->on_progress(st, cfg->ctx);
    }
    for (int i = 0; workers && i < threads; i++) {
        search_free(workers[i].s);
        tafl_free(workers[i].game);
    }
    free(workers);
    free(targets);
    if (fd >= 0) close(fd);
    if (ok) {
        /* the whole run in the book, then the journal goes */
        struct book out;
        memset(&out, 0, sizeof out);
        bb.run = run;
        ok = book_builder_finish(&bb, 0, &out, err, errlen) &&
             book_save(&out, path, 19, err, errlen);
        if (ok && unlink(jpath) != 0) {
            snprintf(err, errlen, "cannot remove %s: %s", jpath, strerror(errno));
            ok = false;
        }
        if (ok && exhausted && st->done < st->total) {
            size_t n = strlen(note);
            snprintf(note + n, notelen - n, "%sno position left to search after %d", n ? "; " : "",
                     st->done);
        }
        book_free(&out);
    }
    book_builder_free(&bb);
    return ok;
}

/* Book lines for tournaments: walking the book to a depth and ranking the positions reached. */
#include "book/lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The walk's state. */
struct lines_walk {
    const struct book *b;
    const struct book_lines_config *cfg;
    struct tafl_game *game;
    struct book_line *lines;
    int n, cap;
    size_t visited;
    bool capped, oom;
};

/* Records the line that the game now holds. */
static void lines_record(struct lines_walk *w, const struct book_move *last) {
    if (w->n == w->cap) {
        int cap = w->cap ? w->cap * 2 : 256;
        struct book_line *bigger = realloc(w->lines, (size_t)cap * sizeof *bigger);
        if (!bigger) {
            w->oom = true;
            return;
        }
        w->lines = bigger;
        w->cap = cap;
    }
    struct book_line *l = &w->lines[w->n++];
    const struct position *p = tafl_pos(w->game);
    l->n = w->game->n;
    memcpy(l->moves, w->game->moves, (size_t)l->n * sizeof l->moves[0]);
    l->games = last->games;
    struct book_canon c;
    book_canon_of(w->b, p, &c);
    l->key = c.key;
    l->known = false;
    const struct book_pos *bp = book_find(w->b, c.key);
    int best = 0;
    for (uint32_t i = 0; bp && i < bp->count; i++) {
        const struct book_move *m = &w->b->moves[bp->first + i];
        if (m->depth && (!l->known || m->score > best)) {
            best = m->score;
            l->known = true;
        }
    }
    if (l->known) {
        l->value = p->side == SIDE_ATTACKERS ? best : -best;
    } else if (last->depth) { /* the score of the side that played it (the same side again
                                   after a berserk turn's capture) */
        l->known = true;
        int mover = w->game->pos[w->game->n - 1].side;
        l->value = mover == SIDE_ATTACKERS ? last->score : -last->score;
    }
}

/* Walks the book from the game's current position, depth first. */
static void lines_walk(struct lines_walk *w) {
    if (w->oom || w->capped) return;
    if (++w->visited > w->cfg->max_nodes) {
        w->capped = true;
        return;
    }
    struct book_hit *hit = malloc(sizeof *hit);
    if (!hit) {
        w->oom = true;
        return;
    }
    int n = book_probe(w->b, tafl_pos(w->game), hit);
    for (int i = 0; i < n; i++) {
        move_t m = hit->moves[i];
        if (hit->info[i]->weight == 0 || !tafl_move_legal(w->game, m, NULL, 0) ||
            book_repetition_trap(w->game, m))
            continue;
        tafl_play(w->game, m);
        if (w->game->result == RESULT_NONE) {
            if (w->game->n == w->cfg->plies)
                lines_record(w, hit->info[i]);
            else
                lines_walk(w);
        }
        tafl_undo(w->game);
    }
    free(hit);
}

/* Orders lines by end key, the most played first among equal keys. */
static int cmp_key(const void *a, const void *b) {
    const struct book_line *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->games < y->games) - (x->games > y->games);
}

/* Orders balanced lines: the most even first, then the most played. */
static int cmp_balanced(const void *a, const void *b) {
    const struct book_line *x = a, *y = b;
    int ax = abs(x->value), ay = abs(y->value);
    if (ax != ay) return ax - ay;
    if (x->games != y->games) return x->games < y->games ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Orders lines by games, the most played first, then the most even. */
static int cmp_games(const void *a, const void *b) {
    const struct book_line *x = a, *y = b;
    if (x->games != y->games) return x->games < y->games ? 1 : -1;
    int ax = x->known ? abs(x->value) : 1 << 20, ay = y->known ? abs(y->value) : 1 << 20;
    if (ax != ay) return ax - ay;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Finds up to cfg->count lines of the book (see lines.h). */
bool book_lines(const struct book *b, const struct book_lines_config *cfg, struct book_line **out,
                int *n, size_t *visited, bool *capped, char *err, size_t errlen) {
    if (cfg->plies < 1 || cfg->plies > BOOK_LINE_MAX) {
        snprintf(err, errlen, "lines of %d plies: expected 1 to %d", cfg->plies, BOOK_LINE_MAX);
        return false;
    }
    struct lines_walk w = {.b = b, .cfg = cfg, .game = tafl_new(&b->variant)};
    if (!w.game) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    lines_walk(&w);
    tafl_free(w.game);
    if (w.oom) {
        free(w.lines);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    /* one line per end position (the most played), then the wanted ones in order */
    qsort(w.lines, (size_t)w.n, sizeof *w.lines, cmp_key);
    int k = 0;
    for (int i = 0; i < w.n; i++) {
        if (i > 0 && w.lines[i - 1].key == w.lines[i].key) continue;
        bool keep = !cfg->balanced || (w.lines[i].known && abs(w.lines[i].value) <= cfg->margin);
        if (keep) w.lines[k++] = w.lines[i];
    }
    qsort(w.lines, (size_t)k, sizeof *w.lines, cfg->balanced ? cmp_balanced : cmp_games);
    *n = k < cfg->count ? k : cfg->count;
    *out = w.lines;
    *visited = w.visited;
    *capped = w.capped;
    return true;
}

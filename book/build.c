/* Making books: the position table, counting games, merging, minimax back-up, weights. */
#include "book/build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/opentafl.h"
#include "engine/symmetry.h"
#include "search/score.h"

enum {
    CYCLE_WIN = SCORE_WIN_MIN + 500, /* a forced result by repetition, far away */
    WEIGHT_SPAN = 200,               /* searched moves this much below the best get no weight */
};

/* Returns the table slot where key lives or would go. */
static size_t slot_of(const struct book_builder *bb, uint64_t key) {
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & (bb->cap - 1);
    while (bb->slots[i].used && bb->slots[i].key != key) i = (i + 1) & (bb->cap - 1);
    return i;
}

/* Doubles the table; false if out of memory. */
static bool grow(struct book_builder *bb) {
    struct book_node *old = bb->slots;
    size_t oldcap = bb->cap;
    struct book_node *slots = calloc(oldcap * 2, sizeof *slots);
    if (!slots) return false;
    bb->slots = slots;
    bb->cap = oldcap * 2;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].used) bb->slots[slot_of(bb, old[i].key)] = old[i];
    free(old);
    return true;
}

/* Starts an empty book for variant v; false if out of memory. */
bool book_builder_init(struct book_builder *bb, const struct variant *v) {
    memset(bb, 0, sizeof *bb);
    bb->v = *v;
    bb->syms = sym_variant_allows(v);
    bb->cap = 1 << 12;
    bb->slots = calloc(bb->cap, sizeof *bb->slots);
    bb->scratch = tafl_new(&bb->v);
    if (!bb->slots || !bb->scratch) {
        book_builder_free(bb);
        return false;
    }
    return true;
}

/* Frees everything the builder holds. */
void book_builder_free(struct book_builder *bb) {
    for (size_t i = 0; bb->slots && i < bb->cap; i++) free(bb->slots[i].moves);
    free(bb->slots);
    tafl_free(bb->scratch);
    bb->slots = NULL;
    bb->scratch = NULL;
    bb->cap = bb->count = 0;
}

/* Returns the node of key (made, with side to move side, if create); NULL if none or no memory. */
struct book_node *book_builder_node(struct book_builder *bb, uint64_t key, int side, bool create) {
    size_t i = slot_of(bb, key);
    if (bb->slots[i].used) return &bb->slots[i];
    if (!create) return NULL;
    if ((bb->count + 1) * 2 > bb->cap) {
        if (!grow(bb)) return NULL;
        i = slot_of(bb, key);
    }
    struct book_node *n = &bb->slots[i];
    memset(n, 0, sizeof *n);
    n->used = true;
    n->key = key;
    n->flags = side == SIDE_DEFENDERS ? BOOK_POS_DEFENDERS : 0;
    bb->count++;
    return n;
}

/* Returns the move m (canonical) of a node (made if create); NULL if none or no memory. */
struct book_move *book_builder_move(struct book_node *node, move_t m, bool create) {
    for (int i = 0; i < node->n; i++)
        if (node->moves[i].move == m) return &node->moves[i];
    if (!create || node->n == MAX_MOVES) return NULL;
    if (node->n == node->cap) {
        int cap = node->cap ? node->cap * 2 : 4;
        struct book_move *bigger = realloc(node->moves, (size_t)cap * sizeof *bigger);
        if (!bigger) return NULL;
        node->moves = bigger;
        node->cap = (uint16_t)cap;
    }
    struct book_move *bm = &node->moves[node->n++];
    memset(bm, 0, sizeof *bm);
    bm->move = m;
    return bm;
}

/* Counts one game from the variant's start position (see build.h). */
int book_builder_add_game(struct book_builder *bb, const move_t *moves, int n, int result,
                          int max_ply) {
    struct tafl_game *t = bb->scratch;
    struct position start;
    pos_init_start(&start, &bb->v);
    tafl_reset(t, &start);
    if (max_ply > 0 && n > max_ply) n = max_ply;
    uint64_t *seen_key = malloc((size_t)(n > 0 ? n : 1) * sizeof *seen_key);
    move_t *seen_move = malloc((size_t)(n > 0 ? n : 1) * sizeof *seen_move);
    int counted = 0;
    if (!seen_key || !seen_move) counted = -1;
    for (int i = 0; i < n && counted >= 0; i++) {
        if (t->result != RESULT_NONE || !tafl_move_legal(t, moves[i], NULL, 0)) break;
        struct book_canon c;
        book_canon(tafl_pos(t), bb->syms, &c);
        move_t bm = book_move_to_book(&c, moves[i]);
        bool again = false;
        for (int j = 0; j < counted && !again; j++)
            again = seen_key[j] == c.key && seen_move[j] == bm;
        if (!again) {
            struct book_node *node = book_builder_node(bb, c.key, tafl_pos(t)->side, true);
            struct book_move *m = node ? book_builder_move(node, bm, true) : NULL;
            if (!m) {
                counted = -1;
                break;
            }
            m->games++;
            m->attacker_wins += result == RESULT_ATTACKERS;
            m->defender_wins += result == RESULT_DEFENDERS;
            m->draws += result == RESULT_DRAW;
        }
        seen_key[counted] = c.key;
        seen_move[counted++] = bm;
        tafl_play(t, moves[i]);
    }
    if (counted >= 0) bb->games++;
    free(seen_key);
    free(seen_move);
    return counted;
}

/* Adds a book's positions and moves (counts summed, the deeper score kept). */
bool book_builder_add_book(struct book_builder *bb, const struct book *b, char *err,
                           size_t errlen) {
    for (size_t i = 0; i < b->npos; i++) {
        const struct book_pos *p = &b->pos[i];
        int side = p->flags & BOOK_POS_DEFENDERS ? SIDE_DEFENDERS : SIDE_ATTACKERS;
        struct book_node *node = book_builder_node(bb, p->key, side, true);
        if (!node) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        node->flags |= p->flags & BOOK_POS_SEARCHED;
        for (uint32_t j = p->first; j < p->first + p->count; j++) {
            const struct book_move *from = &b->moves[j];
            struct book_move *m = book_builder_move(node, from->move, true);
            if (!m) {
                if (node->n == MAX_MOVES)
                    snprintf(err, errlen, "position %016llx: more than %d moves",
                             (unsigned long long)p->key, MAX_MOVES);
                else
                    snprintf(err, errlen, "out of memory");
                return false;
            }
            uint64_t games = (uint64_t)m->games + from->games;
            if (games > UINT32_MAX) {
                snprintf(err, errlen,
                         "position %016llx: %llu games of one move, more than a book counts "
                         "(%u)",
                         (unsigned long long)p->key, (unsigned long long)games, UINT32_MAX);
                return false;
            }
            /* each count is at most games (a loaded book is checked), so none overflows now */
            m->games = (uint32_t)games;
            m->attacker_wins += from->attacker_wins;
            m->defender_wins += from->defender_wins;
            m->draws += from->draws;
            if (from->depth > m->depth) {
                m->score = from->score;
                m->depth = from->depth;
                m->flags = from->flags;
            }
        }
    }
    bb->games += b->games;
    if (b->run) bb->run = b->run;
    return true;
}

/* Returns the value of a move for the side to move after a child's value (one ply further). */
int book_negate(int child_value) {
    int v = -child_value;
    if (v >= SCORE_WIN_MIN) return v - 1;
    if (v <= -SCORE_WIN_MIN) return v + 1;
    return v;
}

/* The same, when the child has the same side to move (a berserk turn's second move). */
static int book_same_side(int child_value) {
    return book_negate(-child_value);
}

/* The positions of the line being backed up, for repetitions. */
struct backup_path {
    int n;
    uint64_t key[MAX_GAME_PLIES + 1]; /* Zobrist keys (side to move included) */
    bool capture[MAX_GAME_PLIES + 1]; /* the move into this position captured */
};

/* Gives the value of a move that repeats a position of the line, by the rule; false if none. */
static bool cycle_value(const struct variant *v, int mover, int *value) {
    switch (v->repetition) {
    case REP_NONE:
    case REP_DRAW: *value = 0; return true;
    case REP_LOSS_REPEATER: *value = -CYCLE_WIN; return true;
    case REP_WIN_REPEATER: *value = CYCLE_WIN; return true;
    case REP_LOSS_DEFENDERS: *value = mover == SIDE_ATTACKERS ? CYCLE_WIN : -CYCLE_WIN; return true;
    case REP_ILLEGAL_DEFENDER_REPEAT:
        *value = 0;
        return mover == SIDE_ATTACKERS; /* the defenders may not repeat at all */
    default: return false;              /* the third occurrence may not be played */
    }
}

/* Tells whether position c (reached by a move without a capture) repeats one of the line. */
static bool repeats(const struct backup_path *path, uint64_t key) {
    for (int j = path->n - 1; j >= 0; j--) {
        if (path->key[j] == key) return true;
        if (path->capture[j]) break;
    }
    return false;
}

/* Backs up the node of position p (its key is node->key), depth first. */
static void backup_node(struct book_builder *bb, struct book_node *node, const struct position *p,
                        struct backup_path *path) {
    node->state = 1;
    struct book_canon c;
    book_canon(p, bb->syms, &c);
    int best = 0, best_depth = 0;
    bool any = false;
    for (int i = 0; i < node->n; i++) {
        struct book_move *m = &node->moves[i];
        move_t mv = book_move_from_book(&c, m->move);
        if (!movegen_is_legal(p, mv)) continue; /* only a damaged or colliding book has such */
        struct position child;
        bool caught = bb_any(make_move(&child, p, mv));
        int value = 0, depth = 0;
        bool known = false, backed = false;
        if (child.result != RESULT_NONE) {
            int win = child.result == RESULT_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS;
            value = child.result == RESULT_DRAW ? 0
                    : win == p->side            ? SCORE_WIN - 1
                                                : -(SCORE_WIN - 1);
            known = backed = true;
            depth = 1;
        } else if (!caught && repeats(path, child.key)) {
            known = backed = cycle_value(&bb->v, p->side, &value);
            depth = 1;
        } else if (path->n < MAX_GAME_PLIES) {
            struct book_canon cc;
            book_canon(&child, bb->syms, &cc);
            struct book_node *cn = book_builder_node(bb, cc.key, child.side, false);
            if (cn && cn->state == 0) {
                path->key[path->n] = child.key;
                path->capture[path->n++] = caught;
                backup_node(bb, cn, &child, path);
                path->n--;
            }
            if (cn && cn->state == 2 && cn->has_value) {
                value = child.side == p->side ? book_same_side(cn->value) : book_negate(cn->value);
                depth = cn->vdepth < 254 ? cn->vdepth + 1 : 255;
                known = backed = true;
            }
        }
        if (backed) {
            m->score = (int16_t)value;
            m->depth = (uint8_t)depth;
            m->flags |= BOOK_MOVE_BACKED;
        } else if (m->depth > 0) {
            value = m->score; /* the search's score (or an earlier back-up that stands) */
            depth = m->depth;
            known = true;
        }
        if (known && (!any || value > best)) {
            best = value;
            best_depth = depth;
            any = true;
        }
    }
    /* a position not searched has moves nobody looked at: only a win found is sure there */
    node->has_value = any && ((node->flags & BOOK_POS_SEARCHED) || best >= SCORE_WIN_MIN);
    node->value = (int16_t)best;
    node->vdepth = (uint8_t)best_depth;
    node->state = 2;
}

/* Sets the minimax value of every position reachable from the start through book moves. */
void book_builder_backup(struct book_builder *bb) {
    for (size_t i = 0; i < bb->cap; i++) {
        bb->slots[i].state = 0;
        bb->slots[i].has_value = false;
    }
    struct position start;
    pos_init_start(&start, &bb->v);
    struct book_canon c;
    book_canon(&start, bb->syms, &c);
    struct book_node *root = book_builder_node(bb, c.key, start.side, false);
    struct backup_path *path = malloc(sizeof *path);
    if (!root || !path) {
        free(path);
        return;
    }
    path->n = 1;
    path->key[0] = start.key;
    path->capture[0] = false;
    backup_node(bb, root, &start, path);
    free(path);
}

/* Sets the weights of one position's moves (docs/book.md: weights). */
static void set_weights(struct book_node *node) {
    int best = -BOOK_SCORE_MAX - 1;
    for (int i = 0; i < node->n; i++)
        if (node->moves[i].depth > 0 && node->moves[i].score > best) best = node->moves[i].score;
    int mover = node->flags & BOOK_POS_DEFENDERS ? SIDE_DEFENDERS : SIDE_ATTACKERS;
    for (int i = 0; i < node->n; i++) {
        struct book_move *m = &node->moves[i];
        double w;
        if (best > -BOOK_SCORE_MAX - 1) {
            int behind = best - m->score;
            w = m->depth == 0 || behind >= WEIGHT_SPAN ? 0 : 1000.0 * pow(2.0, -behind / 25.0);
            if (m->depth > 0 && behind < WEIGHT_SPAN && w < 1) w = 1;
        } else {
            double won = mover == SIDE_ATTACKERS ? m->attacker_wins : m->defender_wins;
            double points = won + m->draws / 2.0;
            w = 100.0 * (points + 1) * m->games / (m->games + 2.0);
        }
        m->weight = (uint16_t)(w > 65535 ? 65535 : lround(w));
    }
}

/* Orders book moves by move code. */
static int cmp_move(const void *a, const void *b) {
    const struct book_move *x = a, *y = b;
    return (x->move > y->move) - (x->move < y->move);
}

/* Orders nodes by key. */
static int cmp_node(const void *a, const void *b) {
    const struct book_node *const *x = a, *const *y = b;
    return ((*x)->key > (*y)->key) - ((*x)->key < (*y)->key);
}

/* Makes the book (see build.h). */
bool book_builder_finish(struct book_builder *bb, uint32_t min_games, struct book *out, char *err,
                         size_t errlen) {
    /* drop what is below the threshold and never searched */
    for (size_t i = 0; i < bb->cap; i++) {
        struct book_node *node = &bb->slots[i];
        if (!node->used) continue;
        int k = 0;
        for (int j = 0; j < node->n; j++)
            if (node->moves[j].games >= min_games || node->moves[j].depth > 0)
                node->moves[k++] = node->moves[j];
        node->n = (uint16_t)k;
    }
    book_builder_backup(bb);
    size_t npos = 0, nmoves = 0;
    for (size_t i = 0; i < bb->cap; i++)
        if (bb->slots[i].used && bb->slots[i].n > 0) {
            npos++;
            nmoves += bb->slots[i].n;
        }
    if (npos == 0) {
        snprintf(err, errlen, "no position has a move with at least %u games", min_games);
        return false;
    }
    struct book_node **order = malloc(npos * sizeof *order);
    struct book b;
    memset(&b, 0, sizeof b);
    b.pos = malloc(npos * sizeof *b.pos);
    b.moves = malloc(nmoves * sizeof *b.moves);
    if (!order || !b.pos || !b.moves) {
        free(order);
        book_free(&b);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < bb->cap; i++)
        if (bb->slots[i].used && bb->slots[i].n > 0) order[k++] = &bb->slots[i];
    qsort(order, npos, sizeof *order, cmp_node);
    size_t first = 0;
    for (size_t i = 0; i < npos; i++) {
        struct book_node *node = order[i];
        set_weights(node);
        qsort(node->moves, node->n, sizeof *node->moves, cmp_move);
        b.pos[i].key = node->key;
        b.pos[i].first = (uint32_t)first;
        b.pos[i].count = node->n;
        b.pos[i].flags = node->flags;
        memcpy(b.moves + first, node->moves, node->n * sizeof *node->moves);
        first += node->n;
    }
    free(order);
    b.npos = npos;
    b.nmoves = nmoves;
    b.size = bb->v.size;
    b.syms = bb->syms;
    b.games = bb->games;
    b.run = bb->run;
    b.variant = bb->v;
    snprintf(b.name, sizeof b.name, "%s", bb->v.name);
    if (!book_rules_text(&bb->v, b.rules, sizeof b.rules) ||
        opentafl_write_rules(&bb->v, b.opentafl, sizeof b.opentafl) < 0) {
        book_free(&b);
        snprintf(err, errlen, "the rules of %s cannot be written down", bb->v.name);
        return false;
    }
    book_free(out);
    *out = b;
    return true;
}

/*
 * The transposition table: a power-of-two array of 64-byte buckets, each holding four entries,
 * shared by all search threads without locks.
 *
 * An entry is two 64-bit words: `check` = key ^ data and `data`. A reader accepts an entry only
 * if check ^ data equals its key, so a torn write by another thread reads as a miss, never as a
 * wrong move. data packs, from bit 0:
 *   bits  0-15  move (move_t)
 *   bits 16-31  score (int16, mate scores stored relative to the node: see tt_score_to/from)
 *   bits 32-47  static evaluation (int16; TT_EVAL_NONE when the search did not compute one)
 *   bits 48-55  depth + 1 (0 = empty entry; depth -1 is quiescence)
 *   bits 56-57  bound (TT_LOWER, TT_UPPER, TT_EXACT)
 *   bits 58-63  generation (age), so old entries are replaced first
 * Replacement in a bucket: the same key, else an empty entry, else the entry with the lowest
 * depth - 8 * age. Bitmaps mark the buckets written since the last clear (one bitmap per
 * writing thread), so that clearing a large table after a short search zeroes only those.
 *
 * The entries are mapped straight from the system (mmap), not taken from malloc: a resized table
 * goes back to the system at once. Through malloc, large 2 MiB-aligned blocks freed and taken
 * again (a GUI changing Hash) raise glibc's mmap threshold and leave holes in its heap, and a
 * long session's resident memory grew to many times the table's size.
 */
#ifndef HNEFI_SEARCH_TT_H
#define HNEFI_SEARCH_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/types.h"

enum tt_bound { TT_NONE, TT_LOWER, TT_UPPER, TT_EXACT };

enum { TT_EVAL_NONE = -32768 }; /* the stored evaluation when none was computed */

struct tt_entry {
    uint64_t check, data;
};

struct tt_hit {
    move_t move;
    int score, eval, depth;
    enum tt_bound bound;
};

struct tt {
    struct tt_entry *entries;
    void *map;        /* the mapping that holds the entries (aligned inside it) */
    size_t map_bytes; /* its length */
    size_t buckets;   /* a power of two; 4 entries each */
    unsigned generation;
    uint64_t *dirty; /* `maps` maps of one bit per bucket written since the last clear */
    int maps;        /* one per writing thread (see tt_set_writers), at least 1 */
};

enum { TT_MAX_MAPS = 8 }; /* writers beyond this share maps */

/* Sizes the table to at most mib MiB (at least one bucket); returns false if out of memory. */
bool tt_resize(struct tt *tt, size_t mib);

/* As tt_resize, calling ready(ctx) (if not NULL) between finding the new table and dropping the
   old one; on failure ready is not called. */
bool tt_resize_then(struct tt *tt, size_t mib, void (*ready)(void *ctx), void *ctx);

/* Frees the table. */
void tt_free(struct tt *tt);

/* Empties the table. */
void tt_clear(struct tt *tt);

/*
 * Empties slice `part` (0..parts-1) of the table cut into `parts` equal slices, so that threads
 * can clear it together; part 0 also restarts the generation.
 */
void tt_clear_part(struct tt *tt, int part, int parts);

/* Starts a new search: entries from earlier searches age. */
void tt_new_search(struct tt *tt);

/* Starts loading key's bucket into the cache ahead of a probe; a hint with no effect on results. */
static inline void tt_prefetch(const struct tt *tt, uint64_t key) {
    __builtin_prefetch(&tt->entries[(key & (tt->buckets - 1)) * 4]);
}

/* Looks up key; fills *hit and returns true when found. */
bool tt_probe(const struct tt *tt, uint64_t key, struct tt_hit *hit);

/* Stores a result for key. */
void tt_store(struct tt *tt, uint64_t key, move_t move, int score, int eval, int depth,
              enum tt_bound bound);

/* Stores a result for key as writer (a thread's index): the bucket is marked in its own map. */
void tt_store_by(struct tt *tt, int writer, uint64_t key, move_t move, int score, int eval,
                 int depth, enum tt_bound bound);

/*
 * Gives the table one map of written buckets per writer (n threads, at most TT_MAX_MAPS), so
 * that threads do not share the lines of one map. Returns false if out of memory.
 */
bool tt_set_writers(struct tt *tt, int n);

/* Returns how full the table is in permille (entries of this search among the first 4000). */
int tt_hashfull(const struct tt *tt);

/*
 * A move as the table keeps it, in 16 bits: the move itself on the 128-bit bitboard; on the wide
 * one, whose moves have 9-bit squares, its from-square (9 bits), direction (2) and distance (5),
 * which the board's side turns back into the move.
 */
static inline move_t tt_pack_move(move_t m, int size) {
#if HNEFI_WIDE
    int from = move_from(m), to = move_to(m);
    int dir, dist;
    if (from % size == to % size) {
        dir = to > from ? 0 : 2; /* north, south */
        dist = (to > from ? to - from : from - to) / size;
    } else {
        dir = to > from ? 1 : 3; /* east, west */
        dist = to > from ? to - from : from - to;
    }
    return m ? (move_t)(from | dir << 9 | dist << 11) : MOVE_NONE;
#else
    (void)size;
    return m;
#endif
}

/* Returns the move that tt_pack_move packed (MOVE_NONE for none). */
static inline move_t tt_unpack_move(move_t packed, int size) {
#if HNEFI_WIDE
    if (!packed) return MOVE_NONE;
    int from = (int)(packed & 511), dir = (int)(packed >> 9) & 3, dist = (int)(packed >> 11);
    int step = dir == 0 ? size : dir == 1 ? 1 : dir == 2 ? -size : -1;
    return move_make(from, from + dist * step);
#else
    (void)size;
    return packed;
#endif
}

/* Converts a score found at distance ply from the root to the form stored in the table. */
int tt_score_to(int score, int ply);

/* Converts a stored score back for a node at distance ply from the root. */
int tt_score_from(int score, int ply);

#endif

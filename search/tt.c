/* The lockless, bucketed transposition table. */
#include "search/tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "search/score.h"

enum { TT_HUGE_PAGE = 2 << 20 };

/* Maps size zeroed bytes aligned to align (a power of two, at least a page) from the system;
 *map and *map_bytes get the mapping to unmap later. NULL if out of memory. */
static void *map_aligned(size_t size, size_t align, void **map, size_t *map_bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (align < page) align = page;
    size_t len = size + align;
    char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    /* the part before the aligned start and after the end go back at once */
    size_t lead = ((uintptr_t)m + align - 1) / align * align - (uintptr_t)m;
    size_t keep = (size + page - 1) / page * page;
    if (lead) munmap(m, lead);
    if (len - lead > keep) munmap(m + lead + keep, len - lead - keep);
    *map = m + lead;
    *map_bytes = keep;
    return m + lead;
}

/* Sizes the table to at most mib MiB (at least one bucket), calling ready(ctx) (if not NULL)
   once the new table is found and before the old one goes; false (nothing changed, ready not
   called) if out of memory. */
bool tt_resize_then(struct tt *tt, size_t mib, void (*ready)(void *ctx), void *ctx) {
    size_t bytes = mib << 20, buckets = 1;
    while (buckets * 2 * 4 * sizeof(struct tt_entry) <= bytes) buckets *= 2;
    size_t size = buckets * 4 * sizeof(struct tt_entry);
    /* tables of whole 2 MiB pages ask for huge pages: a probe then rarely misses the TLB too */
    bool huge = size % TT_HUGE_PAGE == 0;
    void *map = NULL;
    size_t map_bytes = 0;
    struct tt_entry *e = map_aligned(size, huge ? TT_HUGE_PAGE : 64, &map, &map_bytes);
#ifdef MADV_HUGEPAGE
    if (e && huge) madvise(e, size, MADV_HUGEPAGE);
#endif
    if (!e) return false;
    /* one map of written buckets: tt->maps may be changing under a running search (ready stops
       it), and the next search sets its writers (tt_set_writers) anyway */
    int maps = 1;
    uint64_t *dirty = calloc((size_t)maps * ((buckets + 63) / 64), sizeof *dirty);
    if (!e || !dirty) {
        if (e) munmap(map, map_bytes);
        free(dirty);
        return false;
    }
    if (ready) ready(ctx);
    /* a fresh mapping reads as zeros: every entry empty, no page touched yet */
    tt_free(tt);
    tt->entries = e;
    tt->map = map;
    tt->map_bytes = map_bytes;
    tt->dirty = dirty;
    tt->maps = maps;
    tt->buckets = buckets;
    tt->generation = 0;
    return true;
}

/* Sizes the table to at most mib MiB (at least one bucket); returns false if out of memory. */
bool tt_resize(struct tt *tt, size_t mib) {
    return tt_resize_then(tt, mib, NULL, NULL);
}

/* Returns the number of 64-bit words of one written-bucket map. */
static size_t map_words(const struct tt *tt) {
    return (tt->buckets + 63) / 64;
}

/*
 * Gives the table n maps of written buckets (1..TT_MAX_MAPS), one per writing thread, so that
 * threads do not fight over the cache lines of one shared map; the marks made so far are kept.
 * Returns false if out of memory (the old maps stay).
 */
bool tt_set_writers(struct tt *tt, int n) {
    if (n < 1) n = 1;
    if (n > TT_MAX_MAPS) n = TT_MAX_MAPS;
    if (n == tt->maps || !tt->entries) return true;
    size_t words = map_words(tt);
    uint64_t *dirty = calloc((size_t)n * words, sizeof *dirty);
    if (!dirty) return false;
    for (int m = 0; m < tt->maps; m++)
        for (size_t w = 0; w < words; w++) dirty[w] |= tt->dirty[(size_t)m * words + w];
    free(tt->dirty);
    tt->dirty = dirty;
    tt->maps = n;
    return true;
}

/* Frees the table. */
void tt_free(struct tt *tt) {
    if (tt->map) munmap(tt->map, tt->map_bytes);
    free(tt->dirty);
    tt->map = NULL;
    tt->map_bytes = 0;
    tt->entries = NULL;
    tt->dirty = NULL;
    tt->buckets = 0;
    tt->maps = 0;
}

/*
 * Empties slice `part` of `parts` equal slices of the table; part 0 restarts the generation.
 * Only buckets written since the last clear can hold entries: when few were, they alone are
 * zeroed, otherwise the whole slice.
 */
void tt_clear_part(struct tt *tt, int part, int parts) {
    size_t words = map_words(tt);
    size_t first = words * (size_t)part / (size_t)parts;
    size_t end = words * (size_t)(part + 1) / (size_t)parts;
    /* the maps are merged into the first one, slice by slice */
    uint64_t *merged = tt->dirty;
    for (int m = 1; m < tt->maps; m++) {
        uint64_t *map = tt->dirty + (size_t)m * words;
        for (size_t w = first; w < end; w++) merged[w] |= map[w];
        memset(map + first, 0, (end - first) * sizeof *map);
    }
    size_t written = 0;
    for (size_t w = first; w < end; w++) written += (size_t)__builtin_popcountll(merged[w]);
    if (written * 4 > (end - first) * 64) {
        size_t from = first * 64, to = end * 64 < tt->buckets ? end * 64 : tt->buckets;
        memset(tt->entries + from * 4, 0, (to - from) * 4 * sizeof *tt->entries);
    } else {
        for (size_t w = first; w < end; w++)
            for (uint64_t bits = merged[w]; bits; bits &= bits - 1) {
                size_t b = w * 64 + (size_t)__builtin_ctzll(bits);
                memset(tt->entries + b * 4, 0, 4 * sizeof *tt->entries);
            }
    }
    memset(merged + first, 0, (end - first) * sizeof *merged);
    if (part == 0) tt->generation = 0;
}

/* Empties the table. */
void tt_clear(struct tt *tt) {
    tt_clear_part(tt, 0, 1);
}

/* Starts a new search: entries from earlier searches age. */
void tt_new_search(struct tt *tt) {
    tt->generation = (tt->generation + 1) & 63;
}

/* Returns the first entry of key's bucket. */
static inline struct tt_entry *bucket(const struct tt *tt, uint64_t key) {
    return &tt->entries[(key & (tt->buckets - 1)) * 4];
}

/* Reads an entry's words once each (relaxed: torn pairs fail the check). */
static inline void load(const struct tt_entry *e, uint64_t *check, uint64_t *data) {
    *check = __atomic_load_n(&e->check, __ATOMIC_RELAXED);
    *data = __atomic_load_n(&e->data, __ATOMIC_RELAXED);
}

/* Looks up key; fills *hit and returns true when found. */
bool tt_probe(const struct tt *tt, uint64_t key, struct tt_hit *hit) {
    const struct tt_entry *b = bucket(tt, key);
    for (int i = 0; i < 4; i++) {
        uint64_t check, data;
        load(&b[i], &check, &data);
        if ((check ^ data) != key || !((data >> 48) & 0xff)) continue;
        hit->move = (move_t)(data & 0xffff);
        hit->score = (int16_t)((data >> 16) & 0xffff);
        hit->eval = (int16_t)((data >> 32) & 0xffff);
        hit->depth = (int)((data >> 48) & 0xff) - 1;
        hit->bound = (enum tt_bound)((data >> 56) & 3);
        return true;
    }
    return false;
}

/* Stores a result for key (the writer's map is the first). */
void tt_store(struct tt *tt, uint64_t key, move_t move, int score, int eval, int depth,
              enum tt_bound bound) {
    tt_store_by(tt, 0, key, move, score, eval, depth, bound);
}

/* Stores a result for key, marking the bucket in writer's map. */
void tt_store_by(struct tt *tt, int writer, uint64_t key, move_t move, int score, int eval,
                 int depth, enum tt_bound bound) {
    struct tt_entry *b = bucket(tt, key);
    struct tt_entry *slot = &b[0];
    int worst = 1 << 30;
    for (int i = 0; i < 4; i++) {
        uint64_t check, data;
        load(&b[i], &check, &data);
        int d = (int)((data >> 48) & 0xff);
        if ((check ^ data) == key || d == 0) {
            slot = &b[i];
            if ((check ^ data) == key && d) {
                /* keep the old move when the new result has none, and deeper exact results */
                if (!move) move = (move_t)(data & 0xffff);
                if (bound != TT_EXACT && d - 1 > depth + 2 && ((data >> 58) & 63) == tt->generation)
                    return;
            }
            break;
        }
        int age = (int)((tt->generation - ((data >> 58) & 63)) & 63);
        int value = d - 8 * age;
        if (value < worst) {
            worst = value;
            slot = &b[i];
        }
    }
    if (depth < -1) depth = -1;
    if (depth > 250) depth = 250;
    uint64_t data = (uint64_t)move | ((uint64_t)(uint16_t)(int16_t)score << 16) |
                    ((uint64_t)(uint16_t)(int16_t)eval << 32) | ((uint64_t)(depth + 1) << 48) |
                    ((uint64_t)bound << 56) | ((uint64_t)tt->generation << 58);
    __atomic_store_n(&slot->check, key ^ data, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->data, data, __ATOMIC_RELAXED);
    /* mark the bucket written, only the first time; an atomic or, since writers beyond the
       number of maps share one (with a map each the line stays in the writer's cache) */
    size_t index = key & (tt->buckets - 1);
    uint64_t bit = (uint64_t)1 << (index & 63);
    uint64_t *word = tt->dirty + (size_t)(writer % tt->maps) * map_words(tt) + index / 64;
    if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
}

/* Returns how full the table is in permille (entries of this search among the first 4000). */
int tt_hashfull(const struct tt *tt) {
    size_t n = tt->buckets * 4 < 4000 ? tt->buckets * 4 : 4000;
    int used = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t data = __atomic_load_n(&tt->entries[i].data, __ATOMIC_RELAXED);
        if (((data >> 48) & 0xff) && ((data >> 58) & 63) == tt->generation) used++;
    }
    return n ? (int)(used * 1000 / n) : 0;
}

/* Converts a score found at distance ply from the root to the form stored in the table. */
int tt_score_to(int score, int ply) {
    if (score >= SCORE_WIN_MIN) return score + ply;
    if (score <= -SCORE_WIN_MIN) return score - ply;
    return score;
}

/* Converts a stored score back for a node at distance ply from the root. */
int tt_score_from(int score, int ply) {
    if (score >= SCORE_WIN_MIN) return score - ply;
    if (score <= -SCORE_WIN_MIN) return score + ply;
    return score;
}

/*
 * A small, fast, seeded pseudo-random generator shared by every game and policy.
 *
 * game_rng holds the 256-bit state of xoshiro256** (Blackman and Vigna's published algorithm,
 * written here from its description). The state is never all zero: rng_seed() fills it from a
 * 64-bit seed through splitmix64, which cannot produce four zero words in a row. The generator is
 * plain data: copying a game_rng forks the stream, and two generators seeded alike produce the
 * same numbers on every machine. Nothing here is thread-safe; each thread owns its generators.
 */
#ifndef HNEFI_ENGINE_GAMES_RNG_H
#define HNEFI_ENGINE_GAMES_RNG_H

#include <stdint.h>

typedef struct game_rng {
    uint64_t s[4];
} game_rng;

/* Advances a splitmix64 state and returns its next output (used for seeding and hashing). */
static inline uint64_t rng_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Seeds the generator from one 64-bit number. */
static inline void rng_seed(game_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = rng_splitmix64(&x);
}

/* Derives an independent seed for stream number `index` of a run seeded with `seed`. */
static inline uint64_t rng_derive(uint64_t seed, uint64_t index) {
    uint64_t x = seed ^ (index * 0xd1342543de82ef95ULL);
    rng_splitmix64(&x);
    return rng_splitmix64(&x);
}

/* Returns the next 64 random bits. */
static inline uint64_t rng_next(game_rng *r) {
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Returns a uniform integer in [0, n) for 0 < n < 2^32, without bias (multiply and reject). */
static inline uint32_t rng_below(game_rng *r, uint32_t n) {
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Returns a uniform double in [0, 1). */
static inline double rng_double(game_rng *r) {
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif

/*
 * Bit masks of the non-zero bytes of small count arrays, for the games' fast paths.
 *
 * The dice and card games keep counts in rows of bytes (Vikings per field, besiegers per siege
 * section, cards per value). Asking "which entries are non-zero?" of a row one byte at a time
 * costs a load and a branch per byte; these helpers answer for 8 or 16 bytes at once, bit i of
 * the result standing for byte i. byte_mask16 uses SSE2 where the compiler offers it and the
 * portable byte_mask16_swar otherwise; tests compare both with a plain loop. Nothing here reads
 * outside the bytes it is given, and the results do not depend on the machine's byte order.
 */
#ifndef HNEFI_ENGINE_GAMES_BYTEMASK_H
#define HNEFI_ENGINE_GAMES_BYTEMASK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && !defined(HNEFI_NO_SIMD)
#include <emmintrin.h>
#endif

/* Reads 4 bytes as a little-endian word. */
static inline uint32_t byte_le32(const uint8_t *b) {
    uint32_t x;
    memcpy(&x, b, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap32(x);
#endif
    return x;
}

/* Reads a row of n bytes, 4 <= n <= 8, as the low bytes of a word (byte i in bits 8i..8i+7):
 * two overlapping 4-byte reads, so nothing outside the row is touched. */
static inline uint64_t byte_row(const uint8_t *b, size_t n) {
    return (uint64_t)byte_le32(b) | (uint64_t)byte_le32(b + n - 4) << (8 * (n - 4));
}

/* Of a word of bytes, 0x01 in every byte that is non-zero and 0x00 elsewhere. */
static inline uint64_t byte_nonzero(uint64_t x) {
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    return ((((x & low7) + low7) | x) >> 7) & 0x0101010101010101ULL;
}

/* Gathers the 0x01/0x00 bytes of a word into a bit mask (bit i = byte i): the multiplier moves
 * byte i's bit to bit 56 + i, and no two partial products meet below bit 64. */
static inline uint32_t byte_gather(uint64_t ones) {
    return (uint32_t)((ones * 0x0102040810204080ULL) >> 56);
}

/* Bit i set where byte i of a row of n bytes (4 <= n <= 8) is non-zero. */
static inline uint32_t byte_mask_row(const uint8_t *b, size_t n) {
    return byte_gather(byte_nonzero(byte_row(b, n)));
}

/* Bit i set where byte i of the 16 bytes at b is non-zero, without SIMD. */
static inline uint32_t byte_mask16_swar(const uint8_t *b) {
    return byte_mask_row(b, 8) | byte_mask_row(b + 8, 8) << 8;
}

/* Bit i set where byte i of the 16 bytes at b is non-zero. */
static inline uint32_t byte_mask16(const uint8_t *b) {
#if defined(__SSE2__) && !defined(HNEFI_NO_SIMD)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)b);
    return ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xffffu;
#else
    return byte_mask16_swar(b);
#endif
}

/* Bit i set where b[i] is non-zero, for a block of 16 <= n <= 64 bytes. The last 16-byte read
 * is moved back to end at the block's end, so nothing past it is read. */
static inline uint64_t byte_mask64(const uint8_t *b, size_t n) {
    uint64_t bits = 0;
    for (size_t i = 0; i < n; i += 16) {
        size_t at = i + 16 <= n ? i : n - 16;
        bits |= (uint64_t)(byte_mask16(b + at) >> (i - at)) << i;
    }
    return bits;
}

#endif

/* The non-zero-byte masks of engine/games/bytemask.h against a plain byte loop. */
#include "engine/games/bytemask.h"

#include "engine/games/rng.h"
#include "tests/check.h"

/* Bit i set where b[i] != 0, one byte at a time. */
static uint64_t plain_mask(const uint8_t *b, size_t n) {
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++) m |= (uint64_t)(b[i] != 0) << i;
    return m;
}

/* Fills n bytes with mostly zeros and, at random places, every kind of non-zero value. */
static void fill(uint8_t *b, size_t n, game_rng *r) {
    for (size_t i = 0; i < n; i++) {
        uint32_t k = rng_below(r, 8);
        b[i] = k < 4 ? 0 : k == 4 ? 0x80 : k == 5 ? 0xff : k == 6 ? 1 : (uint8_t)rng_below(r, 256);
    }
}

/* 16-byte masks (SIMD and portable), rows of 4 to 8 bytes, and blocks of up to 64 bytes. */
static void test_masks(void) {
    game_rng r;
    rng_seed(&r, 11);
    int bad16 = 0, bad_swar = 0, bad_row = 0, bad_block = 0;
    for (int t = 0; t < 20000; t++) {
        uint8_t b[80];
        fill(b, sizeof b, &r);
        bad16 += byte_mask16(b) != plain_mask(b, 16);
        bad_swar += byte_mask16_swar(b) != plain_mask(b, 16);
        for (size_t n = 4; n <= 8; n++) bad_row += byte_mask_row(b + 3, n) != plain_mask(b + 3, n);
        /* blocks of the sizes the games use, and a few others, ending at the buffer's end */
        static const size_t sizes[] = {16, 18, 31, 42, 54, 63, 64};
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            bad_block += byte_mask64(b + sizeof b - n, n) != plain_mask(b + sizeof b - n, n);
        }
    }
    CHECK_EQ_INT(bad16, 0);
    CHECK_EQ_INT(bad_swar, 0);
    CHECK_EQ_INT(bad_row, 0);
    CHECK_EQ_INT(bad_block, 0);
}

/* Little-endian rows: byte i of the row is bits 8i..8i+7 of the word. */
static void test_rows(void) {
    uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_EQ_U64(byte_row(b, 8), 0x0807060504030201ULL);
    CHECK_EQ_U64(byte_row(b, 5), 0x0504030201ULL);
    CHECK_EQ_U64(byte_row(b, 4), 0x04030201ULL);
    CHECK_EQ_INT(byte_gather(0x0100000000000101ULL), 0x83);
}

/* Runs the byte-mask tests. */
int main(void) {
    test_masks();
    test_rows();
    return check_done();
}

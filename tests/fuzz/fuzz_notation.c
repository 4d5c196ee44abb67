/*
 * libFuzzer target for every text parser of the engine: FEN, OpenTafl position records, OpenTafl
 * rules strings, move text, and rule options. The first byte picks the parser and the variant;
 * the rest is the text. Accepted input must give a valid position that writes back and parses
 * again to the same thing; rejected input must leave the target untouched.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/tafl.h"
#include "engine/variant_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the run: a property of the parsers was broken. */
static void broken(void) {
    abort();
}

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const struct variant *v = variant_builtin(data[0] % 5);
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char err[256], out[1024];
    struct position p, before;
    pos_init_start(&p, v);
    before = p;
    switch ((data[0] / 5) % 5) {
    case 0:
        if (fen_parse(&p, v, text, err, sizeof err)) {
            struct position q;
            if (!pos_valid(&p, err, sizeof err)) broken();
            fen_write(&p, out);
            if (!fen_parse(&q, v, out, err, sizeof err) || q.key != p.key) broken();
            move_t moves[MAX_MOVES];
            if (movegen_list(&p, moves) != movegen_count(&p)) broken();
        } else if (memcmp(&p, &before, sizeof p) != 0) {
            broken();
        }
        break;
    case 1: {
        char rows[FEN_MAX];
        if (opentafl_record_to_rows(text, v->size, false, rows, sizeof rows, err, sizeof err)) {
            strcat(rows, " a");
            (void)fen_parse(&p, v, rows, err, sizeof err);
        }
        break;
    }
    case 2: {
        struct variant r = *v, keep = *v;
        if (opentafl_read_rules(&r, text, err, sizeof err)) {
            struct position q;
            pos_init_start(&q, &r);
            if (!pos_valid(&q, err, sizeof err)) broken();
            move_t moves[MAX_MOVES];
            if (movegen_list(&q, moves) != movegen_count(&q)) broken();
            if (opentafl_write_rules(&r, out, sizeof out) < 0) broken();
        } else if (memcmp(&r, &keep, sizeof r) != 0) {
            broken();
        }
        break;
    }
    case 3: {
        move_t m = 7;
        if (move_parse_legal(&p, text, &m, err, sizeof err)) {
            if (!movegen_is_legal(&p, m)) broken();
        } else if (m != 7) {
            broken();
        }
        struct tafl_game *t = tafl_new(v);
        int n = t->n;
        if (!tafl_play_text(t, text, err, sizeof err) && t->n != n) broken();
        tafl_free(t);
        break;
    }
    default: {
        struct variant r = *v;
        char *eq = strchr(text, '=');
        if (eq) {
            *eq = 0;
            (void)variant_set_option(&r, text, eq + 1, err, sizeof err);
        }
        break;
    }
    }
    free(text);
    return 0;
}

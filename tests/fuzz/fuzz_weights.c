/*
 * libFuzzer target for the evaluation-weights reader (the name=value files `hnefi tune` writes
 * and --weights reads: tools/cli.c cli_load_weights, search/eval.c eval_weights_parse). The
 * first byte picks the form: bit 0 set, the rest wrapped in a zstd frame (the file may be
 * compressed); else the file as it is. An accepted file must write back to text that reads to
 * the same weights, and evaluate positions without fault; a refused one must leave the weights
 * untouched and say why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/zio.h"
#include "engine/tafl.h"
#include "fuzz_util.h"
#include "search/eval.h"

/* Writes w as name=value lines into out. */
static void write_weights(const struct eval_weights *w, char *out, size_t outlen) {
    size_t n = 0;
#define FUZZ_PUT(name, def)                                                                        \
    n += (size_t)snprintf(out + n, n < outlen ? outlen - n : 0, "%s=%d\n", #name, w->name);
    EVAL_WEIGHT_LIST(FUZZ_PUT)
#undef FUZZ_PUT
}

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    uint8_t *owned = NULL;
    if (data[0] & 1) {
        if (!(owned = fuzz_zstd(body, len, false, &len))) return 0;
        body = owned;
    }
    const char *path = fuzz_file(0, body, len);
    char err[400] = "";
    size_t tlen;
    char *text = zio_read_text(path, &tlen, err, sizeof err);
    if (!text) {
        if (!err[0]) fuzz_broken("an unread weights file says no reason");
        free(owned);
        return 0;
    }
    struct eval_weights w = eval_default_weights, before = w;
    if (!eval_weights_parse(&w, text, err, sizeof err)) {
        if (!err[0] || memcmp(&w, &before, sizeof w) != 0) fuzz_broken("refused weights");
    } else {
        char out[4096];
        struct eval_weights again = eval_default_weights;
        write_weights(&w, out, sizeof out);
        if (!eval_weights_parse(&again, out, err, sizeof err) || memcmp(&again, &w, sizeof w))
            fuzz_broken("weights do not read back");
        for (int i = 0; variant_builtin(i); i++) {
            struct tafl_game *t = tafl_new(variant_builtin(i));
            move_t moves[MAX_MOVES];
            for (int ply = 0; t && ply < 8 && t->result == RESULT_NONE; ply++) {
                (void)eval_position(tafl_pos(t), &w);
                int n = tafl_legal_moves(t, moves);
                if (n == 0) break;
                tafl_play(t, moves[(ply * 7 + (int)len) % n]);
            }
            tafl_free(t);
        }
    }
    free(text);
    free(owned);
    return 0;
}

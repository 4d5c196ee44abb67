/*
 * libFuzzer target for OpenTafl rules strings (engine/variant.c opentafl_read_rules), what a
 * host sends in `rules` (OpenTafl engine protocol) or UCI's Rules option: board sizes, start
 * shapes and rule options. The first byte picks the built-in variant whose rule options are
 * then changed by `key=value` lines after the rules string (variant_set_option, as --rule
 * does), one per line.
 * An accepted rules string must write back (opentafl_write_rules) to text that reads to rules
 * writing the same text; its start position, when it loads, must give the same moves by
 * generation and by counting, and survive a game of a few plies and a small search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/tafl.h"
#include "engine/variant_text.h"
#include "fuzz_util.h"
#include "search/search.h"

/* Plays a few plies and a tiny search in variant v, checking move counts. */
static void exercise(const struct variant *v, uint32_t seed) {
    struct position start;
    pos_init_start(&start, v);
    struct tafl_game *t = tafl_new(v);
    if (!t) return;
    tafl_reset(t, &start);
    move_t moves[MAX_MOVES];
    for (int ply = 0; ply < 16 && t->result == RESULT_NONE; ply++) {
        int n = movegen_list(tafl_pos(t), moves);
        if (n != movegen_count(tafl_pos(t))) fuzz_broken("generated and counted moves differ");
        n = tafl_legal_moves(t, moves);
        if (n == 0) break;
        seed = seed * 1103515245u + 12345u;
        tafl_play(t, moves[(seed >> 8) % (uint32_t)n]);
    }
    static struct search *s;
    if (!s) s = search_new(1);
    if (s) {
        struct search_options opt;
        search_options_default(&opt);
        struct search_limits lim = {.depth = 3, .nodes = 300, .time_ms = {-1, -1}};
        struct search_result r;
        search_clear(s);
        search_run(s, t, &lim, &opt, NULL, &r);
        if (r.best && !tafl_move_legal(t, r.best, NULL, 0)) fuzz_broken("search move not legal");
    }
    tafl_free(t);
}

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    struct variant v = *variant_builtin(data[0] % 5), keep = v;
    char err[300] = "", out[1024], out2[1024];
    char *options = strchr(text, '\n');
    if (options) *options++ = 0;
    if (!opentafl_read_rules(&v, text, err, sizeof err)) {
        if (!err[0] || memcmp(&v, &keep, sizeof v) != 0) fuzz_broken("refused rules");
        v = keep;
    } else {
        struct variant w;
        if (opentafl_write_rules(&v, out, sizeof out) < 0) fuzz_broken("rules do not write");
        if (!opentafl_read_rules(&w, out, err, sizeof err)) fuzz_broken("rules do not read back");
        if (opentafl_write_rules(&w, out2, sizeof out2) < 0 || strcmp(out, out2) != 0)
            fuzz_broken("rules read back differently");
    }
    /* key=value lines change the rule options, as --rule does */
    for (char *line = options; line && *line;) {
        char *next = strchr(line, '\n');
        if (next) *next++ = 0;
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = 0;
            struct variant before = v;
            if (!variant_set_option(&v, line, eq + 1, err, sizeof err) &&
                memcmp(&v, &before, sizeof v) != 0)
                fuzz_broken("a refused option changed the rules");
        }
        line = next;
    }
    exercise(&v, (uint32_t)size);
    free(text);
    return 0;
}

/*
 * libFuzzer target for the training-data reader (selfplay/datagen.c), as `hnefi train` uses it
 * (tools/nnue_train.c) and `hnefi games summary` shows it. The first byte picks the form:
 *   bit 0     0: the file as it is; 1: a sound file made from the rest: the header made right
 *             for the variant, then games, each one frame: a count byte n, a 16-byte game
 *             header (its count set to n) and n records of the variant's size (zeros where
 *             input ends)
 *   bits 1-3  the variant (built-in 0-4; 5: Berserk, OpenTafl's rules string, whose records
 *             are of format version 2 with commanders, knights and a berserker)
 * Every position handed out must be valid for the variant with a key that matches its pieces;
 * a refused file must say why; the trainer must take the same positions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/opentafl.h"
#include "engine/position.h"
#include "fuzz_util.h"
#include "selfplay/datagen.h"
#include "selfplay/records.h"
#include "tools/cmd_match.h"
#include "tools/nnue_train.h"

/* Checks one position read from the file; counts it. */
static bool check_pos(const struct datagen_pos *d, void *ctx) {
    int64_t *count = ctx;
    char why[200];
    if (!pos_valid(&d->pos, why, sizeof why)) fuzz_broken("invalid training position");
    if (d->pos.key != pos_compute_key(&d->pos)) fuzz_broken("training position key");
    if (d->result != RESULT_ATTACKERS && d->result != RESULT_DEFENDERS && d->result != RESULT_DRAW)
        fuzz_broken("training result");
    ++*count;
    return true;
}

/* Appends a little-endian value of n bytes. */
static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Builds a sound data file for v from the input's games; NULL if out of memory. */
static uint8_t *build(const struct variant *v, const uint8_t *d, size_t n, size_t *outlen) {
    uint8_t head[DATAGEN_HEADER_MAX];
    size_t headlen = datagen_make_header(head, v), rec = datagen_record_size(v);
    if (!headlen) fuzz_broken("the header of a built-in variant");
    size_t cap = 1 << 16, used = 0;
    uint8_t *text = malloc(cap), *game = malloc(DATAGEN_GAME_HEADER + 255 * rec);
    uint8_t *out = NULL;
    if (!text || !game) goto done;
    /* the frames, each prefixed by its length so they can be compressed one by one below */
    size_t hl;
    uint8_t *h = fuzz_zstd(head, headlen, false, &hl);
    if (!h) goto done;
    memcpy(text, h, hl);
    used = hl;
    free(h);
    size_t i = 0;
    while (i < n) {
        int count = d[i++];
        size_t glen = DATAGEN_GAME_HEADER + (size_t)count * rec;
        memset(game, 0, glen);
        size_t take = n - i < glen ? n - i : glen;
        memcpy(game, d + i, take);
        i += take;
        put_le(game + 8, (uint64_t)count, 4);
        size_t fl;
        uint8_t *f = fuzz_zstd(game, glen, false, &fl);
        if (!f) goto done;
        if (used + fl > cap) {
            cap = (used + fl) * 2;
            uint8_t *bigger = realloc(text, cap);
            if (!bigger) {
                free(f);
                goto done;
            }
            text = bigger;
        }
        memcpy(text + used, f, fl);
        used += fl;
        free(f);
    }
    out = text;
    text = NULL;
    *outlen = used;
done:
    free(text);
    free(game);
    return out;
}

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    fuzz_quiet_stdout();
    static char berserk_rules[] = "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c "
                                  "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/"
                                  "t4T4t/11/5c5/3ttttt3/";
    static struct variant berserk;
    char why[200];
    if (!berserk.size && !opentafl_read_rules(&berserk, berserk_rules, why, sizeof why))
        fuzz_broken("Berserk's rules string");
    int pick = ((data[0] >> 1) & 7) % 6;
    const struct variant *v = pick == 5 ? &berserk : variant_builtin(pick);
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    uint8_t *owned = NULL;
    if (data[0] & 1) {
        if (!(owned = build(v, body, len, &len))) return 0;
        body = owned;
    }
    const char *path = fuzz_file(0, body, len);
    int64_t games = -1, positions = -1, count = 0;
    char err[600] = "";
    bool ok = datagen_read(path, v, check_pos, &count, &games, &positions, err, sizeof err);
    if (!ok && !err[0]) fuzz_broken("a refused data file says no reason");
    if (positions != count || games < 0) fuzz_broken("training counts");
    /* the trainer reads the same file the same way */
    struct train_data *td = train_data_new(v);
    struct train_config cfg;
    train_config_default(&cfg, v);
    char err2[600] = "";
    if (td) {
        bool ok2 = train_data_add_file(td, path, &cfg, err2, sizeof err2);
        int64_t tp, tg, tv;
        train_data_counts(td, &tp, &tg, &tv);
        if (ok2 != ok || (ok && tp != positions)) fuzz_broken("trainer reads differently");
        train_data_free(td);
    }
    char *argv[] = {"games",
                    "summary",
                    (char *)path,
                    pick == 5 ? "--rules" : "--variant",
                    pick == 5 ? berserk_rules : (char *)v->name,
                    NULL};
    int rc = cmd_games(5, argv);
    if (rc != 0 && rc != 1) fuzz_broken("hnefi games exit status");
    free(owned);
    return 0;
}

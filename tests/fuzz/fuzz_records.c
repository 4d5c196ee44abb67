/*
 * libFuzzer target for the game-record readers (selfplay/records.c: plain text lines, zstd
 * frames, OpenTafl .otg games), the input of `hnefi games` (tools/cmd_games.c, run in-process),
 * and opening files (selfplay/openings.c). The first byte picks how the rest is used:
 *   bits 0-1  0: the file as it is; 1: each line wrapped in its own zstd frame (as a tournament
 *             appends records); 2: the whole text in one zstd frame; 3: an opening file
 *   bits 2-4  the variant named by the caller (0-4 the built-in ones), 5-7 none (records name
 *             their own)
 *   bit 5     a tournament's resume (a half-written last frame allowed)
 *   bits 6-7  the `hnefi games` action: list, summary, convert --to otg, convert --to text
 * Every record handed out must replay legally in its variant, with the captures it lists; a
 * refused file must say why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/notation.h"
#include "engine/tafl.h"
#include "fuzz_util.h"
#include "selfplay/openings.h"
#include "selfplay/records.h"
#include "tools/cmd_match.h"

/* Checks one record: its moves replay legally with the captures listed; counts it. */
static bool check_record(const struct record *r, int64_t line, void *ctx) {
    int *count = ctx;
    if (!r->v || r->n < 0 || r->n > MAX_GAME_PLIES || line < 1) fuzz_broken("record fields");
    struct tafl_game *t = tafl_new(r->v);
    if (!t) return false;
    for (int i = 0; i < r->n; i++) {
        if (!tafl_move_legal(t, r->moves[i], NULL, 0)) fuzz_broken("record move not legal");
        tafl_play(t, r->moves[i]);
        if (!bb_eq(t->captures[i], r->captures[i])) fuzz_broken("record captures differ");
    }
    tafl_free(t);
    return ++*count < 10000;
}

/* Runs `hnefi games <action> path` in-process with the caller's variant if any. */
static void run_games(int action, const char *path, const struct variant *v) {
    char *argv[12];
    int argc = 0;
    static const char *const actions[] = {"list", "summary", "convert", "convert"};
    argv[argc++] = "games";
    argv[argc++] = (char *)actions[action];
    argv[argc++] = (char *)path;
    if (v) {
        argv[argc++] = "--variant";
        argv[argc++] = (char *)v->name;
    }
    if (action >= 2) {
        argv[argc++] = "--to";
        argv[argc++] = action == 2 ? "otg" : "text";
        argv[argc++] = "--out";
        argv[argc++] = "/dev/null";
    }
    argv[argc] = NULL;
    int rc = cmd_games(argc, argv);
    if (rc != 0 && rc != 1) fuzz_broken("hnefi games exit status");
}

/* Reads the rest as an opening file; every opening must replay legally. */
static void run_openings(const char *path, const struct variant *v) {
    struct opening_set set = {0};
    char err[400] = "";
    if (!openings_load(&set, v, path, err, sizeof err)) {
        if (!err[0] || set.items || set.count) fuzz_broken("refused openings");
        return;
    }
    struct tafl_game *t = tafl_new(v);
    for (int i = 0; t && i < set.count; i++) {
        tafl_reset(t, &t->pos[0]);
        for (int k = 0; k < set.items[i].n; k++) {
            if (!tafl_move_legal(t, set.items[i].moves[k], NULL, 0))
                fuzz_broken("opening move not legal");
            tafl_play(t, set.items[i].moves[k]);
        }
    }
    tafl_free(t);
    openings_free(&set);
}

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    fuzz_quiet_stdout();
    int form = data[0] & 3, vi = (data[0] >> 2) & 7, action = data[0] >> 6;
    bool tail_ok = data[0] & 32;
    const struct variant *v = vi < 5 ? variant_builtin(vi) : NULL;
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    uint8_t *owned = NULL;
    if (form == 1 || form == 2) {
        if (!(owned = fuzz_zstd(body, len, form == 1, &len))) return 0;
        body = owned;
    }
    const char *path = fuzz_file(0, body, len);
    if (form == 3) {
        run_openings(path, v ? v : variant_by_name("copenhagen"));
    } else {
        char err[1000] = "", comment[300];
        size_t good_end = 0;
        bool truncated = false;
        int count = 0;
        bool ok = records_scan(path, v, tail_ok, check_record, &count, &good_end, &truncated, err,
                               sizeof err);
        if (count < 10000 && !ok && !err[0]) fuzz_broken("a refused record file says no reason");
        if (good_end > len) fuzz_broken("sound part longer than the file");
        if (records_comment(path, comment, sizeof comment) && comment[0] != '#')
            fuzz_broken("comment line");
        run_games(action, path, v);
    }
    free(owned);
    return 0;
}

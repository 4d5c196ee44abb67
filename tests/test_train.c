/*
 * The training pipeline through the real binary: self-play writes training data, hnefi train
 * fits a network to it (its losses fall, the picture is written), and analyze and match search
 * with that network. Every refused argument and file names what is wrong.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "data_file.h"
#include "engine/notation.h"
#include "tools/nnue_train.h"

static char out[1 << 18];

/* Runs hnefi with args (shell-quoted by the caller); returns its exit status, output in out. */
static int run(const char *args) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", HNEFI_BINARY, args);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Checks that a command succeeds and prints want. */
static void ok(const char *args, const char *want) {
    int st = run(args);
    if (!check_record(st == 0 && strstr(out, want), __FILE__, __LINE__, args))
        fprintf(stderr, "    status %d, output:\n%s\n", st, out);
}

/* Checks that a command fails with a message containing want. */
static void bad(const char *args, const char *want) {
    int st = run(args);
    if (!check_record(st != 0 && st != -1 && strstr(out, want), __FILE__, __LINE__, args))
        fprintf(stderr, "    status %d, output:\n%s\n", st, out);
}

/* Returns the loss after `key` on line `epoch N` of the last output (-1 if absent). */
static double loss_of(int epoch, const char *key) {
    char tag[32];
    snprintf(tag, sizeof tag, "epoch %3d ", epoch);
    const char *l = strstr(out, tag);
    const char *k = l ? strstr(l, key) : NULL;
    return k ? atof(k + strlen(key)) : -1;
}

/* Whether two files hold the same bytes (false if either cannot be read). */
static bool same_bytes(const char *a, const char *b) {
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    bool same = f && g;
    while (same) {
        int x = getc(f), y = getc(g);
        same = x == y;
        if (x == EOF) break;
    }
    if (f) fclose(f);
    if (g) fclose(g);
    return same;
}

/*
 * Copies the search lines of the last output into dst without their speeds and times: each
 * depth line's score and nodes, its principal variation, and the best move.
 */
static void search_lines(char *dst, size_t cap) {
    size_t n = 0;
    dst[0] = 0;
    for (const char *l = strstr(out, "\ndepth "); l; l = strstr(l + 1, "\ndepth ")) {
        const char *nps = strstr(l, " nps "), *time = nps ? strstr(nps, "s  ") : NULL;
        const char *end = time ? strchr(time, '\n') : NULL;
        if (!end) break;
        n += (size_t)snprintf(dst + n, n < cap ? cap - n : 0, "%.*s|%.*s\n", (int)(nps - l), l,
                              (int)(end - time), time);
    }
}

/*
 * Training data of format version 2, on its own: Berserk (commanders, knights, berserk turns;
 * not built in, so the file's rules string names it) and, on the wide build, copenhagen13. The
 * data is summarised, trained on without naming the variant, and the network searches.
 */
static void test_special(const char *dir) {
    char cmd[4096], rules[1024];
    if (!CHECK(data_opentafl_rules(5, rules, sizeof rules))) return;
    snprintf(cmd, sizeof cmd,
             "selfplay --rules '%s' --games 4 --tc nodes:300 --quiet --no-sync --datagen "
             "%s/b.dat --records %s/b.zst",
             rules, dir, dir);
    ok(cmd, "4 of 4 games counted");
    snprintf(cmd, sizeof cmd, "games summary %s/b.dat", dir);
    ok(cmd, "(60 bytes each, format version 2)");
    snprintf(cmd, sizeof cmd,
             "train --data %s/b.dat --out %s/b.nnue --epochs 1 --hidden 32 --threads 1 --val 0.5",
             dir, dir);
    ok(cmd, "Berserk: ");
    snprintf(cmd, sizeof cmd, "analyze --rules '%s' --net %s/b.nnue --depth 3", rules, dir);
    ok(cmd, "evaluation: network");
    snprintf(cmd, sizeof cmd, "games summary %s/b.dat --variant copenhagen", dir);
    bad(cmd, "b.dat holds Berserk data, not copenhagen");
    /* --init takes another variant's network of the same board size, and no other */
    snprintf(cmd, sizeof cmd, "train --data %s/b.dat --out %s/x.nnue --init %s/n.nnue --hidden 64",
             dir, dir, dir);
    bad(cmd, "--init: the network is for a 7x7 board (brandubh), the game is 11x11");
    if (!CHECK(data_opentafl_rules(10, rules, sizeof rules))) return;
    snprintf(cmd, sizeof cmd,
             "selfplay --rules '%s' --games 4 --tc nodes:300 --quiet --no-sync --datagen %s/m.dat",
             rules, dir);
    ok(cmd, "4 of 4 games counted");
    snprintf(cmd, sizeof cmd,
             "train --rules '%s' --data %s/m.dat --out %s/m.nnue --init %s/n.nnue --hidden 64 "
             "--epochs 1 --threads 1 --val 0.5",
             rules, dir, dir, dir);
    ok(cmd, "starting from brandubh's network; the one written is Magpie's");
    snprintf(cmd, sizeof cmd, "analyze --rules '%s' --net %s/m.nnue --depth 3", rules, dir);
    ok(cmd, "evaluation: network");
    if (!HNEFI_WIDE_BOARDS) return;
    snprintf(cmd, sizeof cmd,
             "selfplay --variant copenhagen13 --games 4 --tc nodes:300 --max-plies 120 --quiet "
             "--no-sync --datagen %s/w.dat --records %s/w.zst",
             dir, dir);
    ok(cmd, "4 of 4 games counted");
    snprintf(cmd, sizeof cmd, "games summary %s/w.dat", dir);
    ok(cmd, "(84 bytes each, format version 2)");
    snprintf(cmd, sizeof cmd,
             "train --data %s/w.dat --out %s/w.nnue --epochs 1 --hidden 32 --threads 1 --val 0.5",
             dir, dir);
    ok(cmd, "copenhagen13: ");
    snprintf(cmd, sizeof cmd, "analyze --variant copenhagen13 --net %s/w.nnue --depth 3", dir);
    ok(cmd, "evaluation: network");
    snprintf(cmd, sizeof cmd, "analyze --net %s/w.nnue --depth 2", dir);
    bad(cmd, "the network is for a 13x13 board; the game is on a board up to 11x11");
    snprintf(cmd, sizeof cmd, "train --data %s/w.dat --out %s/x.nnue --variant copenhagen", dir,
             dir);
    bad(cmd, "w.dat holds copenhagen13 data, not copenhagen");
}

/* Tells whether the Brandubh position of fen is quiet for training (--quiet-only). */
static bool quiet_fen(const char *fen) {
    struct position p;
    char err[200];
    if (!fen_parse(&p, variant_by_name("brandubh"), fen, err, sizeof err)) {
        fprintf(stderr, "    %s: %s\n", fen, err);
        return false;
    }
    return train_position_quiet(&p);
}

/* Checks which positions --quiet-only keeps. */
static void test_quiet(void) {
    CHECK(quiet_fen("7/3k3/7/7/1ad4/7/5a1 a"));  /* no capture, no win in one */
    CHECK(!quiet_fen("7/3k3/7/7/1ad4/7/3a3 a")); /* d1d3 takes c3 */
    CHECK(quiet_fen("7/3k3/7/7/1ad4/7/3a3 d"));  /* the defenders cannot capture */
    CHECK(!quiet_fen("7/k6/7/7/1ad4/7/5a1 a"));  /* the king threatens to escape to a7 */
}

/* Runs the pipeline and the error cases. */
int main(void) {
    const char *dir = "test_train_tmp";
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    if (system(cmd) != 0) return 1;
    test_quiet();
    /* data: 60 Brandubh games at 300 nodes a move */
    snprintf(cmd, sizeof cmd,
             "selfplay --variant brandubh --games 60 --tc nodes:300 --quiet --no-sync "
             "--datagen %s/d.dat --records %s/g.zst",
             dir, dir);
    ok(cmd, "60 of 60 games counted");
    /* training: the losses fall, the network and the picture are written */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/n.nnue --svg %s/l.svg "
             "--epochs 6 --lr-step 4 --batch 512 --threads 2 --hidden 64 --lambda 0.3",
             dir, dir, dir);
    ok(cmd, "kept epoch");
    double first = loss_of(1, "train loss "), last = loss_of(6, "train loss ");
    if (!check_record(first > 0 && last > 0 && last < first, __FILE__, __LINE__, "loss falls"))
        fprintf(stderr, "    first %f, last %f\n%s\n", first, last, out);
    CHECK(loss_of(6, "validation loss ") > 0);
    CHECK(strstr(out, "wrote") != NULL);
    FILE *f;
    snprintf(cmd, sizeof cmd, "%s/l.svg", dir);
    f = fopen(cmd, "r");
    char svg[4096] = "";
    if (f) {
        svg[fread(svg, 1, sizeof svg - 1, f)] = 0;
        fclose(f);
    }
    CHECK(strstr(svg, "<svg") && strstr(svg, "polyline") && strstr(svg, "validation"));
    /* searching with it */
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/n.nnue --depth 4", dir);
    ok(cmd, "evaluation: network");
    CHECK(strstr(out, "bestmove") != NULL);
    snprintf(cmd, sizeof cmd,
             "selfplay --variant brandubh --games 2 --tc nodes:300 --quiet --player name=n "
             "net=%s/n.nnue --player name=c eval=classic",
             dir);
    ok(cmd, "2 of 2 games counted");
    /* --quiet-only: the same games, fewer positions, those left out counted */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/q.nnue --epochs 1 --hidden 64 "
             "--threads 1 --quiet-only",
             dir, dir);
    ok(cmd, "kept epoch");
    long long all_pos = -1, all_games = -1, q_pos = -1, q_games = -1, loud = -1;
    const char *at = strstr(out, "brandubh: ");
    if (at) sscanf(at, "brandubh: %lld positions of %lld games", &q_pos, &q_games);
    at = strstr(out, "--quiet-only left out ");
    if (at) sscanf(at, "--quiet-only left out %lld", &loud);
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/q.nnue --epochs 1 --hidden 64 "
             "--threads 1",
             dir, dir);
    ok(cmd, "kept epoch");
    at = strstr(out, "brandubh: ");
    if (at) sscanf(at, "brandubh: %lld positions of %lld games", &all_pos, &all_games);
    if (!check_record(loud > 0 && q_pos > 0 && q_pos + loud == all_pos && q_games == all_games,
                      __FILE__, __LINE__, "--quiet-only leaves out the loud positions"))
        fprintf(stderr, "    %lld + %lld of %lld positions, %lld of %lld games\n", q_pos, loud,
                all_pos, q_games, all_games);
    /* a fine start: train on from the network */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/n2.nnue --init %s/n.nnue "
             "--epochs 1 --hidden 64 --threads 1",
             dir, dir, dir);
    ok(cmd, "kept epoch 1");
    /* at a negligible learning rate every weight rounds back to the starting network's: each
       epoch's loss as stored is epoch 0's, so the starting network is kept, byte for byte */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/same.nnue --init %s/n.nnue "
             "--epochs 2 --lr 1e-9 --threads 1",
             dir, dir, dir);
    ok(cmd, "kept epoch 0, the starting network");
    double start = loss_of(0, "validation loss ");
    CHECK(start > 0);
    CHECK(loss_of(2, "as stored ") == start);
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/n.nnue", dir);
    snprintf(b, sizeof b, "%s/same.nnue", dir);
    CHECK(same_bytes(a, b));
    /* --val-data: a file held out whole, the same validation set for runs on other data, so
       the starting network's validation loss is the same whatever it trains on */
    snprintf(cmd, sizeof cmd,
             "selfplay --variant brandubh --games 20 --seed 2 --tc nodes:300 --quiet --no-sync "
             "--datagen %s/v.dat",
             dir);
    ok(cmd, "20 of 20 games counted");
    snprintf(cmd, sizeof cmd,
             "selfplay --variant brandubh --games 20 --seed 3 --tc nodes:300 --quiet --no-sync "
             "--datagen %s/t.dat",
             dir);
    ok(cmd, "20 of 20 games counted");
    snprintf(cmd, sizeof cmd,
             "train --data %s/d.dat --val-data %s/v.dat --out %s/x.nnue --init %s/n.nnue "
             "--epochs 1 --threads 1",
             dir, dir, dir, dir);
    ok(cmd, "of 80 games, 20 of them held out for validation");
    double val_d = loss_of(0, "validation loss ");
    snprintf(cmd, sizeof cmd,
             "train --data %s/t.dat --val-data %s/v.dat --out %s/x.nnue --init %s/n.nnue "
             "--epochs 1 --threads 1",
             dir, dir, dir, dir);
    ok(cmd, "of 40 games, 20 of them held out for validation");
    CHECK(val_d > 0 && loss_of(0, "validation loss ") == val_d);
    /* ... and against the games held out of the --data files by --val, another loss */
    snprintf(cmd, sizeof cmd,
             "train --data %s/d.dat --out %s/x.nnue --init %s/n.nnue --epochs 1 --threads 1 "
             "--val 0.3",
             dir, dir, dir);
    ok(cmd, "kept epoch");
    CHECK(loss_of(0, "validation loss ") != val_d);
    snprintf(cmd, sizeof cmd, "train --data %s/d.dat --out %s/x.nnue --val 0", dir, dir);
    bad(cmd, "--val 0 holds out no games: give --val-data FILE");
    snprintf(cmd, sizeof cmd,
             "train --data %s/d.dat --val-data /nonexistent.dat --out %s/x.nnue --threads 1", dir,
             dir);
    bad(cmd, "--val-data: cannot open /nonexistent.dat");
    /* widening: the new neurons start with no output weight, so at a negligible learning rate
       the wider network searches exactly as the one it came from */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/w.nnue --init %s/n.nnue "
             "--hidden 96 --epochs 1 --lr 1e-9 --threads 1",
             dir, dir, dir);
    ok(cmd, "widening the starting network from 64 to 96 hidden neurons");
    static char narrow[8192], wide[8192];
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/n.nnue --depth 6", dir);
    ok(cmd, "bestmove");
    search_lines(narrow, sizeof narrow);
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/w.nnue --depth 6", dir);
    ok(cmd, "bestmove");
    search_lines(wide, sizeof wide);
    if (!check_record(strstr(narrow, "depth  6") && strcmp(narrow, wide) == 0, __FILE__, __LINE__,
                      "the widened network searches as the narrow one"))
        fprintf(stderr, "    narrow:\n%s    wide:\n%s", narrow, wide);
    /* the comparison sees a network that changed (trained at a real learning rate) */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/w2.nnue --init %s/n.nnue "
             "--hidden 96 --epochs 2 --lr 0.01 --threads 1",
             dir, dir, dir);
    ok(cmd, "kept epoch");
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/w2.nnue --depth 6", dir);
    ok(cmd, "bestmove");
    search_lines(wide, sizeof wide);
    CHECK(wide[0] && strcmp(narrow, wide) != 0);
    /* output buckets: a network of one bucket splits into four, each with its two heads, so
       at a negligible learning rate it has the same validation loss and searches the same */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/b.nnue --init %s/n.nnue "
             "--buckets 4 --epochs 1 --lr 1e-9 --threads 1",
             dir, dir, dir);
    ok(cmd, "splitting the starting network's output into 4 buckets");
    CHECK(loss_of(0, "validation loss ") == start);
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/b.nnue --depth 6", dir);
    ok(cmd, "bestmove");
    search_lines(wide, sizeof wide);
    if (!check_record(strcmp(narrow, wide) == 0, __FILE__, __LINE__,
                      "the split network searches as the one it came from"))
        fprintf(stderr, "    one bucket:\n%s    four:\n%s", narrow, wide);
    /* trained, the buckets part ways; a run of other buckets cannot start from them */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/b2.nnue --init %s/b.nnue "
             "--epochs 2 --lr 0.01 --threads 1",
             dir, dir, dir);
    ok(cmd, "kept epoch");
    CHECK(strstr(out, "splitting") == NULL); /* the --init network's buckets: 4 */
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/b2.nnue --depth 6", dir);
    ok(cmd, "bestmove");
    search_lines(wide, sizeof wide);
    CHECK(wide[0] && strcmp(narrow, wide) != 0);
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/x.nnue --init %s/b.nnue "
             "--buckets 2 --epochs 1 --threads 1",
             dir, dir, dir);
    bad(cmd, "the starting network has 4 output buckets of 4 pieces, this run 2 of 7");
    snprintf(cmd, sizeof cmd, "train --data %s/d.dat --out %s/x.nnue --buckets 9", dir, dir);
    bad(cmd, "--buckets");
    /* 1,024 neurons pushed to their output bound (learning rate 1): the trainer keeps each head's
       sum within the format's, so the file it writes loads (else 1,024 x 124 would be refused) */
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/big.nnue --hidden 1024 "
             "--epochs 1 --lr 1 --batch 512 --threads 1",
             dir, dir);
    ok(cmd, "wrote");
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/big.nnue --depth 2", dir);
    ok(cmd, "evaluation: network");
    /* refused arguments and files */
    bad("train --out x.nnue", "--data and --out are needed");
    bad("train --data a --out b --hidden 33", "multiple of 32");
    bad("train --data a --out b --lambda 2", "--lambda '2'");
    bad("train --data a --out b --epochs 0", "--epochs");
    bad("train --data /nonexistent.dat --out /tmp/x.nnue --variant brandubh", "nonexistent");
    bad("train --data a --out b --fen x", "do not apply");
    bad("train --bogus", "unknown argument '--bogus'");
    snprintf(cmd, sizeof cmd, "train --data %s/d.dat --out /nonexistent/dir/n.nnue", dir);
    bad(cmd, "cannot write /nonexistent/dir/n.nnue");
    snprintf(cmd, sizeof cmd, "train --data %s/d.dat --out %s/x.nnue --variant copenhagen", dir,
             dir);
    bad(cmd, "d.dat holds brandubh data, not copenhagen; choose the variant with --variant");
    /* without --variant the data's own variant is read (the help's default) */
    snprintf(cmd, sizeof cmd,
             "train --data %s/d.dat --out %s/x.nnue --epochs 1 --hidden 32 --threads 1", dir, dir);
    ok(cmd, "brandubh: ");
    snprintf(cmd, sizeof cmd, "games summary %s/d.dat", dir);
    ok(cmd, "training data: 60 games");
    snprintf(cmd, sizeof cmd, "games summary %s/d.dat --variant copenhagen", dir);
    bad(cmd, "d.dat holds brandubh data, not copenhagen");
    /* a file of another kind, or of games of another variant, is not called damaged */
    snprintf(cmd, sizeof cmd, "games list %s/d.dat", dir);
    bad(cmd, "d.dat is a training-data file, not a game record file: hnefi games summary and "
             "hnefi train --data read it");
    CHECK(strstr(out, "damaged") == NULL);
    snprintf(cmd, sizeof cmd, "book build %s/b.book --from %s/g.zst", dir, dir);
    bad(cmd, "g.zst holds brandubh games, not copenhagen (line 2); choose the variant with "
             "--variant");
    CHECK(strstr(out, "damaged") == NULL);
    snprintf(cmd, sizeof cmd, "games list %s/n.nnue", dir);
    bad(cmd, "n.nnue is a network file, not a game record file");
    snprintf(cmd, sizeof cmd,
             "train --variant brandubh --data %s/d.dat --out %s/x.nnue --init %s/n.nnue "
             "--hidden 32",
             dir, dir, dir);
    bad(cmd, "hidden");
    bad("analyze --eval fast", "--eval 'fast': expected nnue or classic");
    bad("analyze --net /nonexistent.nnue", "/nonexistent.nnue: cannot open");
    snprintf(cmd, sizeof cmd, "analyze --net %s/n.nnue --depth 2", dir);
    bad(cmd, "the network is for a 7x7 board");
    snprintf(cmd, sizeof cmd, "head -c 1000 %s/n.nnue > %s/cut.nnue", dir, dir);
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/cut.nnue --depth 2", dir);
    bad(cmd, "bytes");
    snprintf(cmd, sizeof cmd, "analyze --variant brandubh --net %s/g.zst --depth 2", dir);
    bad(cmd, "not a hnefi network");
    bad("selfplay --games 2 --player eval=fast --player name=b", "expected nnue or classic");
    snprintf(cmd, sizeof cmd, "selfplay --games 2 --player net=%s/n.nnue --player name=b", dir);
    bad(cmd, "7x7");
    test_special(dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return check_done();
}

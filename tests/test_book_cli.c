/*
 * The opening book through the program: hnefi book build/show/stats/merge/openings and their
 * errors, analyze --book, the book in the three protocols (UCI options, otep and htp command
 * lines, bad books answered in the protocol while play goes on), match players with book=, and
 * an expansion killed with SIGKILL and resumed: the resumed run ends with the same book as a run
 * never interrupted, and a resume with other settings is refused naming them.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "book/build.h"
#include "book/expand.h"
#include "book/zio.h"
#include "check.h"
#include "data_file.h"
#include "engine/notation.h"
#include "pipe_process.h"
#include "selfplay/openings.h"

enum { WAIT = 300000 }; /* ms: a hang fails, never a slow run */

static char dir[64];
static char out[1 << 17];
static char line[1 << 16];

/* Returns a path in the scratch directory (a static buffer per slot). */
static const char *tmp_path(int slot, const char *name) {
    static char paths[10][160];
    snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
    return paths[slot];
}

/* Runs hnefi with args (shell words) and returns its exit status; output (both streams) in out. */
static int run(const char *args) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd %s && %s %s 2>&1", dir, HNEFI_BINARY, args);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Checks that a command ends with status and prints want. */
static void expect(const char *args, int status, const char *want, int line_no) {
    int st = run(args);
    if (!check_record(st == status && strstr(out, want), __FILE__, line_no, args))
        fprintf(stderr, "    status %d (want %d), '%s' not in:\n%s\n", st, status, want, out);
}

/* Copies a file; false on failure. */
static bool copy_file(const char *from, const char *to) {
    size_t len;
    char err[300];
    char *data = zio_read_file(from, &len, err, sizeof err);
    if (!data) return false;
    FILE *f = fopen(to, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f) fclose(f);
    free(data);
    return ok;
}

static bool same_contents(const char *a, const char *b);

/* Builds the Brandubh book of the real games used below. */
static void test_build(void) {
    char args[1024];
    snprintf(args, sizeof args,
             "book build bd.book --variant brandubh --from %s/brandubh-games.csv.zst",
             HNEFI_TEST_DATA);
    expect(args, 0, "525 games, 9736 plies counted (2 games stop early", __LINE__);
    /* counted up to ply 24, with the games that the book's rule ends sooner cut */
    CHECK(strstr(out, "read with repetition=none"));
    snprintf(
        args, sizeof args,
        "book build bd24.book --variant brandubh --max-ply 24 --from %s/brandubh-games.csv.zst",
        HNEFI_TEST_DATA);
    expect(args, 0, "wrote bd24.book: brandubh", __LINE__);
    snprintf(args, sizeof args,
             "book build cph.book --max-ply 6 --min-games 3 --from %s/copenhagen-games.csv.zst",
             HNEFI_TEST_DATA);
    expect(args, 0, "1752 games", __LINE__);
    expect("book stats bd.book", 0, "built from 525 games (523 at the start)", __LINE__);
    CHECK(strstr(out, "8 symmetries merged") && strstr(out, "bytes a position in the file") &&
          strstr(out, "probe: "));
    expect("book show bd.book", 0, "book: 3 moves", __LINE__);
    CHECK(strstr(out, "d2c2         505"));
    expect("book show bd.book --moves 'd2c2 d3g3'", 0, "book: ", __LINE__);
    expect("book show bd.book --fen '7/7/7/3k3/7/7/7 d'", 0, "not in the book", __LINE__);
    expect("book show bd.book --moves 'd2d9'", 2, "--moves: ply 1", __LINE__);
    /* errors: files, arguments */
    expect("book build x.book --from nothere.csv", 1, "--from 'nothere.csv': no such file",
           __LINE__);
    FILE *f = fopen(tmp_path(0, "junk.csv"), "w");
    fprintf(f, "d2d3 d9d8,0,0,Black\n");
    fclose(f);
    expect("book build x.book --variant brandubh --from junk.csv", 1, "junk.csv", __LINE__);
    CHECK(strstr(out, "line 1"));
    CHECK(access(tmp_path(1, "x.book"), F_OK) != 0); /* nothing written */
    expect("book build /nonexistent/x.book --from junk.csv", 1, "cannot write /nonexistent/x.book",
           __LINE__);
    expect("book build x.book", 2, "expected OUT --from FILE", __LINE__);
    expect("book build x.book --from junk.csv --min-games 0", 2, "--min-games '0'", __LINE__);
    expect("book frobnicate", 2, "unknown action 'frobnicate'", __LINE__);
    expect("book show nothere.book", 1, "book 'nothere.book': no such file here", __LINE__);
    expect("book stats junk.csv", 1, "junk.csv: not a hnefi book (not zstd data)", __LINE__);
    f = fopen(tmp_path(0, "empty.book"), "w");
    fclose(f);
    expect("book show empty.book", 1, "empty.book: empty file", __LINE__);
    expect("book merge m.book bd.book cph.book", 1,
           "cph.book: not the rules of bd.book: the book is for copenhagen with size 11", __LINE__);
    expect("book merge m.book bd.book bd24.book", 0, "wrote m.book", __LINE__);
    expect("book stats m.book", 0, "built from 1050 games", __LINE__);
    expect("book --help", 0, "usage: hnefi book", __LINE__);
    /* OpenTafl game records: the same games give the same book */
    snprintf(args, sizeof args,
             "games convert %s/brandubh-games.csv.zst --variant brandubh --rule repetition=none "
             "--to otg --out g.otg",
             HNEFI_TEST_DATA);
    expect(args, 0, "wrote 525 games to g.otg", __LINE__);
    expect("book build otg.book --variant brandubh --from g.otg", 0, "g.otg: 523 games, 9736 plies",
           __LINE__);
    CHECK(same_contents(tmp_path(0, "otg.book"), tmp_path(1, "bd.book")));
    f = fopen(tmp_path(0, "bad.otg"), "w");
    fprintf(f, "[event:x]\n[result:1]\n\n1. d2-d3 d9-d8\n");
    fclose(f);
    expect("book build x.book --variant brandubh --from bad.otg", 1,
           "bad.otg: game of line 1, line 4: ply 1: move 'd2-d3'", __LINE__);
    /* a result that the moves contradict: the king reaches g1, yet the attackers "won" */
    f = fopen(tmp_path(0, "liar.otg"), "w");
    fprintf(f, "[result:1]\n\n1. d6-c6 e4-e6\n2. d1-e1 d5-g5\n3. f4-f5 d3-g3xg4\n"
               "4. b4-b3 d4-g4\n5. d7-f7 g3-f3\n6. d2-g2 g4-g3xg2\n7. e1-e2 g3-g1\n");
    fclose(f);
    expect("book build x.book --variant brandubh --from liar.otg", 1,
           "its result tag says the attackers won, but its moves end so: defenders win: the king "
           "escaped",
           __LINE__);
    f = fopen(tmp_path(0, "liar.csv"), "w");
    fprintf(f, "d6-c6 e4-e6 d1-e1 d5-g5 f4-f5 d3-g3xg4 b4-b3 d4-g4 d7-f7 g3-f3 d2-g2 g4-g3xg2 "
               "e1-e2 g3-g1,0,2,Black\n");
    fclose(f);
    expect("book build x.book --variant brandubh --from liar.csv", 1,
           "the line says Black, but its moves end so: defenders win: the king escaped", __LINE__);
}

/* Tournament openings from the book load as an openings file. */
static void test_openings(void) {
    expect("book openings bd.book --count 20 --plies 4 --out open.txt", 0, "wrote 20 lines",
           __LINE__);
    struct opening_set set = {0};
    char err[400];
    CHECK(
        openings_load(&set, variant_by_name("brandubh"), tmp_path(0, "open.txt"), err, sizeof err));
    CHECK_EQ_INT(set.count, 20);
    for (int i = 0; i < set.count; i++) CHECK_EQ_INT(set.items[i].n, 4);
    openings_free(&set);
    expect("book openings bd.book --count 5 --balanced", 0, "balanced", __LINE__);
    CHECK(strstr(out, "only 0 lines within the margin")); /* nothing searched yet */
    expect("book openings bd.book", 2, "expected BOOK --count N", __LINE__);
}

/* analyze --book: the book's moves above the search, or why not. */
static void test_analyze(void) {
    expect("analyze --variant brandubh --book bd.book --depth 2", 0, "book: 3 moves", __LINE__);
    char *b = strstr(out, "book: 3 moves"), *d = strstr(out, "depth  1");
    CHECK(b && d && b < d);
    expect("analyze --book bd.book --depth 1", 0,
           "book: not used here: the book is for brandubh with size 7", __LINE__);
    expect("analyze --variant brandubh --book junk.csv --depth 1", 1,
           "--book: junk.csv: not a hnefi book", __LINE__);
    expect("analyze --variant brandubh --book bd.book --fen '7/7/7/3k3/7/7/7 d' --depth 1", 0,
           "the position is not in the book", __LINE__);
}

/*
 * A book of a board beyond 11x11 through the program: built from copenhagen13 games (the wide
 * build, by --variant), then shown, grown, merged and used by analyze; every command that names
 * only the book goes to the wide build by itself, and the 128-bit build says why it cannot.
 */
static void test_wide_book(void) {
    if (!HNEFI_WIDE_BOARDS) return;
    expect("selfplay --variant copenhagen13 --games 4 --tc nodes:300 --max-plies 60 --quiet "
           "--no-sync --records c13.zst",
           0, "4 of 4 games counted", __LINE__);
    expect("book build c13.book --from c13.zst --variant copenhagen13", 0,
           "wrote c13.book: copenhagen13", __LINE__);
    expect("book stats c13.book", 0, "board 13x13", __LINE__);
    expect("book show c13.book", 0, "key 7513dc0bba8c00f9", __LINE__);
    expect("book expand c13.book --nodes 300 --positions 3 --threads 1 --quiet", 0,
           "3 positions searched", __LINE__);
    expect("book merge c13m.book c13.book c13.book", 0, "wrote c13m.book", __LINE__);
    expect("book openings c13.book --count 1 --plies 1", 0, "c13.book, 1 lines of 1 plies",
           __LINE__);
    expect("analyze --variant copenhagen13 --book c13.book --depth 1", 0, "book: ", __LINE__);
    expect("analyze --book c13.book --depth 1", 1,
           "the book is for a 13x13 board; boards beyond 11x11 are played by the wide build",
           __LINE__);
    expect("book merge mixed.book bd.book c13.book", 1, "c13.book: the book is for a 13x13 board",
           __LINE__);
}

/* A Berserk book (commanders, a knight and berserk turns in its positions): built from games,
   grown by search, shown and turned into lines. */
static void test_berserk_book(void) {
    char rules[1024], cmd[2048];
    if (!CHECK(data_opentafl_rules(5, rules, sizeof rules))) return;
    snprintf(cmd, sizeof cmd,
             "selfplay --rules '%s' --games 6 --tc nodes:300 --quiet --no-sync --records "
             "bz.zst",
             rules);
    expect(cmd, 0, "6 of 6 games counted", __LINE__);
    snprintf(cmd, sizeof cmd, "book build bz.book --from bz.zst --rules '%s'", rules);
    expect(cmd, 0, "wrote bz.book: Berserk", __LINE__);
    expect("book expand bz.book --nodes 300 --positions 4 --threads 1 --quiet", 0,
           "4 positions searched", __LINE__);
    expect("book show bz.book", 0, "book: ", __LINE__);
    expect("book openings bz.book --count 1 --plies 2", 0, "1 lines of 2 plies", __LINE__);
}

/* Reads lines until one starts with prefix, and returns it (or ""). */
static const char *until(struct pipe_process *p, const char *prefix) {
    return pipe_process_expect(p, prefix, line, sizeof line, WAIT) ? line : "";
}

/* Starts hnefi with up to 6 arguments (NULL-terminated). */
static bool start(struct pipe_process *p, const char *stderr_path, const char *a, const char *b,
                  const char *c, const char *d, const char *e, const char *f) {
    char *argv[] = {HNEFI_BINARY, (char *)a, (char *)b, (char *)c,
                    (char *)d,    (char *)e, (char *)f, NULL};
    if (chdir(dir) != 0) return false;
    return pipe_process_start(p, argv, stderr_path);
}

/* Tells whether move text is one of the book's moves at the start of Brandubh. */
static bool start_book_move(const char *mv) {
    return !strcmp(mv, "d2c2") || !strcmp(mv, "d2b2") || !strcmp(mv, "d1c1") ||
           !strcmp(mv, "d2e2") || !strcmp(mv, "d2f2") || !strcmp(mv, "d1e1") ||
           !strcmp(mv, "d6c6") || !strcmp(mv, "d6e6") || !strcmp(mv, "d6b6") ||
           !strcmp(mv, "d6f6") || !strcmp(mv, "d7c7") || !strcmp(mv, "d7e7") ||
           !strcmp(mv, "b4b3") || !strcmp(mv, "b4b5") || !strcmp(mv, "f4f3") ||
           !strcmp(mv, "f4f5") || !strcmp(mv, "b4b2") || !strcmp(mv, "b4b6") ||
           !strcmp(mv, "f4f2") || !strcmp(mv, "f4f6") || !strcmp(mv, "a4a3") ||
           !strcmp(mv, "a4a5") || !strcmp(mv, "g4g3") || !strcmp(mv, "g4g5");
}

/* Sends cmd and checks that the next line is readyok after isready (cmd is silent). */
static bool silent(struct pipe_process *p, const char *cmd) {
    pipe_process_send(p, cmd, WAIT);
    pipe_process_send(p, "isready", WAIT);
    int r = pipe_process_read_line(p, line, sizeof line, WAIT);
    if (r != 1 || strcmp(line, "readyok") != 0) {
        fprintf(stderr, "    after '%s': got '%s'\n", cmd, r == 1 ? line : "");
        return false;
    }
    return true;
}

/* The UCI options of the book. */
static void test_uci(void) {
    struct pipe_process p;
    if (!CHECK(start(&p, NULL, "uci", "--variant", "brandubh", NULL, NULL, NULL))) return;
    pipe_process_send(&p, "uci", WAIT);
    int found = 0;
    while (pipe_process_read_line(&p, line, sizeof line, WAIT) == 1 && strcmp(line, "uciok")) {
        found += !strcmp(line, "option name OwnBook type check default false");
        found += !strcmp(line, "option name BookFile type string default <default>");
        found += !strcmp(line, "option name BookDepth type spin default 0 min 0 max 4096");
        found += !strcmp(line, "option name BookVariety type combo default best var best var "
                               "weighted");
        found += !strcmp(line, "option name BookSeed type spin default 0 min 0 max 2147483647");
    }
    CHECK_EQ_INT(found, 5);
    /* no book by default: a search */
    pipe_process_send(&p, "position startpos", WAIT);
    pipe_process_send(&p, "go nodes 200", WAIT);
    CHECK(strncmp(until(&p, "info "), "info depth", 10) == 0);
    until(&p, "bestmove ");
    /* the book named: its best move at once, said in an info string */
    CHECK(silent(&p, "setoption name BookFile value bd.book"));
    pipe_process_send(&p, "go nodes 200", WAIT);
    CHECK(strncmp(until(&p, "info "), "info string book move d2c2: 505 games", 37) == 0);
    CHECK(strcmp(until(&p, "bestmove"), "bestmove d2c2") == 0);
    /* the book's depth: none from ply 1 on */
    CHECK(silent(&p, "setoption name BookDepth value 1"));
    CHECK(silent(&p, "position startpos moves d2c2"));
    pipe_process_send(&p, "go nodes 200", WAIT);
    CHECK(strncmp(until(&p, "info "), "info depth", 10) == 0);
    until(&p, "bestmove ");
    CHECK(silent(&p, "setoption name BookDepth value 0"));
    pipe_process_send(&p, "go nodes 200", WAIT);
    CHECK(strncmp(until(&p, "info "), "info string book move", 21) == 0);
    until(&p, "bestmove ");
    /* off and on again */
    CHECK(silent(&p, "setoption name OwnBook value false"));
    CHECK(silent(&p, "position startpos"));
    pipe_process_send(&p, "go nodes 200", WAIT);
    CHECK(strncmp(until(&p, "info "), "info depth", 10) == 0);
    until(&p, "bestmove ");
    CHECK(silent(&p, "setoption name OwnBook value true"));
    /* weighted, seeded: every move is a book move */
    CHECK(silent(&p, "setoption name BookVariety value weighted"));
    CHECK(silent(&p, "setoption name BookSeed value 7"));
    for (int i = 0; i < 6; i++) {
        pipe_process_send(&p, "go nodes 200", WAIT);
        const char *bm = until(&p, "bestmove ");
        CHECK(*bm && start_book_move(bm + 9));
    }
    /* never in analysis */
    pipe_process_send(&p, "go infinite", WAIT);
    CHECK(strncmp(until(&p, "info "), "info depth", 10) == 0);
    pipe_process_send(&p, "stop", WAIT);
    until(&p, "bestmove ");
    /* errors: an error line, and play goes on with the book as it was */
    pipe_process_send(&p, "setoption name BookVariety value often", WAIT);
    CHECK(strstr(until(&p, "info string error"),
                 "BookVariety: value 'often': expected best or weighted"));
    pipe_process_send(&p, "setoption name BookFile value junk.csv", WAIT);
    CHECK(strstr(until(&p, "info string error"),
                 "junk.csv: not a hnefi book (not zstd data); the book stays as it was"));
    pipe_process_send(&p, "go nodes 200", WAIT);
    CHECK(strncmp(until(&p, "info "), "info string book move", 21) == 0);
    until(&p, "bestmove ");
    /* off, then a bad book asked for: still off */
    CHECK(silent(&p, "setoption name OwnBook value false"));
    pipe_process_send(&p, "setoption name BookFile value junk.csv", WAIT);
    CHECK(strstr(until(&p, "info string error"), "; the book stays as it was"));
    pipe_process_send(&p, "go nodes 200", WAIT);
    CHECK(strncmp(until(&p, "info "), "info depth", 10) == 0);
    until(&p, "bestmove ");
    pipe_process_send(&p, "setoption name BookFile value cph.book", WAIT);
    CHECK(
        strstr(until(&p, "info string error"),
               "cph.book: the book is for copenhagen with size 11, the rules in play have size 7"));
    pipe_process_send(&p, "setoption name Variant value copenhagen", WAIT);
    pipe_process_send(&p, "go nodes 200", WAIT); /* now it fits */
    CHECK(strncmp(until(&p, "info "), "info string book move", 21) == 0);
    until(&p, "bestmove ");
    pipe_process_send(&p, "setoption name BookDepth value -1", WAIT);
    CHECK(strstr(until(&p, "info string error"), "BookDepth: value '-1'"));
    pipe_process_send(&p, "setoption name BookFile value", WAIT); /* the shipped book */
    pipe_process_send(&p, "isready", WAIT);
    until(&p, "readyok");
    pipe_process_send(&p, "quit", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    /* the same seed gives the same weighted moves in two sessions */
    char first[2][256];
    for (int k = 0; k < 2; k++) {
        if (!CHECK(start(&p, NULL, "uci", "--variant", "brandubh", "--book", "bd.book", NULL)))
            return;
        pipe_process_send(&p, "setoption name BookVariety value weighted", WAIT);
        pipe_process_send(&p, "setoption name BookSeed value 12345", WAIT);
        first[k][0] = 0;
        for (int i = 0; i < 5; i++) {
            pipe_process_send(&p, "position startpos", WAIT);
            pipe_process_send(&p, "go nodes 100", WAIT);
            size_t used = strlen(first[k]);
            snprintf(first[k] + used, sizeof first[k] - used, "%.40s;", until(&p, "bestmove "));
        }
        pipe_process_send(&p, "quit", WAIT);
        pipe_process_wait(&p, WAIT);
    }
    CHECK_EQ_STR(first[0], first[1]);
    /* a --book that cannot be read is refused at the start, as --variant nope is (a file that
       cannot be used: exit status 1); the same book sent later is a protocol reply */
    expect("uci --variant brandubh --book junk.csv", 1, "hnefi: --book: junk.csv: not a hnefi book",
           __LINE__);
    expect("uci --book nothere.book", 1, "hnefi: --book: book 'nothere.book': no such file",
           __LINE__);
    if (!CHECK(start(&p, NULL, "uci", "--variant", "brandubh", NULL, NULL, NULL))) return;
    pipe_process_send(&p, "setoption name BookFile value junk.csv", WAIT);
    CHECK(strstr(until(&p, "info string error"), "junk.csv: not a hnefi book"));
    pipe_process_send(&p, "go nodes 100", WAIT);
    CHECK(strncmp(until(&p, "info "), "info depth", 10) == 0);
    pipe_process_send(&p, "quit", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
}

/* OpenTafl: --book on the command line; a status line names the book move. */
static void test_otep(void) {
    struct pipe_process p;
    /* OpenTafl's Brandubh: tfr:w is hnefi's loss_repeater, so its book is built for it */
    const char *rules = "rules dim:7 name:brandubh surf:n atkf:y tfr:w ks:c "
                        "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    char args[1024];
    snprintf(args, sizeof args, "book build ot.book --rules '%s' --from %s/brandubh-games.csv.zst",
             rules + 6, HNEFI_TEST_DATA);
    expect(args, 0, "wrote ot.book", __LINE__);
    if (!CHECK(start(&p, NULL, "otep", "--book", "bd.book", "--nodes", "200", NULL))) return;
    CHECK(strcmp(until(&p, "hello"), "hello") == 0);
    pipe_process_send(&p, rules, WAIT); /* the Brandubh book does not fit: a search */
    pipe_process_send(&p, "play attackers", WAIT);
    CHECK(strncmp(until(&p, "status "), "status depth", 12) == 0);
    until(&p, "move ");
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    if (!CHECK(start(&p, NULL, "otep", "--book", "ot.book", "--nodes", "200", NULL))) return;
    CHECK(strcmp(until(&p, "hello"), "hello") == 0);
    pipe_process_send(&p, rules, WAIT);
    pipe_process_send(&p, "play attackers", WAIT);
    CHECK(strncmp(until(&p, "status book move d2-c2"), "status book move d2-c2: 505 games", 33) ==
          0);
    CHECK(strcmp(until(&p, "move "), "move d2-c2") == 0);
    pipe_process_send(&p, "goodbye", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    expect("otep --book nothere.book --nodes 200 < /dev/null", 1,
           "hnefi: --book: book 'nothere.book': no such file", __LINE__);
    CHECK(strstr(out, "hello") == NULL); /* refused before the protocol starts */
}

/* The reference engine's 7x7 rules, as hnefi htp plays them (tools/proto_htp.c). */
static struct variant htp_brandubh(void) {
    struct variant v = *variant_by_name("copenhagen");
    v.repetition = REP_ILLEGAL_DEFENDER_REPEAT;
    v.start = variant_by_name("brandubh")->start;
    v.size = 7;
    v.king_capture = KING_CAPTURE_THRONE_FOUR;
    v.throne_pass = THRONE_KING;
    v.exit_fort = false;
    snprintf(v.name, sizeof v.name, "htp-brandubh");
    v.start.side = SIDE_DEFENDERS;
    variant_finish(&v);
    return v;
}

/* hnefatafl.org: a book for its rules is played; a bad one is said on stderr. */
static void test_htp(void) {
    struct variant v = htp_brandubh();
    struct book_builder bb;
    struct book b;
    memset(&b, 0, sizeof b);
    char err[300];
    CHECK(book_builder_init(&bb, &v));
    struct position s;
    pos_init_start(&s, &v);
    move_t m;
    CHECK(move_parse_legal(&s, "d3f3", &m, err, sizeof err)); /* the defenders begin */
    CHECK_EQ_INT(book_builder_add_game(&bb, &m, 1, RESULT_DEFENDERS, 0), 1);
    CHECK(book_builder_finish(&bb, 1, &b, err, sizeof err));
    CHECK(book_save(&b, tmp_path(2, "htp.book"), 3, err, sizeof err));
    book_free(&b);
    book_builder_free(&bb);
    struct pipe_process p;
    if (!CHECK(start(&p, NULL, "htp", "--book", "htp.book", "--nodes", "200", NULL))) return;
    pipe_process_send(&p, "board_size 7", WAIT);
    until(&p, "=");
    pipe_process_send(&p, "generate_move", WAIT);
    const char *r = until(&p, "= play");
    /* d3f3 or an image of it: the defender next to the king moves two files away */
    CHECK(!strcmp(r, "= play defender 0d3 0f3") || !strcmp(r, "= play defender 0d3 0b3") ||
          !strcmp(r, "= play defender 0d5 0f5") || !strcmp(r, "= play defender 0d5 0b5") ||
          !strcmp(r, "= play defender 0c4 0c6") || !strcmp(r, "= play defender 0c4 0c2") ||
          !strcmp(r, "= play defender 0e4 0e6") || !strcmp(r, "= play defender 0e4 0e2"));
    pipe_process_send(&p, "quit", WAIT);
    CHECK_EQ_INT(pipe_process_wait(&p, WAIT), 0);
    expect("htp --book junk.csv --nodes 200 < /dev/null", 1,
           "hnefi: --book: junk.csv: not a hnefi book", __LINE__);
}

/* Match players with a book: its first move is a book move, and the records name the book. */
static void test_match(void) {
    expect("selfplay --variant brandubh --player name=a book=bd.book --player name=b --games 2 "
           "--random-plies 0 --tc nodes:200 --quiet --records r.zst",
           0, "2 of 2 games counted", __LINE__);
    size_t len;
    char err[300];
    char *text = zio_read_text(tmp_path(0, "r.zst"), &len, err, sizeof err);
    if (CHECK(text)) {
        CHECK(strstr(text, " a.book="));
        /* the game with a attacking starts with the book's best move */
        CHECK(strstr(text, "\nd2-c2 ") != NULL);
    }
    free(text);
    /* weighted: each game of a match draws its own book line, and a rerun replays them */
    const char *weighted = "selfplay --variant brandubh --player name=a book=default "
                           "book-variety=weighted book-seed=5 --player name=b --games 8 "
                           "--concurrency 1 --random-plies 0 --tc nodes:200 --quiet --records";
    char cmd[400];
    snprintf(cmd, sizeof cmd, "%s w1.zst", weighted);
    expect(cmd, 0, "8 of 8 games counted", __LINE__);
    snprintf(cmd, sizeof cmd, "%s w2.zst", weighted);
    expect(cmd, 0, "8 of 8 games counted", __LINE__);
    char *w1 = zio_read_text(tmp_path(0, "w1.zst"), &len, err, sizeof err);
    char *w2 = zio_read_text(tmp_path(0, "w2.zst"), &len, err, sizeof err);
    if (CHECK(w1 && w2)) {
        CHECK(strcmp(w1, w2) == 0);
        /* the games' moves: without the game's number in the draw, a (the book) and b (200
           nodes, deterministic) would play one game as attackers and one as defenders */
        const char *games[8] = {0};
        int n = 0, distinct = 0;
        for (const char *q = w1; *q && n < 8; q += strcspn(q, "\n") + (q[strcspn(q, "\n")] != 0)) {
            if (*q == '#') continue;
            bool seen = false;
            size_t k = strcspn(q, ",");
            for (int j = 0; j < n; j++)
                seen |= strcspn(games[j], ",") == k && !strncmp(games[j], q, k);
            distinct += !seen;
            games[n++] = q;
        }
        CHECK_EQ_INT(n, 8);
        CHECK(distinct >= 3);
    }
    free(w1);
    free(w2);
    /* a book that cannot be used is a file problem (exit status 1), a bad key an argument (2) */
    expect("selfplay --player name=a book=bd.book --player name=b --games 2", 1,
           "player a book bd.book: the book is for brandubh with size 7", __LINE__);
    expect("selfplay --variant brandubh --player name=a book=none.book --player name=b --games 2",
           1, "player a book: book 'none.book': no such file", __LINE__);
    expect("selfplay --variant brandubh --player name=a book-variety=often --player name=b", 2,
           "book-variety='often'", __LINE__);
}

/* Counts the searched positions a journal holds (its frames after the first). */
static int journal_entries(const char *path) {
    size_t size, pos = 0, flen;
    char err[300], *frame;
    char *raw = zio_read_file(path, &size, err, sizeof err);
    if (!raw) return -1;
    int n = -1;
    while (zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, err, sizeof err) ==
           ZIO_FRAME_OK) {
        free(frame);
        n++;
    }
    free(raw);
    return n;
}

/* Starts an expansion of book in the background; returns its pid. */
static pid_t start_expand(const char *book, const char *nodes, const char *positions) {
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        if (chdir(dir) != 0) _exit(99);
        execl(HNEFI_BINARY, HNEFI_BINARY, "book", "expand", book, "--nodes", nodes, "--positions",
              positions, "--threads", "1", "--quiet", (char *)NULL);
        _exit(98);
    }
    return pid;
}

/* Kills an expansion once its journal holds at least k searched positions; false if it ended
   first. */
static bool kill_after(pid_t pid, const char *journal, int k) {
    for (;;) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) return false;
        if (journal_entries(journal) >= k) break;
        usleep(200);
    }
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status);
}

/* Tells whether two book files hold the same positions and moves. */
static bool same_contents(const char *a, const char *b) {
    struct book x, y;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    char err[300];
    bool ok = book_load(&x, a, err, sizeof err) && book_load(&y, b, err, sizeof err) &&
              x.npos == y.npos && x.nmoves == y.nmoves &&
              memcmp(x.pos, y.pos, x.npos * sizeof *x.pos) == 0 &&
              memcmp(x.moves, y.moves, x.nmoves * sizeof *x.moves) == 0;
    book_free(&x);
    book_free(&y);
    return ok;
}

/* kill -9 during an expansion, then resume: the same book as a run never interrupted. */
static void test_kill_resume(void) {
    const char *base = tmp_path(4, "bd24.book"), *a = tmp_path(5, "a.book"),
               *b = tmp_path(6, "b.book"), *ja = tmp_path(7, "a.book.journal");
    CHECK(copy_file(base, a) && copy_file(base, b));
    /* the run never interrupted */
    expect("book expand b.book --nodes 20000 --positions 24 --threads 1 --quiet", 0,
           "24 positions searched (0 resumed)", __LINE__);
    CHECK(access(tmp_path(8, "b.book.journal"), F_OK) != 0);
    /* the run killed twice, the second time resumed with other settings first */
    pid_t pid = start_expand("a.book", "20000", "24");
    if (!CHECK(kill_after(pid, ja, 3))) return;
    CHECK(same_contents(base, a)); /* the book is untouched until the run ends */
    int before = journal_entries(ja);
    CHECK(before >= 3 && before < 24);
    expect("book expand a.book --nodes 30000 --positions 24 --threads 1 --quiet", 1,
           "nodes=20000 in the journal, nodes=30000 now", __LINE__);
    CHECK_EQ_INT(journal_entries(ja), before); /* a refused resume changes nothing */
    pid = start_expand("a.book", "20000", "24");
    if (!CHECK(kill_after(pid, ja, before + 2))) return;
    /* a half-written last frame, as a kill during a write leaves it */
    FILE *f = fopen(ja, "ab");
    fwrite("\x28\xb5\x2f\xfd\x24", 1, 5, f);
    fclose(f);
    expect("book expand a.book --nodes 20000 --positions 24 --threads 1 --quiet", 0,
           "24 positions searched", __LINE__);
    CHECK(strstr(out, "dropped a half-written one"));
    CHECK(access(ja, F_OK) != 0);
    CHECK(same_contents(a, b));
    /* the searched positions: exactly 24 more than before */
    struct book x, y;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    char err[300];
    if (CHECK(book_load(&x, base, err, sizeof err) && book_load(&y, a, err, sizeof err))) {
        size_t sx = 0, sy = 0;
        for (size_t i = 0; i < x.npos; i++) sx += (x.pos[i].flags & BOOK_POS_SEARCHED) != 0;
        for (size_t i = 0; i < y.npos; i++) sy += (y.pos[i].flags & BOOK_POS_SEARCHED) != 0;
        CHECK_EQ_INT(sy - sx, 24);
        CHECK(y.run != 0);
    }
    book_free(&x);
    book_free(&y);
    /* the expanded book scores its moves, and balanced openings come from it */
    expect("book show a.book", 0, "searched", __LINE__);
    expect("book openings a.book --count 3 --balanced --margin 300 --plies 2", 0,
           "balanced within 300", __LINE__);
    expect("book expand nothere.book", 1, "no such file", __LINE__);
    expect("book expand a.book --nodes 0", 2, "--nodes '0'", __LINE__);
}

/* Runs the tests of the book through the program. */
int main(void) {
    snprintf(dir, sizeof dir, "/tmp/hnefi-bookcli-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    test_build();
    test_openings();
    test_analyze();
    test_wide_book();
    test_berserk_book();
    test_uci();
    test_otep();
    test_htp();
    test_match();
    test_kill_resume();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_done();
}

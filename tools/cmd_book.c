/* hnefi book: building, growing, showing, merging books and drawing openings from them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "book/build.h"
#include "book/expand.h"
#include "book/lines.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/nnue.h"
#include "selfplay/records.h"
#include "tools/cli.h"
#include "tools/cli_book.h"
#include "tools/proto_session.h"

int cmd_book(int argc, char **argv);

enum { MAX_SOURCES = 256 };

static const char book_usage[] =
    "usage: hnefi book build|expand|show|stats|merge|openings ... (docs/book.md)\n"
    "  build OUT --from FILE... [--min-games N] [--max-ply P] [rules options]\n"
    "                   a book from game records (hnefi's records, the real-game files of\n"
    "                   tests/data, any file of record lines, plain or zstd)\n"
    "      --min-games N  keep the moves played in at least N games (default 1)\n"
    "      --max-ply P    count the first P plies of each game (default 24; 0: all)\n"
    "  expand BOOK [--nodes N | --time S] [--positions K] [--threads T] [--width W]\n"
    "              [--ply-cost C] [--max-ply P] [--hash MiB] [--eval nnue|classic] [--net F]\n"
    "                   grows the book by search, best first (default 100000 nodes, 100\n"
    "                   positions, all cores, 3 lines each, 10 centi-men a ply, 60 plies,\n"
    "                   16 MiB); killed, it resumes when run again (BOOK.journal)\n"
    "      --progress | --quiet   a progress line on stderr (default: on a terminal)\n"
    "  show BOOK [--fen F | --moves \"...\"]   a position's book moves (default: the start)\n"
    "  stats BOOK       what the book holds, its size per position, the time of a probe\n"
    "  merge OUT BOOK BOOK...   one book from several of the same rules (counts summed,\n"
    "                   the deeper search kept)\n"
    "  openings BOOK --count N [--balanced] [--margin CP] [--plies P] [--out FILE]\n"
    "                   an openings file for hnefi selfplay --openings: book lines of P\n"
    "                   plies (default 8) to different positions; --balanced keeps those\n"
    "                   whose value is within CP (default 50) of even, the most even first\n"
    "A BOOK that is not a path or a file here is looked up in the data directory (hnefi\n"
    "--version), where book-copenhagen.zst and book-brandubh.zst are shipped.\n"
    "Rules options of build (default copenhagen):\n%s";

/* Prints the usage. */
static void print_book_usage(void) {
    printf(book_usage, cli_rules_usage);
}

/* Reads an option's value; NULL after printing that it is missing. */
static const char *value_of(int argc, char **argv, int *i) {
    if (*i + 1 >= argc) {
        fprintf(stderr, "hnefi book: option %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/* Reads a whole-number option within [lo, hi]. */
static bool num_option(int argc, char **argv, int *i, long lo, long hi, long *out) {
    const char *name = argv[*i], *v = value_of(argc, argv, i);
    return v && cli_parse_int(v, lo, hi, name, out);
}

/* Returns seconds since t0. */
static double since(const struct timespec *t0) {
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Returns a file's size in bytes (0 if it cannot be read). */
static long long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* Loads a book named on the command line; prints the error and returns false. */
static bool load_named(struct book *b, const char *name, const char *who) {
    char err[700];
    if (cli_book_load(b, name, variant_by_name("copenhagen"), err, sizeof err)) return true;
    fprintf(stderr, "hnefi book %s: %s\n", who, err);
    return false;
}

/* What a build counts while it reads a file. */
struct build_ctx {
    struct book_builder *bb;
    int max_ply;
    int64_t games, cut, plies;
    bool oom;
};

/* Counts one record into the book. */
static bool build_record(const struct record *r, int64_t line, void *arg) {
    (void)line;
    struct build_ctx *c = arg;
    int want = c->max_ply > 0 && r->n > c->max_ply ? c->max_ply : r->n;
    int got = book_builder_add_game(c->bb, r->moves, r->n, r->result, c->max_ply);
    if (got < 0) {
        c->oom = true;
        return false;
    }
    c->games++;
    c->plies += got;
    c->cut += got < want;
    return true;
}

/* Accepts a record (the first reading only checks the file). */
static bool check_record(const struct record *r, int64_t line, void *arg) {
    (void)r;
    (void)line;
    (void)arg;
    return true;
}

/* hnefi book build OUT --from FILE... */
static int book_build(int argc, char **argv) {
    struct cli_game g;
    cli_game_init(&g);
    const char *out = NULL, *from[MAX_SOURCES];
    int nfrom = 0;
    long min_games = 1, max_ply = 24;
    for (int i = 1; i < argc; i++) {
        int r = cli_game_option(&g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        const char *a = argv[i];
        if (strcmp(a, "--fen") == 0 || strcmp(a, "--moves") == 0) {
            fprintf(stderr, "hnefi book build: %s: books start from the variant's start\n", a);
            return 2;
        } else if (strcmp(a, "--from") == 0) {
            if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
                fprintf(stderr, "hnefi book build: --from needs at least one file\n");
                return 2;
            }
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                if (nfrom == MAX_SOURCES) {
                    fprintf(stderr, "hnefi book build: at most %d files\n", MAX_SOURCES);
                    return 2;
                }
                from[nfrom++] = argv[++i];
            }
        } else if (strcmp(a, "--min-games") == 0) {
            if (!num_option(argc, argv, &i, 1, 1000000000, &min_games)) return 2;
        } else if (strcmp(a, "--max-ply") == 0) {
            if (!num_option(argc, argv, &i, 0, MAX_GAME_PLIES, &max_ply)) return 2;
        } else if (a[0] == '-' || out) {
            fprintf(stderr, "hnefi book build: unknown argument '%s' (try hnefi book --help)\n", a);
            return 2;
        } else {
            out = a;
        }
    }
    if (!out || nfrom == 0) {
        fprintf(stderr, "hnefi book build: expected OUT --from FILE... (try hnefi book --help)\n");
        return 2;
    }
    if (!cli_check_writable(out, "hnefi book build")) return 1;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct book_builder bb;
    if (!book_builder_init(&bb, &g.variant)) {
        fprintf(stderr, "hnefi book build: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (int f = 0; f < nfrom && rc == 0; f++) {
        char path[4096], err[1000];
        if (!cli_data_file(from[f], "--from", path, sizeof path)) {
            rc = 1;
            break;
        }
        /* a first reading checks the whole file under the book's rules; real-game files play
           on past repetitions their site did not end games by, so they are read without the
           rule, and each game counts only up to where the rule ends it */
        struct variant lax = g.variant;
        const struct variant *read_as = &g.variant;
        struct build_ctx c = {.bb = NULL};
        bool ok = records_scan(path, read_as, false, check_record, &c, NULL, NULL, err, sizeof err);
        if (!ok && g.variant.repetition != REP_NONE) {
            char err2[1000];
            lax.repetition = REP_NONE;
            if (records_scan(path, &lax, false, check_record, &c, NULL, NULL, err2, sizeof err2)) {
                ok = true;
                read_as = &lax;
                fprintf(stderr,
                        "hnefi book build: %s: read with repetition=none (with the book's rule: "
                        "%s)\n",
                        path, err);
            }
        }
        c = (struct build_ctx){.bb = &bb, .max_ply = (int)max_ply};
        if (ok)
            ok = records_scan(path, read_as, false, build_record, &c, NULL, NULL, err, sizeof err);
        if (!ok) {
            fprintf(stderr, "hnefi book build: %s\n", c.oom ? "out of memory" : err);
            rc = 1;
            break;
        }
        printf("%s: %lld games, %lld plies counted", path, (long long)c.games, (long long)c.plies);
        if (c.cut)
            printf(" (%lld games stop early: the book's rules end or refuse them sooner)",
                   (long long)c.cut);
        printf("\n");
    }
    struct book b;
    memset(&b, 0, sizeof b);
    char err[400];
    if (rc == 0 && (!book_builder_finish(&bb, (uint32_t)min_games, &b, err, sizeof err) ||
                    !book_save(&b, out, 19, err, sizeof err))) {
        fprintf(stderr, "hnefi book build: %s\n", err);
        rc = 1;
    }
    if (rc == 0) {
        long long size = file_size(out);
        printf("wrote %s: %s, %zu positions, %zu moves, %llu games, %lld bytes (%.1f a "
               "position), %.2f s\n",
               out, b.name, b.npos, b.nmoves, (unsigned long long)b.games, size,
               (double)size / (double)b.npos, since(&t0));
    }
    book_free(&b);
    book_builder_free(&bb);
    cli_game_free(&g);
    return rc;
}

/* What the progress line of an expansion needs. */
struct expand_ctx {
    bool show, tty;
};

/* Prints an expansion's progress line. */
static void expand_progress(const struct book_expand_status *st, void *arg) {
    struct expand_ctx *c = arg;
    if (!c->show) return;
    int fresh = st->done - st->resumed;
    double rate = st->seconds > 0 ? fresh / st->seconds : 0;
    double left = rate > 0 ? (st->total - st->done) / rate : 0;
    char root[32] = "?";
    if (st->root_known) snprintf(root, sizeof root, "%+.2f", st->root_value / 100.0);
    fprintf(stderr,
            "%sexpand: %d/%d positions searched%s, book %zu positions, start %s, %.2f a second, "
            "%d:%02d:%02d left%s",
            c->tty ? "\r" : "", st->done, st->total, st->resumed ? " (resumed ones included)" : "",
            st->positions, root, rate, (int)(left / 3600), (int)fmod(left / 60, 60),
            (int)fmod(left, 60), c->tty ? "   " : "\n");
    fflush(stderr);
}

/* hnefi book expand BOOK ... */
static int book_expand_cmd(int argc, char **argv) {
    struct book_expand_config cfg;
    book_expand_default(&cfg);
    long cores = sysconf(_SC_NPROCESSORS_ONLN); /* all cores unless --threads says otherwise */
    cfg.threads = cores < 1 ? 1 : cores > SEARCH_MAX_THREADS ? SEARCH_MAX_THREADS : (int)cores;
    const char *name = NULL, *net_path = NULL;
    bool progress = false, quiet = false, nodes_given = false, time_given = false;
    struct cli_eval ev = {0};
    long v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--nodes") == 0) {
            if (!num_option(argc, argv, &i, 1, 1000000000000L, &v)) return 2;
            cfg.nodes = (uint64_t)v;
            nodes_given = true;
        } else if (strcmp(a, "--time") == 0) {
            time_given = true;
            const char *t = value_of(argc, argv, &i);
            char *end;
            double s = t ? strtod(t, &end) : 0;
            if (!t || !(s > 0) || *end || s > 1e6) {
                if (t) fprintf(stderr, "hnefi book expand: --time '%s': expected seconds\n", t);
                return 2;
            }
            cfg.time_ms = (int64_t)(s * 1000) > 0 ? (int64_t)(s * 1000) : 1;
            cfg.nodes = 0;
        } else if (strcmp(a, "--positions") == 0) {
            if (!num_option(argc, argv, &i, 1, 100000000, &v)) return 2;
            cfg.positions = (int)v;
        } else if (strcmp(a, "--threads") == 0) {
            if (!num_option(argc, argv, &i, 1, SEARCH_MAX_THREADS, &v)) return 2;
            cfg.threads = (int)v;
        } else if (strcmp(a, "--width") == 0) {
            if (!num_option(argc, argv, &i, 1, SEARCH_MAX_MULTIPV, &v)) return 2;
            cfg.width = (int)v;
        } else if (strcmp(a, "--ply-cost") == 0) {
            if (!num_option(argc, argv, &i, 0, 10000, &v)) return 2;
            cfg.ply_cost = (int)v;
        } else if (strcmp(a, "--max-ply") == 0) {
            if (!num_option(argc, argv, &i, 1, MAX_GAME_PLIES - 1, &v)) return 2;
            cfg.max_ply = (int)v;
        } else if (strcmp(a, "--hash") == 0) {
            if (!num_option(argc, argv, &i, 1, 65536, &v)) return 2;
            cfg.hash_mib = (size_t)v;
        } else if (strcmp(a, "--eval") == 0) {
            const char *e = value_of(argc, argv, &i);
            if (!e) return 2;
            if (!cli_eval_set_kind(&ev, e)) {
                fprintf(stderr, "hnefi book expand: --eval '%s': expected nnue or classic\n", e);
                return 2;
            }
        } else if (strcmp(a, "--net") == 0) {
            if (!(net_path = value_of(argc, argv, &i))) return 2;
        } else if (strcmp(a, "--progress") == 0) {
            progress = true;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (a[0] == '-' || name) {
            fprintf(stderr, "hnefi book expand: unknown argument '%s' (try hnefi book --help)\n",
                    a);
            return 2;
        } else {
            name = a;
        }
    }
    if (!name) {
        fprintf(stderr, "hnefi book expand: expected a BOOK (try hnefi book --help)\n");
        return 2;
    }
    if (nodes_given && time_given) {
        fprintf(stderr, "hnefi book expand: --nodes and --time are alternatives: give one of "
                        "them\n");
        return 2;
    }
    char path[4200], err[1200], note[600];
    struct book b;
    memset(&b, 0, sizeof b);
    if (!cli_book_path(name, variant_by_name("copenhagen"), path, sizeof path, err, sizeof err) ||
        !book_load(&b, path, err, sizeof err)) {
        fprintf(stderr, "hnefi book expand: %s\n", err);
        return 1;
    }
    if (net_path && !cli_eval_load(&ev, net_path, &b.variant, err, sizeof err)) {
        fprintf(stderr, "hnefi book expand: --net: %s\n", err);
        book_free(&b);
        return 1;
    }
    if (cli_eval_missing(&ev, &b.variant)) {
        fprintf(stderr,
                "hnefi book expand: --eval nnue: no network for %s; use --net FILE or --eval "
                "classic\n",
                b.variant.name);
        book_free(&b);
        return 2;
    }
    cfg.opt.net = cli_eval_net(&ev, &b.variant);
    book_free(&b);
    struct expand_ctx ctx = {.tty = isatty(2)};
    ctx.show = !quiet && (progress || ctx.tty);
    cfg.on_progress = expand_progress;
    cfg.ctx = &ctx;
    struct book_expand_status st;
    bool ok = book_expand(path, &cfg, &st, note, sizeof note, err, sizeof err);
    if (ctx.show && ctx.tty) fprintf(stderr, "\n");
    if (note[0]) fprintf(stderr, "hnefi book expand: %s\n", note);
    int rc = 0;
    if (!ok) {
        fprintf(stderr, "hnefi book expand: %s\n", err);
        rc = 1;
    } else {
        char root[32] = "unknown";
        if (st.root_known) snprintf(root, sizeof root, "%+.2f", st.root_value / 100.0);
        printf("expanded %s: %d positions searched (%d resumed), %llu nodes, %.1f s; the book "
               "has %zu positions, the start scores %s for the side to move\n",
               path, st.done, st.resumed, (unsigned long long)st.nodes, st.seconds, st.positions,
               root);
    }
    cli_eval_free(&ev);
    return rc;
}

/* hnefi book show BOOK [--fen F | --moves "..."] */
static int book_show(int argc, char **argv) {
    const char *name = NULL, *fen = NULL, *moves = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--fen") == 0) {
            if (!(fen = value_of(argc, argv, &i))) return 2;
        } else if (strcmp(a, "--moves") == 0) {
            if (!(moves = value_of(argc, argv, &i))) return 2;
        } else if (a[0] == '-' || name) {
            fprintf(stderr, "hnefi book show: unknown argument '%s' (try hnefi book --help)\n", a);
            return 2;
        } else {
            name = a;
        }
    }
    if (!name) {
        fprintf(stderr, "hnefi book show: expected a BOOK (try hnefi book --help)\n");
        return 2;
    }
    struct book b;
    memset(&b, 0, sizeof b);
    if (!load_named(&b, name, "show")) return 1;
    struct cli_game g;
    cli_game_init(&g);
    g.variant = b.variant;
    g.fen = fen;
    g.moves = moves;
    int rc = 0;
    if (!cli_game_finish(&g)) {
        rc = 2;
    } else {
        const struct position *p = tafl_pos(g.game);
        char text[FEN_MAX];
        cli_print_board(p);
        fen_write(p, text);
        printf("fen %s\n%s to move\n", text, p->side == SIDE_ATTACKERS ? "attackers" : "defenders");
        cli_book_print(stdout, &b, g.game);
    }
    cli_game_free(&g);
    book_free(&b);
    return rc;
}

/* Returns a splitmix64 value of a running state. */
static uint64_t mix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Measures probes of the book's own positions: a whole probe and the bare key lookup. */
static void probe_timing(const struct book *b) {
    enum { SAMPLE = 2000 };
    /* positions to probe: walks from the start along book moves */
    struct position *ps = malloc(SAMPLE * sizeof *ps);
    struct book_hit *hit = malloc(sizeof *hit);
    if (!ps || !hit) {
        free(ps);
        free(hit);
        return;
    }
    int n = 0;
    uint64_t s = 1;
    for (int tries = 0; n < SAMPLE && tries < SAMPLE * 4; tries++) {
        struct position p;
        pos_init_start(&p, &b->variant);
        int depth = (int)(mix(&s) % 24);
        for (int d = 0; d < depth; d++) {
            int k = book_probe(b, &p, hit);
            if (k == 0) break;
            move_t m = hit->moves[mix(&s) % (uint64_t)k];
            if (!movegen_is_legal(&p, m)) break;
            struct position q;
            make_move(&q, &p, m);
            if (q.result != RESULT_NONE) break;
            p = q;
        }
        ps[n++] = p;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rounds = 0, found = 0;
    do {
        for (int i = 0; i < n; i++) found += book_probe(b, &ps[i], hit) > 0;
        rounds++;
    } while (since(&t0) < 0.5);
    double full = since(&t0) / ((double)rounds * n);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t keys = 0, r2 = 0;
    do {
        for (size_t i = 0; i < 100000; i++)
            keys += book_find(b, b->pos[mix(&s) % b->npos].key) != 0;
        r2++;
    } while (since(&t0) < 0.5);
    double bare = since(&t0) / ((double)r2 * 100000);
    printf("probe: %.2f us a probe of a position (symmetries, key, search: %d positions, %.0f%% "
           "in the book), %.0f ns a bare key lookup\n",
           full * 1e6, n, 100.0 * found / ((double)rounds * n), bare * 1e9);
    (void)keys;
    free(ps);
    free(hit);
}

/* hnefi book stats BOOK */
static int book_stats(int argc, char **argv) {
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "hnefi book stats: expected one BOOK (try hnefi book --help)\n");
        return 2;
    }
    struct book b;
    memset(&b, 0, sizeof b);
    char path[4200], err[700];
    if (!cli_book_path(argv[1], variant_by_name("copenhagen"), path, sizeof path, err,
                       sizeof err) ||
        !book_load(&b, path, err, sizeof err)) {
        fprintf(stderr, "hnefi book stats: %s\n", err);
        return 1;
    }
    size_t searched = 0, scored = 0, backed = 0;
    uint64_t root_games = 0;
    for (size_t i = 0; i < b.npos; i++) searched += (b.pos[i].flags & BOOK_POS_SEARCHED) != 0;
    for (size_t i = 0; i < b.nmoves; i++) {
        scored += b.moves[i].depth > 0;
        backed += (b.moves[i].flags & BOOK_MOVE_BACKED) != 0;
    }
    struct position start;
    pos_init_start(&start, &b.variant);
    struct book_hit *hit = malloc(sizeof *hit);
    int nroot = hit ? book_probe(&b, &start, hit) : 0;
    for (int i = 0; i < nroot; i++) root_games += hit->info[i]->games;
    free(hit);
    long long size = file_size(path);
    printf("book %s\n", path);
    printf("variant %s, board %dx%d, %d symmetries merged, OpenTafl rules %s\n", b.name, b.size,
           b.size, __builtin_popcount(b.syms), b.opentafl);
    printf("%zu positions, %zu moves (%.2f a position), built from %llu games (%llu at the "
           "start)\n",
           b.npos, b.nmoves, (double)b.nmoves / (double)b.npos, (unsigned long long)b.games,
           (unsigned long long)root_games);
    printf("searched: %zu positions; %zu moves scored, %zu of them backed up from the book\n",
           searched, scored, backed);
    printf("size: %lld bytes, %.1f bytes a position in the file, %.1f in memory\n", size,
           (double)size / (double)b.npos,
           (double)(b.npos * sizeof *b.pos + b.nmoves * sizeof *b.moves) / (double)b.npos);
    probe_timing(&b);
    book_free(&b);
    return 0;
}

/* hnefi book merge OUT BOOK BOOK... */
static int book_merge(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "hnefi book merge: expected OUT BOOK BOOK... (try hnefi book --help)\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(stderr, "hnefi book merge: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    const char *out = argv[1];
    if (!cli_check_writable(out, "hnefi book merge")) return 1;
    struct book b;
    memset(&b, 0, sizeof b);
    struct book_builder bb;
    bool have = false;
    int rc = 0;
    char err[700];
    for (int i = 2; i < argc && rc == 0; i++) {
        if (!load_named(&b, argv[i], "merge")) {
            rc = 1;
            break;
        }
        if (!have) {
            if (!book_builder_init(&bb, &b.variant)) {
                fprintf(stderr, "hnefi book merge: out of memory\n");
                rc = 1;
                break;
            }
            have = true;
        } else if (!book_fits(&b, &bb.v, err, sizeof err)) {
            fprintf(stderr, "hnefi book merge: %s: not the rules of %s: %s\n", argv[i], argv[2],
                    err);
            rc = 1;
            break;
        }
        if (!book_builder_add_book(&bb, &b, err, sizeof err)) {
            fprintf(stderr, "hnefi book merge: %s: %s\n", argv[i], err);
            rc = 1;
        }
    }
    book_free(&b);
    if (rc == 0) {
        bb.run = 0;
        if (!book_builder_finish(&bb, 1, &b, err, sizeof err) ||
            !book_save(&b, out, 19, err, sizeof err)) {
            fprintf(stderr, "hnefi book merge: %s\n", err);
            rc = 1;
        } else {
            printf("wrote %s: %zu positions, %zu moves, %llu games\n", out, b.npos, b.nmoves,
                   (unsigned long long)b.games);
        }
        book_free(&b);
    }
    if (have) book_builder_free(&bb);
    return rc;
}

/* hnefi book openings BOOK --count N [--balanced] [--margin CP] [--plies P] [--out FILE] */
static int book_openings(int argc, char **argv) {
    struct book_lines_config cfg = {.plies = 8, .count = 0, .margin = 50, .max_nodes = 2000000};
    const char *name = NULL, *out_path = NULL;
    long v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--count") == 0) {
            if (!num_option(argc, argv, &i, 1, 10000000, &v)) return 2;
            cfg.count = (int)v;
        } else if (strcmp(a, "--plies") == 0) {
            if (!num_option(argc, argv, &i, 1, BOOK_LINE_MAX, &v)) return 2;
            cfg.plies = (int)v;
        } else if (strcmp(a, "--margin") == 0) {
            if (!num_option(argc, argv, &i, 0, 30000, &v)) return 2;
            cfg.margin = (int)v;
        } else if (strcmp(a, "--balanced") == 0) {
            cfg.balanced = true;
        } else if (strcmp(a, "--out") == 0) {
            if (!(out_path = value_of(argc, argv, &i))) return 2;
        } else if (a[0] == '-' || name) {
            fprintf(stderr, "hnefi book openings: unknown argument '%s' (try hnefi book --help)\n",
                    a);
            return 2;
        } else {
            name = a;
        }
    }
    if (!name || cfg.count == 0) {
        fprintf(stderr, "hnefi book openings: expected BOOK --count N (try hnefi book --help)\n");
        return 2;
    }
    if (out_path && !cli_check_writable(out_path, "hnefi book openings")) return 1;
    struct book b;
    memset(&b, 0, sizeof b);
    if (!load_named(&b, name, "openings")) return 1;
    struct book_line *lines = NULL;
    int n = 0;
    size_t visited;
    bool capped;
    char err[300];
    if (!book_lines(&b, &cfg, &lines, &n, &visited, &capped, err, sizeof err)) {
        fprintf(stderr, "hnefi book openings: %s\n", err);
        book_free(&b);
        return 1;
    }
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "hnefi book openings: cannot write %s: %s\n", out_path, strerror(errno));
        free(lines);
        book_free(&b);
        return 1;
    }
    fprintf(out, "# hnefi book openings: %s, %d lines of %d plies%s", name, n, cfg.plies,
            cfg.balanced ? ", balanced" : ", the most played");
    if (cfg.balanced) fprintf(out, " within %d centi-men", cfg.margin);
    fprintf(out, "; value for the attackers, games of the last move\n");
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        for (int k = 0; k < lines[i].n; k++) {
            move_write(lines[i].moves[k], b.size, text);
            fprintf(out, "%s%s", k ? " " : "", text);
        }
        fprintf(out, "\n");
    }
    bool werr = ferror(out) != 0;
    if (out != stdout && fclose(out) != 0) werr = true;
    if (werr) fprintf(stderr, "hnefi book openings: cannot write %s\n", out_path ? out_path : "");
    if (n < cfg.count)
        fprintf(stderr, "hnefi book openings: only %d lines%s (of %zu positions walked%s)\n", n,
                cfg.balanced ? " within the margin" : "", visited,
                capped ? ", the walk stopped at its limit" : "");
    else if (out_path)
        fprintf(stderr, "hnefi book openings: wrote %d lines to %s\n", n, out_path);
    free(lines);
    book_free(&b);
    return werr ? 1 : 0;
}

/* Tells whether the book an action reads is of a board only the wide build plays (the command
   then goes on there, PROTO_SWITCH). */
static bool book_wants_wide(int argc, char **argv) {
    int at = strcmp(argv[1], "merge") == 0 ? 3 : 2;
    if (HNEFI_WIDE || !hnefi_shared_handoff.rules_ok[1] || strcmp(argv[1], "build") == 0 ||
        at >= argc || argv[at][0] == '-')
        return false;
    char path[4200], err[600];
    return cli_book_path(argv[at], variant_by_name("copenhagen"), path, sizeof path, err,
                         sizeof err) &&
           book_file_board(path) > BB_MAX_SIZE;
}

/* hnefi book ...: the book commands (PROTO_SWITCH: the book is of a board only the wide build
   plays, which runs the command instead). */
int cmd_book(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_book_usage();
        return argc < 2 ? 2 : 0;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_book_usage();
            return 0;
        }
    const char *what = argv[1];
    if (book_wants_wide(argc, argv)) return PROTO_SWITCH;
    if (strcmp(what, "build") == 0) return book_build(argc - 1, argv + 1);
    if (strcmp(what, "expand") == 0) return book_expand_cmd(argc - 1, argv + 1);
    if (strcmp(what, "show") == 0) return book_show(argc - 1, argv + 1);
    if (strcmp(what, "stats") == 0) return book_stats(argc - 1, argv + 1);
    if (strcmp(what, "merge") == 0) return book_merge(argc - 1, argv + 1);
    if (strcmp(what, "openings") == 0) return book_openings(argc - 1, argv + 1);
    fprintf(stderr,
            "hnefi book: unknown action '%s' (build, expand, show, stats, merge, openings)\n",
            what);
    return 2;
}

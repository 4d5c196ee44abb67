/*
 * hnefi tactics mine: a tactics suite from game records, every line proved by the solver.
 *
 * Candidates are the positions 1..--back plies before a game's last ply when a board rule (or a
 * side left without a move) ended the game there, and, with --lone N, every position in which
 * the attackers are to move against at most N defender men. Duplicates (the same variant and
 * position) are kept once. The candidates are shuffled with the seed, those near an end other
 * than an escape (the rarer kinds) before the rest, and solved in that order:
 * within --plies (7) first, then, for the positions 9 plies before an end and the lone-king ones,
 * within --max-plies (9). A win joins its stratum (variant, kind of win, plies) while the stratum
 * has room (--per-stratum) and its game has room (--per-game); a position with no win within 7
 * plies joins the 'none' pool if the side to move has a tempting move. Then the 'none' lines are
 * taken round-robin over (variant, tempting kind) up to --none-share of the suite. Every choice
 * depends only on the inputs, the options and the seed, and the solver's answers are exact, so a
 * rerun writes the same file.
 */
#include "tools/tactics_mine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/tactics.h"
#include "engine/make.h"
#include "engine/movegen.h"
#include "selfplay/records.h"
#include "tools/cli.h"

enum { MINE_FILES = 32, MINE_VARIANTS = 8, MINE_LONE_PER_GAME = 4 };

/* One candidate position. */
struct mine_cand {
    struct position pos;
    int file;        /* index into the input files */
    int64_t line;    /* the record's line in its file */
    int ply;         /* the position stands before this ply of the game (1-based) */
    int back;        /* plies before a rule-decided last ply, 0 for a lone-king position */
    int end_kind;    /* how that game ended (enum end_reason), END_NONE if not by a rule */
    int variant;     /* index into the built-in variants */
    uint64_t order;  /* the seeded shuffle key */
    int64_t game_id; /* file * 2^40 + line */
};

/* A proved line waiting to be written. */
struct mine_line {
    const struct mine_cand *c;
    bool win;
    int plies, kind;
    char moves[TACTICS_MOVES_MAX];
};

/* The options and the state of a mining run. */
struct mine {
    const char *files[MINE_FILES];
    bool real[MINE_FILES];
    const struct variant *real_variant[MINE_FILES];
    int nfiles;
    const char *out_path;
    long seed, count, none_share, per_stratum, per_game, back, lone, plies, max_plies, nodes,
        slow_nodes, hash;
    struct variant rules[MINE_VARIANTS]; /* each built-in variant with repetition off */
    struct mine_cand *cand;
    size_t ncand, cap;
    int file; /* the file being read */
    bool verbose;
    long games, decided;
};

static const char mine_usage[] =
    "usage: hnefi tactics mine [options] --games FILE... | --real VARIANT:FILE...\n"
    "Builds a tactics suite from game records: positions near rule-decided ends (and, with\n"
    "--lone, lone-king endings), each proved by the exact solver; writes the suite's lines\n"
    "(bench/tactics.h format, with the kind column) sorted by variant, result, kind and plies.\n"
    "  --games FILE       tournament records (hnefi selfplay --records), replayed in the\n"
    "                     variant each names; repeatable\n"
    "  --real VARIANT:FILE  real-game records (4 fields a line), replayed in VARIANT with\n"
    "                     repetition off (tests/data); repeatable\n"
    "  --out FILE         write the suite there (default: standard output)\n"
    "  --seed S           the shuffle's seed (default 1)\n"
    "  --count N          lines wanted in all, about (default 400)\n"
    "  --none-share P     percent of 'none' lines (default 20)\n"
    "  --per-stratum N    at most N wins of one variant, kind and length (default 12)\n"
    "  --per-game N       at most N lines from one game (default 2)\n"
    "  --back N           look 1..N plies before each rule-decided end (default 9)\n"
    "  --lone N           also positions with the attackers to move against at most N\n"
    "                     defender men, anywhere in a game (default: off)\n"
    "  --plies N          the bound of the 'none' lines, and the first solve (default 7)\n"
    "  --max-plies N      the longest win looked for (default 9)\n"
    "  --nodes N          solver nodes per position before it is skipped (default 30000000)\n"
    "  --slow-nodes N     solver nodes for the search beyond --plies (default 5000000)\n"
    "  --hash MiB         the solver's table (default 256)\n"
    "  --verbose          one line per solve on standard error\n";

/* Returns seconds on a monotonic clock. */
static double mine_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A seeded mix of two numbers (splitmix64's finaliser). */
static uint64_t mine_mix(uint64_t a, uint64_t b) {
    uint64_t z = a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Returns the index of the built-in variant named like v, or -1. */
static int mine_variant_index(const struct variant *v) {
    for (int i = 0; i < MINE_VARIANTS && variant_builtin(i); i++)
        if (strcmp(variant_builtin(i)->name, v->name) == 0) return i;
    return -1;
}

/* Adds a candidate; false if out of memory. */
static bool mine_add(struct mine *m, const struct position *p, int64_t line, int ply, int back,
                     int end_kind, int vi) {
    if (m->ncand == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 4096;
        struct mine_cand *nc = realloc(m->cand, cap * sizeof *nc);
        if (!nc) return false;
        m->cand = nc;
        m->cap = cap;
    }
    struct mine_cand *c = &m->cand[m->ncand++];
    *c = (struct mine_cand){.pos = *p,
                            .file = m->file,
                            .line = line,
                            .ply = ply,
                            .back = back,
                            .end_kind = end_kind,
                            .variant = vi,
                            .game_id = ((int64_t)m->file << 40) + line};
    c->order = mine_mix((uint64_t)m->seed, p->key ^ (uint64_t)vi);
    return true;
}

/* Collects the candidates of one game. */
static bool mine_on_record(const struct record *r, int64_t line, void *ctx) {
    struct mine *m = ctx;
    int vi = mine_variant_index(r->v);
    if (vi < 0) return true; /* not a built-in variant: its rules could differ from the name's */
    m->games++;
    struct position *pos = malloc((size_t)(r->n + 1) * sizeof *pos);
    if (!pos) return false;
    pos_init_start(&pos[0], &m->rules[vi]);
    int n = 0;
    while (n < r->n && pos[n].result == RESULT_NONE) {
        make_move(&pos[n + 1], &pos[n], r->moves[n]);
        n++;
    }
    const struct position *last = &pos[n];
    int kind = END_NONE;
    if (last->result != RESULT_NONE)
        kind = last->reason;
    else if (n > 0 && last->v->no_moves == NO_MOVES_LOSS && !solver_has_move(last))
        kind = END_NO_MOVES;
    bool ok = true;
    if (kind != END_NONE && n == r->n) {
        m->decided++;
        for (int k = 1; k <= m->back && k <= n && ok; k++)
            ok = mine_add(m, &pos[n - k], line, n - k + 1, k, kind, vi);
    }
    /* lone-king positions: at most MINE_LONE_PER_GAME of a game, picked by the seed */
    int lone[MINE_LONE_PER_GAME], nlone = 0;
    uint64_t best[MINE_LONE_PER_GAME];
    for (int i = 0; i <= n && m->lone >= 0; i++) {
        if (pos[i].side != SIDE_ATTACKERS || pos[i].result != RESULT_NONE ||
            bb_popcount(pos[i].def) > m->lone || (kind != END_NONE && n - i <= m->back))
            continue;
        uint64_t h = mine_mix((uint64_t)m->seed, pos[i].key);
        int slot = -1; /* a free slot, else the one with the largest hash above h */
        if (nlone < MINE_LONE_PER_GAME)
            slot = nlone++;
        else
            for (int j = 0; j < MINE_LONE_PER_GAME; j++)
                if (h < best[j] && (slot < 0 || best[j] > best[slot])) slot = j;
        if (slot < 0) continue;
        best[slot] = h;
        lone[slot] = i;
    }
    for (int j = 0; j < nlone && ok; j++)
        ok = mine_add(m, &pos[lone[j]], line, lone[j] + 1, 0, kind, vi);
    free(pos);
    return ok;
}

/* Orders candidates by variant and key, then by where they come from (for removing doubles). */
static int cmp_key(const void *a, const void *b) {
    const struct mine_cand *x = a, *y = b;
    if (x->variant != y->variant) return x->variant - y->variant;
    if (x->pos.key != y->pos.key) return x->pos.key < y->pos.key ? -1 : 1;
    if (x->pos.side != y->pos.side) return x->pos.side - y->pos.side;
    if (x->game_id != y->game_id) return x->game_id < y->game_id ? -1 : 1;
    return x->ply - y->ply;
}

/* Tells whether a candidate is near an end of a rarer kind than an escape (solved first). */
static bool rare_end(const struct mine_cand *c) {
    return c->back > 0 && c->end_kind != END_ESCAPE;
}

/* Orders candidates: those near the rarer ends first, each group by the seeded shuffle key. */
static int cmp_order(const void *a, const void *b) {
    const struct mine_cand *x = a, *y = b;
    if (rare_end(x) != rare_end(y)) return rare_end(x) ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return cmp_key(a, b);
}

/* A stratum's name and how many lines it holds. */
struct stratum {
    int variant, kind, plies; /* plies 0: a 'none' stratum (kind: the tempting threat) */
    int count;
};

/* Returns the stratum (variant, kind, plies), adding it if new. */
static struct stratum *stratum_get(struct stratum *st, int *n, int variant, int kind, int plies) {
    for (int i = 0; i < *n; i++)
        if (st[i].variant == variant && st[i].kind == kind && st[i].plies == plies) return &st[i];
    st[*n] = (struct stratum){variant, kind, plies, 0};
    return &st[(*n)++];
}

/* Counts the lines already taken from game id. */
static int game_lines(const struct mine_line *lines, int n, int64_t id) {
    int k = 0;
    for (int i = 0; i < n; i++) k += lines[i].c->game_id == id;
    return k;
}

/* Orders the output: variant, wins first, kind, plies, then source. */
static int cmp_out(const void *a, const void *b) {
    const struct mine_line *x = a, *y = b;
    int c = strcmp(variant_builtin(x->c->variant)->name, variant_builtin(y->c->variant)->name);
    if (c) return c;
    if (x->win != y->win) return x->win ? -1 : 1;
    if (x->kind != y->kind) return x->kind - y->kind;
    if (x->plies != y->plies) return x->plies - y->plies;
    if (x->c->file != y->c->file) return x->c->file - y->c->file;
    if (x->c->line != y->c->line) return x->c->line < y->c->line ? -1 : 1;
    return x->c->ply - y->c->ply;
}

/* Returns the part of a path after its last '/'. */
static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Writes the suite: a header saying how it was made, then the lines. */
static void mine_write(FILE *out, const struct mine *m, struct mine_line *lines, int n, int argc,
                       char **argv) {
    qsort(lines, (size_t)n, sizeof *lines, cmp_out);
    fprintf(
        out,
        "# Tactics positions mined from real and self-play games, each proved by hnefi's exact\n"
        "# solver (search/solver.h; docs/search.md, 'Solver and tactics suite').\n"
        "# Made by: hnefi tactics");
    for (int i = 0; i < argc; i++) fprintf(out, " %s", argv[i]);
    fprintf(
        out,
        "\n# (tools/mine-tactics.sh makes the self-play records and runs this.)\n"
        "# Columns (tab-separated), as tactics.tsv, plus a seventh:\n"
        "#   1. variant  2. position (FEN)  3. result: win, or none = no forced win within %ld\n"
        "#   plies although the side to move has a tempting move  4. plies: the fewest plies "
        "of a\n"
        "#   forced win  5. moves: every first move forcing it that fast, sorted  6. source:\n"
        "#   FILE:LINE:plyN, the position before ply N of that record  7. kind: for a win, "
        "the end\n"
        "#   of the solver's principal line; for none, the win the tempting move threatens.\n"
        "# Rules: each variant's built-in settings (docs/rules.md) with repetition off.\n",
        m->plies);
    for (int i = 0; i < n; i++) {
        const struct mine_line *l = &lines[i];
        char fen[FEN_MAX];
        fen_write(&l->c->pos, fen);
        fprintf(out, "%s\t%s\t%s\t", variant_builtin(l->c->variant)->name, fen,
                l->win ? "win" : "none");
        if (l->win)
            fprintf(out, "%d\t%s\t", l->plies, l->moves);
        else
            fprintf(out, "\t\t");
        fprintf(out, "%s:%lld:ply%d\t%s\n", base_name(m->files[l->c->file]), (long long)l->c->line,
                l->c->ply, solver_kind_name(l->kind));
    }
}

/* Reads the options; returns 1 to go on, 0 after --help, -1 after an error. */
static int mine_args(struct mine *m, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            printf("%s", mine_usage);
            return 0;
        }
        if (strcmp(o, "--verbose") == 0) {
            m->verbose = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "hnefi tactics mine: %s '%s'\n",
                    o[0] == '-' ? "option needs a value:" : "unexpected argument", o);
            return -1;
        }
        const char *val = argv[++i];
        struct {
            const char *name;
            long *dst, lo, hi;
        } nums[] = {
            {"--seed", &m->seed, 0, 2000000000L},
            {"--count", &m->count, 1, 100000},
            {"--none-share", &m->none_share, 0, 90},
            {"--per-stratum", &m->per_stratum, 1, 100000},
            {"--per-game", &m->per_game, 1, 100},
            {"--back", &m->back, 1, SOLVER_MAX_PLIES},
            {"--lone", &m->lone, 0, 100},
            {"--plies", &m->plies, 1, SOLVER_MAX_PLIES},
            {"--max-plies", &m->max_plies, 1, SOLVER_MAX_PLIES},
            {"--nodes", &m->nodes, 1, 1000000000000L},
            {"--slow-nodes", &m->slow_nodes, 1, 1000000000000L},
            {"--hash", &m->hash, 1, 65536},
        };
        bool done = false;
        for (size_t k = 0; k < sizeof nums / sizeof nums[0] && !done; k++)
            if (strcmp(o, nums[k].name) == 0) {
                if (!cli_parse_int(val, nums[k].lo, nums[k].hi, o, nums[k].dst)) return -1;
                done = true;
            }
        if (done) continue;
        if (strcmp(o, "--out") == 0) {
            m->out_path = val;
        } else if (strcmp(o, "--games") == 0 || strcmp(o, "--real") == 0) {
            if (m->nfiles == MINE_FILES) {
                fprintf(stderr, "hnefi tactics mine: more than %d files\n", MINE_FILES);
                return -1;
            }
            bool real = o[2] == 'r';
            const char *path = val;
            if (real) {
                const char *colon = strchr(val, ':');
                char name[VARIANT_NAME_MAX];
                size_t len = colon ? (size_t)(colon - val) : 0;
                if (!colon || len >= sizeof name) {
                    fprintf(stderr, "hnefi tactics mine: --real '%s': expected VARIANT:FILE\n",
                            val);
                    return -1;
                }
                memcpy(name, val, len);
                name[len] = 0;
                const struct variant *v = variant_by_name(name);
                if (!v) {
                    fprintf(stderr, "hnefi tactics mine: --real: unknown variant '%s'\n", name);
                    return -1;
                }
                m->real_variant[m->nfiles] = v;
                path = colon + 1;
            }
            m->real[m->nfiles] = real;
            m->files[m->nfiles++] = path;
        } else {
            fprintf(stderr, "hnefi tactics mine: unknown option '%s' (try --help)\n", o);
            return -1;
        }
    }
    if (m->nfiles == 0) {
        fprintf(stderr, "hnefi tactics mine: no game files (--games or --real; try --help)\n");
        return -1;
    }
    if (m->max_plies < m->plies) m->max_plies = m->plies;
    return 1;
}

/* Reads every file's games into candidates; false after printing why. */
static bool mine_read(struct mine *m) {
    for (int f = 0; f < m->nfiles; f++) {
        char err[300];
        struct variant v;
        m->file = f;
        if (m->real[f]) {
            v = *m->real_variant[f];
            v.repetition = REP_NONE;
        }
        if (!records_scan(m->files[f], m->real[f] ? &v : NULL, false, mine_on_record, m, NULL, NULL,
                          err, sizeof err)) {
            fprintf(stderr, "hnefi tactics mine: %s: %s\n", m->files[f], err);
            return false;
        }
    }
    /* one candidate per variant and position: the first by file, line and ply */
    qsort(m->cand, m->ncand, sizeof *m->cand, cmp_key);
    size_t k = 0;
    for (size_t i = 0; i < m->ncand; i++)
        if (k == 0 || m->cand[i].variant != m->cand[k - 1].variant ||
            m->cand[i].pos.key != m->cand[k - 1].pos.key ||
            m->cand[i].pos.side != m->cand[k - 1].pos.side)
            m->cand[k++] = m->cand[i];
    m->ncand = k;
    qsort(m->cand, m->ncand, sizeof *m->cand, cmp_order);
    return true;
}

/* Runs hnefi tactics mine. */
int tactics_mine(int argc, char **argv) {
    struct mine *m = calloc(1, sizeof *m);
    if (!m) return 1;
    m->seed = 1;
    m->count = 400;
    m->none_share = 20;
    m->per_stratum = 12;
    m->per_game = 2;
    m->back = 9;
    m->lone = -1;
    m->plies = 7;
    m->max_plies = 9;
    m->nodes = 30000000;
    m->slow_nodes = 5000000;
    m->hash = 256;
    int a = mine_args(m, argc, argv);
    if (a <= 0) {
        free(m);
        return a == 0 ? 0 : 2;
    }
    for (int i = 0; i < MINE_VARIANTS && variant_builtin(i); i++) {
        m->rules[i] = *variant_builtin(i);
        m->rules[i].repetition = REP_NONE;
    }
    int status = 0;
    struct solver *sv = solver_new((size_t)m->hash);
    struct solve_result *res = malloc(sizeof *res);
    struct mine_line *lines = NULL, *nones = NULL;
    struct stratum *st = NULL;
    FILE *out = NULL;
    if (!sv || !res) {
        fprintf(stderr, "hnefi tactics mine: out of memory\n");
        status = 1;
        goto done;
    }
    double t0 = mine_now();
    if (!mine_read(m)) { /* a record file that cannot be used */
        status = 1;
        goto done;
    }
    fprintf(stderr, "%ld games, %ld ended by a rule; %zu candidate positions\n", m->games,
            m->decided, m->ncand);
    lines = calloc(m->ncand + 1, sizeof *lines);
    nones = calloc(m->ncand + 1, sizeof *nones);
    st = calloc(2 * m->ncand + 64, sizeof *st);
    if (!lines || !nones || !st) {
        fprintf(stderr, "hnefi tactics mine: out of memory\n");
        status = 1;
        goto done;
    }
    int nlines = 0, nnone = 0, nst = 0, solved = 0, unknown = 0;
    uint64_t nodes = 0;
    long none_max = m->count * m->none_share / 100, wins_wanted = m->count - none_max;
    for (size_t i = 0; i < m->ncand && nlines < wins_wanted; i++) {
        const struct mine_cand *c = &m->cand[i];
        /* a position from a full game, or whose expected stratum is full, is not solved */
        if (game_lines(lines, nlines, c->game_id) >= m->per_game) continue;
        if (c->back % 2 == 1) {
            struct stratum *e = stratum_get(st, &nst, c->variant, c->end_kind, c->back);
            if (e->count >= m->per_stratum) continue;
        }
        if (c->back % 2 == 0 && nnone >= 3 * none_max) continue; /* enough 'none' candidates */
        struct solve_limits lim = {
            .plies = (int)m->plies, .max_nodes = (uint64_t)m->nodes, .want_line = true};
        double ts = mine_now();
        solver_solve(sv, &c->pos, &lim, res);
        nodes += res->nodes;
        if (m->verbose)
            fprintf(stderr, "  cand %zu back %d end %s: %s %d within %d, %llu nodes, %.2f s\n", i,
                    c->back, solver_kind_name(c->end_kind),
                    res->status == SOLVE_WIN      ? "win"
                    : res->status == SOLVE_NO_WIN ? "none"
                                                  : "?",
                    res->plies, lim.plies, (unsigned long long)res->nodes, mine_now() - ts);
        if (res->status == SOLVE_NO_WIN) {
            int kind;
            bool tempting = tactics_tempting(&c->pos, &kind) != MOVE_NONE;
            /* a win slower than the first bound, where the game suggests one */
            if (m->max_plies > m->plies && (c->back == 0 || c->back > m->plies)) {
                lim.plies = (int)m->max_plies;
                lim.max_nodes = (uint64_t)m->slow_nodes;
                ts = mine_now();
                solver_solve(sv, &c->pos, &lim, res);
                nodes += res->nodes;
                if (m->verbose)
                    fprintf(stderr, "    within %d: %s %d, %llu nodes, %.2f s\n", lim.plies,
                            res->status == SOLVE_WIN      ? "win"
                            : res->status == SOLVE_NO_WIN ? "none"
                                                          : "?",
                            res->plies, (unsigned long long)res->nodes, mine_now() - ts);
            }
            if (res->status != SOLVE_WIN) {
                if (tempting) nones[nnone++] = (struct mine_line){.c = c, .kind = kind};
                continue;
            }
        }
        if (res->status == SOLVE_UNKNOWN) {
            unknown++;
            continue;
        }
        solved++;
        struct stratum *s = stratum_get(st, &nst, c->variant, res->kind, res->plies);
        if (s->count >= m->per_stratum) continue;
        s->count++;
        struct mine_line *l = &lines[nlines++];
        *l = (struct mine_line){.c = c, .win = true, .plies = res->plies, .kind = res->kind};
        tactics_moves_text(res->moves, res->nmoves, c->pos.v->size, l->moves, sizeof l->moves);
        if (nlines % 25 == 0)
            fprintf(stderr, "%d wins, %d none candidates, %zu of %zu positions, %.0f s\n", nlines,
                    nnone, i + 1, m->ncand, mine_now() - t0);
    }
    /* the 'none' lines: round-robin over (variant, tempting kind), in shuffle order */
    long none_wanted = nlines * m->none_share / (100 - m->none_share);
    int nst_none = 0;
    struct stratum *sn = calloc((size_t)nnone + 1, sizeof *sn);
    bool *taken = calloc((size_t)nnone + 1, sizeof *taken);
    if (!sn || !taken) {
        free(sn);
        free(taken);
        status = 1;
        goto done;
    }
    for (int i = 0; i < nnone; i++)
        stratum_get(sn, &nst_none, nones[i].c->variant, nones[i].kind, 0);
    for (bool more = true; more && none_wanted > 0;) {
        more = false;
        for (int s = 0; s < nst_none && none_wanted > 0; s++)
            for (int i = 0; i < nnone; i++) {
                const struct mine_line *l = &nones[i];
                if (taken[i] || l->c->variant != sn[s].variant || l->kind != sn[s].kind) continue;
                if (game_lines(lines, nlines, l->c->game_id) >= m->per_game) continue;
                taken[i] = true;
                lines[nlines++] = *l;
                none_wanted--;
                more = true;
                break;
            }
    }
    free(sn);
    free(taken);
    fprintf(stderr,
            "%d lines (%d wins solved, %d given up at the node limit), %llu solver nodes, "
            "%.0f s\n",
            nlines, solved, unknown, (unsigned long long)nodes, mine_now() - t0);
    out = m->out_path ? fopen(m->out_path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "hnefi tactics mine: cannot write %s\n", m->out_path);
        status = 1;
        goto done;
    }
    mine_write(out, m, lines, nlines, argc, argv);
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "hnefi tactics mine: cannot write %s\n", m->out_path);
        status = 1;
    }
done:
    free(lines);
    free(nones);
    free(st);
    free(res);
    solver_free(sv);
    free(m->cand);
    free(m);
    return status;
}

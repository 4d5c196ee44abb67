/* Tactics suites: reading, checking with the solver, and the search's depth and nodes to solve. */
#include "bench/tactics.h"

#include <stdlib.h>
#include <string.h>

#include "engine/make.h"
#include "engine/movegen.h"

/* Copies a field into a fixed buffer; false if it does not fit. */
static bool copy_field(char *dst, size_t cap, const char *src) {
    size_t len = strlen(src);
    if (len >= cap) return false;
    memcpy(dst, src, len + 1);
    return true;
}

/* Reads one line's fields into l; false with err naming the field. */
static bool parse_line(char *line, int lineno, struct tactics_line *l, char *err, size_t errlen) {
    char *f[8] = {0};
    int nf = 0;
    for (char *c = line; c && nf < 8;) {
        f[nf++] = c;
        c = strchr(c, '\t');
        if (c) *c++ = 0;
    }
    memset(l, 0, sizeof *l);
    l->lineno = lineno;
    if (nf < 6 || nf > 7) {
        snprintf(err, errlen, "line %d: %d fields, expected 6 or 7 (tab-separated)", lineno, nf);
        return false;
    }
    if (!variant_by_name(f[0]) || !copy_field(l->variant, sizeof l->variant, f[0])) {
        snprintf(err, errlen, "line %d: unknown variant '%.40s'", lineno, f[0]);
        return false;
    }
    if (!copy_field(l->fen, sizeof l->fen, f[1])) {
        snprintf(err, errlen, "line %d: position too long", lineno);
        return false;
    }
    if (strcmp(f[2], "win") == 0) {
        l->win = true;
        char *end;
        long plies = strtol(f[3], &end, 10);
        if (!*f[3] || *end || plies < 1 || plies > SOLVER_MAX_PLIES || plies % 2 == 0) {
            snprintf(err, errlen, "line %d: plies '%.20s': expected an odd number 1..%d", lineno,
                     f[3], SOLVER_MAX_PLIES);
            return false;
        }
        l->plies = (int)plies;
        if (!*f[4]) {
            snprintf(err, errlen, "line %d: a win with no moves", lineno);
            return false;
        }
    } else if (strcmp(f[2], "none") == 0) {
        if (*f[3] || *f[4]) {
            snprintf(err, errlen, "line %d: a 'none' line with plies or moves", lineno);
            return false;
        }
    } else {
        snprintf(err, errlen, "line %d: result '%.20s': expected win or none", lineno, f[2]);
        return false;
    }
    if (!copy_field(l->moves, sizeof l->moves, f[4]) ||
        !copy_field(l->source, sizeof l->source, f[5]) ||
        (nf == 7 && !copy_field(l->kind, sizeof l->kind, f[6]))) {
        snprintf(err, errlen, "line %d: a field too long", lineno);
        return false;
    }
    return true;
}

/* Reads the lines of a suite from text; false with err on the first bad line. */
bool tactics_parse(char *text, struct tactics_suite *out, char *err, size_t errlen) {
    out->lines = NULL;
    out->n = 0;
    int cap = 0, lineno = 0;
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next) *next++ = 0;
        lineno++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r') line[--len] = 0;
        if (len && line[0] != '#') {
            if (out->n == cap) {
                cap = cap ? 2 * cap : 64;
                struct tactics_line *nl = realloc(out->lines, (size_t)cap * sizeof *nl);
                if (!nl) {
                    snprintf(err, errlen, "out of memory at line %d", lineno);
                    tactics_suite_free(out);
                    return false;
                }
                out->lines = nl;
            }
            if (!parse_line(line, lineno, &out->lines[out->n], err, errlen)) {
                tactics_suite_free(out);
                return false;
            }
            out->n++;
        }
        line = next;
    }
    return true;
}

/* Frees the lines of a suite. */
void tactics_suite_free(struct tactics_suite *s) {
    free(s->lines);
    s->lines = NULL;
    s->n = 0;
}

/* Sets *v to the line's variant (repetition off) and *p to its position. */
bool tactics_position(const struct tactics_line *l, struct variant *v, struct position *p,
                      char *err, size_t errlen) {
    const struct variant *base = variant_by_name(l->variant);
    if (!base) {
        snprintf(err, errlen, "line %d: unknown variant '%s'", l->lineno, l->variant);
        return false;
    }
    *v = *base;
    v->repetition = REP_NONE;
    char why[200];
    if (!fen_parse(p, v, l->fen, why, sizeof why)) {
        snprintf(err, errlen, "line %d: %s", l->lineno, why);
        return false;
    }
    return true;
}

/* Compares two strings for qsort. */
static int cmp_text(const void *a, const void *b) {
    return strcmp((const char *)a, (const char *)b);
}

/* Writes moves as text sorted in byte order, space-separated. */
void tactics_moves_text(const move_t *moves, int n, int size, char *out, size_t outlen) {
    char(*t)[MOVE_TEXT_MAX] = malloc((size_t)(n > 0 ? n : 1) * sizeof *t);
    size_t len = 0;
    if (outlen) out[0] = 0;
    if (!t) return;
    for (int i = 0; i < n; i++) move_write(moves[i], size, t[i]);
    qsort(t, (size_t)n, sizeof *t, cmp_text);
    for (int i = 0; i < n && len < outlen; i++)
        len += (size_t)snprintf(out + len, outlen - len, "%s%s", i ? " " : "", t[i]);
    free(t);
}

/* Returns the end reason of the win that m makes from p at once, or END_NONE. */
static int win_kind(const struct position *p, move_t m) {
    struct position c;
    make_move(&c, p, m);
    if (c.result == (p->side == SIDE_ATTACKERS ? RESULT_ATTACKERS : RESULT_DEFENDERS))
        return c.reason;
    if (c.result == RESULT_NONE && c.v->no_moves == NO_MOVES_LOSS && !solver_has_move(&c))
        return END_NO_MOVES;
    return END_NONE;
}

/* Calls fn for each tempting move of p with its kind until fn returns true; returns that move. */
static move_t tempting_scan(const struct position *p, bool (*fn)(int kind, void *ctx), void *ctx,
                            int *kind) {
    move_t moves[MAX_MOVES];
    int n = movegen_list(p, moves);
    for (int i = 0; i < n; i++) {
        struct position c;
        make_move(&c, p, moves[i]);
        if (c.result != RESULT_NONE) continue;
        c.side = p->side; /* as if it could move again */
        move_t w = solver_win_in_one(&c);
        if (w == MOVE_NONE) continue;
        int k = win_kind(&c, w);
        if (fn(k, ctx)) {
            if (kind) *kind = k;
            return moves[i];
        }
    }
    return MOVE_NONE;
}

/* Accepts any kind. */
static bool any_kind(int kind, void *ctx) {
    (void)kind;
    (void)ctx;
    return true;
}

/* Accepts the kind *ctx. */
static bool same_kind(int kind, void *ctx) {
    return kind == *(int *)ctx;
}

/* Returns the first tempting move of p, or MOVE_NONE; *kind gets its threat's end reason. */
move_t tactics_tempting(const struct position *p, int *kind) {
    return tempting_scan(p, any_kind, NULL, kind);
}

/* Tells whether p has a tempting move that threatens a win of this kind. */
bool tactics_tempting_kind(const struct position *p, int kind) {
    return tempting_scan(p, same_kind, &kind, NULL) != MOVE_NONE;
}

/* Returns the end reason named by word, or -1. */
static int kind_by_name(const char *word) {
    for (int k = END_NONE; k <= END_NO_MOVES; k++)
        if (strcmp(solver_kind_name(k), word) == 0) return k;
    return -1;
}

/* Checks a line with the solver (see tactics.h). */
bool tactics_verify(struct solver *sv, const struct tactics_line *l, int none_plies,
                    uint64_t max_nodes, char *why, size_t whylen, uint64_t *nodes) {
    struct variant v;
    struct position p;
    if (nodes) *nodes = 0;
    if (!tactics_position(l, &v, &p, why, whylen)) return false;
    int kind = -1;
    if (l->kind[0] && (kind = kind_by_name(l->kind)) < 0) {
        snprintf(why, whylen, "line %d: unknown kind '%s'", l->lineno, l->kind);
        return false;
    }
    if (!l->win) {
        enum solve_status st = solver_wins_within(sv, &p, none_plies, max_nodes, nodes);
        if (st != SOLVE_NO_WIN) {
            snprintf(why, whylen, "line %d: 'none', but the solver says %s within %d plies",
                     l->lineno, st == SOLVE_WIN ? "a win" : "unknown", none_plies);
            return false;
        }
        bool tempting =
            kind >= 0 ? tactics_tempting_kind(&p, kind) : tactics_tempting(&p, NULL) != MOVE_NONE;
        if (!tempting) {
            snprintf(why, whylen, "line %d: 'none' without a tempting move%s%s", l->lineno,
                     kind >= 0 ? " of kind " : "", kind >= 0 ? l->kind : "");
            return false;
        }
        return true;
    }
    struct solve_result *r = malloc(sizeof *r);
    if (!r) {
        snprintf(why, whylen, "out of memory");
        return false;
    }
    struct solve_limits lim = {.plies = l->plies, .max_nodes = max_nodes, .want_line = kind >= 0};
    solver_solve(sv, &p, &lim, r);
    if (nodes) *nodes = r->nodes;
    bool ok = false;
    char text[TACTICS_MOVES_MAX];
    if (r->status != SOLVE_WIN) {
        snprintf(why, whylen, "line %d: a win in %d, but the solver says %s", l->lineno, l->plies,
                 r->status == SOLVE_NO_WIN ? "none" : "unknown (node limit)");
    } else if (r->plies != l->plies) {
        snprintf(why, whylen, "line %d: a win in %d, but the solver says in %d", l->lineno,
                 l->plies, r->plies);
    } else {
        tactics_moves_text(r->moves, r->nmoves, v.size, text, sizeof text);
        if (strcmp(text, l->moves) != 0)
            snprintf(why, whylen, "line %d: moves '%s', but the solver says '%s'", l->lineno,
                     l->moves, text);
        else if (kind >= 0 && r->kind != kind)
            snprintf(why, whylen, "line %d: kind %s, but the solver's line ends by %s", l->lineno,
                     l->kind, solver_kind_name(r->kind));
        else
            ok = true;
    }
    free(r);
    return ok;
}

/* What the search callback needs to know about the line being searched. */
struct run_ctx {
    struct search *s;
    const struct tactics_line *l;
    int none_plies;
    struct tactics_run *out;
};

/* Watches each finished iteration for the first win and the win of the right length. */
static void on_iteration(const struct search_line *line, void *vctx) {
    struct run_ctx *c = vctx;
    struct tactics_run *r = c->out;
    int plies;
    if (line->multipv != 1) return;
    r->depth = line->depth;
    r->nodes = line->nodes;
    if (!score_is_win(line->score, &plies) || line->score < 0) return;
    if (!r->first_plies) {
        r->first_plies = plies;
        r->first_depth = line->depth;
    }
    if (c->l->win) {
        if (plies < c->l->plies) r->wrong = true;
        if (plies == c->l->plies) {
            r->solved = true;
            search_stop(c->s);
        }
    } else if (plies <= c->none_plies) {
        r->wrong = true;
        search_stop(c->s);
    }
}

/* Searches one line until its win is shown, none_depth is done, or max_nodes (see tactics.h). */
bool tactics_search(struct search *s, const struct tactics_line *l,
                    const struct search_options *opt, uint64_t max_nodes, int none_plies,
                    int none_depth, struct tactics_run *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    struct variant v;
    struct position p;
    if (!tactics_position(l, &v, &p, err, errlen)) return false;
    struct tafl_game *t = tafl_new(&v);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    tafl_reset(t, &p);
    /* a win line is searched on past a longer forced win (which would end an ordinary search)
       until the win of the right length shows or the budget is spent */
    struct search_limits lim = {.nodes = max_nodes, .time_ms = {-1, -1}, .infinite = l->win};
    if (!l->win) lim.depth = none_depth;
    struct run_ctx ctx = {s, l, none_plies, out};
    struct search_callbacks cb = {.on_iteration = on_iteration, .ctx = &ctx};
    struct search_result res;
    search_clear(s);
    search_run(s, t, &lim, opt, &cb, &res);
    if (!l->win) out->solved = !out->wrong;
    if (!out->solved) out->nodes = res.nodes;
    tafl_free(t);
    return true;
}

/* Compares two 64-bit values for qsort. */
static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Returns the median of n values (sorted in place); 0 for none. */
static uint64_t median(uint64_t *x, int n) {
    if (n == 0) return 0;
    qsort(x, (size_t)n, sizeof *x, cmp_u64);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Formats a node count shortly: 950, 12.3k, 4.6M. */
static const char *short_count(uint64_t n, char *buf, size_t len) {
    if (n < 10000)
        snprintf(buf, len, "%llu", (unsigned long long)n);
    else if (n < 1000000)
        snprintf(buf, len, "%.1fk", (double)n / 1e3);
    else
        snprintf(buf, len, "%.1fM", (double)n / 1e6);
    return buf;
}

/* One row of the table: which lines it covers. */
struct row_key {
    const char *variant, *kind;
    bool win;
    int plies;
};

/* Tells whether line l belongs to the row k (NULL variant: every line). */
static bool in_row(const struct tactics_line *l, const struct row_key *k) {
    if (!k->variant) return true;
    return strcmp(l->variant, k->variant) == 0 && l->win == k->win &&
           (!k->win || (l->plies == k->plies && strcmp(l->kind, k->kind) == 0));
}

/* Prints one row of the table. */
static void print_row(FILE *out, const struct tactics_suite *suite, const struct tactics_run *runs,
                      const struct row_key *k) {
    int n = 0, solved = 0, won = 0, slow = 0, wrong = 0;
    uint64_t *depth = malloc((size_t)suite->n * sizeof *depth);
    uint64_t *nodes = malloc((size_t)suite->n * sizeof *nodes);
    uint64_t max_depth = 0, max_nodes = 0;
    for (int i = 0; depth && nodes && i < suite->n; i++) {
        const struct tactics_line *l = &suite->lines[i];
        if (!in_row(l, k)) continue;
        n++;
        wrong += runs[i].wrong;
        if (!runs[i].solved) continue;
        if (l->win) {
            depth[won++] = (uint64_t)runs[i].depth;
            slow += runs[i].depth > l->plies + 2;
            if ((uint64_t)runs[i].depth > max_depth) max_depth = (uint64_t)runs[i].depth;
        }
        nodes[solved++] = runs[i].nodes;
        if (runs[i].nodes > max_nodes) max_nodes = runs[i].nodes;
    }
    if (n) {
        char label[96], md[24] = "-", xd[24] = "-", sl[24] = "-", a[24], b[24];
        if (!k->variant)
            snprintf(label, sizeof label, "| all | | |");
        else if (k->win)
            snprintf(label, sizeof label, "| %s | %s | %d |", k->variant,
                     k->kind[0] ? k->kind : "-", k->plies);
        else
            snprintf(label, sizeof label, "| %s | none | - |", k->variant);
        if (k->variant && k->win) {
            snprintf(md, sizeof md, "%llu", (unsigned long long)median(depth, won));
            snprintf(xd, sizeof xd, "%llu", (unsigned long long)max_depth);
        }
        if (!k->variant || k->win) snprintf(sl, sizeof sl, "%d", slow);
        fprintf(out, "%s %d | %d | %d | %s | %s | %s | %s | %s |\n", label, n, solved, wrong, md,
                xd, sl, short_count(median(nodes, solved), a, sizeof a),
                short_count(max_nodes, b, sizeof b));
    }
    free(depth);
    free(nodes);
}

/* Prints the summary table of a suite's search runs as Markdown (see tactics.h). */
void tactics_table(FILE *out, const struct tactics_suite *suite, const struct tactics_run *runs) {
    fprintf(out, "| variant | kind | plies | lines | solved | wrong | median depth | max depth | "
                 "depth > plies+2 | median nodes | max nodes |\n");
    fprintf(out, "|---|---|---|---|---|---|---|---|---|---|---|\n");
    /* rows in the order the (variant, win, kind, plies) keys first appear, sorted */
    struct row_key *keys = malloc((size_t)(suite->n + 1) * sizeof *keys);
    int nk = 0;
    if (!keys) return;
    for (int i = 0; i < suite->n; i++) {
        const struct tactics_line *l = &suite->lines[i];
        struct row_key k = {l->variant, l->kind, l->win, l->plies};
        bool seen = false;
        for (int j = 0; j < nk && !seen; j++) seen = in_row(l, &keys[j]);
        if (!seen) keys[nk++] = k;
    }
    /* sort: variant, wins before none, kind, plies */
    for (int a = 1; a < nk; a++)
        for (int b = a; b > 0; b--) {
            struct row_key *x = &keys[b - 1], *y = &keys[b];
            int c = strcmp(x->variant, y->variant);
            if (!c) c = (int)y->win - (int)x->win;
            if (!c && x->win) c = strcmp(x->kind, y->kind);
            if (!c) c = x->plies - y->plies;
            if (c <= 0) break;
            struct row_key t = *x;
            *x = *y;
            *y = t;
        }
    for (int j = 0; j < nk; j++) print_row(out, suite, runs, &keys[j]);
    print_row(out, suite, runs, &(struct row_key){0});
    free(keys);
}

/* Counts the win lines and those with a win of any length shown early (see tactics.h). */
void tactics_won_early(const struct tactics_suite *suite, const struct tactics_run *runs,
                       int *lines, int *won) {
    *lines = *won = 0;
    for (int i = 0; i < suite->n; i++) {
        const struct tactics_line *l = &suite->lines[i];
        if (!l->win) continue;
        (*lines)++;
        *won += runs[i].first_depth && !runs[i].wrong && runs[i].first_depth <= l->plies + 2;
    }
}

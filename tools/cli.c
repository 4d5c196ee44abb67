/* Game options shared by the tafl commands, and board diagrams. */
#include "tools/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HNEFI_DATA_REL
#define HNEFI_DATA_REL "../share/hnefi" /* the data directory from the program's directory */
#endif

#include "book/zio.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/variant_text.h"
#include "selfplay/datagen.h"
#include "tools/proto_session.h"

#define CLI_RULES_USAGE                                                                            \
    "  --variant V      copenhagen (default), fetlar, tablut, linnaeus, brandubh; 13x13\n"         \
    "                   copenhagen13 and 19x19 alea (Alea Evangelii), on the wide build\n"         \
    "  --rules S        an OpenTafl rules string instead of a named variant\n"                     \
    "  --rule K=V       change one rule option (see docs/rules.md), repeatable\n"

const char cli_rules_usage[] = CLI_RULES_USAGE;

const char cli_game_usage[] =
    CLI_RULES_USAGE "  --fen F          start from this position (rows top first, then a or d)\n"
                    "  --moves \"M...\"   play these moves first (d1d3, d1-d3 or d1-d3xd4)\n";

const char cli_eval_usage[] =
    "  --eval nnue|classic  the learned evaluation (default, where the variant has a network)\n"
    "                   or the classical one\n"
    "  --net FILE       search with this network (docs/nnue.md) instead of the built-in one\n";

/* Returns the network to search v with, or NULL for the classical evaluation. */
const struct nnue_net *cli_eval_net(const struct cli_eval *e, const struct variant *v) {
    if (e->classic) return NULL;
    char err[200];
    if (e->have_net && nnue_fits(&e->net, v, err, sizeof err)) return &e->net;
    return nnue_builtin(v);
}

/* Reads a network file for variant v into *net (it must fit v); false with the reason in err. */
bool cli_net_read(struct nnue_net *net, const char *path, const struct variant *v, char *err,
                  size_t errlen) {
    struct nnue_net n = {0};
    char why[200];
    if (!nnue_load_file(&n, path, err, errlen)) return false;
    if (!nnue_fits(&n, v, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        nnue_free(&n);
        return false;
    }
    *net = n;
    return true;
}

/* Makes net (read from path by cli_net_read) e's network; e owns it from now on. */
void cli_eval_adopt(struct cli_eval *e, struct nnue_net *net, const char *path) {
    nnue_free(&e->net);
    e->net = *net;
    memset(net, 0, sizeof *net);
    e->have_net = true;
    snprintf(e->net_path, sizeof e->net_path, "%s", path);
}

/* Reads a network file for variant v; on failure the choice stays as it was. */
bool cli_eval_load(struct cli_eval *e, const char *path, const struct variant *v, char *err,
                   size_t errlen) {
    struct nnue_net n;
    if (!cli_net_read(&n, path, v, err, errlen)) return false;
    cli_eval_adopt(e, &n, path);
    return true;
}

/* Sets the evaluation by name ("nnue" or "classic"); false if the name is neither. */
bool cli_eval_set_kind(struct cli_eval *e, const char *name) {
    if (strcmp(name, "classic") != 0 && strcmp(name, "nnue") != 0) return false;
    e->classic = strcmp(name, "classic") == 0;
    e->nnue = !e->classic;
    return true;
}

/* Tells whether --eval nnue was asked for and no network serves v. */
bool cli_eval_missing(const struct cli_eval *e, const struct variant *v) {
    return e->nnue && !cli_eval_net(e, v);
}

/* Returns a short description of what cli_eval_net gives for v. */
const char *cli_eval_describe(const struct cli_eval *e, const struct variant *v, char *out,
                              size_t outlen) {
    const struct nnue_net *n = cli_eval_net(e, v);
    if (!n)
        snprintf(out, outlen, "classical evaluation%s",
                 e->classic ? "" : " (no network for this variant)");
    else if (n == &e->net)
        snprintf(out, outlen, "network %s", e->net_path);
    else
        snprintf(out, outlen, "built-in network for %s", n->variant);
    return out;
}

/* Frees a loaded network. */
void cli_eval_free(struct cli_eval *e) {
    nnue_free(&e->net);
    e->have_net = false;
}

/* Sets g to the default: Copenhagen from its start position. */
void cli_game_init(struct cli_game *g) {
    memset(g, 0, sizeof *g);
    g->variant = *variant_by_name("copenhagen");
}

/* Returns the value of an option that needs one, or NULL after printing an error. */
static const char *option_value(int argc, char **argv, int *i) {
    if (*i + 1 >= argc) {
        fprintf(stderr, "hnefi: option %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/*
 * If argv[*i] is a game option, consumes it (and its value) and returns 1; returns 0 if it is not
 * one, -1 after printing an error.
 */
int cli_game_option(struct cli_game *g, int argc, char **argv, int *i) {
    const char *opt = argv[*i], *val;
    char err[200];
    if (strcmp(opt, "--variant") == 0) {
        if (!(val = option_value(argc, argv, i))) return -1;
        const struct variant *v = variant_by_name(val);
        if (!v) {
            char names[200];
            variant_names(names, sizeof names);
            fprintf(stderr, "hnefi: unknown variant '%s' (%s)\n", val, names);
            return -1;
        }
        g->variant = *v;
        return 1;
    }
    if (strcmp(opt, "--rules") == 0) {
        if (!(val = option_value(argc, argv, i))) return -1;
        if (!opentafl_read_rules(&g->variant, val, err, sizeof err)) {
            fprintf(stderr, "hnefi: %s\n", err);
            return -1;
        }
        return 1;
    }
    if (strcmp(opt, "--rule") == 0) {
        if (!(val = option_value(argc, argv, i))) return -1;
        const char *eq = strchr(val, '=');
        if (!eq || eq == val) {
            fprintf(stderr, "hnefi: --rule '%s': expected key=value\n", val);
            return -1;
        }
        char key[40];
        snprintf(key, sizeof key, "%.*s", (int)(eq - val), val);
        if (!variant_set_option(&g->variant, key, eq + 1, err, sizeof err)) {
            fprintf(stderr, "hnefi: --rule: %s\n", err);
            return -1;
        }
        return 1;
    }
    if (strcmp(opt, "--fen") == 0) {
        if (!(g->fen = option_value(argc, argv, i))) return -1;
        return 1;
    }
    if (strcmp(opt, "--moves") == 0) {
        if (!(g->moves = option_value(argc, argv, i))) return -1;
        return 1;
    }
    return 0;
}

/* Builds the game from the options; prints an error and returns false on bad input. */
bool cli_game_finish(struct cli_game *g) {
    char err[200];
    struct position start;
    if (g->fen) {
        if (!fen_parse(&start, &g->variant, g->fen, err, sizeof err)) {
            fprintf(stderr, "hnefi: --fen: %s\n", err);
            return false;
        }
    } else {
        pos_init_start(&start, &g->variant);
    }
    g->game = tafl_new(&g->variant);
    if (!g->game) {
        fprintf(stderr, "hnefi: out of memory\n");
        return false;
    }
    tafl_reset(g->game, &start);
    if (g->moves) {
        char buf[MOVE_TEXT_MAX];
        const char *s = g->moves;
        int ply = 0;
        while (*s) {
            while (*s == ' ' || *s == ',' || *s == '\t') s++;
            if (!*s) break;
            size_t len = strcspn(s, " ,\t");
            snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1),
                     s);
            ply++;
            if (len >= sizeof buf || !tafl_play_text(g->game, buf, err, sizeof err)) {
                if (len >= sizeof buf) snprintf(err, sizeof err, "move '%.20s...' is too long", s);
                fprintf(stderr, "hnefi: --moves: ply %d: %s\n", ply, err);
                return false;
            }
            s += len;
        }
    }
    return true;
}

/* Frees the game. */
void cli_game_free(struct cli_game *g) {
    tafl_free(g->game);
    g->game = NULL;
}

/* Writes what a whole number in [lo, hi] may be: "from lo to hi", ", lo or more", "at most hi". */
void cli_range_text(long long lo, long long hi, bool above, char *out, size_t outlen) {
    if (hi < CLI_INT_CAP)
        snprintf(out, outlen, " from %lld to %lld", lo, hi);
    else if (above)
        snprintf(out, outlen, " of at most %lld", hi);
    else
        snprintf(out, outlen, ", %lld or more", lo);
}

/* Reads the value of --param at argv[*i] into p and steps over it; false after printing why. */
bool cli_param(int argc, char **argv, int *i, struct search_params *p, const char *cmd) {
    char err[160];
    if (*i + 1 >= argc || !search_params_parse(p, argv[*i + 1], err, sizeof err)) {
        if (*i + 1 >= argc) snprintf(err, sizeof err, "option --param needs NAME=VALUE");
        fprintf(stderr, "%s: --param: %s\n", cmd, err);
        return false;
    }
    ++*i;
    return true;
}

/* Reads a whole decimal number in [lo, hi]; prints an error naming what and returns false. */
bool cli_parse_int(const char *text, long lo, long hi, const char *what, long *out) {
    char *end, range[64];
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno || v < lo || v > hi) {
        bool above = *text && !*end && v > 0 && (errno == ERANGE || v > hi);
        cli_range_text(lo, hi, above, range, sizeof range);
        fprintf(stderr, "hnefi: %s '%s': expected a whole number%s\n", what, text, range);
        return false;
    }
    *out = v;
    return true;
}

/* Prints the board of p as a diagram with coordinates to out. */
void cli_fprint_board(FILE *out, const struct position *p) {
    const struct variant *v = p->v;
    int n = v->size;
    for (int rank = n - 1; rank >= 0; rank--) {
        fprintf(out, "%3d ", rank + 1);
        for (int file = 0; file < n; file++) {
            int sq = rank * n + file;
            enum piece pc = pos_piece_at(p, sq);
            bool special = bb_has(p->spec, sq); /* a commander or a knight */
            char c = pc == PIECE_ATTACKER         ? (special ? 'c' : 'a')
                     : pc == PIECE_DEFENDER       ? (special ? 'n' : 'd')
                     : pc == PIECE_KING           ? 'K'
                     : sq == v->throne_sq         ? '^'
                     : bb_has(v->corner_mask, sq) ? '+'
                     : bb_has(v->forts, sq)       ? '#'
                                                  : '.';
            fprintf(out, " %c", c);
        }
        fprintf(out, "\n");
    }
    fprintf(out, "    ");
    for (int file = 0; file < n; file++) fprintf(out, " %c", 'a' + file);
    fprintf(out, "\n");
}

/* Prints the board of p as a diagram with coordinates. */
void cli_print_board(const struct position *p) {
    cli_fprint_board(stdout, p);
}

/* Reads an evaluation weights file into *w, which changes only on success. */
bool cli_load_weights(struct eval_weights *w, const char *path, const char *who) {
    char err[300];
    size_t len;
    char *text = zio_read_text(path, &len, err, sizeof err);
    if (!text) {
        fprintf(stderr, "%s: %s\n", who, err);
        return false;
    }
    struct eval_weights read = *w;
    bool ok = eval_weights_parse(&read, text, err, sizeof err);
    if (ok)
        *w = read;
    else
        fprintf(stderr, "%s: file %s: %s\n", who, path, err);
    free(text);
    return ok;
}

/* Tells whether a file can be written at path; a file the check creates is removed again. */
bool cli_check_writable(const char *path, const char *who) {
    bool existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s: %s\n", who, path, strerror(errno));
        return false;
    }
    fclose(f);
    if (!existed) unlink(path);
    return true;
}

/* Returns hnefi's data directory: $HNEFI_DATA, else HNEFI_DATA_REL from the program's directory. */
const char *cli_data_dir(void) {
    static char dir[4096 + 256];
    const char *env = getenv("HNEFI_DATA");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    char exe[4096], real[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return "";
    *slash = '\0';
    snprintf(dir, sizeof dir, "%s/%s", exe, HNEFI_DATA_REL);
    if (realpath(dir, real)) snprintf(dir, sizeof dir, "%s", real);
    return dir;
}

/* Finds an input file: as given (a path, or a name that exists here), else in the data dir. */
bool cli_data_file(const char *name, const char *what, char *out, size_t outlen) {
    if (strchr(name, '/') || access(name, F_OK) == 0) {
        snprintf(out, outlen, "%s", name);
        return true;
    }
    const char *dir = cli_data_dir();
    if (*dir && *name) {
        snprintf(out, outlen, "%s/%s", dir, name);
        if (access(out, F_OK) == 0) return true;
    }
    const char *env = getenv("HNEFI_DATA");
    fprintf(stderr, "hnefi: %s '%s': no such file here, nor in hnefi's data directory %s%s\n", what,
            name, *dir ? dir : "(unknown)", env && *env ? " (HNEFI_DATA)" : "");
    return false;
}

/* Sets *out to the variant a training-data file holds; 0, 1 after printing why, or
   PROTO_SWITCH when only the other build (as ho knows the two) plays it. */
int cli_data_variant(const char *cmd, const char *path, struct variant *out,
                     const struct proto_handoff *ho) {
    char err[600], name[40], rules[DATAGEN_HEADER_MAX], why[200];
    if (datagen_file_variant(path, out, err, sizeof err)) return 0;
    bool (*known)(const char *) = ho->variant_known[!HNEFI_WIDE];
    bool (*rules_ok)(const char *, char *, size_t) = ho->rules_ok[!HNEFI_WIDE];
    if (datagen_file_names(path, name, sizeof name, rules, sizeof rules, why, sizeof why) &&
        ((known && known(name)) || (rules[0] && rules_ok && rules_ok(rules, why, sizeof why))))
        return PROTO_SWITCH;
    fprintf(stderr, "hnefi %s: %s\n", cmd, err);
    return 1;
}

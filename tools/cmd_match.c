/* hnefi match and hnefi selfplay: tournaments between hnefi configurations and external engines. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/zio.h"
#include "selfplay/match.h"
#include "selfplay/match_mpi.h"
#include "tools/cli.h"
#include "tools/cli_book.h"
#include "tools/cmd_match.h"
#include "tools/report.h"
#include "tools/uci_client.h"

/* Everything the command line sets. */
struct match_args {
    const char *cmd; /* "match" or "selfplay" */
    struct cli_game g;
    struct player_spec players[MATCH_MAX_PLAYERS];
    struct uci_engine engines[MATCH_MAX_PLAYERS];
    bool tc_given[MATCH_MAX_PLAYERS];
    struct cli_eval evals[MATCH_MAX_PLAYERS]; /* in-process players' evaluations */
    const char *net_paths[MATCH_MAX_PLAYERS];
    const char *weights_paths[MATCH_MAX_PLAYERS]; /* read after the arguments: a file problem */
    const char *book_names[MATCH_MAX_PLAYERS];    /* in-process players' books, read later */
    struct book books[MATCH_MAX_PLAYERS];
    char engine_text[MATCH_MAX_PLAYERS][1024]; /* external players in the records' settings */
    const char *inproc_key[MATCH_MAX_PLAYERS]; /* a key only an in-process player takes, if given */
    int nplayers;
    struct time_control tc;
    struct opening_set openings;
    const char *openings_path, *report;
    bool progress, quiet, tty;
    bool random_plies_given;
    long concurrency;
    struct match_config cfg;
};

static const char match_usage[] =
    "usage: hnefi %s [options] [--player KEY=VALUE... ]...\n"
    "Plays a tournament: every opening twice with the sides swapped, games in parallel, Elo\n"
    "with its interval, LOS, and an optional pentanomial SPRT (docs/selfplay.md).\n"
    "Players (%s):\n"
    "  --player KEY=VALUE...  one player; its keys follow as separate arguments:\n"
    "      name=NAME          a name for tables and records (letters, digits, . _ + - :)\n"
    "      tc=TC              its time control (default: --tc)\n"
    "      cmd=COMMAND        an external engine speaking the UCI-like protocol\n"
    "      option.NAME=VALUE  an option set on the external engine\n"
    "      threads=N hash=MiB null-move=on|off lmr=on|off weights=FILE   (in-process hnefi)\n"
    "      param.NAME=V       a search parameter (search/params.h, docs/search.md)\n"
    "      eval=nnue|classic net=FILE   the evaluation (default: the variant's network)\n"
    "      book=FILE          play from this opening book first (docs/book.md; default: the\n"
    "                         variant's shipped book); book-depth=N (no book move from ply\n"
    "                         N on), book-variety=best|weighted, book-seed=S\n"
    "Tournament:\n"
    "  --games N          games per pair of players, even (default 100)\n"
    "  --gauntlet         the first player against each other one (default: round robin)\n"
    "  --concurrency N    games at once (default: the number of cores)\n"
    "  --tc TC            nodes:N, depth:N, movetime:MS or BASE+INC in seconds (default "
    "nodes:1000)\n"
    "  --openings FILE    opening lines (plain or .zst; a bare name not found here is looked\n"
    "                     up in the data directory, hnefi --version); default: random plies\n"
    "  --shuffle          take the file's openings in a seeded random order\n"
    "  --random-plies N   plies of each random opening (default 8)\n"
    "  --seed S           seed of the openings (default 1)\n"
    "  --max-plies N      adjudicate a draw after N plies (default 700; 0: never)\n"
    "  --max-quiet N      adjudicate a draw after N plies without a capture (default: never)\n"
    "  --resign M:S       a side loses when for M moves each it scored <= -S and the other >= S\n"
    "  --draw M:S[:P]     a draw when for M moves each both scored within +-S (after ply P)\n"
    "  --time-margin MS   time a player may overstep before losing (default 100)\n"
    "  --hang S           seconds a nodes/depth move may take before it counts as a hang (60)\n"
    "  --scoring games|tablut   score pairs by games, or as a Tablut match (pieces decide 1-1)\n"
    "  --sprt elo0=E0,elo1=E1[,alpha=A,beta=B,min-games=G]   stop when the SPRT decides\n"
    "                     (alpha and beta 0.05; no decision before G games, default 40,\n"
    "                     nor before 20 pairs have not split 1-1)\n"
    "Output:\n"
    "  --records FILE     append each game as a zstd frame; an existing file is resumed\n"
    "  --datagen FILE     training data: positions, scores and results (docs/records.md)\n"
    "  --report FILE.svg  a picture of score, Elo interval and LLR against games\n"
    "  --no-sync          do not sync records to disk after each game\n"
    "  --progress         a progress line per game on stderr (default: only on a terminal)\n"
    "  --quiet            no progress\n"
    "Game options:\n%s";

/* Prints the usage of the command (the rules options only: games start at the start). */
static void print_usage(const char *cmd) {
    printf(match_usage, cmd,
           strcmp(cmd, "selfplay") == 0
               ? "default: two in-process hnefi players, hnefi-a and hnefi-b"
               : "at least two",
           cli_rules_usage);
}

/* Reads an on/off value. */
static bool on_off(const char *key, const char *value, bool *out) {
    if (strcmp(value, "on") == 0 || strcmp(value, "true") == 0 || strcmp(value, "1") == 0)
        *out = true;
    else if (strcmp(value, "off") == 0 || strcmp(value, "false") == 0 || strcmp(value, "0") == 0)
        *out = false;
    else {
        fprintf(stderr, "hnefi: player %s='%s': expected on or off\n", key, value);
        return false;
    }
    return true;
}

/* Reads one key of an in-process hnefi player (threads, hash, null-move, lmr). */
static bool inproc_key(struct player_spec *p, const char *key, const char *val) {
    long n;
    if (strcmp(key, "threads") == 0) {
        if (!cli_parse_int(val, 1, SEARCH_MAX_THREADS, "player threads", &n)) return false;
        p->opt.threads = (int)n;
    } else if (strcmp(key, "hash") == 0) {
        if (!cli_parse_int(val, 1, 65536, "player hash", &n)) return false;
        p->hash_mib = (size_t)n;
    } else if (strcmp(key, "null-move") == 0) {
        return on_off(key, val, &p->opt.null_move);
    } else {
        return on_off(key, val, &p->opt.lmr);
    }
    return true;
}

/* Reads one KEY=VALUE of a player; false after printing why. */
static bool player_key(struct match_args *a, int k, const char *arg) {
    struct player_spec *p = &a->players[k];
    struct uci_engine *e = &a->engines[k];
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(stderr, "hnefi: player argument '%s': expected KEY=VALUE\n", arg);
        return false;
    }
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(eq - arg < 63 ? eq - arg : 63), arg);
    const char *val = eq + 1;
    char err[300];
    if (strcmp(key, "name") == 0) {
        if (!player_name_valid(val)) {
            fprintf(stderr,
                    "hnefi: player name '%s': use 1 to %d letters, digits and . _ + - : only\n",
                    val, PLAYER_NAME_MAX - 1);
            return false;
        }
        snprintf(p->name, sizeof p->name, "%s", val);
    } else if (strcmp(key, "tc") == 0) {
        if (!tc_parse(&p->tc, val, err, sizeof err)) {
            fprintf(stderr, "hnefi: player tc: %s\n", err);
            return false;
        }
        a->tc_given[k] = true;
    } else if (strcmp(key, "cmd") == 0) {
        if (!*val) {
            fprintf(stderr, "hnefi: player cmd: empty command\n");
            return false;
        }
        e->cmd = val;
        p->create = uci_player_create;
        p->ext = e;
    } else if (strncmp(key, "option.", 7) == 0 && key[7]) {
        if (e->nopts == UCI_CLIENT_MAX_OPTIONS) {
            fprintf(stderr, "hnefi: player: more than %d options\n", UCI_CLIENT_MAX_OPTIONS);
            return false;
        }
        char *name = strdup(key + 7); /* the name ends at '=': keep a copy */
        if (!name) return false;
        e->opt_name[e->nopts] = name;
        e->opt_value[e->nopts++] = val;
    } else if (strncmp(key, "param.", 6) == 0 && key[6]) {
        char item[128];
        snprintf(item, sizeof item, "%s=%s", key + 6, val);
        if (!search_params_parse(&p->opt.params, item, err, sizeof err)) {
            fprintf(stderr, "hnefi: player %s\n", err);
            return false;
        }
        if (!a->inproc_key[k]) a->inproc_key[k] = arg;
    } else if (!strcmp(key, "threads") || !strcmp(key, "hash") || !strcmp(key, "null-move") ||
               !strcmp(key, "lmr") || !strcmp(key, "weights")) {
        if (strcmp(key, "weights") == 0)
            a->weights_paths[k] = val; /* read once the arguments are */
        else if (!inproc_key(p, key, val))
            return false;
        if (!a->inproc_key[k]) a->inproc_key[k] = arg; /* kept for a refusal with cmd= */
    } else if (strcmp(key, "eval") == 0) {
        if (!cli_eval_set_kind(&a->evals[k], val)) {
            fprintf(stderr, "hnefi: player eval='%s': expected nnue or classic\n", val);
            return false;
        }
        if (!a->inproc_key[k]) a->inproc_key[k] = arg;
    } else if (strcmp(key, "net") == 0) {
        a->net_paths[k] = val; /* read once the variant is known */
        if (!a->inproc_key[k]) a->inproc_key[k] = arg;
    } else if (strcmp(key, "book") == 0) {
        if (!*val) {
            fprintf(stderr, "hnefi: player book: a book file (or default) is needed\n");
            return false;
        }
        a->book_names[k] = val; /* read once the variant is known */
        if (!a->inproc_key[k]) a->inproc_key[k] = arg;
    } else if (strcmp(key, "book-depth") == 0 || strcmp(key, "book-seed") == 0) {
        long n;
        if (!cli_parse_int(val, 0, strcmp(key, "book-seed") == 0 ? 2147483647L : MAX_GAME_PLIES,
                           strcmp(key, "book-seed") == 0 ? "player book-seed" : "player book-depth",
                           &n))
            return false;
        if (strcmp(key, "book-seed") == 0)
            p->book_seed = (uint64_t)n;
        else
            p->book_play.max_ply = (int)n;
        if (!a->inproc_key[k]) a->inproc_key[k] = arg;
    } else if (strcmp(key, "book-variety") == 0) {
        if (!cli_book_variety(val, &p->book_play.variety)) {
            fprintf(stderr, "hnefi: player book-variety='%s': expected best or weighted\n", val);
            return false;
        }
        if (!a->inproc_key[k]) a->inproc_key[k] = arg;
    } else {
        fprintf(stderr,
                "hnefi: player key '%s': expected name, tc, cmd, option.NAME, threads, hash, "
                "null-move, lmr, param.NAME, weights, eval, net, book, book-depth, "
                "book-variety or book-seed\n",
                key);
        return false;
    }
    return true;
}

/* Reads "--sprt elo0=E0,elo1=E1[,alpha=A,beta=B,min-games=G]"; false after printing why. */
static bool parse_sprt(struct match_config *c, const char *text) {
    double val[5] = {NAN, NAN, 0.05, 0.05, 2 * SPRT_MIN_PAIRS};
    static const char *const keys[5] = {"elo0", "elo1", "alpha", "beta", "min-games"};
    char buf[200], err[200];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '='), *end;
        int k = 0;
        if (eq) {
            *eq = '\0';
            while (k < 5 && strcmp(tok, keys[k]) != 0) k++;
        }
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || k == 5 || end == eq + 1 || *end) {
            fprintf(stderr,
                    "hnefi: --sprt '%s': expected elo0=E0,elo1=E1[,alpha=A,beta=B,min-games=G] "
                    "with numbers\n",
                    text);
            return false;
        }
        val[k] = v;
    }
    if (isnan(val[0]) || isnan(val[1])) {
        fprintf(stderr, "hnefi: --sprt '%s': elo0 and elo1 are needed\n", text);
        return false;
    }
    if (!(val[4] >= 0 && val[4] <= 1e9)) {
        fprintf(stderr, "hnefi: --sprt min-games=%g: expected 0 to 1e9\n", val[4]);
        return false;
    }
    if (!sprt_init(&c->sprt, val[0], val[1], val[2], val[3], err, sizeof err)) {
        fprintf(stderr, "hnefi: --sprt: %s\n", err);
        return false;
    }
    c->sprt.min_pairs = (int64_t)(val[4] + 1) / 2;
    c->use_sprt = true;
    return true;
}

/* Reads "A:B[:C]" whole numbers (at least need of them); false after printing why. */
static bool parse_triple(const char *opt, const char *text, int need, long out[3]) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    int k = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ":", &save); tok;
         tok = strtok_r(NULL, ":", &save)) {
        char *end;
        errno = 0;
        long v = k < 3 ? strtol(tok, &end, 10) : -1;
        if (k == 3 || *end || errno || v < 0 || v > 100000) {
            k = -1;
            break;
        }
        out[k++] = v;
    }
    if (k < need || (k > 0 && out[0] < 1)) {
        fprintf(stderr, "hnefi: %s '%s': expected MOVES:SCORE%s, whole numbers, MOVES >= 1\n", opt,
                text, need == 2 && strcmp(opt, "--draw") == 0 ? "[:PLY]" : "");
        return false;
    }
    return true;
}

/* Returns the value of an option, or NULL after printing that it is missing. */
static const char *value_of(int argc, char **argv, int *i) {
    if (*i + 1 >= argc) {
        fprintf(stderr, "hnefi: option %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/* Reads a number option into *out within [lo, hi]. */
static bool num_value(int argc, char **argv, int *i, long lo, long hi, long *out) {
    const char *name = argv[*i], *v = value_of(argc, argv, i);
    return v && cli_parse_int(v, lo, hi, name, out);
}

/* Adds a player with its defaults; false if there are too many. */
static bool add_player(struct match_args *a) {
    if (a->nplayers == MATCH_MAX_PLAYERS) {
        fprintf(stderr, "hnefi: at most %d players\n", MATCH_MAX_PLAYERS);
        return false;
    }
    int k = a->nplayers++;
    char name[PLAYER_NAME_MAX];
    snprintf(name, sizeof name, "player%d", k + 1);
    player_spec_search(&a->players[k], name);
    return true;
}

/* Reads the tournament options (everything but the game options); returns 0, 1 or 2 (usage). */
static int tournament_option(struct match_args *a, int argc, char **argv, int *i) {
    const char *o = argv[*i], *v;
    struct match_config *c = &a->cfg;
    char err[300];
    long n, t[3] = {0, 0, 0};
    if (strcmp(o, "--games") == 0) {
        if (!(v = value_of(argc, argv, i))) return 2;
        char *end;
        errno = 0;
        n = strtol(v, &end, 10);
        if (!*v || *end || errno || n < 2 || n > (1L << 36) || n % 2) {
            bool above = *v && !*end && n > 0 && (errno == ERANGE || n > (1L << 36));
            if (above)
                fprintf(stderr, "hnefi: --games '%s': at most %ld\n", v, 1L << 36);
            else
                fprintf(stderr,
                        "hnefi: --games '%s': expected an even number, 2 or more (each opening "
                        "is played twice)\n",
                        v);
            return 2;
        }
        c->games = n;
    } else if (strcmp(o, "--concurrency") == 0) {
        if (!num_value(argc, argv, i, 1, 1024, &a->concurrency)) return 2;
    } else if (strcmp(o, "--tc") == 0) {
        if (!(v = value_of(argc, argv, i))) return 2;
        if (!tc_parse(&a->tc, v, err, sizeof err)) {
            fprintf(stderr, "hnefi: --tc: %s\n", err);
            return 2;
        }
    } else if (strcmp(o, "--openings") == 0) {
        if (!(a->openings_path = value_of(argc, argv, i))) return 2;
    } else if (strcmp(o, "--shuffle") == 0) {
        c->shuffle = true;
    } else if (strcmp(o, "--random-plies") == 0) {
        if (!num_value(argc, argv, i, 0, OPENING_MAX_PLIES, &n)) return 2;
        c->random_plies = (int)n;
        a->random_plies_given = true;
    } else if (strcmp(o, "--seed") == 0) {
        if (!(v = value_of(argc, argv, i))) return 2;
        char *end;
        errno = 0;
        unsigned long long s = strtoull(v, &end, 10);
        if (!*v || *v == '-' || *end || errno) {
            fprintf(stderr, "hnefi: --seed '%s': expected a whole number from 0\n", v);
            return 2;
        }
        c->seed = s;
    } else if (strcmp(o, "--max-plies") == 0) {
        if (!num_value(argc, argv, i, 0, MAX_GAME_PLIES, &n)) return 2;
        c->adj.max_plies = (int)n;
    } else if (strcmp(o, "--max-quiet") == 0) {
        if (!num_value(argc, argv, i, 0, MAX_GAME_PLIES, &n)) return 2;
        c->adj.max_quiet = (int)n;
    } else if (strcmp(o, "--resign") == 0) {
        if (!(v = value_of(argc, argv, i)) || !parse_triple("--resign", v, 2, t)) return 2;
        if (t[2]) {
            fprintf(stderr, "hnefi: --resign '%s': expected MOVES:SCORE\n", v);
            return 2;
        }
        c->adj.resign_moves = (int)t[0];
        c->adj.resign_score = (int)t[1];
    } else if (strcmp(o, "--draw") == 0) {
        if (!(v = value_of(argc, argv, i)) || !parse_triple("--draw", v, 2, t)) return 2;
        c->adj.draw_moves = (int)t[0];
        c->adj.draw_score = (int)t[1];
        c->adj.draw_after = (int)t[2];
    } else if (strcmp(o, "--time-margin") == 0) {
        if (!num_value(argc, argv, i, 0, 3600000, &n)) return 2;
        c->adj.time_margin_ms = n;
    } else if (strcmp(o, "--hang") == 0) {
        if (!num_value(argc, argv, i, 1, 86400, &n)) return 2;
        c->adj.hang_ms = n * 1000;
    } else if (strcmp(o, "--scoring") == 0) {
        if (!(v = value_of(argc, argv, i))) return 2;
        if (strcmp(v, "games") == 0)
            c->scoring = SCORING_GAMES;
        else if (strcmp(v, "tablut") == 0)
            c->scoring = SCORING_TABLUT;
        else {
            fprintf(stderr, "hnefi: --scoring '%s': expected games or tablut\n", v);
            return 2;
        }
    } else if (strcmp(o, "--sprt") == 0) {
        if (!(v = value_of(argc, argv, i)) || !parse_sprt(c, v)) return 2;
    } else if (strcmp(o, "--gauntlet") == 0) {
        c->format = MATCH_GAUNTLET;
    } else if (strcmp(o, "--records") == 0) {
        if (!(c->records = value_of(argc, argv, i))) return 2;
    } else if (strcmp(o, "--datagen") == 0) {
        if (!(c->datagen = value_of(argc, argv, i))) return 2;
    } else if (strcmp(o, "--report") == 0) {
        if (!(a->report = value_of(argc, argv, i))) return 2;
    } else if (strcmp(o, "--no-sync") == 0) {
        c->sync = false;
    } else if (strcmp(o, "--progress") == 0) {
        a->progress = true;
    } else if (strcmp(o, "--quiet") == 0) {
        a->quiet = true;
    } else {
        return 0;
    }
    return 1;
}

/* Reads the whole command line; returns -1 to go on, else the exit status. */
static int parse_args(struct match_args *a, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            print_usage(a->cmd);
            return 0;
        }
        if (strcmp(o, "--fen") == 0 || strcmp(o, "--moves") == 0) {
            fprintf(stderr,
                    "hnefi %s: %s is not for tournaments: games start from the variant's start "
                    "position (use --openings)\n",
                    a->cmd, o);
            return 2;
        }
        int r = cli_game_option(&a->g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (strcmp(o, "--player") == 0) {
            if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
                fprintf(stderr,
                        "hnefi %s: --player needs KEY=VALUE arguments (name=NAME, tc=TC, "
                        "cmd=COMMAND, ...: try --help)\n",
                        a->cmd);
                return 2;
            }
            if (!add_player(a)) return 2;
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
                if (!player_key(a, a->nplayers - 1, argv[++i])) return 2;
            continue;
        }
        r = tournament_option(a, argc, argv, &i);
        if (r == 2) return 2;
        if (r == 0) {
            fprintf(stderr, "hnefi %s: unknown argument '%s' (try --help)\n", a->cmd, o);
            return 2;
        }
    }
    return -1;
}

/* Prints a number of Elo, or "inf". */
static void elo_text(double e, char *out, size_t len) {
    if (isfinite(e))
        snprintf(out, len, "%+.1f", fabs(e) < 0.05 ? 0.0 : e); /* never "-0.0" */
    else
        snprintf(out, len, "%sinf", e > 0 ? "+" : "-");
}

/*
 * Writes an estimate's Elo and its interval ("+12.3 [-4.5, +29.0]"), or, when every pair scored
 * the same, the Elo and why there is no interval; under Tablut scoring (tablut) a pair is a
 * match, lost, drawn or won by the encounter's first player (name), whatever its games scored.
 */
static void elo_interval_text(const struct stats_estimate *est, const int64_t penta[STATS_PENTA],
                              bool tablut, const char *name, char *out, size_t len) {
    char elo[24], lo[24], hi[24];
    elo_text(est->elo, elo, sizeof elo);
    int bin = 0;
    while (bin < STATS_PENTA - 1 && !penta[bin]) bin++;
    if (est->units == 0) {
        snprintf(out, len, "%s, no pairs counted yet", elo);
    } else if (!stats_penta_informative(penta)) {
        snprintf(out, len, "%s, no interval: every %s, so the games carry no information yet", elo,
                 tablut ? "Tablut match was drawn" : "pair split 1-1");
    } else if (!est->spread && tablut) { /* a match is lost, drawn or won, whatever its games */
        snprintf(out, len, "%s, no interval: %s %s every Tablut match, so its error is unknown",
                 elo, name, bin == 0 ? "lost" : "won");
    } else if (!est->spread) {
        static const char *const pair_text[STATS_PENTA] = {"0-2", "1/2-3/2", "1-1", "3/2-1/2",
                                                           "2-0"};
        snprintf(out, len, "%s, no interval: every pair scored %s, so its error is unknown", elo,
                 pair_text[bin]);
    } else {
        elo_text(est->elo_lo, lo, sizeof lo);
        elo_text(est->elo_hi, hi, sizeof hi);
        snprintf(out, len, "%s [%s, %s] (95%%)", elo, lo, hi);
    }
}

/* Prints the live progress line (on a terminal it overwrites itself). */
static void on_progress(const struct match_status *st, void *ctx) {
    struct match_args *a = ctx;
    if (a->quiet || !(a->tty || a->progress)) return;
    const struct match_encounter *e = &st->enc[0];
    char elo[24], lo[24], hi[24], interval[64], left[48] = "";
    elo_text(e->est.elo, elo, sizeof elo);
    elo_text(e->est.elo_lo, lo, sizeof lo);
    elo_text(e->est.elo_hi, hi, sizeof hi);
    if (e->est.spread)
        snprintf(interval, sizeof interval, " [%s, %s]", lo, hi);
    else
        snprintf(interval, sizeof interval, " (no interval yet)");
    if (st->played > 0) {
        double secs = st->seconds * (double)(st->total - st->finished) / (double)st->played;
        snprintf(left, sizeof left, ", %s%d:%02d:%02d left", a->cfg.use_sprt ? "at most " : "",
                 (int)(secs / 3600), (int)fmod(secs / 60, 60), (int)fmod(secs, 60));
    }
    fprintf(stderr, "%s%lld/%lld games, %s %.1f%%, Elo %s%s", a->tty ? "\r" : "",
            (long long)st->finished, (long long)st->total, a->players[e->a].name,
            100 * e->est.score, elo, interval);
    if (st->use_sprt)
        fprintf(stderr, ", LLR %.2f [%.2f, %.2f]", e->llr, a->cfg.sprt.lower, a->cfg.sprt.upper);
    fprintf(stderr, "%s%s", left, a->tty ? "   " : "\n");
    fflush(stderr);
}

/* Prints a note (resume, dropped record, a player's fault) on its own line. */
static void on_note(const char *text, void *ctx) {
    struct match_args *a = ctx;
    fprintf(stderr, "%shnefi: %s\n", a->tty && !a->quiet ? "\r" : "", text);
}

/* Prints one encounter's results. */
static void print_encounter(const struct match_args *a, const struct match_encounter *e) {
    const char *na = a->players[e->a].name, *nb = a->players[e->b].name;
    int64_t w = e->wdl[0][0] + e->wdl[1][0], d = e->wdl[0][1] + e->wdl[1][1],
            l = e->wdl[0][2] + e->wdl[1][2];
    char elo[160];
    elo_interval_text(&e->est, e->penta, a->cfg.scoring == SCORING_TABLUT, na, elo, sizeof elo);
    printf("%s vs %s: %lld games, %s +%lld =%lld -%lld (attacking +%lld =%lld -%lld, defending "
           "+%lld =%lld -%lld)\n",
           na, nb, (long long)(w + d + l), na, (long long)w, (long long)d, (long long)l,
           (long long)e->wdl[0][0], (long long)e->wdl[0][1], (long long)e->wdl[0][2],
           (long long)e->wdl[1][0], (long long)e->wdl[1][1], (long long)e->wdl[1][2]);
    printf("  score %.1f%%, Elo %s, LOS %.1f%%\n", 100 * e->est.score, elo, 100 * e->est.los);
    printf("  pairs scoring 0, 1/2, 1, 3/2, 2: %lld %lld %lld %lld %lld%s\n",
           (long long)e->penta[0], (long long)e->penta[1], (long long)e->penta[2],
           (long long)e->penta[3], (long long)e->penta[4],
           a->cfg.scoring == SCORING_TABLUT ? " (Tablut matches: lost, drawn, won = 0, 1, 2)" : "");
    if (a->cfg.scoring == SCORING_TABLUT)
        printf("  pieces %s took %lld, lost %lld\n", na, (long long)e->taken, (long long)e->lost);
}

/* Prints the final results on stdout. */
static void print_results(const struct match_args *a, const struct match_status *st) {
    printf("%s, %lld of %lld games counted", a->g.variant.name, (long long)st->counted,
           (long long)st->total);
    if (st->resumed) printf(" (%lld resumed from the records)", (long long)st->resumed);
    printf("\n");
    for (int i = 0; i < a->nplayers; i++) {
        char tc[48];
        tc_write(&a->players[i].tc, tc, sizeof tc);
        printf("  %-16s %s%s%s\n", a->players[i].name, tc, a->players[i].ext ? ", external: " : "",
               a->players[i].ext ? a->engines[i].cmd : "");
    }
    for (int k = 0; k < st->nenc; k++) print_encounter(a, &st->enc[k]);
    if (st->use_sprt && st->nenc == 1) {
        const struct sprt *s = &a->cfg.sprt;
        printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f], %s\n", s->elo0,
               s->elo1, s->alpha, s->beta, st->enc[0].llr, s->lower, s->upper,
               st->sprt == SPRT_H1   ? "H1 accepted (elo1)"
               : st->sprt == SPRT_H0 ? "H0 accepted (elo0)"
               : st->enc[0].pairs > 0 && !stats_penta_informative(st->enc[0].penta)
                   ? (a->cfg.scoring == SCORING_TABLUT
                          ? "no decision: every Tablut match was drawn (no information yet)"
                          : "no decision: every pair split 1-1 (no information yet)")
                   : "no decision");
    }
    if (a->nplayers > 2) {
        printf("%-16s %7s %6s %6s %6s %7s %8s\n", "player", "games", "wins", "draws", "losses",
               "score", "Elo");
        for (int i = 0; i < a->nplayers; i++) {
            int64_t wdl[3] = {0, 0, 0};
            for (int k = 0; k < st->nenc; k++) {
                const struct match_encounter *e = &st->enc[k];
                if (e->a != i && e->b != i) continue;
                for (int s = 0; s < SIDE_NB; s++)
                    for (int r = 0; r < 3; r++) wdl[e->a == i ? r : 2 - r] += e->wdl[s][r];
            }
            struct stats_estimate est;
            stats_wdl_estimate(wdl[0], wdl[1], wdl[2], &est);
            char elo[24];
            elo_text(est.elo, elo, sizeof elo);
            printf("%-16s %7lld %6lld %6lld %6lld %6.1f%% %8s\n", a->players[i].name,
                   (long long)(wdl[0] + wdl[1] + wdl[2]), (long long)wdl[0], (long long)wdl[1],
                   (long long)wdl[2], 100 * est.score, elo);
        }
    }
    match_print_ends(stdout, st->ends, st->won);
    if (st->counted) printf("average game %.1f plies\n", (double)st->plies / (double)st->counted);
    if (st->played)
        printf("%lld games played in %.1f s (%.1f games per minute, %ld at once)\n",
               (long long)st->played, st->seconds, 60.0 * (double)st->played / st->seconds,
               a->concurrency);
    /* how each player used its time, over this run's games */
    for (int i = 0; i < a->nplayers; i++) {
        const struct match_times *t = &st->times[i];
        if (!t->moves) continue;
        printf("time %-16s %lld moves, %.0f ms a move on average, the longest %lld ms",
               a->players[i].name, (long long)t->moves, (double)t->used_ms / (double)t->moves,
               (long long)t->max_ms);
        if (t->limit_ms)
            printf(", %.1f%% of the move time given",
                   100.0 * (double)t->used_ms / (double)t->limit_ms);
        if (t->min_left_ms >= 0)
            printf(", at least %lld ms left on the clock", (long long)t->min_left_ms);
        printf("\n");
    }
}

/* Writes the SVG report; false after printing why. */
static bool write_report(const struct match_args *a, const struct match_status *st) {
    FILE *f = fopen(a->report, "w");
    if (!f) {
        fprintf(stderr, "hnefi: cannot write %s: %s\n", a->report, strerror(errno));
        return false;
    }
    char title[200], elo[24];
    const struct match_encounter *e = &st->enc[0];
    elo_text(e->est.elo, elo, sizeof elo);
    snprintf(title, sizeof title, "%s vs %s, %lld games: %.1f%%, Elo %s%s", a->players[e->a].name,
             a->players[e->b].name, (long long)(2 * e->pairs), 100 * e->est.score, elo,
             st->sprt == SPRT_H1   ? ", H1 accepted"
             : st->sprt == SPRT_H0 ? ", H0 accepted"
                                   : "");
    bool ok = report_write_svg(f, st->history, st->nhistory, a->cfg.use_sprt ? &a->cfg.sprt : NULL,
                               title);
    if (fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "hnefi: cannot write %s\n", a->report);
    return ok;
}

/* Returns the number of cores to use by default on this process. */
static long default_concurrency(bool mpi) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    if (mpi) cores /= match_mpi_local_ranks();
    return cores < 1 ? 1 : cores;
}

/* The shared body of match and selfplay. */
static int run(struct match_args *a, int argc, char **argv) {
    struct match_config *c = &a->cfg;
    cli_game_init(&a->g);
    a->tc.kind = TC_NODES;
    a->tc.nodes = 1000;
    c->games = 100;
    c->random_plies = 8;
    c->seed = 1;
    c->sync = true;
    adjudication_default(&c->adj);
    int rc = parse_args(a, argc, argv);
    if (rc >= 0) return rc;
    bool selfplay = strcmp(a->cmd, "selfplay") == 0;
    if (selfplay && a->nplayers == 0) {
        add_player(a);
        add_player(a);
        snprintf(a->players[0].name, PLAYER_NAME_MAX, "hnefi-a");
        snprintf(a->players[1].name, PLAYER_NAME_MAX, "hnefi-b");
    }
    if (a->nplayers < 2) {
        fprintf(stderr, "hnefi %s: give at least two players with --player (try --help)\n", a->cmd);
        return 2;
    }
    for (int i = 0; i < a->nplayers; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(a->players[i].name, a->players[j].name) == 0) {
                fprintf(stderr, "hnefi %s: two players are called %s: give each its own name\n",
                        a->cmd, a->players[i].name);
                return 2;
            }
    if (c->shuffle && !a->openings_path) {
        fprintf(stderr,
                "hnefi %s: --shuffle orders the lines of an --openings file, and none is "
                "given\n",
                a->cmd);
        return 2;
    }
    if (a->random_plies_given && a->openings_path) {
        fprintf(stderr,
                "hnefi %s: --random-plies makes random openings; with --openings the file's "
                "lines are the openings\n",
                a->cmd);
        return 2;
    }
    for (int i = 0; i < a->nplayers; i++) {
        const struct uci_engine *ext = &a->engines[i];
        if (a->players[i].ext && a->inproc_key[i]) {
            fprintf(stderr,
                    "hnefi %s: player %s: '%s' sets an in-process hnefi, not the external engine "
                    "(use option.NAME=VALUE for its options)\n",
                    a->cmd, a->players[i].name, a->inproc_key[i]);
            return 2;
        }
        if (!a->players[i].ext && ext->nopts > 0) {
            fprintf(stderr,
                    "hnefi %s: player %s: option.%s is for an external engine (cmd=...); an "
                    "in-process hnefi takes threads=, hash=, null-move=, lmr=, weights=\n",
                    a->cmd, a->players[i].name, ext->opt_name[0]);
            return 2;
        }
        if (!a->tc_given[i]) a->players[i].tc = a->tc;
        if (!a->players[i].ext) continue;
        /* an external engine in the records' settings: its command and options */
        const struct uci_engine *e = &a->engines[i];
        char *t = a->engine_text[i];
        size_t n = (size_t)snprintf(t, sizeof a->engine_text[i], "%s", e->cmd);
        for (int k = 0; k < e->nopts && n < sizeof a->engine_text[i]; k++)
            n += (size_t)snprintf(t + n, sizeof a->engine_text[i] - n, " option.%s=%s",
                                  e->opt_name[k], e->opt_value[k]);
        a->players[i].engine_text = t;
    }
    if (a->report && !cli_check_writable(a->report, "hnefi: --report")) return 1; /* not after */
    bool mpi = match_mpi_launched();
    if (!a->concurrency) a->concurrency = default_concurrency(mpi);
    if (!cli_game_finish(&a->g)) return 2;
    c->v = &a->g.variant;
    /* the players' files: one that cannot be used is exit status 1 (docs/hnefi.1) */
    for (int i = 0; i < a->nplayers; i++) {
        char why[400];
        if (a->weights_paths[i] && !cli_load_weights(&a->players[i].opt.weights,
                                                     a->weights_paths[i], "hnefi: player weights"))
            return 1;
        if (a->net_paths[i] &&
            !cli_eval_load(&a->evals[i], a->net_paths[i], c->v, why, sizeof why)) {
            fprintf(stderr, "hnefi: player %s net: %s\n", a->players[i].name, why);
            return 1;
        }
        if (cli_eval_missing(&a->evals[i], c->v)) {
            fprintf(stderr,
                    "hnefi: player %s eval=nnue: no network for %s; give net=FILE or "
                    "eval=classic\n",
                    a->players[i].name, c->v->name);
            return 2;
        }
        a->players[i].opt.net = cli_eval_net(&a->evals[i], c->v);
        if (!a->book_names[i]) continue;
        if (!cli_book_load(&a->books[i], a->book_names[i], c->v, why, sizeof why)) {
            fprintf(stderr, "hnefi: player %s book: %s\n", a->players[i].name, why);
            return 1;
        }
        if (!book_fits(&a->books[i], c->v, why, sizeof why)) {
            fprintf(stderr, "hnefi: player %s book %s: %s\n", a->players[i].name, a->book_names[i],
                    why);
            return 1;
        }
        a->players[i].book = &a->books[i];
    }
    c->players = a->players;
    c->nplayers = a->nplayers;
    c->concurrency = (int)a->concurrency;
    c->on_progress = on_progress;
    c->on_note = on_note;
    c->ctx = a;
    char err[1000];
    if (a->openings_path) {
        char path[4096];
        if (!cli_data_file(a->openings_path, "--openings", path, sizeof path)) return 1;
        if (!openings_load(&a->openings, c->v, path, err, sizeof err)) {
            fprintf(stderr, "hnefi: --openings: %s\n", err);
            return 1;
        }
        c->openings = &a->openings;
    }
    a->tty = isatty(2);
    struct match_status st;
    bool root = true;
    rc = mpi ? match_run_mpi(c, &st, &root, err, sizeof err) : match_run(c, &st, err, sizeof err);
    if (a->tty && !a->quiet && root) fprintf(stderr, "\n");
    if (rc != 0) {
        fprintf(stderr, "hnefi %s: %s\n", a->cmd, err);
        match_status_free(&st);
        return 1;
    }
    int status = 0;
    if (root) {
        print_results(a, &st);
        if (a->report && !write_report(a, &st)) status = 1;
    }
    match_status_free(&st);
    return status;
}

/* Frees what the arguments own. */
static void free_args(struct match_args *a) {
    for (int i = 0; i < a->nplayers; i++) {
        for (int k = 0; k < a->engines[i].nopts; k++) free((char *)a->engines[i].opt_name[k]);
        cli_eval_free(&a->evals[i]);
        book_free(&a->books[i]);
    }
    openings_free(&a->openings);
    cli_game_free(&a->g);
    free(a);
}

/* Runs `hnefi match ...` or `hnefi selfplay ...`. */
static int match_command(const char *cmd, int argc, char **argv) {
    struct match_args *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "hnefi: out of memory\n");
        return 1;
    }
    a->cmd = cmd;
    int rc = run(a, argc, argv);
    free_args(a);
    return rc;
}

/* Runs `hnefi match ...`: players from --player, in-process or external. */
int cmd_match(int argc, char **argv) {
    return match_command("match", argc, argv);
}

/* Runs `hnefi selfplay ...`: like match, with two in-process hnefi players by default. */
int cmd_selfplay(int argc, char **argv) {
    return match_command("selfplay", argc, argv);
}

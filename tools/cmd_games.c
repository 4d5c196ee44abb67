/* hnefi games: list, filter, convert and summarise game record files (and training data). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/zio.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "selfplay/datagen.h"
#include "selfplay/match.h"
#include "selfplay/records.h"
#include "tools/cli.h"
#include "tools/cmd_match.h"
#include "tools/proto_session.h"

enum games_action { ACT_LIST, ACT_SUMMARY, ACT_CONVERT };
enum { STATUS_NB = 4, SUMMARY_PLAYERS = 64 };

static const char *const status_names[STATUS_NB] = {"ongoing", "attackers", "defenders", "draw"};

/* The filters and the output settings. */
struct games_args {
    enum games_action action;
    const char *path, *out_path, *to;
    const char *player, *attackers, *defenders, *end;
    int result; /* -1: any */
    long min_plies, max_plies, game;
    struct cli_game g;
    bool variant_given;
    FILE *out;
    /* summary */
    int64_t games, plies, by_status[STATUS_NB], ends[MATCH_END_SLOTS], timeouts;
    int64_t won[SIDE_NB][MATCH_END_SLOTS];
    int nplayers;
    char pname[SUMMARY_PLAYERS][PLAYER_NAME_MAX];
    int64_t pwdl[SUMMARY_PLAYERS][3];
    int64_t shown;
    int64_t read, first_game, last_game; /* records read and the numbers --game can choose */
    bool extended;                       /* the numbers are tournament game numbers */
    bool game_seen;                      /* the file holds game --game (filtered out or not) */
};

static const char games_usage[] =
    "usage: hnefi games list|summary|convert FILE [options]\n"
    "Reads a game record file (plain text or zstd; tournament records or the 4-field real-game\n"
    "files), replaying every game; a damaged file is refused with the line and reason. A bare\n"
    "FILE name not found here is looked up in the data directory (hnefi --version).\n"
    "  list             one line per game: line, game, players, result, end, plies\n"
    "  summary          counts: results, ends, lengths, each player's wins/draws/losses;\n"
    "                   on a training-data file (--datagen), its games and positions\n"
    "  convert --to text|otg [--out FILE]   the games as record lines, or OpenTafl game\n"
    "                   records (.otg, one after another; pick one with --game)\n"
    "Filters:\n"
    "  --player NAME    games NAME played (either side)\n"
    "  --attackers NAME / --defenders NAME\n"
    "  --result attackers|defenders|draw|ongoing\n"
    "  --end WORD       how the game ended (escape, king_captured, max_plies, timeout, ...)\n"
    "  --min-plies N / --max-plies N\n"
    "  --game N         the tournament's game N (the line number for 4-field files)\n"
    "Game options (the variant to replay in; default: the one each record names, or\n"
    "Copenhagen; the real-game files need --rule repetition=none):\n%s";

/* Prints the usage, with the game options that choose a variant (not --fen and --moves). */
static void print_games_usage(void) {
    printf(games_usage, cli_rules_usage);
}

/* Tells whether a record passes the filters. */
static bool wanted(const struct games_args *a, const struct record *r, int64_t line) {
    int end = r->extended ? match_end_slot(r->end, r->reason) : -1;
    int64_t game = r->extended ? r->game : line;
    if (a->player && strcmp(r->players[0], a->player) != 0 && strcmp(r->players[1], a->player) != 0)
        return false;
    if (a->attackers && strcmp(r->players[0], a->attackers) != 0) return false;
    if (a->defenders && strcmp(r->players[1], a->defenders) != 0) return false;
    if (a->result >= 0 && r->result != a->result) return false;
    if (a->end && (end < 0 || strcmp(match_end_slot_word(end), a->end) != 0)) return false;
    if (r->n < a->min_plies || (a->max_plies >= 0 && r->n > a->max_plies)) return false;
    if (a->game >= 0 && game != a->game) return false;
    return true;
}

/* Returns the summary slot of a player, adding it if there is room (-1 if not). */
static int player_slot(struct games_args *a, const char *name) {
    for (int i = 0; i < a->nplayers; i++)
        if (strcmp(a->pname[i], name) == 0) return i;
    if (a->nplayers == SUMMARY_PLAYERS) return -1;
    snprintf(a->pname[a->nplayers], PLAYER_NAME_MAX, "%s", name);
    return a->nplayers++;
}

/* Writes a record's moves; otn uses OpenTafl's '/' between captures. */
static void write_moves(FILE *out, const struct record *r, int from, int to, bool otn) {
    char text[MOVE_TEXT_MAX];
    for (int i = from; i < to; i++) {
        move_write_captures(r->moves[i], r->captures[i], r->v->size, text);
        if (otn) {
            char *x = strchr(text, 'x');
            while (x && (x = strchr(x + 1, 'x'))) *x = '/';
            if (i == r->n - 1 && r->extended && r->end == PLAYED_END_RULES)
                strcat(text, r->reason == END_ESCAPE          ? "--"
                             : r->reason == END_KING_CAPTURED ? "++"
                                                              : "");
        }
        fprintf(out, "%s%s", i > from ? " " : "", text);
    }
}

/* Writes a record as its line (the 4 or 10 fields). */
static void write_line(FILE *out, const struct record *r) {
    static const char *const status[STATUS_NB] = {"Ongoing", "Black", "White", "Draw"};
    write_moves(out, r, 0, r->n, false);
    if (r->timeout) fprintf(out, "%stimeout", r->n ? " " : "");
    fprintf(out, ",%d,%d,%s", r->taken[0], r->taken[1], status[r->result & 3]);
    if (r->extended)
        fprintf(out, ",%s,%s,%s,%d,%lld,%s", r->variant, r->players[0], r->players[1],
                r->opening_plies, (long long)r->game, played_end_word(r->end, r->reason));
    fprintf(out, "\n");
}

/* Writes a record as an OpenTafl game record. */
static void write_otg(FILE *out, const struct record *r, int64_t line) {
    static const char *const result[STATUS_NB] = {"?", "1", "-1", "0"};
    char rules[1024], st[96];
    if (opentafl_write_rules(r->v, rules, sizeof rules) < 0) rules[0] = '\0';
    fprintf(out, "[event:hnefi games]\n[round:%lld]\n", (long long)(r->extended ? r->game : line));
    if (r->extended) fprintf(out, "[attackers:%s]\n[defenders:%s]\n", r->players[0], r->players[1]);
    fprintf(out, "[result:%s]\n", result[r->result & 3]);
    if (r->extended)
        fprintf(out, "[termination:%s]\n",
                r->end == PLAYED_END_RULES ? tafl_status_text(r->result, r->reason, st, sizeof st)
                                           : played_end_word(r->end, r->reason));
    fprintf(out, "[variant:%s]\n%s\n\n", r->variant, rules);
    for (int i = 0; i < r->n; i += 2) {
        fprintf(out, "%d. ", i / 2 + 1);
        write_moves(out, r, i, i + 2 < r->n ? i + 2 : r->n, true);
        fprintf(out, "\n");
    }
    if (r->timeout) fprintf(out, "(%s lost on time)\n", r->n % 2 ? "defenders" : "attackers");
    fprintf(out, "\n");
}

/* Handles one record read from the file. */
static bool on_record(const struct record *r, int64_t line, void *ctx) {
    struct games_args *a = ctx;
    int64_t number = r->extended ? r->game : line;
    if (a->read == 0 || number < a->first_game) a->first_game = number;
    if (a->read == 0 || number > a->last_game) a->last_game = number;
    a->extended |= r->extended;
    a->game_seen |= number == a->game;
    a->read++;
    if (!wanted(a, r, line)) return true;
    a->shown++;
    if (a->action == ACT_LIST) {
        int64_t game = r->extended ? r->game : -1;
        fprintf(a->out, "%6lld %6lld %-16s %-16s %-9s %-14s %4d\n", (long long)line,
                (long long)game, r->extended ? r->players[0] : "-",
                r->extended ? r->players[1] : "-", status_names[r->result & 3],
                r->extended  ? played_end_word(r->end, r->reason)
                : r->timeout ? "timeout"
                             : "-",
                r->n);
    } else if (a->action == ACT_CONVERT) {
        if (strcmp(a->to, "otg") == 0)
            write_otg(a->out, r, line);
        else
            write_line(a->out, r);
    } else {
        a->games++;
        a->plies += r->n;
        a->by_status[r->result & 3]++;
        a->timeouts += r->timeout;
        if (r->extended) {
            a->ends[match_end_slot(r->end, r->reason)]++;
            if (r->result == RESULT_ATTACKERS || r->result == RESULT_DEFENDERS)
                a->won[r->result == RESULT_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS]
                      [match_end_slot(r->end, r->reason)]++;
            for (int s = 0; s < SIDE_NB; s++) {
                int k = player_slot(a, r->players[s]);
                if (k < 0) continue;
                int winner = r->result == RESULT_ATTACKERS ? SIDE_ATTACKERS : SIDE_DEFENDERS;
                a->pwdl[k][r->result == RESULT_DRAW ? 1 : winner == s ? 0 : 2]++;
            }
        }
    }
    return !ferror(a->out);
}

/* Prints the summary of the records read. */
static void print_summary(const struct games_args *a) {
    printf("%lld games, %lld plies (%.1f per game)\n", (long long)a->games, (long long)a->plies,
           a->games ? (double)a->plies / (double)a->games : 0.0);
    printf("attackers won %lld, defenders won %lld, draws %lld, unfinished %lld",
           (long long)a->by_status[1], (long long)a->by_status[2], (long long)a->by_status[3],
           (long long)a->by_status[0]);
    if (a->timeouts) printf(", %lld lost on time", (long long)a->timeouts);
    printf("\n");
    bool any = false;
    for (int s = 0; s < MATCH_END_SLOTS; s++) any |= a->ends[s] != 0;
    if (any) match_print_ends(stdout, a->ends, a->won);
    for (int i = 0; i < a->nplayers; i++) {
        const int64_t *w = a->pwdl[i];
        int64_t n = w[0] + w[1] + w[2];
        printf("%-16s %6lld games  +%lld =%lld -%lld  %.1f%%\n", a->pname[i], (long long)n,
               (long long)w[0], (long long)w[1], (long long)w[2],
               n ? 100.0 * ((double)w[0] + 0.5 * (double)w[1]) / (double)n : 0.0);
    }
}

/* Tells whether the file is training data (its first frame holds the data magic). */
static bool is_datagen(const char *path) {
    char err[200];
    size_t size, pos = 0, flen;
    char *raw = zio_read_file(path, &size, err, sizeof err), *frame = NULL;
    bool yes = false;
    if (raw && zio_next_frame((const uint8_t *)raw, size, &pos, &frame, &flen, err, sizeof err) ==
                   ZIO_FRAME_OK)
        yes = flen >= 8 && memcmp(frame, "HNEFIDAT", 8) == 0;
    free(frame);
    free(raw);
    return yes;
}

/* Reads one option of hnefi games; returns 1 if used, 0 if unknown, -1 after an error. */
static int games_option(struct games_args *a, int argc, char **argv, int *i) {
    const char *o = argv[*i];
    const char **strs[] = {&a->out_path, &a->to, &a->player, &a->attackers, &a->defenders, &a->end};
    static const char *const names[] = {"--out",       "--to",        "--player",
                                        "--attackers", "--defenders", "--end"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strcmp(o, names[k]) == 0) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "hnefi: option %s needs a value\n", o);
                return -1;
            }
            *strs[k] = argv[++*i];
            return 1;
        }
    long *nums[] = {&a->min_plies, &a->max_plies, &a->game};
    static const char *const num_names[] = {"--min-plies", "--max-plies", "--game"};
    for (size_t k = 0; k < 3; k++)
        if (strcmp(o, num_names[k]) == 0) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "hnefi: option %s needs a value\n", o);
                return -1;
            }
            return cli_parse_int(argv[++*i], 0, 1L << 40, o, nums[k]) ? 1 : -1;
        }
    if (strcmp(o, "--result") == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "hnefi: option --result needs a value\n");
            return -1;
        }
        const char *v = argv[++*i];
        a->result = -1; /* the last --result counts, and it must be a result */
        for (int r = 0; r < STATUS_NB; r++)
            if (strcmp(v, status_names[r]) == 0) a->result = r;
        if (a->result < 0) {
            fprintf(stderr,
                    "hnefi: --result '%s': expected attackers, defenders, draw or ongoing\n", v);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* Checks the options against each other; false after printing why. */
static bool games_check(struct games_args *a) {
    int end, reason;
    if (a->end && !played_end_parse(a->end, &end, &reason)) {
        fprintf(stderr,
                "hnefi: --end '%s': not an end word (escape, king_captured, "
                "immobile_king, encircled, exit_fort, repetition, no_moves, max_plies, "
                "quiet_plies, resign, draw_agreed, timeout, hang, crash, illegal_move)\n",
                a->end);
        return false;
    }
    if (a->action == ACT_CONVERT && !a->to) {
        fprintf(stderr, "hnefi games convert: --to text or --to otg is needed\n");
        return false;
    }
    if (a->to && strcmp(a->to, "text") != 0 && strcmp(a->to, "otg") != 0) {
        fprintf(stderr, "hnefi games: --to '%s': expected text or otg\n", a->to);
        return false;
    }
    if (a->action != ACT_CONVERT && (a->to || a->out_path)) {
        fprintf(stderr, "hnefi games: --to and --out are for convert\n");
        return false;
    }
    return true;
}

/* Reads the command line of hnefi games; returns -1 to go on, else the exit status. */
static int games_parse(struct games_args *a, int argc, char **argv) {
    static const char *const actions[] = {"list", "summary", "convert"};
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_games_usage();
        return argc < 2 ? 2 : 0;
    }
    int k = 0;
    while (k < 3 && strcmp(argv[1], actions[k]) != 0) k++;
    if (k == 3) {
        fprintf(stderr, "hnefi games: unknown action '%s' (list, summary or convert)\n", argv[1]);
        return 2;
    }
    a->action = (enum games_action)k;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            print_games_usage();
            return 0;
        }
        int r = cli_game_option(&a->g, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) {
            a->variant_given = true;
            continue;
        }
        r = games_option(a, argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (argv[i][0] == '-' || a->path) {
            fprintf(stderr, "hnefi games: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
        a->path = argv[i];
    }
    if (!a->path) {
        fprintf(stderr, "hnefi games %s: a record file is needed\n", actions[k]);
        return 2;
    }
    if (a->g.fen || a->g.moves) {
        fprintf(stderr, "hnefi games: --fen and --moves do not apply to record files\n");
        return 2;
    }
    return games_check(a) ? -1 : 2;
}

/* Summarises a training-data file. */
static int games_datagen(struct games_args *a) {
    int64_t games, positions;
    char err[400];
    if (!a->variant_given) { /* the variant the file names */
        int rc = cli_data_variant("games", a->path, &a->g.variant, &hnefi_shared_handoff);
        if (rc) return rc;
    }
    if (!datagen_read(a->path, &a->g.variant, NULL, NULL, &games, &positions, err, sizeof err)) {
        fprintf(stderr, "hnefi games: %s\n", err);
        return 1;
    }
    printf("training data: %lld games, %lld positions (%zu bytes each, format version %d)\n",
           (long long)games, (long long)positions, datagen_record_size(&a->g.variant),
           datagen_version_of(&a->g.variant));
    return 0;
}

/* Runs hnefi games once the arguments are read. */
static int games_run(struct games_args *a) {
    static char path[4096];
    if (!cli_data_file(a->path, "record file", path, sizeof path)) return 1;
    a->path = path;
    if (a->action == ACT_SUMMARY && is_datagen(a->path)) return games_datagen(a);
    a->out = stdout;
    if (a->out_path && !(a->out = fopen(a->out_path, "w"))) {
        fprintf(stderr, "hnefi games: cannot write %s: %s\n", a->out_path, strerror(errno));
        return 1;
    }
    char err[800];
    struct records_refusal refused;
    bool ok = records_scan_refused(a->path, a->variant_given ? &a->g.variant : NULL, false,
                                   on_record, a, NULL, NULL, &refused, err, sizeof err);
    int rc = 0;
    const char *name = refused.variant;
    const struct proto_handoff *ho = &hnefi_shared_handoff;
    if (!ok && a->read == 0 && !a->variant_given && refused.not_built_in &&
        (name[0] ? ho->variant_known[!HNEFI_WIDE] && ho->variant_known[!HNEFI_WIDE](name)
                 : ho->rules_ok[!HNEFI_WIDE] != NULL)) {
        rc = PROTO_SWITCH; /* games the other build plays: it reads the file instead */
    } else if (!ok) {
        fprintf(stderr, "hnefi games: %s\n", ferror(a->out) ? "write error" : err);
        rc = 1;
    }
    if (a->out != stdout && fclose(a->out) != 0) {
        fprintf(stderr, "hnefi games: cannot write %s\n", a->out_path);
        rc = 1;
    }
    if (rc == PROTO_SWITCH) return rc;
    if (rc == 0 && a->game >= 0 && a->shown == 0 && !a->game_seen) {
        if (a->read == 0)
            fprintf(stderr, "hnefi games: --game %ld: %s holds no games\n", a->game, a->path);
        else
            fprintf(stderr,
                    "hnefi games: --game %ld: %s has no such game (its %s run from %lld to %lld)\n",
                    a->game, a->path, a->extended ? "game numbers" : "lines",
                    (long long)a->first_game, (long long)a->last_game);
        rc = 1;
    } else if (rc == 0 && a->shown == 0 && a->action != ACT_SUMMARY && a->game >= 0) {
        fprintf(stderr, "hnefi games: game %ld of %s does not pass the filters\n", a->game,
                a->path);
    } else if (rc == 0 && a->shown == 0 && a->action != ACT_SUMMARY) {
        fprintf(stderr, "hnefi games: none of the %lld games of %s passes the filters\n",
                (long long)a->read, a->path);
    }
    if (rc == 0 && a->action == ACT_SUMMARY) print_summary(a);
    if (rc == 0 && a->action == ACT_CONVERT && a->out_path)
        fprintf(stderr, "wrote %lld games to %s\n", (long long)a->shown, a->out_path);
    return rc;
}

/* Runs `hnefi games ...`: lists, filters, converts and summarises record files (PROTO_SWITCH:
   the file holds games of a variant only the other build has, which should run it instead). */
int cmd_games(int argc, char **argv) {
    struct games_args *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "hnefi: out of memory\n");
        return 1;
    }
    a->result = -1;
    a->max_plies = -1;
    a->game = -1;
    cli_game_init(&a->g);
    int rc = games_parse(a, argc, argv);
    if (rc < 0) rc = games_run(a);
    cli_game_free(&a->g);
    free(a);
    return rc;
}

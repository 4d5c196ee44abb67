/* The opening book in the front ends: shipped books, the default switch, names, printing. */
#include "tools/cli_book.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/notation.h"
#include "search/score.h"
#include "tools/cli.h"

/*
 * THE SWITCH: whether hnefi as an engine uses each shipped book when no book is named. Off
 * until the strength measurement of docs/book.md shows a gain; set `on` to true to turn one on.
 */
static const struct cli_book_default cli_book_defaults[] = {
    {"copenhagen", "book-copenhagen.zst", false},
    {"brandubh", "book-brandubh.zst", false},
};

/* Returns the shipped book of a variant (matched by name), or NULL if it has none. */
const struct cli_book_default *cli_book_default_of(const struct variant *v) {
    for (size_t i = 0; i < sizeof cli_book_defaults / sizeof cli_book_defaults[0]; i++)
        if (strcmp(v->name, cli_book_defaults[i].variant) == 0) return &cli_book_defaults[i];
    return NULL;
}

/* Finds the file a book name stands for; false with a reason in err. */
bool cli_book_path(const char *name, const struct variant *v, char *out, size_t outlen, char *err,
                   size_t errlen) {
    const char *dir = cli_data_dir();
    if (strcmp(name, "default") == 0) {
        const struct cli_book_default *d = cli_book_default_of(v);
        if (!d) {
            snprintf(err, errlen, "hnefi ships no book for %s (only copenhagen and brandubh)",
                     v->name);
            return false;
        }
        snprintf(out, outlen, "%s/%s", *dir ? dir : ".", d->file);
        if (access(out, R_OK) == 0) return true;
        snprintf(err, errlen, "the shipped book %s is not in the data directory %s", d->file,
                 *dir ? dir : "(unknown)");
        return false;
    }
    if (!*name) {
        snprintf(err, errlen, "no book file named");
        return false;
    }
    snprintf(out, outlen, "%s", name);
    if (strchr(name, '/') || access(name, F_OK) == 0) return true;
    if (*dir) {
        snprintf(out, outlen, "%s/%s", dir, name);
        if (access(out, F_OK) == 0) return true;
    }
    snprintf(err, errlen, "book '%s': no such file here, nor in hnefi's data directory %s", name,
             *dir ? dir : "(unknown)");
    return false;
}

/* Finds and reads a book by name; false with a reason in err (b unchanged). */
bool cli_book_load(struct book *b, const char *name, const struct variant *v, char *err,
                   size_t errlen) {
    char path[4200];
    if (!cli_book_path(name, v, path, sizeof path, err, errlen)) return false;
    return book_load(b, path, err, errlen);
}

/* Reads "best" or "weighted"; false if it is neither. */
bool cli_book_variety(const char *text, enum book_variety *out) {
    if (strcmp(text, "best") == 0)
        *out = BOOK_BEST;
    else if (strcmp(text, "weighted") == 0)
        *out = BOOK_WEIGHTED;
    else
        return false;
    return true;
}

/* Writes a book score for people. */
void cli_book_score_text(const struct book_move *m, char *out, size_t outlen) {
    int plies;
    if (m->depth == 0)
        snprintf(out, outlen, "-");
    else if (score_is_win(m->score, &plies))
        snprintf(out, outlen, "%s in %d", m->score > 0 ? "win" : "loss", plies);
    else
        snprintf(out, outlen, "%+.2f", m->score / 100.0);
}

/* Tells whether book move a is printed before b: searched first, by score, then by games. */
static bool shown_before(const struct book_move *a, const struct book_move *b) {
    if ((a->depth > 0) != (b->depth > 0)) return a->depth > 0;
    if (a->depth > 0 && a->score != b->score) return a->score > b->score;
    if (a->games != b->games) return a->games > b->games;
    return a->move < b->move;
}

/* Prints the book's moves for the current position of game (see cli_book.h). */
void cli_book_print(FILE *out, const struct book *b, const struct tafl_game *game) {
    char why[400];
    if (!book_fits(b, game->v, why, sizeof why)) {
        fprintf(out, "book: not used here: %s\n", why);
        return;
    }
    struct book_hit *hit = malloc(sizeof *hit);
    if (!hit) return;
    int n = book_probe(b, tafl_pos(game), hit);
    if (n == 0) {
        fprintf(out, "book: the position is not in the book (%zu positions)\n", b->npos);
        free(hit);
        return;
    }
    int order[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && shown_before(hit->info[i], hit->info[order[j - 1]])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    fprintf(out, "book: %d move%s (key %016llx%s)\n", n, n == 1 ? "" : "s",
            (unsigned long long)hit->canon.key,
            hit->pos->flags & BOOK_POS_SEARCHED ? ", searched" : "");
    fprintf(out, "  %-8s %7s %8s %8s %7s  %-16s %6s\n", "move", "games", "att.win", "def.win",
            "draws", "score (depth)", "weight");
    for (int k = 0; k < n; k++) {
        const struct book_move *m = hit->info[order[k]];
        move_t mv = hit->moves[order[k]];
        char text[MOVE_TEXT_MAX], score[48], sc[32], mark[48] = "";
        move_write(mv, game->v->size, text);
        cli_book_score_text(m, sc, sizeof sc);
        if (m->depth)
            snprintf(score, sizeof score, "%s (%d%s)", sc, m->depth,
                     m->flags & BOOK_MOVE_BACKED ? ", book" : "");
        else
            snprintf(score, sizeof score, "-");
        if (!tafl_move_legal(game, mv, NULL, 0))
            snprintf(mark, sizeof mark, "  (forbidden here)");
        else if (book_repetition_trap(game, mv))
            snprintf(mark, sizeof mark, "  (repeats into a loss or draw)");
        double g = m->games ? 100.0 / m->games : 0;
        fprintf(out, "  %-8s %7u %7.1f%% %7.1f%% %6.1f%%  %-16s %6u%s\n", text, m->games,
                m->attacker_wins * g, m->defender_wins * g, m->draws * g, score, m->weight, mark);
    }
    free(hit);
}

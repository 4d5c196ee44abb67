/*
 * Replays every real game in tests/data (1,752 Copenhagen, 525 Brandubh): every move must be
 * legal, every capture list identical to the record's (as a set), no end before the last ply,
 * and the final status matching the record wherever a rule decides the last ply. The counts of
 * each kind of ending are checked against docs/data.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data_file.h"
#include "engine/notation.h"
#include "engine/tafl.h"

/* What a replay of one file found. */
struct replay_stats {
    int games, plies, bad_moves, bad_captures, early_ends, wrong_results;
    int ends[8];          /* games whose last ply ended them, by enum end_reason */
    int undecided_status; /* games with a result the rules did not decide (resign, time) */
};

/* Replays one CSV line; updates the stats. */
static void replay_line(struct tafl_game *t, const struct variant *v, char *line,
                        struct replay_stats *st) {
    char *fields[4];
    int nf = 0;
    for (char *s = line; nf < 4;) {
        fields[nf++] = s;
        char *c = strchr(s, ',');
        if (!c) break;
        *c = 0;
        s = c + 1;
    }
    if (nf != 4) {
        CHECK(!"record line with fewer than 4 fields");
        return;
    }
    struct position start;
    pos_init_start(&start, v);
    tafl_reset(t, &start);
    st->games++;
    char *save = NULL;
    int ply = 0;
    bool failed = false;
    char *tokens[512];
    int ntok = 0;
    for (char *tok = strtok_r(fields[0], " ", &save); tok && ntok < 512;
         tok = strtok_r(NULL, " ", &save))
        tokens[ntok++] = tok;
    for (int i = 0; i < ntok && !failed; i++) {
        if (strcmp(tokens[i], "timeout") == 0) continue;
        struct move_text mt;
        char err[200];
        if (!move_text_parse(tokens[i], v->size, &mt, err, sizeof err)) {
            fprintf(stderr, "game %d ply %d: %s\n", st->games, ply + 1, err);
            st->bad_moves++;
            failed = true;
            break;
        }
        if (t->result != RESULT_NONE) {
            fprintf(stderr, "game %d: ended before ply %d\n", st->games, ply + 1);
            st->early_ends++;
            failed = true;
            break;
        }
        move_t m = move_make(mt.from, mt.to);
        if (!tafl_move_legal(t, m, err, sizeof err)) {
            fprintf(stderr, "game %d ply %d %s: %s\n", st->games, ply + 1, tokens[i], err);
            st->bad_moves++;
            failed = true;
            break;
        }
        tafl_play(t, m);
        ply++;
        st->plies++;
        if (!bb_eq(t->captures[t->n - 1], mt.captures)) {
            char got[MOVE_TEXT_MAX];
            move_write_captures(m, t->captures[t->n - 1], v->size, got);
            fprintf(stderr, "game %d ply %d: record %s, engine %s\n", st->games, ply, tokens[i],
                    got);
            st->bad_captures++;
        }
    }
    if (failed) return;
    char *status = fields[3];
    status[strcspn(status, "\r\n")] = 0;
    if (t->result != RESULT_NONE) {
        st->ends[t->reason]++;
        int want = strcmp(status, "Black") == 0   ? RESULT_ATTACKERS
                   : strcmp(status, "White") == 0 ? RESULT_DEFENDERS
                                                  : -1;
        if ((int)t->result != want) {
            fprintf(stderr, "game %d: engine result %d, record '%s'\n", st->games, t->result,
                    status);
            st->wrong_results++;
        }
    } else if (strcmp(status, "Black") == 0 || strcmp(status, "White") == 0) {
        st->undecided_status++;
    }
}

/* Replays every line of a data file under variant v (with repetition off, see docs/data.md). */
static struct replay_stats replay_file(const char *name, const char *variant_name) {
    struct replay_stats st = {0};
    struct variant v = *variant_by_name(variant_name);
    v.repetition = REP_NONE;
    size_t len;
    char *text = data_file_read(name, &len);
    CHECK(text != NULL);
    if (!text) return st;
    struct tafl_game *t = tafl_new(&v);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        replay_line(t, &v, line, &st);
    tafl_free(t);
    free(text);
    printf("%s: %d games, %d plies; bad moves %d, bad captures %d, early ends %d, wrong results "
           "%d; ends: escape %d, king captured %d, encircled %d, exit fort %d, no moves %d; "
           "decided by no rule %d\n",
           name, st.games, st.plies, st.bad_moves, st.bad_captures, st.early_ends, st.wrong_results,
           st.ends[END_ESCAPE], st.ends[END_KING_CAPTURED], st.ends[END_ENCIRCLED],
           st.ends[END_EXIT_FORT], st.ends[END_NO_MOVES], st.undecided_status);
    return st;
}

int main(void) {
    struct replay_stats c = replay_file("copenhagen-games.csv.zst", "copenhagen");
    CHECK_EQ_INT(c.games, 1752);
    CHECK_EQ_INT(c.plies, 87274);
    CHECK_EQ_INT(c.bad_moves, 0);
    CHECK_EQ_INT(c.bad_captures, 0);
    CHECK_EQ_INT(c.early_ends, 0);
    CHECK_EQ_INT(c.wrong_results, 0);
    CHECK_EQ_INT(c.ends[END_ESCAPE], 235);
    CHECK_EQ_INT(c.ends[END_EXIT_FORT], 48);
    CHECK_EQ_INT(c.ends[END_KING_CAPTURED], 45);
    CHECK_EQ_INT(c.ends[END_ENCIRCLED], 24);
    CHECK_EQ_INT(c.ends[END_NO_MOVES], 20);

    struct replay_stats b = replay_file("brandubh-games.csv.zst", "brandubh");
    CHECK_EQ_INT(b.games, 525);
    CHECK_EQ_INT(b.plies, 11226);
    CHECK_EQ_INT(b.bad_moves, 0);
    CHECK_EQ_INT(b.bad_captures, 0);
    CHECK_EQ_INT(b.early_ends, 0);
    CHECK_EQ_INT(b.wrong_results, 0);
    CHECK_EQ_INT(b.ends[END_ESCAPE], 38);
    CHECK_EQ_INT(b.ends[END_KING_CAPTURED], 68);
    CHECK_EQ_INT(b.ends[END_NO_MOVES], 1);
    return check_done();
}

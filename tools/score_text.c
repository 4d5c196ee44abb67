/* Scores in words: who is better and by how much, or how a forced result ends the game. */
#include "tools/score_text.h"

#include <stdio.h>

/* Writes the score of line l, searched from the current position of game, for people. */
void score_text_human(const struct tafl_game *game, const struct search_line *l, char *out,
                      size_t len) {
    const struct position *root = tafl_pos(game);
    int side = root->side, plies;
    if (score_is_win(l->score, &plies)) {
        int winner = l->score > 0 ? side : !side;
        /* play the line out to name how the game ends */
        struct tafl_game *t = tafl_new(root->v);
        const char *how = "win";
        if (t) {
            *t = *game;
            for (int i = 0; i < l->pv_len && t->result == RESULT_NONE; i++) tafl_play(t, l->pv[i]);
            static const char *const verbs[] = {"win",
                                                "escape",
                                                "capture the king",
                                                "shut in the king",
                                                "encircle the defenders",
                                                "build an exit fort",
                                                "win by repetition",
                                                "leave no legal move"};
            if (t->result != RESULT_NONE && t->result != RESULT_DRAW) how = verbs[t->reason];
            tafl_free(t);
        }
        snprintf(out, len, "%s %s in %d %s", winner == SIDE_ATTACKERS ? "attackers" : "defenders",
                 how, plies, plies == 1 ? "ply" : "plies");
        return;
    }
    int sc = l->score, better = sc >= 0 ? side : !side;
    if (sc < 0) sc = -sc;
    snprintf(out, len, "%s +%d.%02d", better == SIDE_ATTACKERS ? "attackers" : "defenders",
             sc / 100, sc % 100);
}

#include "engine/games/saek.h"
#include "tests/check.h"
int main(void) {
    saek_state s;
    char err[128];
    CHECK_EQ_INT(saek_init(&s, 4, NULL, err, sizeof err), 0);
    game_rng r;
    rng_seed(&r, 1);
    game_playout_random(&saek_game, &s, &r);
    printf("%d\n", s.turns);
    return check_done();
}

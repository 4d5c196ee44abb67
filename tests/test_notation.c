/*
 * Notation tests: FEN, OpenTafl records and rules strings, and move text, read and written back;
 * and every bad-input path, checking that the error names the token and the reason and that the
 * target is left as it was.
 */
#include <string.h>

#include "check.h"
#include "engine/notation.h"
#include "engine/opentafl.h"
#include "engine/tafl.h"
#include "engine/variant_text.h"

#define V(name) variant_by_name(name)

/* Checks that a FEN is rejected with a message containing `want`, leaving p unchanged. */
static void fen_bad(const char *variant, const char *fen, const char *want) {
    struct position p, before;
    pos_init_start(&p, V(variant));
    before = p;
    char err[200] = "";
    bool ok = fen_parse(&p, V(variant), fen, err, sizeof err);
    CHECK(!ok);
    if (!check_record(strstr(err, want) != NULL, __FILE__, __LINE__, want))
        fprintf(stderr, "    FEN '%s' gave '%s'\n", fen, err);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
}

/* Checks that move text is rejected on a FEN with a message containing want. */
static void move_bad(const char *variant, const char *fen, const char *move, const char *want) {
    struct position p;
    char err[200] = "";
    move_t m = 12345;
    if (fen)
        CHECK(fen_parse(&p, V(variant), fen, err, sizeof err));
    else
        pos_init_start(&p, V(variant));
    CHECK(!move_parse_legal(&p, move, &m, err, sizeof err));
    CHECK(m == 12345);
    if (!check_record(strstr(err, want) != NULL, __FILE__, __LINE__, want))
        fprintf(stderr, "    move '%s' gave '%s'\n", move, err);
}

/* Checks an OpenTafl rules string error. */
static void rules_bad(const char *rules, const char *want) {
    struct variant v = *V("brandubh"), before = v;
    char err[200] = "";
    CHECK(!opentafl_read_rules(&v, rules, err, sizeof err));
    CHECK(memcmp(&v, &before, sizeof v) == 0);
    if (!check_record(strstr(err, want) != NULL, __FILE__, __LINE__, want))
        fprintf(stderr, "    rules '%s' gave '%s'\n", rules, err);
}

/* The built-in variants' start positions, in the order of variant_builtin. */
static const char *const starts[] = {
    "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
    "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
    "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a",
    "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a",
    "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a",
};

/* Tells whether two variants have the same start position. */
static bool same_start(const struct variant *a, const struct variant *b) {
    return bb_eq(a->start.att, b->start.att) && bb_eq(a->start.def, b->start.def) &&
           a->start.king_sq == b->start.king_sq && a->start.side == b->start.side;
}

/* FEN read and written back for every start position, and round trips. */
static void fen_round_trip(void) {
    CHECK(variant_builtin((int)(sizeof starts / sizeof starts[0])) == NULL);
    for (int i = 0; variant_builtin(i); i++) {
        const struct variant *v = variant_builtin(i);
        struct position p;
        char err[200], out[FEN_MAX];
        CHECK(fen_parse(&p, v, starts[i], err, sizeof err));
        fen_write(&p, out);
        CHECK_EQ_STR(out, starts[i]);
        fen_write_start(v, out);
        CHECK_EQ_STR(out, starts[i]);
        CHECK(pos_valid(&p, err, sizeof err));
        CHECK(pos_valid(&p, err, sizeof err));
    }
}

/* Every FEN error path. */
static void fen_errors(void) {
    fen_bad("copenhagen", "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1a/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
            "row 6 'aa1ddkdd1a': 10 squares, expected 11");
    fen_bad("copenhagen",
            "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aaa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
            "more than 11 squares");
    fen_bad("copenhagen", "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1ax/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
            "unknown letter 'x'");
    fen_bad("copenhagen", "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5 a",
            "10 rows, expected 11");
    fen_bad("copenhagen",
            "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3/11 a",
            "more than 11 rows");
    fen_bad("copenhagen", "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3",
            "missing side to move");
    fen_bad("copenhagen", "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 x",
            "side to move 'x'");
    fen_bad("copenhagen", "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1dd1dd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
            "no king");
    fen_bad("copenhagen", "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1dkkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
            "two kings (e6 and f6)");
    fen_bad("copenhagen", "a10/11/11/11/11/5k5/11/11/11/11/11 a", "attacker on a11");
    fen_bad("copenhagen", "11/11/11/11/11/5d5/11/11/11/11/k10 d", "defender on f6");
    fen_bad("brandubh", "7/7/7/7/7/7/0k6 a", "starts with 0");
    fen_bad("brandubh", "7/7/7/3k3/7/7/7 a b", "unexpected text 'b'");
    fen_bad("brandubh", "", "row 1");
}

/* Move text forms and every move error path. */
static void moves(void) {
    struct move_text mt;
    char err[200], out[MOVE_TEXT_MAX];
    CHECK(move_text_parse("d1d3", 11, &mt, err, sizeof err) && mt.from == 3 && mt.to == 25);
    CHECK(move_text_parse("d1-d3", 11, &mt, err, sizeof err) && mt.from == 3 && !mt.has_captures);
    CHECK(move_text_parse("k9-k5xj5xk4xk4", 11, &mt, err, sizeof err) && mt.has_captures);
    CHECK_EQ_INT(bb_popcount(mt.captures), 2);
    CHECK(move_text_parse("a4-a6xa7/b6", 11, &mt, err, sizeof err));
    CHECK_EQ_INT(bb_popcount(mt.captures), 2);
    move_write(move_make(3, 25), 11, out);
    CHECK_EQ_STR(out, "d1d3");
    move_write_captures(move_make(3, 25), bb_sq(26) | bb_sq(14), 11, out);
    CHECK_EQ_STR(out, "d1-d3xd2xe3");

    move_bad("copenhagen", NULL, "z1d3", "square z1 is off the 11x11 board");
    move_bad("copenhagen", NULL, "1d3", "move '1d3': does not start with a square like d1");
    move_bad("copenhagen", NULL, "zz", "move 'zz': does not start with a square like d1");
    move_bad("copenhagen", NULL, "d1", "move 'd1': a second square (like d3) must follow");
    move_bad("copenhagen", NULL, "d1-", "move 'd1-': a second square (like d3) must follow");
    move_bad("copenhagen", NULL, "d1zz", "move 'd1zz': expected a square like d3 at 'zz'");
    move_bad("copenhagen", NULL, "", "empty move");
    move_bad("copenhagen", NULL, "d1l1", "off the 11x11 board");
    move_bad("copenhagen", NULL, "d1d12", "off the 11x11 board");
    move_bad("brandubh", NULL, "d1h1", "off the 7x7 board");
    move_bad("copenhagen", NULL, "d1d3junk", "unexpected 'junk'");
    move_bad("copenhagen", NULL, "d1d3x", "bad captured square");
    move_bad("copenhagen", NULL, "c1c3", "no piece on c1");
    move_bad("copenhagen", NULL, "f4f3", "f4 holds a defender, but the attackers are to move");
    move_bad("copenhagen", NULL, "d1e2", "not along a rank or file");
    move_bad("copenhagen", NULL, "d1d1", "same square");
    move_bad("copenhagen", NULL, "f2f11", "blocked at f4");
    move_bad("copenhagen", NULL, "f2f4", "f4 is occupied");
    move_bad("copenhagen", "11/11/11/11/11/11/11/11/11/11/1a3k5 a", "b1a1",
             "only the king may stop on the corner a1");
    move_bad("copenhagen", "11/11/11/11/11/1a9/11/11/11/11/4k6 a", "b6f6",
             "only the king may stop on the throne f6");
    move_bad("linnaeus", "9/9/9/9/9/4k4/9/9/9 d", "e4e5", "nobody may stop on the throne e5");
    move_bad("copenhagen", NULL, "d1-d3xd4", "captures listed are wrong");
    struct variant kp = *V("copenhagen");
    CHECK(variant_set_option(&kp, "throne_pass", "king", err, sizeof err));
    struct position p;
    CHECK(fen_parse(&p, &kp, "11/11/11/11/11/1a9/11/11/11/11/4k6 a", err, sizeof err));
    move_t m;
    CHECK(!move_parse_legal(&p, "b6k6", &m, err, sizeof err));
    CHECK(strstr(err, "may not pass the throne f6") != NULL);
}

/* The game refuses moves after its end and keeps its state on bad moves. */
static void game_errors(void) {
    struct tafl_game *t = tafl_new(V("brandubh"));
    char err[200];
    CHECK(tafl_play_text(t, "d2c2", err, sizeof err) == false || t->n == 1);
    int n = t->n;
    CHECK(!tafl_play_text(t, "zz", err, sizeof err));
    CHECK_EQ_INT(t->n, n);
    tafl_free(t);
    struct position p;
    CHECK(fen_parse(&p, V("brandubh"), "7/7/7/7/7/1ak3a/7 a", err, sizeof err));
    t = tafl_new(V("brandubh"));
    tafl_reset(t, &p);
    CHECK(tafl_play_text(t, "g2d2", err, sizeof err));
    CHECK(!tafl_play_text(t, "c2c3", err, sizeof err));
    CHECK(strstr(err, "the game is over") != NULL);
    tafl_free(t);
}

/* OpenTafl rules strings: the shipped ones load; ours round-trip; every error path. */
static void opentafl(void) {
    char err[200], out[1024];
    struct variant v;
    CHECK(opentafl_read_rules(
        &v,
        "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y "
        "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        err, sizeof err));
    CHECK(same_start(&v, V("copenhagen")));
    CHECK(v.shieldwall && v.sw_corner && v.exit_fort && v.encirclement);
    CHECK(v.repetition == REP_LOSS_REPEATER);
    CHECK(opentafl_read_rules(&v,
                              "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: "
                              "cenh: cenhe:tcnkTCNK linc:y "
                              "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
                              err, sizeof err));
    CHECK(v.escape == ESCAPE_EDGE && !v.corners && v.throne_stop == THRONE_NOBODY && v.linnaean);
    CHECK(v.king_capture == KING_CAPTURE_THRONE_FOUR && v.hostile_throne_king == 0);
    for (int i = 0; variant_builtin(i); i++) {
        const struct variant *b = variant_builtin(i);
        CHECK(opentafl_write_rules(b, out, sizeof out) > 0);
        struct variant r;
        CHECK(opentafl_read_rules(&r, out, err, sizeof err));
        CHECK(same_start(&r, b));
        CHECK(r.king_capture == b->king_capture && r.escape == b->escape &&
              r.corners == b->corners && r.shieldwall == b->shieldwall &&
              r.exit_fort == b->exit_fort && r.linnaean == b->linnaean &&
              r.hostile_throne_empty == b->hostile_throne_empty &&
              r.hostile_edge_king == b->hostile_edge_king && r.throne_stop == b->throne_stop);
    }
    /* the rules beyond the built-in variants write back to strings that read the same */
    static const char *const beyond[] = {
        "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: "
        "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        "dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: "
        "afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK aforp:tcnkTCNK cens: "
        "cenh: cenhe:K aforh:K cenre: aforre: "
        "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, "
        "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "dim:7 name:corners cor:a1,a2,b1,g7,f7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    };
    for (size_t i = 0; i < sizeof beyond / sizeof beyond[0]; i++) {
        struct variant a, b;
        if (!CHECK(opentafl_read_rules(&a, beyond[i], err, sizeof err))) continue;
        CHECK(opentafl_write_rules(&a, out, sizeof out) > 0);
        if (!CHECK(opentafl_read_rules(&b, out, err, sizeof err))) continue;
        CHECK(same_start(&a, &b) && a.centre == b.centre && bb_eq(a.forts, b.forts) &&
              a.king_speed == b.king_speed && a.throne_pass == b.throne_pass &&
              a.throne_stop == b.throne_stop && a.hostile_throne_empty == b.hostile_throne_empty &&
              a.hostile_throne_king == b.hostile_throne_king && a.king_armed == b.king_armed &&
              bb_eq(a.corner_mask, b.corner_mask));
    }
    rules_bad("name:x dim:7 start:/7/7/7/3K3/7/7/7/", "must start with dim");
    rules_bad("dim:8 start:/7/7/7/3K3/7/7/7/", "board size must be 7, 9 or 11");
    /* a second dim, and a size that only fits once cut to an int */
    rules_bad("dim:11 cor:k11 dim:7 start:/7/7/7/3K3/7/7/7/", "a second dim (the board is 11x11)");
    rules_bad("dim:4294967303 start:/7/7/7/3K3/7/7/7/", "board size must be");
    rules_bad("dim:7 spd:1234567890123456 start:/7/7/7/3K3/7/7/7/", "a number too long");
    rules_bad("dim:7 foo:y start:/7/7/7/3K3/7/7/7/", "unknown key 'foo'");
    rules_bad("dim:7 ks:q start:/7/7/7/3K3/7/7/7/", "bad value for 'ks'");
    rules_bad("dim:7 ber:x start:/7/7/7/3K3/7/7/7/", "bad value for 'ber'");
    rules_bad("dim:7 kj:q start:/7/7/7/3K3/7/7/7/", "bad value for 'kj'");
    rules_bad("dim:7 start:/7/7/7/3KC2/7/7/7/", "unsupported piece 'C'");
    rules_bad("dim:7 spd:3 start:/7/7/7/3K3/7/7/7/", "speed");
    rules_bad("dim:7 dfor:a1 start:/7/7/7/3K3/7/7/7/", "fortress");
    rules_bad("dim:7 afor:a2 start:/7/7/7/3K3/7/7/7/", "fortress squares that pieces may re-enter");
    rules_bad("dim:7 afor:a2 aforh:t cenre: aforre: start:/7/7/7/3K3/7/7/7/",
              "hostile fortress squares");
    rules_bad("dim:7 afor:a2 afors:K cenre: aforre: start:/7/7/7/3K3/7/7/7/",
              "some pieces may not cross or hold");
    rules_bad("dim:7 spd:1,2,3 start:/7/7/7/3K3/7/7/7/", "expected 1, 8 or 12 whole numbers");
    rules_bad("dim:7 spd:-1,-1,-1,-1,-1,-1,2,-1,-1,-1,-1,-1, start:/7/7/7/3K3/7/7/7/",
              "a speed limit for men");
    rules_bad("dim:7 spd:x start:/7/7/7/3K3/7/7/7/", "expected 1, 8 or 12 whole numbers");
    rules_bad("dim:7 cen:c3 start:/7/7/7/3K3/7/7/7/", "a centre other than the middle square");
    rules_bad("dim:7 atkf:y", "missing start");
    rules_bad("dim:7 start:/7/7/7/3K3/7/7/", "6 rows, expected 7");
    rules_bad("dim:7 start:/7/7/7/3X3/7/7/7/", "unknown piece 'X'");
    rules_bad("dim:7 start:7/7/7/3K3/7/7/7/", "must start with '/'");
    rules_bad("dim:7 start:/7/7/7/3K2/7/7/7/", "6 squares, expected 7");
    rules_bad("dim:7 novalue start:/7/7/7/3K3/7/7/7/", "expected key:value");
    rules_bad("dim:7 start:/3t3/7/7/7/7/7/7/", "no king");
    /* a start the rules forbid is refused with the rules (a .otg reader crashed on it) */
    rules_bad(
        "dim:7 name:brandubh surf:n atkf:y tfr:w ks:c start:/3t3/3t3/3T3/TtttKTt/3T3/3t3/3t3/",
        "not a valid start position: FEN: attacker on d4, a square only the king may hold");
    rules_bad("dim:7 start:/7/7/7/7/7/7/7/", "not a valid start position");
    CHECK(!variant_set_option(&v, "repetition", "sometimes", err, sizeof err));
    CHECK(strstr(err, "unknown value 'sometimes'") != NULL);
    CHECK(!variant_set_option(&v, "nonsense", "yes", err, sizeof err));
    CHECK(strstr(err, "unknown rule option 'nonsense'") != NULL);
    CHECK(!variant_set_option(&v, "shieldwall", "maybe", err, sizeof err));
}

/* OpenTafl position records convert both ways. */
static void records(void) {
    char rows[FEN_MAX], err[200], rec[FEN_MAX];
    CHECK(opentafl_record_to_rows("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", 7, false, rows, sizeof rows,
                                  err, sizeof err));
    CHECK_EQ_STR(rows, "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3");
    struct position p;
    pos_init_start(&p, V("copenhagen"));
    p.att &= ~bb_sq(3); /* d1 gone: the record is not symmetric any more */
    opentafl_record_write(&p, rec, sizeof rec);
    CHECK_EQ_STR(rec, "/4tttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/");
}

int main(void) {
    fen_round_trip();
    fen_errors();
    moves();
    game_errors();
    opentafl();
    records();
    return check_done();
}

/* Built-in variants and the masks derived from a variant's options. */
#include "engine/variant.h"

#include <stdio.h>
#include <string.h>

/*
 * The start positions as board diagrams: the top rank first, one character per square (a an
 * attacker, d a defender, k the king, . empty; + an empty corner square, where a variant has
 * other corners than the four). The attackers move first in every built-in but Alea Evangelii.
 */
static const char start_11[] = "...aaaaa..."
                               ".....a....."
                               "..........."
                               "a....d....a"
                               "a...ddd...a"
                               "aa.ddkdd.aa"
                               "a...ddd...a"
                               "a....d....a"
                               "..........."
                               ".....a....."
                               "...aaaaa...";
static const char start_9[] = "...aaa..."
                              "....a...."
                              "....d...."
                              "a...d...a"
                              "aaddkddaa"
                              "a...d...a"
                              "....d...."
                              "....a...."
                              "...aaa...";
static const char start_7[] = "...a..."
                              "...a..."
                              "...d..."
                              "aadkdaa"
                              "...d..."
                              "...a..."
                              "...a...";

#if HNEFI_WIDE
/* hnefatafl.org's 13x13 game (its server's code: 32 attackers, 16 defenders and the king). */
static const char start_13[] = "...aaaaaaa..."
                               "......a......"
                               "............."
                               "a.....d.....a"
                               "a.....d.....a"
                               "a....ddd....a"
                               "aa.dddkddd.aa"
                               "a....ddd....a"
                               "a.....d.....a"
                               "a.....d.....a"
                               "............."
                               "......a......"
                               "...aaaaaaa...";
/* Alea Evangelii as OpenTafl lays it out (its variant 14: 48 attackers, 24 defenders, the king). */
static const char start_19[] = "++a..a.......a..a++"
                               "++...............++"
                               "a....a.......a....a"
                               ".......a.a.a......."
                               "......a.d.d.a......"
                               "a.a..a.......a..a.a"
                               "....a....d....a...."
                               "...a....d.d....a..."
                               "....d..d.d.d..d...."
                               "...a..d.dkd.d..a..."
                               "....d..d.d.d..d...."
                               "...a....d.d....a..."
                               "....a....d....a...."
                               "a.a..a.......a..a.a"
                               "......a.d.d.a......"
                               ".......a.a.a......."
                               "a....a.......a....a"
                               "++...............++"
                               "++a..a.......a..a++";
#endif

/* A built-in variant: its rules, and its start position as a diagram (read once at start-up). */
struct builtin {
    const char *diagram;
    bool defenders_first;
    struct variant v;
};

static struct builtin builtins[] = {
    {.diagram = start_11,
     .v = {.name = "copenhagen",
           .size = 11,
           .escape = ESCAPE_CORNER,
           .centre = true,
           .corners = true,
           .throne_stop = THRONE_KING,
           .throne_pass = THRONE_ALL,
           .hostile_corner = KIND_A | KIND_D | KIND_K,
           .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
           .hostile_throne_king = KIND_A,
           .hostile_edge_king = false,
           .king_armed = KING_ARMED_YES,
           .king_capture = KING_CAPTURE_FOUR,
           .shieldwall = true,
           .sw_corner = true,
           .sw_flank_only = true,
           .exit_fort = true,
           .encirclement = true,
           .immobile_king = false,
           .linnaean = false,
           .repetition = REP_LOSS_DEFENDERS,
           .no_moves = NO_MOVES_LOSS}},
    {.diagram = start_11,
     .v = {.name = "fetlar",
           .size = 11,
           .escape = ESCAPE_CORNER,
           .centre = true,
           .corners = true,
           .throne_stop = THRONE_KING,
           .throne_pass = THRONE_ALL,
           .hostile_corner = KIND_A | KIND_D,
           .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
           .hostile_throne_king = KIND_A,
           .hostile_edge_king = false,
           .king_armed = KING_ARMED_YES,
           .king_capture = KING_CAPTURE_FOUR,
           .repetition = REP_DRAW,
           .no_moves = NO_MOVES_DRAW}},
    {.diagram = start_9,
     .v = {.name = "tablut",
           .size = 9,
           .escape = ESCAPE_CORNER,
           .centre = true,
           .corners = true,
           .throne_stop = THRONE_KING,
           .throne_pass = THRONE_ALL,
           .hostile_corner = KIND_A | KIND_D | KIND_K,
           .hostile_throne_empty = KIND_K,
           .hostile_throne_king = KIND_A,
           .hostile_edge_king = true,
           .king_armed = KING_ARMED_YES,
           .king_capture = KING_CAPTURE_FOUR,
           .immobile_king = true,
           .repetition = REP_DRAW,
           .no_moves = NO_MOVES_LOSS}},
    {.diagram = start_9,
     .v = {.name = "linnaeus",
           .size = 9,
           .escape = ESCAPE_EDGE,
           .centre = true,
           .corners = false,
           .throne_stop = THRONE_NOBODY,
           .throne_pass = THRONE_ALL,
           .hostile_corner = 0,
           .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
           .hostile_throne_king = KIND_A,
           .hostile_edge_king = false,
           .king_armed = KING_ARMED_YES,
           .king_capture = KING_CAPTURE_THRONE_FOUR,
           .linnaean = true,
           .repetition = REP_DRAW,
           .no_moves = NO_MOVES_DRAW}},
    {.diagram = start_7,
     .v = {.name = "brandubh",
           .size = 7,
           .escape = ESCAPE_CORNER,
           .centre = true,
           .corners = true,
           .throne_stop = THRONE_KING,
           .throne_pass = THRONE_ALL,
           .hostile_corner = KIND_A | KIND_D | KIND_K,
           .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
           .hostile_throne_king = KIND_A,
           .hostile_edge_king = false,
           .king_armed = KING_ARMED_YES,
           .king_capture = KING_CAPTURE_THRONE_FOUR,
           .repetition = REP_LOSS_DEFENDERS,
           .no_moves = NO_MOVES_LOSS}},
#if HNEFI_WIDE
    /* hnefatafl.org's 13x13 game: its 11x11 rules on the larger board (docs/rules.md) */
    {.diagram = start_13,
     .v = {.name = "copenhagen13",
           .size = 13,
           .escape = ESCAPE_CORNER,
           .centre = true,
           .corners = true,
           .throne_stop = THRONE_KING,
           .throne_pass = THRONE_ALL,
           .hostile_corner = KIND_A | KIND_D,
           .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
           .hostile_throne_king = KIND_A,
           .hostile_edge_king = false,
           .king_armed = KING_ARMED_YES,
           .king_capture = KING_CAPTURE_FOUR,
           .shieldwall = true,
           .sw_corner = true,
           .sw_flank_only = true,
           .exit_fort = true,
           .encirclement = true,
           .repetition = REP_ILLEGAL_DEFENDER_REPEAT,
           .no_moves = NO_MOVES_LOSS}},
    /* Alea Evangelii: OpenTafl's rules (its variant 14) with the seed text's first mover, the
       defenders (docs/rules.md) */
    {.diagram = start_19,
     .defenders_first = true,
     .v = {.name = "alea",
           .size = 19,
           .escape = ESCAPE_CORNER,
           .centre = true,
           .corners = true,
           .throne_stop = THRONE_NOBODY,
           .throne_pass = THRONE_ALL,
           .hostile_corner = KIND_A | KIND_D | KIND_K,
           .hostile_throne_empty = KIND_A | KIND_D | KIND_K,
           .hostile_throne_king = 0,
           .hostile_edge_king = false,
           .king_armed = KING_ARMED_YES,
           .king_capture = KING_CAPTURE_FOUR,
           .sw_flank_only = true,
           .encirclement = true,
           .repetition = REP_LOSS_REPEATER,
           .no_moves = NO_MOVES_LOSS}},
#endif
};

enum { BUILTIN_NB = sizeof builtins / sizeof builtins[0] };
static bool builtins_ready;

/* Sets the start position of v, and corner squares it marks, from a diagram of its board (see
   start_11) and its first mover. */
static void start_from_diagram(struct variant *v, const char *diagram, bool defenders_first) {
    int n = v->size;
    struct variant_start *s = &v->start;
    s->att = s->def = BB_EMPTY;
    s->side = defenders_first ? SIDE_DEFENDERS : SIDE_ATTACKERS;
    for (int row = 0; row < n; row++) {
        for (int file = 0; file < n; file++) {
            int sq = (n - 1 - row) * n + file;
            char c = diagram[row * n + file];
            if (c == 'a') s->att |= bb_sq(sq);
            if (c == 'd') s->def |= bb_sq(sq);
            if (c == 'k') s->king_sq = sq;
            if (c == '+') v->corner_squares |= bb_sq(sq);
        }
    }
}

/* Sets the start positions and computes the derived masks of every built-in variant once. */
static void builtins_init(void) {
    if (builtins_ready) return;
    for (int i = 0; i < BUILTIN_NB; i++) {
        struct builtin *b = &builtins[i];
        start_from_diagram(&b->v, b->diagram, b->defenders_first);
        variant_finish(&b->v);
    }
    builtins_ready = true;
}

/* Returns the i-th built-in variant, or NULL past the end. */
const struct variant *variant_builtin(int i) {
    builtins_init();
    return i >= 0 && i < BUILTIN_NB ? &builtins[i].v : NULL;
}

/* Returns the built-in variant called name, or NULL. */
const struct variant *variant_by_name(const char *name) {
    builtins_init();
    for (int i = 0; i < BUILTIN_NB; i++)
        if (strcmp(builtins[i].v.name, name) == 0) return &builtins[i].v;
    return NULL;
}

/* The built-in variants of the wide build only (boards beyond 11x11), known to both builds. */
static const struct {
    const char *name;
    int size;
} wide_only[] = {{"copenhagen13", 13}, {"alea", 19}};

/* Returns the board size of name if it is a built-in variant of the wide build only, else 0. */
int variant_wide_only(const char *name) {
    for (size_t i = 0; i < sizeof wide_only / sizeof *wide_only; i++)
        if (strcmp(wide_only[i].name, name) == 0) return wide_only[i].size;
    return 0;
}

/* Returns the name of the i-th built-in variant of the wide build only, or NULL past the end. */
const char *variant_wide_only_name(int i) {
    return i >= 0 && i < (int)(sizeof wide_only / sizeof *wide_only) ? wide_only[i].name : NULL;
}

/* Writes the names of every built-in variant of either build, comma-separated, into out. */
void variant_names(char *out, size_t outlen) {
    builtins_init();
    size_t at = 0;
    if (outlen) out[0] = '\0';
    for (int i = 0; i < BUILTIN_NB + (HNEFI_WIDE ? 0 : (int)(sizeof wide_only / sizeof *wide_only));
         i++) {
        const char *name = i < BUILTIN_NB ? builtins[i].v.name : wide_only[i - BUILTIN_NB].name;
        int w = snprintf(out + at, outlen - at, "%s%s", i ? ", " : "", name);
        if (w < 0 || (size_t)w >= outlen - at) return;
        at += (size_t)w;
    }
}

/* Returns v's board side. */
int variant_size(const struct variant *v) {
    return v->size;
}

/* Computes the derived masks of v from its options; call after changing any option. */
void variant_finish(struct variant *v) {
    int n = v->size;
    bb_geom_init(&v->g, n);
    v->throne_sq = v->centre ? (n / 2) * n + n / 2 : -1;
    v->throne = v->centre ? bb_sq(v->throne_sq) : BB_EMPTY;
    bb_t four = bb_sq(0) | bb_sq(n - 1) | bb_sq(n * (n - 1)) | bb_sq(n * n - 1);
    bb_t listed = v->corner_squares & v->g.board;
    v->corner_mask = !v->corners ? BB_EMPTY : bb_any(listed) ? listed : four;
    v->escape_mask = v->escape == ESCAPE_EDGE ? v->g.edge : bb_any(listed) ? listed : four;
    v->escape_approach =
        v->escape == ESCAPE_CORNER && bb_is_empty(v->escape_mask & ~four) ? v->g.edge : v->g.board;
    v->king_end_squares = v->g.edge | v->escape_mask;
    v->men_forbidden = v->throne | v->corner_mask | v->forts;
    v->king_forbidden = (v->throne_stop == THRONE_NOBODY ? v->throne : BB_EMPTY) | v->forts;
    v->men_block = (v->throne_pass == THRONE_ALL ? BB_EMPTY : v->throne) | v->forts;
    v->king_block = (v->throne_pass == THRONE_NOBODY ? v->throne : BB_EMPTY) | v->forts;
    if (v->king_speed < 0) v->king_speed = 0;
    /* a jump mode of pieces the start does not have is none, whoever set it */
    if (bb_is_empty(v->start.spec & v->start.def)) v->knight_jump = JUMP_NONE;
    if (bb_is_empty(v->start.spec & v->start.att)) v->commander_jump = JUMP_NONE;
    v->special_squares = v->throne | v->corner_mask | v->forts;
    v->special_pieces = bb_any(v->start.spec) || v->king_jump != JUMP_NONE ||
                        v->berserk != BERSERK_NONE || v->king_capture == KING_CAPTURE_COMMANDER;
    v->special_moves = bb_any(v->forts) || v->king_speed || v->special_pieces;
    for (int sq = 0; sq < n * n; sq++) {
        v->king_near[sq] = BB_EMPTY;
        for (int d = 0; d < DIR_NB && v->king_speed; d++)
            for (int s = v->g.nb[sq][d], k = 1; s >= 0 && k <= v->king_speed;
                 s = v->g.nb[s][d], k++)
                v->king_near[sq] |= bb_sq(s);
    }
    v->king_hammer = v->king_armed == KING_ARMED_YES || v->king_armed == KING_ARMED_HAMMER;
    v->king_anvil = v->king_armed == KING_ARMED_YES || v->king_armed == KING_ARMED_ANVIL;
}

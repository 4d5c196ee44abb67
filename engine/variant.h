/*
 * Tafl variants as data: the start position, every rule option of docs/rules.md (rules.md §3)
 * and the masks derived from them.
 *
 * A struct variant is filled once (from the built-in table, or from an OpenTafl rules string in
 * engine/opentafl.h) and then read-only; positions keep a pointer to it. The start position is
 * held as bitboards (struct variant_start), so setting up a game reads no text; its text forms
 * (FEN) are in engine/notation.h, the option names as text in engine/variant_text.h. The derived
 * masks make the hot paths branch-free: `men_forbidden` are the squares no man may stop on,
 * `king_forbidden` those the king may not stop on, `men_block`/`king_block` the empty squares a
 * man/the king may not slide across; they include the fortress squares, which a piece standing on
 * one of them slides through and stops on as on any other (movegen.h's movegen_masks). Hostility
 * sets are enum kind_set bit sets (KIND_A, KIND_D, KIND_K).
 */
#ifndef HNEFI_ENGINE_VARIANT_H
#define HNEFI_ENGINE_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/bitboard.h"
#include "engine/types.h"

enum escape_rule { ESCAPE_CORNER, ESCAPE_EDGE };
enum throne_who { THRONE_ALL, THRONE_KING, THRONE_NOBODY };
enum king_armed { KING_ARMED_YES, KING_ARMED_HAMMER, KING_ARMED_ANVIL, KING_ARMED_NO };
/* KING_CAPTURE_COMMANDER: OpenTafl's rule where the attackers have commanders (Berserk): only a
   commander arriving beside the king, with a commander or a corner beyond him, takes him. */
enum king_capture {
    KING_CAPTURE_CUSTODIAL,
    KING_CAPTURE_FOUR,
    KING_CAPTURE_THRONE_FOUR,
    KING_CAPTURE_COMMANDER,
};
/* How a piece may jump over an adjacent enemy man (OpenTafl's kj, nj, cj): not at all, without
   capturing him, capturing him, or without capturing and only from or to a special square. */
enum jump_mode { JUMP_NONE, JUMP_PLAIN, JUMP_CAPTURE, JUMP_RESTRICTED };
/* Berserk turns (OpenTafl's ber): after a capture the capturing piece moves again, if it can
   capture again (BERSERK_CAPTURE) or if it can move at all (BERSERK_MOVE). */
enum berserk_mode { BERSERK_NONE, BERSERK_CAPTURE, BERSERK_MOVE };
enum repetition_rule {
    REP_NONE,
    REP_DRAW,
    REP_LOSS_REPEATER,
    REP_WIN_REPEATER,
    REP_LOSS_DEFENDERS,
    REP_ILLEGAL_THIRD,
    REP_ILLEGAL_DEFENDER_REPEAT,
};

enum no_moves_rule { NO_MOVES_LOSS, NO_MOVES_DRAW };

enum { VARIANT_NAME_MAX = 32, VARIANT_FEN_MAX = HNEFI_WIDE ? 400 : 160 };

/* A start position: the men of each side (spec: which of them are commanders, for the attackers,
   or knights, for the defenders), the king's square and the side that moves first. */
struct variant_start {
    bb_t att, def, spec;
    int king_sq;
    enum side side;
};

struct variant {
    char name[VARIANT_NAME_MAX];
    int size;
    struct variant_start start;

    /* rule options (rules.md §3) */
    enum escape_rule escape;
    bool centre; /* the middle square is a throne (false: an ordinary square, as in Sea Battle) */
    bool corners;
    bb_t corner_squares; /* with corners: the corner squares if not the four (OpenTafl's cor:
                            list: Alea Evangelii's 2x2 blocks); empty: the four corners */
    enum throne_who throne_stop; /* THRONE_KING or THRONE_NOBODY */
    enum throne_who throne_pass;
    unsigned hostile_corner;       /* kind_set */
    unsigned hostile_throne_empty; /* kind_set */
    unsigned hostile_throne_king;  /* kind_set (A, D only) */
    bool hostile_edge_king;
    enum king_armed king_armed;
    enum king_capture king_capture;
    bool shieldwall, sw_corner, sw_flank_only;
    bool exit_fort;
    bool encirclement;
    bool immobile_king;
    bool linnaean;
    enum repetition_rule repetition;
    enum no_moves_rule no_moves;
    bb_t forts;     /* fortress squares (OpenTafl's afor): only a piece standing on one may pass or
                       stop on them, so a man who leaves can never come back; never an anvil */
    int king_speed; /* the most squares the king slides in one move; 0: no limit (OpenTafl spd) */
    enum jump_mode king_jump, knight_jump, commander_jump;
    enum berserk_mode berserk;

    /* derived data (variant_finish) */
    struct bb_geom g;
    int throne_sq; /* -1 without a centre */
    bb_t throne, corner_mask, escape_mask;
    bb_t escape_approach;  /* the squares from which a slide can end on an escape square (the
                              edge, for the four corners: they lie on its lines) */
    bb_t king_end_squares; /* the edge and the escape squares: a defender move can end the game
                              only with the king there */
    bb_t men_forbidden, king_forbidden;
    bb_t men_block, king_block; /* squares that stop a slide even when empty */
    bool king_hammer, king_anvil;
    bool special_moves;   /* forts, king_speed, jumps, special pieces or berserk: move generation,
                             make and the threat tests leave their fast paths */
    bool special_pieces;  /* commanders, knights, jumps or berserk turns (make_move's slow path) */
    bb_t special_squares; /* throne, corners and forts: where a restricted jump starts or ends */
    bb_t king_near[BB_MAX_SQUARES]; /* with king_speed: the squares within it on sq's lines */
};

/* Returns the built-in variant called name, or NULL. */
const struct variant *variant_by_name(const char *name);

/*
 * Returns the board size of name if it is a built-in variant of the wide build only (a board
 * beyond 11x11), else 0: the 128-bit build knows those by name, to hand such a game over.
 */
int variant_wide_only(const char *name);

/* Returns the name of the i-th built-in variant of the wide build only, or NULL past the end. */
const char *variant_wide_only_name(int i);

/* Writes the names of every built-in variant of either build, comma-separated, into out. */
void variant_names(char *out, size_t outlen);

/* Returns v's board side (for callers that cannot read this build's struct variant). */
int variant_size(const struct variant *v);

/* Returns the i-th built-in variant, or NULL past the end. */
const struct variant *variant_builtin(int i);

/* Computes the derived masks of v from its options; call after changing any option. */
void variant_finish(struct variant *v);

#endif

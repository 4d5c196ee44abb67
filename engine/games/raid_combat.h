/*
 * Viking Raid combat, exactly: melee, missile fire, berserkers, the dagger assassination, wild
 * beasts and the Dead Viking King (rule text ../shared/seeds/004_*.txt; docs/viking-raid.md).
 *
 * Every pack is shuffled before each draw, so a draw is uniform over the 14 values 0..13 and the
 * draws of one round are independent. One round (one side's attack) is enumerated card by card;
 * a fight is an absorbing Markov chain whose states are (weapons broken on side A, on side D,
 * round number). Rounds differ only while a round-dependent modifier applies (the long-move bonus
 * in round 1, the tomb penalties in turns 1 to 4); after that the chain is periodic with period
 * two (the roles swap each round), and each pair of states (A attacks, D attacks) with the same
 * breaks is solved in closed form, V_A = (c_A + q_A c_D) / (1 - q_A q_D), from the states with
 * more breaks, which are solved first. The earlier rounds are then solved backwards. A forward
 * pass over the same round table gives the distribution of the round at which the fight ends.
 *
 * A raid_duel describes two sides (index 0 = A, the side that strikes first, 1 = D) as tables of
 * modifiers indexed by the number of weapons already broken, so the same solver serves warrior
 * melee, beasts and the tomb. Probabilities are doubles computed from exact integer card counts.
 */
#ifndef HNEFI_ENGINE_GAMES_RAID_COMBAT_H
#define HNEFI_ENGINE_GAMES_RAID_COMBAT_H

#include "engine/games/raid_kit.h"
#include "engine/games/rng.h"

/* How a fight ended. "A" is the side that struck first, "D" the other. */
typedef enum raid_end {
    RAID_END_A_KILLS,      /* D killed (or the beast / Dead King slain) */
    RAID_END_D_KILLS,      /* A killed */
    RAID_END_A_SURRENDERS, /* A has no weapon left */
    RAID_END_D_SURRENDERS, /* D has no weapon left */
    RAID_END_BOTH_REMOVED, /* neither has a weapon left */
    RAID_END_RUN,          /* the side attacked ran away after a round without result */
    RAID_END_OPEN,         /* still going after the round limit */
    RAID_END_NB
} raid_end;

typedef enum raid_cover {
    RAID_COVER_NONE = 0,
    RAID_COVER_SOFT = 1,
    RAID_COVER_HARD = 2
} raid_cover;

/* Berserker reading: off; SUM = both spades, no modifiers, against the bare Heart (default);
 * REDRAW = the extra spade alone against the bare Heart. */
typedef enum raid_berserk { RAID_BERSERK_OFF, RAID_BERSERK_SUM, RAID_BERSERK_REDRAW } raid_berserk;

/* When the side attacked runs: never, or after every round without result. */
typedef enum raid_run { RAID_RUN_NEVER, RAID_RUN_ALWAYS } raid_run;

enum { RAID_TOMB_TURNS = 4, RAID_MAX_ROUNDS_TABLE = 64, RAID_BERSERK_COST = 2 };

/* One side of a duel: modifiers after k = 0..nweap broken weapons. */
typedef struct raid_side {
    int nweap;          /* weapons that can still break (0..2) */
    int atk[3], def[3]; /* attack / defence modifiers after k breaks (cover included) */
    int cap;            /* most attack modifier (long-move bonus raises it by 1); <0: none */
    int def_cap;        /* most defence modifier; <0: none */
    int moved;          /* +1 to attack in round 1 (moved more than 6") */
    int threshold;      /* difference this side needs to kill when attacking */
    int breaks;         /* 1: a Joker drawn by this side breaks its weapon */
    int surrenders;     /* 1: losing the last weapon ends the fight in surrender */
    int berserk;        /* 1: may turn berserker when attacking (warriors only) */
    int penalty[RAID_TOMB_TURNS]; /* added to attack and defence in turns 1..4 (the tomb) */
} raid_side;

typedef struct raid_duel {
    raid_side s[2];
    raid_berserk berserk_mode;
    raid_run run;
    int counter_kill; /* 1: a defence 4+ above the attack kills the attacker */
    int swap;         /* 1: the roles alternate each round (the text); 0: A always attacks */
} raid_duel;

/* Options of a warrior-against-warrior melee. */
typedef struct raid_melee_opts {
    int moved;          /* attacker moved more than 6" into contact */
    raid_cover cover_a; /* cover of the attacker */
    raid_cover cover_d; /* cover of the defender */
    raid_berserk berserk;
    raid_run run;
    int counter_kill;
    int cap_defence; /* apply the +6 cap to defence too */
    int no_swap;     /* the attacker keeps attacking (not the text's reading) */
} raid_melee_opts;

/* The outcome of one round, split by how it continues. */
typedef struct raid_round {
    double end[RAID_END_NB]; /* the fight ends in this round */
    double next[3][3];       /* it goes on with [extra breaks of A][extra breaks of D] */
    double breaks[2];        /* expected weapons broken this round per side */
    double coins[2];         /* expected berserker coins paid this round per side */
    double berserk;          /* probability that the attacker turns berserker */
} raid_round;

/* The whole fight: ending probabilities and expectations. */
typedef struct raid_fight {
    double p[RAID_END_NB];
    double rounds;    /* expected rounds */
    double breaks[2]; /* expected weapons broken per side */
    double coins[2];  /* expected berserker coins per side */
} raid_fight;

/* Fills a duel for warrior kit a attacking warrior kit d. */
void raid_melee_duel(raid_duel *d, const raid_kit *a, const raid_kit *def,
                     const raid_melee_opts *o);

/* Enumerates round r (1-based) from the state with ka, kd weapons broken. */
void raid_duel_round(const raid_duel *d, int r, int ka, int kd, raid_round *out);

/* Solves the whole fight exactly (no round limit). */
void raid_duel_solve(const raid_duel *d, raid_fight *out);

/* Runs the chain forward for `rounds` rounds; per_round[r-1] gets the end probabilities of round
 * r (may be NULL); out gets the totals with what is left in RAID_END_OPEN. */
void raid_duel_forward(const raid_duel *d, int rounds, raid_fight *out,
                       double (*per_round)[RAID_END_NB]);

/* Plays one fight with random cards straight from the kits and rules (no tables); returns the
 * raid_end, and adds the rounds played to *rounds when rounds is not NULL. */
int raid_melee_sample(const raid_kit *a, const raid_kit *def, const raid_melee_opts *o,
                      int max_rounds, game_rng *rng, int *rounds);

/* What a missile is fired at. */
typedef enum raid_target {
    RAID_TARGET_WARRIOR,  /* on foot: Heart + helmet, chain mail, shield, cover */
    RAID_TARGET_VILLAGER, /* Heart + cover */
    RAID_TARGET_ANIMAL,   /* farm animal or riderless war pony: no defence value */
    RAID_TARGET_MOUNTED,  /* the pony under a rider: pony killed, then D6 5-6 kills the rider */
    RAID_TARGET_NB
} raid_target;

/* Reading of "no defence value": the value is 0 (default), or a bare Heart card is drawn. */
typedef enum raid_animal_defence { RAID_ANIMAL_ZERO, RAID_ANIMAL_CARD } raid_animal_defence;

/* One missile volley at one target. */
typedef struct raid_volley {
    double shot_kill;  /* one shot kills the target */
    double shot_break; /* one shot draws the Joker (bow breaks, javelin snaps) */
    double kill;       /* the volley kills the target (1 or 2 shots, the second if needed) */
    double rider;      /* the rider dies (mounted target) */
    double broken;     /* the volley ends with the bow broken / a javelin snapped */
    double shots;      /* expected shots fired */
    int shot_kill_n;   /* shot_kill as an exact count ... */
    int shot_den;      /* ... over this denominator */
} raid_volley;

/* Computes a volley: weapon RAID_BOW or RAID_JAVELIN, shots 1 or 2 (standing), defence
 * modifier of the target (its armour and cover). */
void raid_missile(raid_item weapon, int shots, raid_target target, int def_mod,
                  raid_animal_defence animal, raid_volley *out);

/* Reading of the dagger assassination: Spade minus a bare Heart (default) or the Spade alone. */
typedef enum raid_stab { RAID_STAB_HEART, RAID_STAB_SPADE } raid_stab;

/* Probability that a stab in the back kills (difference 8), and of the Joker breaking the dagger.
 */
double raid_assassinate(raid_stab mode, double *p_break);

typedef enum raid_beast { RAID_BOAR, RAID_WOLF, RAID_BEAR, RAID_TROLL, RAID_BEAST_NB } raid_beast;

/* Returns the beast's name. */
const char *raid_beast_name(raid_beast b);

/* Returns the difference a beast needs to kill (boar 4, wolf 5, bear 3, troll 2). */
int raid_beast_threshold(raid_beast b);

/* Returns the D6 faces (out of 6) that give the beast: boar 2, wolf 2, bear 1, troll 1. */
int raid_beast_faces(raid_beast b);

/* Probability that one beast attack kills its victim (no modifiers at all). */
double raid_beast_attack(raid_beast b);

/* Fills a duel for a figure with kit k hunting beast b (the figure strikes first; only its best
 * weapon counts; no modifiers for the beast or for armour). */
void raid_beast_duel(raid_duel *d, raid_beast b, const raid_kit *k);

/* Fills a duel for a figure with kit k meeting the Dead Viking King in the tomb. */
void raid_tomb_duel(raid_duel *d, const raid_kit *k);

/* Probability that a Spade + a beats a Heart + b by at least t, as a count over 196. */
int raid_card_diff_count(int a, int b, int t);

#endif

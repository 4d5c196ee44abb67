/* Viking Raid combat odds: round enumeration and the fight as a Markov chain (see raid_combat.h).
 */
#include "engine/games/raid_combat.h"

#include <string.h>

/* A fight value: the end probabilities, then expected rounds, breaks and coins per side. */
enum { V_ROUNDS = RAID_END_NB, V_BREAK0, V_BREAK1, V_COIN0, V_COIN1, V_NB };

typedef struct vec {
    double v[V_NB];
} vec;

/* Card counts of one round are kept in units of 1 / (14 * 14 * 14). */
static const double round_unit = 1.0 / (RAID_CARDS * RAID_CARDS * RAID_CARDS);

/* Probability that a Spade + a beats a Heart + b by at least t, as a count over 196. */
int raid_card_diff_count(int a, int b, int t) {
    int n = 0;
    for (int s = 0; s < RAID_CARDS; s++)
        for (int h = 0; h < RAID_CARDS; h++)
            if (s + a - (h + b) >= t) n++;
    return n;
}

/* Records how a round that did not kill anybody continues (or ends without a kill). */
static void round_settle(const raid_duel *d, raid_round *out, int att, const int *k, int ba, int bd,
                         double w) {
    int dfn = 1 - att;
    const raid_side *A = &d->s[att], *D = &d->s[dfn];
    int out_a = A->surrenders && ba > 0 && k[att] + ba >= A->nweap;
    int out_d = D->surrenders && bd > 0 && k[dfn] + bd >= D->nweap;
    if (out_a && out_d)
        out->end[RAID_END_BOTH_REMOVED] += w;
    else if (out_a)
        out->end[att == 0 ? RAID_END_A_SURRENDERS : RAID_END_D_SURRENDERS] += w;
    else if (out_d)
        out->end[dfn == 0 ? RAID_END_A_SURRENDERS : RAID_END_D_SURRENDERS] += w;
    else if (d->run == RAID_RUN_ALWAYS)
        out->end[RAID_END_RUN] += w;
    else if (att == 0)
        out->next[ba][bd] += w;
    else
        out->next[bd][ba] += w;
}

/* Returns the attack modifier of side `att` in round r with k weapons broken. */
static int attack_mod(const raid_side *A, int r, int k) {
    int mod = A->atk[k];
    int long_move = r == 1 && A->moved;
    mod += long_move;
    if (A->cap >= 0 && mod > A->cap + long_move) mod = A->cap + long_move;
    int turn = (r + 1) / 2;
    if (turn <= RAID_TOMB_TURNS) mod += A->penalty[turn - 1];
    return mod;
}

/* Returns the defence modifier of side D in round r with k weapons broken. */
static int defence_mod(const raid_side *D, int r, int k) {
    int mod = D->def[k];
    if (D->def_cap >= 0 && mod > D->def_cap) mod = D->def_cap;
    int turn = (r + 1) / 2;
    if (turn <= RAID_TOMB_TURNS) mod += D->penalty[turn - 1];
    return mod;
}

/* Enumerates round r (1-based) from the state with ka, kd weapons broken. */
void raid_duel_round(const raid_duel *d, int r, int ka, int kd, raid_round *out) {
    memset(out, 0, sizeof *out);
    int att = (d->swap && r % 2 == 0) ? 1 : 0, dfn = 1 - att;
    const raid_side *A = &d->s[att], *D = &d->s[dfn];
    int k[2] = {ka, kd};
    int amod = attack_mod(A, r, k[att]), dmod = defence_mod(D, r, k[dfn]);
    int may_berserk = d->berserk_mode != RAID_BERSERK_OFF && A->berserk;
    for (int s = 0; s < RAID_CARDS; s++) {
        for (int h = 0; h < RAID_CARDS; h++) {
            int ba = s == 0 && A->breaks && k[att] < A->nweap;
            int bd = h == 0 && D->breaks && k[dfn] < D->nweap;
            int diff = s + amod - (h + dmod);
            double w = RAID_CARDS;
            out->breaks[att] += ba * w;
            out->breaks[dfn] += bd * w;
            if (diff >= A->threshold) {
                out->end[att == 0 ? RAID_END_A_KILLS : RAID_END_D_KILLS] += w;
            } else if (d->counter_kill && -diff >= D->threshold) {
                out->end[dfn == 0 ? RAID_END_A_KILLS : RAID_END_D_KILLS] += w;
            } else if (may_berserk && s == h) {
                /* the same denomination: the attacker pays for one more Spade */
                out->berserk += w;
                out->coins[att] += RAID_BERSERK_COST * w;
                for (int s2 = 0; s2 < RAID_CARDS; s2++) {
                    int extra = s2 == 0 && A->breaks && k[att] + ba < A->nweap;
                    int val = d->berserk_mode == RAID_BERSERK_SUM ? s + s2 - h : s2 - h;
                    out->breaks[att] += extra;
                    if (val >= A->threshold)
                        out->end[att == 0 ? RAID_END_A_KILLS : RAID_END_D_KILLS] += 1;
                    else
                        round_settle(d, out, att, k, ba + extra, bd, 1);
                }
            } else {
                round_settle(d, out, att, k, ba, bd, w);
            }
        }
    }
    for (int e = 0; e < RAID_END_NB; e++) out->end[e] *= round_unit;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out->next[i][j] *= round_unit;
    for (int i = 0; i < 2; i++) {
        out->breaks[i] *= round_unit;
        out->coins[i] *= round_unit;
    }
    out->berserk *= round_unit;
}

/* Returns the part of a state's value that comes from its own round. */
static vec round_base(const raid_round *rt) {
    vec b;
    memset(&b, 0, sizeof b);
    for (int e = 0; e < RAID_END_NB; e++) b.v[e] = rt->end[e];
    b.v[V_ROUNDS] = 1;
    b.v[V_BREAK0] = rt->breaks[0];
    b.v[V_BREAK1] = rt->breaks[1];
    b.v[V_COIN0] = rt->coins[0];
    b.v[V_COIN1] = rt->coins[1];
    return b;
}

/* Adds w * x to acc. */
static void vec_axpy(vec *acc, double w, const vec *x) {
    for (int i = 0; i < V_NB; i++) acc->v[i] += w * x->v[i];
}

/* Returns the first round from which nothing depends on the round number (odd). */
static int stationary_round(const raid_duel *d) {
    int need = 1;
    for (int i = 0; i < 2; i++) {
        if (d->s[i].moved && need < 2) need = 2;
        for (int t = 0; t < RAID_TOMB_TURNS; t++)
            if (d->s[i].penalty[t] && need < 2 * (t + 1) + 1) need = 2 * (t + 1) + 1;
    }
    return need % 2 ? need : need + 1;
}

/* Copies a vec into the public result. */
static void vec_to_fight(const vec *x, raid_fight *out) {
    for (int e = 0; e < RAID_END_NB; e++) out->p[e] = x->v[e];
    out->rounds = x->v[V_ROUNDS];
    out->breaks[0] = x->v[V_BREAK0];
    out->breaks[1] = x->v[V_BREAK1];
    out->coins[0] = x->v[V_COIN0];
    out->coins[1] = x->v[V_COIN1];
}

/* Solves the whole fight exactly (no round limit). */
void raid_duel_solve(const raid_duel *d, raid_fight *out) {
    int n0 = d->s[0].nweap, n1 = d->s[1].nweap;
    int r0 = stationary_round(d);
    vec st[2][3][3]; /* [0]: a round with r0's parity (odd), [1]: the next round */
    memset(st, 0, sizeof st);
    for (int ka = n0; ka >= 0; ka--) {
        for (int kd = n1; kd >= 0; kd--) {
            raid_round rt[2];
            vec c[2];
            double q[2];
            for (int par = 0; par < 2; par++) {
                raid_duel_round(d, r0 + par, ka, kd, &rt[par]);
                c[par] = round_base(&rt[par]);
                q[par] = rt[par].next[0][0];
                for (int da = 0; da < 3; da++)
                    for (int dd = 0; dd < 3; dd++)
                        if ((da || dd) && rt[par].next[da][dd] > 0)
                            vec_axpy(&c[par], rt[par].next[da][dd], &st[1 - par][ka + da][kd + dd]);
            }
            double den = 1.0 - q[0] * q[1];
            if (den < 1e-15) { /* nobody can ever end it */
                memset(&st[0][ka][kd], 0, sizeof(vec));
                st[0][ka][kd].v[RAID_END_OPEN] = 1;
                st[1][ka][kd] = st[0][ka][kd];
                continue;
            }
            vec odd = c[0];
            vec_axpy(&odd, q[0], &c[1]);
            for (int i = 0; i < V_NB; i++) odd.v[i] /= den;
            vec even = c[1];
            vec_axpy(&even, q[1], &odd);
            st[0][ka][kd] = odd;
            st[1][ka][kd] = even;
        }
    }
    /* the rounds before r0, backwards */
    vec later[3][3], now[3][3];
    memcpy(later, st[0], sizeof later);
    for (int r = r0 - 1; r >= 1; r--) {
        for (int ka = 0; ka <= n0; ka++)
            for (int kd = 0; kd <= n1; kd++) {
                raid_round rt;
                raid_duel_round(d, r, ka, kd, &rt);
                now[ka][kd] = round_base(&rt);
                for (int da = 0; da < 3; da++)
                    for (int dd = 0; dd < 3; dd++)
                        if (rt.next[da][dd] > 0)
                            vec_axpy(&now[ka][kd], rt.next[da][dd], &later[ka + da][kd + dd]);
            }
        memcpy(later, now, sizeof later);
    }
    vec_to_fight(&later[0][0], out);
}

/* Runs the chain forward for `rounds` rounds. */
void raid_duel_forward(const raid_duel *d, int rounds, raid_fight *out,
                       double (*per_round)[RAID_END_NB]) {
    double mass[3][3] = {{0}}, next[3][3];
    mass[0][0] = 1;
    vec tot;
    memset(&tot, 0, sizeof tot);
    for (int r = 1; r <= rounds; r++) {
        memset(next, 0, sizeof next);
        if (per_round) memset(per_round[r - 1], 0, sizeof per_round[r - 1]);
        for (int ka = 0; ka <= d->s[0].nweap; ka++)
            for (int kd = 0; kd <= d->s[1].nweap; kd++) {
                double m = mass[ka][kd];
                if (m <= 0) continue;
                raid_round rt;
                raid_duel_round(d, r, ka, kd, &rt);
                vec b = round_base(&rt);
                vec_axpy(&tot, m, &b);
                if (per_round)
                    for (int e = 0; e < RAID_END_NB; e++) per_round[r - 1][e] += m * rt.end[e];
                for (int da = 0; da < 3; da++)
                    for (int dd = 0; dd < 3; dd++)
                        if (rt.next[da][dd] > 0) next[ka + da][kd + dd] += m * rt.next[da][dd];
            }
        memcpy(mass, next, sizeof mass);
    }
    for (int ka = 0; ka < 3; ka++)
        for (int kd = 0; kd < 3; kd++) tot.v[RAID_END_OPEN] += mass[ka][kd];
    vec_to_fight(&tot, out);
}

/* Fills one side of a warrior melee from its kit. */
static void melee_side(raid_side *s, const raid_kit *kit, raid_cover cover, int cap_defence) {
    memset(s, 0, sizeof *s);
    raid_kit k = *kit;
    s->nweap = raid_kit_weapons(kit);
    if (s->nweap > 2) s->nweap = 2;
    for (int i = 0; i <= s->nweap; i++) {
        s->atk[i] = raid_kit_melee(&k) + (int)cover;
        s->def[i] = s->atk[i];
        raid_kit_break(&k);
    }
    s->cap = 6;
    s->def_cap = cap_defence ? 6 : -1;
    s->threshold = 4;
    s->breaks = 1;
    s->surrenders = 1;
    s->berserk = 1;
}

/* Fills a duel for warrior kit a attacking warrior kit d. */
void raid_melee_duel(raid_duel *d, const raid_kit *a, const raid_kit *def,
                     const raid_melee_opts *o) {
    memset(d, 0, sizeof *d);
    melee_side(&d->s[0], a, o->cover_a, o->cap_defence);
    melee_side(&d->s[1], def, o->cover_d, o->cap_defence);
    d->s[0].moved = o->moved ? 1 : 0;
    d->berserk_mode = o->berserk;
    d->run = o->run;
    d->counter_kill = o->counter_kill;
    d->swap = !o->no_swap;
}

/* Returns a warrior's melee modifier from its current kit, capped as the rules say. */
static int sample_mod(const raid_kit *k, raid_cover cover, int attacking, int long_move,
                      int cap_defence) {
    int m = raid_kit_melee(k) + (int)cover;
    if (attacking) {
        m += long_move;
        if (m > 6 + long_move) m = 6 + long_move;
    } else if (cap_defence && m > 6) {
        m = 6;
    }
    return m;
}

/* Plays one fight with random cards straight from the kits and rules. */
int raid_melee_sample(const raid_kit *a, const raid_kit *def, const raid_melee_opts *o,
                      int max_rounds, game_rng *rng, int *rounds) {
    raid_kit kit[2] = {*a, *def};
    raid_cover cover[2] = {o->cover_a, o->cover_d};
    for (int r = 1; r <= max_rounds; r++) {
        if (rounds) (*rounds)++;
        int att = (!o->no_swap && r % 2 == 0) ? 1 : 0, dfn = 1 - att;
        int am = sample_mod(&kit[att], cover[att], 1, r == 1 && o->moved, 0);
        int dm = sample_mod(&kit[dfn], cover[dfn], 0, 0, o->cap_defence);
        int s = (int)rng_below(rng, RAID_CARDS), h = (int)rng_below(rng, RAID_CARDS);
        int diff = s + am - (h + dm);
        int lost[2] = {0, 0};
        if (s == 0 && raid_kit_weapons(&kit[att])) {
            raid_kit_break(&kit[att]);
            lost[att] = !raid_kit_weapons(&kit[att]);
        }
        if (h == 0 && raid_kit_weapons(&kit[dfn])) {
            raid_kit_break(&kit[dfn]);
            lost[dfn] = !raid_kit_weapons(&kit[dfn]);
        }
        if (diff >= 4) return att == 0 ? RAID_END_A_KILLS : RAID_END_D_KILLS;
        if (o->counter_kill && -diff >= 4) return dfn == 0 ? RAID_END_A_KILLS : RAID_END_D_KILLS;
        if (o->berserk != RAID_BERSERK_OFF && s == h) {
            int s2 = (int)rng_below(rng, RAID_CARDS);
            if (s2 == 0 && raid_kit_weapons(&kit[att])) {
                raid_kit_break(&kit[att]);
                lost[att] = !raid_kit_weapons(&kit[att]);
            }
            int val = o->berserk == RAID_BERSERK_SUM ? s + s2 - h : s2 - h;
            if (val >= 4) return att == 0 ? RAID_END_A_KILLS : RAID_END_D_KILLS;
        }
        if (lost[0] && lost[1]) return RAID_END_BOTH_REMOVED;
        if (lost[0]) return RAID_END_A_SURRENDERS;
        if (lost[1]) return RAID_END_D_SURRENDERS;
        if (o->run == RAID_RUN_ALWAYS) return RAID_END_RUN;
    }
    return RAID_END_OPEN;
}

/* Computes a volley at one target. */
void raid_missile(raid_item weapon, int shots, raid_target target, int def_mod,
                  raid_animal_defence animal, raid_volley *out) {
    memset(out, 0, sizeof *out);
    int bonus = weapon == RAID_JAVELIN ? 2 : 1;
    int card = target == RAID_TARGET_WARRIOR || target == RAID_TARGET_VILLAGER ||
               animal == RAID_ANIMAL_CARD;
    int kill = 0, brk = 0;
    for (int s = 0; s < RAID_CARDS; s++)
        for (int h = 0; h < RAID_CARDS; h++) {
            int def = (card ? h : 0) + def_mod;
            if (s + bonus - def >= 4)
                kill++;
            else if (s == 0)
                brk++;
        }
    out->shot_kill_n = kill;
    out->shot_den = RAID_CARDS * RAID_CARDS;
    double pk = kill / 196.0, pb = brk / 196.0; /* a Joker (0 + at most 2) never kills */
    out->shot_kill = pk;
    out->shot_break = 1.0 / RAID_CARDS;
    if (shots < 2) {
        out->kill = pk;
        out->broken = out->shot_break;
        out->shots = 1;
    } else if (weapon == RAID_BOW) {
        double again = 1 - pk - pb; /* missed and the bow still whole */
        out->kill = pk + again * pk;
        out->broken = pb + again * out->shot_break;
        out->shots = 1 + again;
    } else { /* two javelins: the second is thrown whenever the first did not kill */
        double again = 1 - pk;
        out->kill = pk + again * pk;
        out->broken = 1 - (1 - out->shot_break) * (1 - again * out->shot_break);
        out->shots = 1 + again;
    }
    out->rider = target == RAID_TARGET_MOUNTED ? out->kill * (2.0 / 6.0) : 0;
}

/* Probability that a stab in the back kills (difference 8), and of the Joker breaking the dagger.
 */
double raid_assassinate(raid_stab mode, double *p_break) {
    if (p_break) *p_break = 1.0 / RAID_CARDS;
    if (mode == RAID_STAB_SPADE) {
        int n = 0;
        for (int s = 0; s < RAID_CARDS; s++) n += s >= 8;
        return n / (double)RAID_CARDS;
    }
    return raid_card_diff_count(0, 0, 8) / 196.0;
}

static const char *const beast_name[RAID_BEAST_NB] = {"boar", "wolf", "bear", "troll"};
static const int beast_threshold[RAID_BEAST_NB] = {4, 5, 3, 2};
static const int beast_faces[RAID_BEAST_NB] = {2, 2, 1, 1};

/* Returns the beast's name. */
const char *raid_beast_name(raid_beast b) {
    return (unsigned)b < RAID_BEAST_NB ? beast_name[b] : "?";
}

/* Returns the difference a beast needs to kill (boar 4, wolf 5, bear 3, troll 2). */
int raid_beast_threshold(raid_beast b) {
    return beast_threshold[b];
}

/* Returns the D6 faces (out of 6) that give the beast. */
int raid_beast_faces(raid_beast b) {
    return beast_faces[b];
}

/* Probability that one beast attack kills its victim (no modifiers at all). */
double raid_beast_attack(raid_beast b) {
    return raid_card_diff_count(0, 0, beast_threshold[b]) / 196.0;
}

/* Fills the side of a figure that fights with its single best weapon and no other modifier. */
static void bare_side(raid_side *s, const raid_kit *kit) {
    memset(s, 0, sizeof *s);
    raid_kit k = *kit;
    s->nweap = raid_kit_weapons(kit);
    if (s->nweap > 2) s->nweap = 2;
    for (int i = 0; i <= s->nweap; i++) {
        s->atk[i] = raid_kit_best_weapon(&k);
        raid_kit_break(&k);
    }
    s->cap = -1;
    s->def_cap = -1;
    s->threshold = 4;
    s->breaks = 1;
}

/* Fills a duel for a figure with kit k hunting beast b. */
void raid_beast_duel(raid_duel *d, raid_beast b, const raid_kit *k) {
    memset(d, 0, sizeof *d);
    bare_side(&d->s[0], k);
    raid_side *beast = &d->s[1];
    beast->cap = beast->def_cap = -1;
    beast->threshold = beast_threshold[b];
    d->swap = 1;
}

/* Fills a duel for a figure with kit k meeting the Dead Viking King in the tomb. */
void raid_tomb_duel(raid_duel *d, const raid_kit *k) {
    memset(d, 0, sizeof *d);
    bare_side(&d->s[0], k);
    for (int t = 0; t < RAID_TOMB_TURNS; t++) d->s[0].penalty[t] = t - RAID_TOMB_TURNS;
    raid_side *king = &d->s[1];
    king->nweap = 1;
    king->atk[0] = 1; /* his sword */
    king->atk[1] = 0;
    king->cap = king->def_cap = -1;
    king->threshold = 4;
    king->breaks = 1;
    d->swap = 1;
}

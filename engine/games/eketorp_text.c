/* Eketorp: text forms and the heuristic policy (see eketorp_text.h). */
#include "engine/games/eketorp_text.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ekt_phase_names[] = {"draw",     "redeal", "items", "plan", "choose",
                                              "exchange", "cards",  "build", "over"};
static const char ekt_material_letter[] = ".gbns";

/* One field of the state for the STATE format: name, offset, bytes. */
typedef struct ekt_field_desc {
    const char *name;
    size_t offset, size;
} ekt_field_desc;

#define EKT_F(f)                                                                                   \
    { #f, offsetof(ekt_state, f), sizeof(((ekt_state *)0)->f) }
static const ekt_field_desc ekt_fields[] = {
    EKT_F(np),         EKT_F(week),         EKT_F(weeks),       EKT_F(start),
    EKT_F(phase),      EKT_F(opt_sally),    EKT_F(opt_rotten),  EKT_F(pieces),
    EKT_F(home),       EKT_F(field),        EKT_F(siege),       EKT_F(hosp),
    EKT_F(siege_done), EKT_F(hand),         EKT_F(known),       EKT_F(pile),
    EKT_F(deck),       EKT_F(aside),        EKT_F(amulets),     EKT_F(ftile),
    EKT_F(place),      EKT_F(height),       EKT_F(extra),       EKT_F(gain),
    EKT_F(supply),     EKT_F(completed),    EKT_F(plan_field),  EKT_F(plan_siege),
    EKT_F(planned),    EKT_F(plan_done),    EKT_F(draw_player), EKT_F(draw_left),
    EKT_F(draw_then),  EKT_F(setup_next),   EKT_F(chooser),     EKT_F(fighter),
    EKT_F(exch_step),  EKT_F(build_player), EKT_F(build_count), EKT_F(redealt),
};
#undef EKT_F
enum { EKT_NFIELDS = sizeof ekt_fields / sizeof ekt_fields[0] };

/* Appends formatted text to buf at *len. */
#define EKT_PUT(...)                                                                               \
    do {                                                                                           \
        int w_ = snprintf(buf + len, len < n ? n - len : 0, __VA_ARGS__);                          \
        if (w_ > 0) len += (size_t)w_;                                                             \
    } while (0)

/* Writes the state as one line. */
int ekt_format(const void *st, char *buf, size_t n) {
    const ekt_state *s = st;
    const unsigned char *b = st;
    size_t len = 0;
    for (int i = 0; i < EKT_NFIELDS; i++) {
        EKT_PUT("%s%s=", i ? " " : "", ekt_fields[i].name);
        for (size_t k = 0; k < ekt_fields[i].size; k++)
            EKT_PUT("%s%d", k ? "," : "", b[ekt_fields[i].offset + k]);
    }
    EKT_PUT(" items_used=%d fight=%d", s->items_used, s->fight);
    return (int)(len < n ? len : (n ? n - 1 : 0));
}

/* Checks the conservation laws of a parsed state; 0, or -1 with a message. */
static int ekt_check(const ekt_state *s, char *err, size_t errlen) {
    if (s->np < 3 || s->np > EKT_MAX_PLAYERS) {
        snprintf(err, errlen, "np=%d: need 3 to 6 players", s->np);
        return -1;
    }
    if (s->phase > EKT_OVER) {
        snprintf(err, errlen, "phase=%d: not a phase (0-8)", s->phase);
        return -1;
    }
    if (s->start >= s->np || s->chooser >= s->np || s->build_player >= s->np ||
        s->draw_player >= s->np || s->fighter[0] >= s->np || s->fighter[1] >= s->np) {
        snprintf(err, errlen, "a player number (start, chooser, fighter, ...) is not below np");
        return -1;
    }
    const ekt_data *d = ekt_data_current();
    int cards[EKT_VALUES];
    for (int v = 1; v < EKT_VALUES; v++) cards[v] = s->deck[v] + s->aside[v];
    for (int p = 0; p < s->np; p++) {
        int vik = s->home[p];
        for (int f = 0; f < EKT_FIELDS; f++) vik += s->field[p][f];
        for (int q = 0; q < s->np; q++)
            for (int side = 0; side < EKT_SIDES; side++) vik += s->siege[p][q][side];
        for (int h = 0; h < EKT_HOSPITAL; h++) vik += s->hosp[p][h];
        if (vik != s->pieces[p]) {
            snprintf(err, errlen, "player %d has %d Vikings placed but pieces=%d", p, vik,
                     s->pieces[p]);
            return -1;
        }
        for (int v = 1; v < EKT_VALUES; v++) {
            cards[v] += s->hand[p][v] + s->pile[p][v];
            if (s->known[p][v] > s->hand[p][v]) {
                snprintf(err, errlen, "player %d: known cards exceed the hand", p);
                return -1;
            }
        }
        for (int k = 0; k < EKT_PLACES; k++) {
            if (s->height[p][k] > EKT_LEVELS) {
                snprintf(err, errlen, "player %d place %d: height above 3", p, k);
                return -1;
            }
            for (int l = 0; l < EKT_LEVELS; l++)
                if ((l < s->height[p][k]) != (s->place[p][k][l] != 0) ||
                    s->place[p][k][l] >= EKT_MATERIALS) {
                    snprintf(err, errlen, "player %d place %d: levels do not match height", p, k);
                    return -1;
                }
        }
    }
    /* nothing may belong to, or be aimed at, a seat beyond np */
    ekt_state c = *s;
    for (int p = 0; p < EKT_MAX_PLAYERS; p++)
        for (int q = 0; q < EKT_MAX_PLAYERS; q++)
            if (p >= s->np || q >= s->np) {
                memset(c.siege[p][q], 0, sizeof c.siege[p][q]);
                memset(c.plan_siege[p][q], 0, sizeof c.plan_siege[p][q]);
            }
    for (int p = s->np; p < EKT_MAX_PLAYERS; p++) {
        c.pieces[p] = c.home[p] = c.amulets[p] = c.completed[p] = c.planned[p] = 0;
        c.plan_done[p] = c.redealt[p] = 0;
        memset(c.field[p], 0, sizeof c.field[p]);
        memset(c.hosp[p], 0, sizeof c.hosp[p]);
        memset(c.siege_done[p], 0, sizeof c.siege_done[p]);
        memset(c.hand[p], 0, sizeof c.hand[p]);
        memset(c.known[p], 0, sizeof c.known[p]);
        memset(c.pile[p], 0, sizeof c.pile[p]);
        memset(c.place[p], 0, sizeof c.place[p]);
        memset(c.height[p], 0, sizeof c.height[p]);
        memset(c.extra[p], 0, sizeof c.extra[p]);
        memset(c.gain[p], 0, sizeof c.gain[p]);
        memset(c.plan_field[p], 0, sizeof c.plan_field[p]);
    }
    if (memcmp(&c, s, sizeof c) != 0) {
        snprintf(err, errlen, "values given for seats beyond np=%d", s->np);
        return -1;
    }
    /* index 0 of card and material counts means nothing and must stay empty */
    int zero = s->deck[0] | s->aside[0] | s->supply[0];
    for (int f = 0; f < EKT_FIELDS; f++) zero |= s->ftile[f][0];
    for (int p = 0; p < s->np; p++) {
        zero |= s->hand[p][0] | s->pile[p][0] | s->known[p][0] | s->extra[p][0] | s->gain[p][0];
        int hand = 0;
        for (int v = 1; v < EKT_VALUES; v++) hand += s->hand[p][v];
        if (hand == 0 && s->phase != EKT_DRAW) {
            snprintf(err, errlen, "player %d has no cards in hand (outside a draw)", p);
            return -1;
        }
    }
    if (zero) {
        snprintf(err, errlen, "a count of card value 0 or material 0 is not zero");
        return -1;
    }
    for (int v = 1; v < EKT_VALUES; v++)
        if (cards[v] != d->cards[v]) {
            snprintf(err, errlen, "%d cards of value %d in the state, the pack has %d", cards[v], v,
                     d->cards[v]);
            return -1;
        }
    return 0;
}

/* Reads a state line. */
int ekt_parse(void *st, const char *text, char *err, size_t errlen) {
    ekt_state s;
    memset(&s, 0, sizeof s);
    unsigned char *b = (unsigned char *)&s;
    int seen[EKT_NFIELDS] = {0};
    const char *p = text;
    char word[2048], *val, *end;
    int got;
    while ((got = game_state_word(&p, word, sizeof word, &val, err, errlen)) > 0) {
        if (strcmp(word, "items_used") == 0 || strcmp(word, "fight") == 0) {
            errno = 0;
            long x = strtol(val, &end, 10);
            if (!*val || *end || errno || x < 0 || x > 65535) {
                snprintf(err, errlen, "%s=%s: not a number from 0 to 65535", word, val);
                return -1;
            }
            if (word[0] == 'i')
                s.items_used = (uint16_t)x;
            else
                s.fight = (uint16_t)x;
            continue;
        }
        int idx = -1;
        for (int i = 0; i < EKT_NFIELDS; i++)
            if (strcmp(word, ekt_fields[i].name) == 0) idx = i;
        if (idx < 0) {
            snprintf(err, errlen, "unknown STATE name '%s'", word);
            return -1;
        }
        size_t k = 0;
        for (char *save = NULL, *tok = strtok_r(val, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save), k++) {
            errno = 0;
            long x = strtol(tok, &end, 10);
            if (!*tok || *end || errno || x < 0 || x > 255 || k >= ekt_fields[idx].size) {
                snprintf(err, errlen, "%s: value %zu '%s' is bad (need %zu numbers 0-255)", word,
                         k + 1, tok, ekt_fields[idx].size);
                return -1;
            }
            b[ekt_fields[idx].offset + k] = (unsigned char)x;
        }
        if (k != ekt_fields[idx].size) {
            snprintf(err, errlen, "%s: %zu values, expected %zu", word, k, ekt_fields[idx].size);
            return -1;
        }
        seen[idx] = 1;
    }
    if (got < 0) return -1;
    for (int i = 0; i < EKT_NFIELDS; i++)
        if (!seen[i]) {
            snprintf(err, errlen, "STATE lacks '%s=' (write a state with hnefi mc eketorp --show)",
                     ekt_fields[i].name);
            return -1;
        }
    if (ekt_check(&s, err, errlen) || ekt_phase_valid(&s, err, errlen)) return -1;
    memcpy(st, &s, sizeof s);
    return 0;
}

/* Writes a picture of the state. */
int ekt_render(const void *st, char *buf, size_t n) {
    const ekt_state *s = st;
    size_t len = 0;
    EKT_PUT("Eketorp, %d players, week %d of %d, starting player %d, phase %s\n", s->np, s->week,
            s->weeks, s->start, ekt_phase_names[s->phase]);
    EKT_PUT("fields:");
    for (int f = 0; f < EKT_FIELDS; f++) {
        EKT_PUT(" %c:", 'a' + f);
        for (int m = 1; m < EKT_MATERIALS; m++)
            for (int k = 0; k < s->ftile[f][m]; k++) EKT_PUT("%c", ekt_material_letter[m]);
        if (!s->ftile[f][1] && !s->ftile[f][2] && !s->ftile[f][3] && !s->ftile[f][4]) EKT_PUT("-");
    }
    EKT_PUT("\n");
    for (int p = 0; p < s->np; p++) {
        EKT_PUT("P%d %3d pts  home %d  amulets %d  hand", p, ekt_score(s, p), s->home[p],
                s->amulets[p]);
        for (int v = 1; v < EKT_VALUES; v++)
            for (int k = 0; k < s->hand[p][v]; k++) EKT_PUT(" %d", v);
        EKT_PUT("  hospital");
        for (int h = 0; h < EKT_HOSPITAL; h++) EKT_PUT(" %d", s->hosp[p][h]);
        EKT_PUT("  stronghold");
        for (int k = 0; k < EKT_PLACES; k++) {
            EKT_PUT(" %s", k % 2 == 0 ? (k == 0 ? "A:" : k == 2 ? "B:" : "C:") : "");
            for (int l = 0; l < EKT_LEVELS; l++)
                EKT_PUT("%c", l < s->height[p][k] ? ekt_material_letter[s->place[p][k][l]] : '_');
        }
        EKT_PUT("\n");
    }
    return (int)(len < n ? len : (n ? n - 1 : 0));
}

/* Names an action. */
int ekt_action_text(const void *st, int player, int a, char *buf, size_t n) {
    const ekt_state *s = st;
    (void)player;
    switch (s->phase) {
    case EKT_REDEAL: return snprintf(buf, n, a ? "return the cards" : "keep the cards");
    case EKT_EXCHANGE: return snprintf(buf, n, a ? "exchange the hand for amulets" : "keep hand");
    case EKT_CARDS: return snprintf(buf, n, "play a %d", a);
    case EKT_BUILD: return snprintf(buf, n, "build on place %d (side %c)", a, 'A' + a / 2);
    case EKT_PLAN:
        if (a == EKT_PLAN_STOP) return snprintf(buf, n, "keep the rest at home");
        if (a < EKT_PLAN_SIEGE) return snprintf(buf, n, "send one to field %c", 'a' + a - 1);
        return snprintf(buf, n, "besiege player %d from side %c", (a - EKT_PLAN_SIEGE) / 3,
                        'A' + (a - EKT_PLAN_SIEGE) % 3);
    case EKT_CHOOSE: {
        int r = a % 1000;
        switch (a / 1000 * 1000) {
        case EKT_FIGHT_FIELD:
            return snprintf(buf, n, "fight player %d on field %c", r % 10, 'a' + r / 10);
        case EKT_FIGHT_RIVALS:
            return snprintf(buf, n, "fight player %d's besieger at player %d side %c", r % 10,
                            r / 100, 'A' + r / 10 % 10);
        case EKT_FIGHT_SIEGE:
            return snprintf(buf, n, "besiege player %d side %c", r / 10, 'A' + r % 10);
        default:
            return snprintf(buf, n, "sally against player %d at side %c", r % 10, 'A' + r / 10);
        }
    }
    default: return snprintf(buf, n, "%d", a);
    }
}

/* Value of the top tile of side `side` of q's stronghold. */
static int ekt_side_top_value(const ekt_state *s, int q, int side) {
    int best = 0;
    for (int k = 2 * side; k < 2 * side + 2; k++)
        if (s->height[q][k] && s->place[q][k][s->height[q][k] - 1] > best)
            best = s->place[q][k][s->height[q][k] - 1];
    return best;
}

/* The hand-written policy: send Vikings to the richest fields not yet covered by one's own
 * orders, besiege a rich opponent when holding a 5 or 6, keep one Viking home; fight with the
 * highest card; exchange a weak hand when amulets allow; build the lowest place first; always
 * return a hand without 4, 5 or 6. */
int ekt_heuristic(const void *st, int player, const int *acts, int n, game_rng *rng) {
    const ekt_state *s = st;
    int want = -1;
    switch (s->phase) {
    case EKT_REDEAL: want = 1; break;
    case EKT_EXCHANGE: {
        int sum = 0, cnt = 0;
        for (int v = 1; v < EKT_VALUES; v++)
            sum += v * s->hand[player][v], cnt += s->hand[player][v];
        want = cnt > 0 && sum < 3 * cnt && s->amulets[player] >= cnt + 1;
        break;
    }
    case EKT_CARDS: want = acts[n - 1]; break;
    case EKT_BUILD: {
        int best = acts[0];
        for (int i = 1; i < n; i++)
            if (s->height[player][acts[i]] < s->height[player][best]) best = acts[i];
        want = best;
        break;
    }
    case EKT_PLAN: {
        if (s->planned[player] + 1 >= s->home[player]) {
            want = EKT_PLAN_STOP;
            break;
        }
        int bestv = 0;
        want = EKT_PLAN_STOP;
        for (int f = 0; f < EKT_FIELDS; f++) {
            int tiles = 0, value = 0;
            for (int m = 1; m < EKT_MATERIALS; m++)
                tiles += s->ftile[f][m], value += m * s->ftile[f][m];
            if (tiles > s->plan_field[player][f] && value > bestv) {
                bestv = value / tiles * 2 + value - s->plan_field[player][f] * 3;
                want = EKT_PLAN_FIELD + f;
            }
        }
        if (s->hand[player][5] + s->hand[player][6] > 0)
            for (int q = 0; q < s->np; q++)
                for (int side = 0; q != player && side < EKT_SIDES; side++)
                    if (!s->plan_siege[player][q][side] && ekt_side_top_value(s, q, side) >= 2 &&
                        ekt_side_top_value(s, q, side) * 2 > bestv) {
                        bestv = ekt_side_top_value(s, q, side) * 2;
                        want = EKT_PLAN_SIEGE + q * 3 + side;
                    }
        break;
    }
    default: want = acts[rng_below(rng, (uint32_t)n)]; break;
    }
    for (int i = 0; i < n; i++)
        if (acts[i] == want) return i;
    return (int)rng_below(rng, (uint32_t)n);
}

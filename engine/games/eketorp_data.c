/* Eketorp data: the compiled-in defaults and the reader for edited copies (eketorp.h). */
#include "engine/games/eketorp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Identical to engine/games/data/eketorp-rules.txt (a test checks it). */
const char ekt_default_data_text[] =
    "# Eketorp defaults: the points the rule text leaves open (see docs/eketorp.md).\n"
    "# hnefi has the same values compiled in; edit a copy and pass it with --data FILE.\n"
    "#\n"
    "# card VALUE COPIES        the fighting cards (54 = values 1-6, nine of each)\n"
    "# supply MATERIAL COUNT    tiles in the box (g foliage 1 pt, b wood 2, n mud 3, s stone 4)\n"
    "# hospital A B C D         least card difference for the spaces Diff 5+, Diff 3-4, Diff 1-2,\n"
    "#                          Diff 0 (smaller differences do not exist; Dismissal is the fifth "
    "space)\n"
    "# item FIELD:MATERIAL ...  one item card: a tile of that material on that field (a-g)\n"
    "card 1 9\n"
    "card 2 9\n"
    "card 3 9\n"
    "card 4 9\n"
    "card 5 9\n"
    "card 6 9\n"
    "supply g 60\n"
    "supply b 48\n"
    "supply n 12\n"
    "supply s 6\n"
    "hospital 5 3 1 0\n"
    "item a:g a:g b:g c:b d:g e:b f:g g:n\n"
    "item a:b b:g b:g c:g d:b e:g f:g g:g\n"
    "item a:g b:b c:g c:g d:n e:g f:b g:g\n"
    "item a:g b:g c:b d:g d:g e:b f:s g:g\n"
    "item a:n b:g c:g d:b e:g e:g f:g g:b\n"
    "item a:g b:b c:g d:g e:n f:g f:g g:b\n"
    "item a:b b:g c:n d:g e:g f:b g:g g:g\n"
    "item a:g a:g b:b c:g d:s e:g f:b g:g\n"
    "item a:g b:n c:g d:b e:g f:g g:b g:g\n"
    "item a:b a:g b:g c:g d:g e:b f:n g:g\n"
    "item a:g b:g b:b c:b d:n e:g f:g g:s\n"
    "item a:s b:g c:g c:g d:b e:g f:b g:g\n";

static ekt_data ekt_current;
static int ekt_current_ready;

/* Material index of a letter (g b n s), or -1. */
static int ekt_material_of(char c) {
    switch (c) {
    case 'g': return 1;
    case 'b': return 2;
    case 'n': return 3;
    case 's': return 4;
    default: return -1;
    }
}

/* Reads data text (the format of eketorp-rules.txt). */
int ekt_data_parse(const char *text, ekt_data *out, char *err, size_t errlen) {
    ekt_data d;
    memset(&d, 0, sizeof d);
    int have_hosp = 0, lineno = 0;
    const char *p = text;
    while (*p) {
        char line[512];
        size_t len = strcspn(p, "\n");
        lineno++;
        if (len >= sizeof line) {
            snprintf(err, errlen, "line %d: too long", lineno);
            return -1;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (p[len] == '\n');
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *save = NULL, *word = strtok_r(line, " \t\r", &save);
        if (!word) continue;
        if (strcmp(word, "card") == 0) {
            char *v = strtok_r(NULL, " \t\r", &save), *c = strtok_r(NULL, " \t\r", &save);
            int value = v ? atoi(v) : -1, copies = c ? atoi(c) : -1;
            if (!v || !c || value < 1 || value > 6 || copies < 0 || copies > 40) {
                snprintf(err, errlen, "line %d: expected 'card VALUE(1-6) COPIES(0-40)'", lineno);
                return -1;
            }
            d.cards[value] = (uint8_t)copies;
        } else if (strcmp(word, "supply") == 0) {
            char *m = strtok_r(NULL, " \t\r", &save), *c = strtok_r(NULL, " \t\r", &save);
            int mat = m && strlen(m) == 1 ? ekt_material_of(m[0]) : -1, n = c ? atoi(c) : -1;
            if (mat < 0 || n < 0 || n > 250) {
                snprintf(err, errlen, "line %d: expected 'supply g|b|n|s COUNT(0-250)'", lineno);
                return -1;
            }
            d.supply[mat] = (uint8_t)n;
        } else if (strcmp(word, "hospital") == 0) {
            int prev = 1000;
            for (int i = 0; i < EKT_HOSPITAL - 1; i++) {
                char *v = strtok_r(NULL, " \t\r", &save);
                int x = v ? atoi(v) : -1;
                if (!v || x < 0 || x >= prev || (i == EKT_HOSPITAL - 2 && x != 0)) {
                    snprintf(err, errlen, "line %d: expected 'hospital A B C 0' with A > B > C > 0",
                             lineno);
                    return -1;
                }
                d.hospital_min[i] = (uint8_t)x;
                prev = x;
            }
            have_hosp = 1;
        } else if (strcmp(word, "item") == 0) {
            if (d.item_count >= EKT_ITEM_CARDS) {
                snprintf(err, errlen, "line %d: more than %d item cards", lineno, EKT_ITEM_CARDS);
                return -1;
            }
            int k = d.item_count, n = 0;
            for (char *t = strtok_r(NULL, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
                if (strlen(t) != 3 || t[0] < 'a' || t[0] > 'g' || t[1] != ':' ||
                    ekt_material_of(t[2]) < 0) {
                    snprintf(err, errlen, "line %d: '%s' is not FIELD:MATERIAL (a-g : g b n s)",
                             lineno, t);
                    return -1;
                }
                if (n >= EKT_ITEM_TILES) {
                    snprintf(err, errlen, "line %d: more than %d tiles", lineno, EKT_ITEM_TILES);
                    return -1;
                }
                d.item_field[k][n] = (uint8_t)(t[0] - 'a');
                d.item_material[k][n] = (uint8_t)ekt_material_of(t[2]);
                n++;
            }
            d.item_len[k] = (uint8_t)n;
            d.item_count++;
        } else {
            snprintf(err, errlen, "line %d: unknown word '%s' (card, supply, hospital, item)",
                     lineno, word);
            return -1;
        }
    }
    int cards = 0;
    for (int v = 1; v < EKT_VALUES; v++) cards += d.cards[v];
    if (cards < 24 || cards > 200) {
        snprintf(err, errlen, "the pack has %d cards; need 24 to 200", cards);
        return -1;
    }
    if (!have_hosp) {
        snprintf(err, errlen, "no 'hospital' line");
        return -1;
    }
    if (d.item_count < 1) {
        snprintf(err, errlen, "no 'item' lines");
        return -1;
    }
    *out = d;
    return 0;
}

/* The data in force (the defaults until ekt_data_set). */
const ekt_data *ekt_data_current(void) {
    if (!ekt_current_ready) {
        char err[128];
        if (ekt_data_parse(ekt_default_data_text, &ekt_current, err, sizeof err) != 0) abort();
        ekt_current_ready = 1;
    }
    return &ekt_current;
}

/* Makes `d` the data for games set up from now on. */
void ekt_data_set(const ekt_data *d) {
    ekt_current = *d;
    ekt_current_ready = 1;
}

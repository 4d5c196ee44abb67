/* `hnefi mc raid`: exact combat odds, the loadout optimiser and raid-day tournaments. */
#include "tools/cmd_mc_raid.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/game.h"
#include "engine/games/raid.h"
#include "engine/games/raid_combat.h"
#include "search/mc.h"
#include "search/raid_buy.h"
#include "selfplay/stats.h"
#include "tools/cli.h"

static const char raid_usage[] =
    "usage: hnefi mc raid odds --attacker KIT --defender KIT [melee options]\n"
    "       hnefi mc raid odds --fire bow|javelin --defender KIT|villager|animal|mounted\n"
    "                          [--standing] [--range R] [--cover C] [--animal-defence zero|card]\n"
    "       hnefi mc raid odds --stab [--stab-mode heart|spade]\n"
    "       hnefi mc raid odds --beast boar|wolf|bear|troll|any --attacker KIT\n"
    "       hnefi mc raid odds --tomb --attacker KIT\n"
    "       hnefi mc raid buy --coins N [--against KIT] [--objective kills|chest] [--days D]\n"
    "                          [--items LIST] [--max-warriors W] [--moved 7] [--front]\n"
    "       hnefi mc raid play [--games N] [--players P] [--policy SPEC]... [--seed S]\n"
    "                          [--options K=V,...] [--quiet]   on one core, with war chests\n"
    "                          (progress dots on a terminal only; --quiet: none)\n"
    "       hnefi mc raid bench [--seconds S | --games M] [--players P] [--seed S]\n"
    "                          [--options K=V,...]\n"
    "                          random playouts per second on one core\n"
    "       hnefi mc raid --games N --policy SPEC ...   the shared tournament runner, on every\n"
    "                          core, with its options (--format, --threads, ...: hnefi mc --help)\n"
    "       (viking-raid is the same as raid)\n"
    "KIT: comma-separated items: sword axe dagger spear long-axe bow javelin shield helmet\n"
    "     chain quiver pony (e.g. \"sword,shield,helmet\")\n"
    "melee options:\n"
    "  --moved INCHES      inches the attacker moved into contact (over 6: +1 in round 1)\n"
    "  --cover none|soft|hard           the defender's cover (+1 / +2)\n"
    "  --attacker-cover none|soft|hard  the attacker's cover\n"
    "  --berserk off|sum|redraw  the optional berserker rule and its reading (off)\n"
    "  --run never|always  the side attacked runs after a round without result (never)\n"
    "  --counter           a defence 4 above the attack kills the attacker (not the default)\n"
    "  --cap-defence       the +6 cap applies to defence too\n"
    "  --no-swap           the attacker strikes every round (the text: roles alternate)\n"
    "  --rounds N          rows of the per-round table (default 6)\n"
    "  --limit N           stop the fight after N rounds (default: no limit, solved exactly)\n"
    "  --mc N [--seed S]   also play N random fights and print the estimate\n"
    "docs/viking-raid.md lists every rule reading and assumption.\n";

static int raid_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints an error about an argument ("hnefi mc raid: " + the message) and returns 2. */
static int raid_bad(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "hnefi mc raid: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

/* Reads a whole decimal integer in [lo, hi]. */
static int raid_int(const char *opt, const char *text, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long x = text ? strtol(text, &end, 10) : 0;
    if (!text || !*text || *end || errno || x < lo || x > hi) {
        char range[64];
        cli_range_text(lo, hi, text && *text && !*end && x > 0 && (errno == ERANGE || x > hi),
                       range, sizeof range);
        fprintf(stderr, "hnefi mc raid: %s: '%s' is not a whole number%s\n", opt,
                text ? text : "(missing)", range);
        return -1;
    }
    *out = x;
    return 0;
}

/* Reads a kit, printing the reason when it is bad. */
static int raid_kit_arg(const char *opt, const char *text, raid_kit *k) {
    char err[256];
    if (!text) {
        fprintf(stderr, "hnefi mc raid: %s needs an equipment list\n", opt);
        return -1;
    }
    if (raid_kit_parse(text, k, err, sizeof err)) {
        fprintf(stderr, "hnefi mc raid: %s \"%s\": %s\n", opt, text, err);
        return -1;
    }
    return 0;
}

/* Reads one of a list of words; returns its index or -1 after an error. */
static int raid_word(const char *opt, const char *text, const char *const *words) {
    for (int i = 0; text && words[i]; i++)
        if (strcmp(text, words[i]) == 0) return i;
    fprintf(stderr, "hnefi mc raid: %s: '%s' is not one of:", opt, text ? text : "(missing)");
    for (int i = 0; words[i]; i++) fprintf(stderr, " %s", words[i]);
    fprintf(stderr, "\n");
    return -1;
}

/* Everything `odds` reads. */
typedef struct odds_args {
    const char *attacker, *defender, *fire, *beast;
    raid_melee_opts melee;
    int stab, stab_mode, tomb, standing, animal_card, rounds, limit;
    long range, mc, seed;
} odds_args;

/* Prints a probability with its exact fraction over 2744 (14^3) when it is one. */
static void print_p(const char *label, double p) {
    double n = p * 2744.0;
    long r = lround(n);
    if (fabs(n - r) < 1e-7 && r > 0) {
        long a = r, b = 2744;
        while (b) {
            long t = a % b;
            a = b;
            b = t;
        }
        printf("  %-26s %.6f  (%ld/%ld)\n", label, p, r / a, 2744 / a);
    } else {
        printf("  %-26s %.6f\n", label, p);
    }
}

static const char *const end_label[RAID_END_NB] = {
    "attacker kills", "defender kills", "attacker surrenders", "defender surrenders",
    "both removed",   "defender runs",  "still fighting"};

/* Prints the melee odds: round 1, the per-round table and the whole fight. */
static int odds_melee(const odds_args *a) {
    raid_kit ka, kd;
    if (raid_kit_arg("--attacker", a->attacker, &ka) ||
        raid_kit_arg("--defender", a->defender, &kd))
        return 2;
    if (raid_kit_weapons(&ka) == 0)
        return raid_bad("--attacker \"%s\": a warrior with no weapon must surrender", a->attacker);
    if (raid_kit_weapons(&kd) == 0)
        return raid_bad("--defender \"%s\": a warrior with no weapon must surrender", a->defender);
    raid_duel d;
    raid_melee_duel(&d, &ka, &kd, &a->melee);
    char ta[RAID_KIT_TEXT_MAX], td[RAID_KIT_TEXT_MAX];
    raid_kit_format(&ka, ta, sizeof ta);
    raid_kit_format(&kd, td, sizeof td);
    printf("melee: %s (modifier %+d%s) attacks %s (modifier %+d)\n", ta, raid_kit_melee(&ka),
           a->melee.moved ? ", +1 for the long move in round 1" : "", td, raid_kit_melee(&kd));
    printf("after cover and caps: attack %+d in round 1, defence %+d; a kill needs 4 or more\n",
           d.s[0].atk[0] + d.s[0].moved > d.s[0].cap + d.s[0].moved ? d.s[0].cap + d.s[0].moved
                                                                    : d.s[0].atk[0] + d.s[0].moved,
           d.s[1].def_cap >= 0 && d.s[1].def[0] > d.s[1].def_cap ? d.s[1].def_cap : d.s[1].def[0]);
    raid_round rt;
    raid_duel_round(&d, 1, 0, 0, &rt);
    printf("round 1 (the attacker strikes), exact:\n");
    for (int e = 0; e < RAID_END_NB; e++)
        if (rt.end[e] > 0) print_p(end_label[e], rt.end[e]);
    double go = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) go += rt.next[i][j];
    print_p("no result, fight goes on", go);
    print_p("attacker's weapon breaks", rt.breaks[0]);
    print_p("defender's weapon breaks", rt.breaks[1]);
    if (rt.berserk > 0) print_p("attacker turns berserker", rt.berserk);
    int rows = a->rounds;
    if (rows > RAID_MAX_ROUNDS_TABLE) rows = RAID_MAX_ROUNDS_TABLE;
    double per[RAID_MAX_ROUNDS_TABLE][RAID_END_NB];
    raid_fight f;
    if (rows > 0) {
        raid_duel_forward(&d, rows, &f, per);
        printf("per round (probability that the fight ends in that round):\n");
        printf("  %5s %-9s %9s %9s %9s %9s %9s %9s\n", "round", "strikes", "A kills", "D kills",
               "A surr.", "D surr.", "both", "runs");
        for (int r = 0; r < rows; r++)
            printf("  %5d %-9s %9.6f %9.6f %9.6f %9.6f %9.6f %9.6f\n", r + 1,
                   (d.swap && r % 2) ? "defender" : "attacker", per[r][RAID_END_A_KILLS],
                   per[r][RAID_END_D_KILLS], per[r][RAID_END_A_SURRENDERS],
                   per[r][RAID_END_D_SURRENDERS], per[r][RAID_END_BOTH_REMOVED],
                   per[r][RAID_END_RUN]);
    }
    if (a->limit > 0) {
        raid_duel_forward(&d, a->limit, &f, NULL);
        printf("whole fight, stopped after %d rounds (exact):\n", a->limit);
    } else {
        raid_duel_solve(&d, &f);
        printf("whole fight (exact, no round limit):\n");
    }
    for (int e = 0; e < RAID_END_NB; e++)
        if (f.p[e] > 0) printf("  %-26s %.6f\n", end_label[e], f.p[e]);
    printf("  %-26s %.6f\n", "attacker wins (kill+surr.)",
           f.p[RAID_END_A_KILLS] + f.p[RAID_END_D_SURRENDERS]);
    printf("  %-26s %.4f\n", "expected rounds", f.rounds);
    printf("  %-26s %.4f / %.4f\n", "expected weapons broken", f.breaks[0], f.breaks[1]);
    if (a->melee.berserk != RAID_BERSERK_OFF)
        printf("  %-26s %.4f / %.4f\n", "expected berserker coins", f.coins[0], f.coins[1]);
    if (a->mc > 0) {
        game_rng rng;
        rng_seed(&rng, (uint64_t)a->seed);
        long count[RAID_END_NB] = {0};
        int rounds = 0;
        int lim = a->limit > 0 ? a->limit : 1000000;
        for (long i = 0; i < a->mc; i++)
            count[raid_melee_sample(&ka, &kd, &a->melee, lim, &rng, &rounds)]++;
        printf("Monte-Carlo check, %ld fights, seed %ld (estimate, 95%% interval):\n", a->mc,
               a->seed);
        for (int e = 0; e < RAID_END_NB; e++) {
            double p = count[e] / (double)a->mc, lo, hi;
            stats_wilson(p, (double)a->mc, &lo, &hi);
            if (count[e] || f.p[e] > 0)
                printf("  %-26s %.6f  [%.6f, %.6f]  exact %.6f\n", end_label[e], p, lo, hi, f.p[e]);
        }
    }
    return 0;
}

/* Prints a missile volley. */
static int odds_fire(const odds_args *a) {
    static const char *const weapons[] = {"bow", "javelin", NULL};
    int w = raid_word("--fire", a->fire, weapons);
    if (w < 0) return 2;
    raid_item item = w == 0 ? RAID_BOW : RAID_JAVELIN;
    long reach = item == RAID_BOW ? 18 : 6;
    if (a->range > reach) {
        char r[32];
        snprintf(r, sizeof r, "%ld", a->range);
        return raid_bad("--range %s: out of range for the %s", r, a->fire);
    }
    raid_target target = RAID_TARGET_WARRIOR;
    raid_kit kd;
    memset(&kd, 0, sizeof kd);
    const char *def = a->defender ? a->defender : "";
    if (strcmp(def, "villager") == 0)
        target = RAID_TARGET_VILLAGER;
    else if (strcmp(def, "animal") == 0 || strcmp(def, "pony") == 0)
        target = RAID_TARGET_ANIMAL;
    else if (strcmp(def, "mounted") == 0)
        target = RAID_TARGET_MOUNTED;
    else if (raid_kit_arg("--defender", a->defender, &kd))
        return 2;
    int def_mod = (int)a->melee.cover_d;
    if (target == RAID_TARGET_WARRIOR) def_mod += raid_kit_missile_defence(&kd);
    int shots = a->standing ? 2 : 1;
    raid_volley v;
    raid_missile(item, shots, target, def_mod, a->animal_card ? RAID_ANIMAL_CARD : RAID_ANIMAL_ZERO,
                 &v);
    printf("%s (+%d) fires at %s (defence modifier %+d), %s: %d shot%s at most\n", a->fire,
           item == RAID_BOW ? 1 : 2, def, def_mod, a->standing ? "standing" : "after moving", shots,
           shots > 1 ? "s" : "");
    print_p("one shot kills", v.shot_kill);
    print_p("one shot breaks the weapon", v.shot_break);
    printf("  %-26s %.6f\n", "the volley kills", v.kill);
    printf("  %-26s %.6f\n", "weapon broken / snapped", v.broken);
    printf("  %-26s %.4f\n", "expected shots", v.shots);
    if (target == RAID_TARGET_MOUNTED) printf("  %-26s %.6f\n", "the rider dies (D6 5-6)", v.rider);
    return 0;
}

/* Prints the beast odds for one or every beast. */
static int odds_beast(const odds_args *a) {
    static const char *const names[] = {"boar", "wolf", "bear", "troll", "any", NULL};
    int b = raid_word("--beast", a->beast, names);
    if (b < 0) return 2;
    raid_kit k;
    memset(&k, 0, sizeof k);
    if (a->attacker && raid_kit_arg("--attacker", a->attacker, &k)) return 2;
    printf("wild beasts (no modifiers but the hunter's one weapon, +%d):\n",
           raid_kit_best_weapon(&k));
    printf("  %-6s %-6s %-10s %12s %12s %12s\n", "beast", "D6", "kills on", "its attack",
           "hunter wins", "beast wins");
    double any[3] = {0, 0, 0};
    for (int i = 0; i < RAID_BEAST_NB; i++) {
        if (b != 4 && b != i) continue;
        raid_duel d;
        raid_fight f;
        raid_beast_duel(&d, (raid_beast)i, &k);
        raid_duel_solve(&d, &f);
        double w = raid_beast_faces((raid_beast)i) / 6.0;
        any[0] += w * raid_beast_attack((raid_beast)i);
        any[1] += w * f.p[RAID_END_A_KILLS];
        any[2] += w * f.p[RAID_END_D_KILLS];
        printf("  %-6s %d/6    diff %d+   %12.6f %12.6f %12.6f\n", raid_beast_name((raid_beast)i),
               raid_beast_faces((raid_beast)i), raid_beast_threshold((raid_beast)i),
               raid_beast_attack((raid_beast)i), f.p[RAID_END_A_KILLS], f.p[RAID_END_D_KILLS]);
    }
    if (b == 4)
        printf("  %-6s %-6s %-10s %12.6f %12.6f %12.6f\n", "any", "", "", any[0], any[1], any[2]);
    return 0;
}

/* Prints the tomb odds. */
static int odds_tomb(const odds_args *a) {
    raid_kit k;
    if (raid_kit_arg("--attacker", a->attacker, &k)) return 2;
    raid_duel d;
    raid_fight f;
    raid_tomb_duel(&d, &k);
    double per[8][RAID_END_NB];
    raid_duel_forward(&d, 8, &f, per);
    printf("the tomb: one weapon (+%d), -4 .. -1 in turns 1-4 on attack and defence; the Dead "
           "Viking King strikes back with his sword (+1)\n",
           raid_kit_best_weapon(&k));
    printf("  %4s %12s %12s\n", "turn", "you win", "King wins");
    for (int t = 0; t < 4; t++)
        printf("  %4d %12.6f %12.6f\n", t + 1, per[2 * t][RAID_END_A_KILLS],
               per[2 * t + 1][RAID_END_D_KILLS]);
    raid_duel_solve(&d, &f);
    printf("  whole fight: you win %.6f, the King wins %.6f, expected turns %.3f\n",
           f.p[RAID_END_A_KILLS], f.p[RAID_END_D_KILLS], f.rounds / 2);
    printf("  expected treasure (5D6 = 17.5 on a win): %.4f coins\n", 17.5 * f.p[RAID_END_A_KILLS]);
    return 0;
}

/* `odds`: parses the options and dispatches to the kind of combat asked for. */
static int raid_odds(int argc, char **argv) {
    odds_args a;
    memset(&a, 0, sizeof a);
    a.rounds = 6;
    a.seed = 1;
    a.range = -1;
    static const char *const covers[] = {"none", "soft", "hard", NULL};
    static const char *const berserks[] = {"off", "sum", "redraw", NULL};
    static const char *const runs[] = {"never", "always", NULL};
    static const char *const stabs[] = {"heart", "spade", NULL};
    static const char *const animals[] = {"zero", "card", NULL};
    const char *given[64];
    int ngiven = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        int w;
        if (ngiven < 64) given[ngiven++] = o;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            printf("%s", raid_usage);
            return 0;
        } else if (strcmp(o, "--attacker") == 0 && v) {
            a.attacker = v, i++;
        } else if (strcmp(o, "--defender") == 0 && v) {
            a.defender = v, i++;
        } else if (strcmp(o, "--moved") == 0) {
            if (raid_int(o, v, 0, 100, &x)) return 2;
            a.melee.moved = x > 6, i++;
        } else if (strcmp(o, "--cover") == 0 || strcmp(o, "--attacker-cover") == 0) {
            if ((w = raid_word(o, v, covers)) < 0) return 2;
            if (o[2] == 'c')
                a.melee.cover_d = (raid_cover)w;
            else
                a.melee.cover_a = (raid_cover)w;
            i++;
        } else if (strcmp(o, "--berserk") == 0) {
            if ((w = raid_word(o, v, berserks)) < 0) return 2;
            a.melee.berserk = (raid_berserk)w, i++;
        } else if (strcmp(o, "--run") == 0) {
            if ((w = raid_word(o, v, runs)) < 0) return 2;
            a.melee.run = (raid_run)w, i++;
        } else if (strcmp(o, "--counter") == 0) {
            a.melee.counter_kill = 1;
        } else if (strcmp(o, "--cap-defence") == 0) {
            a.melee.cap_defence = 1;
        } else if (strcmp(o, "--no-swap") == 0) {
            a.melee.no_swap = 1;
        } else if (strcmp(o, "--rounds") == 0) {
            if (raid_int(o, v, 0, RAID_MAX_ROUNDS_TABLE, &x)) return 2;
            a.rounds = (int)x, i++;
        } else if (strcmp(o, "--limit") == 0) {
            if (raid_int(o, v, 1, 100000, &x)) return 2;
            a.limit = (int)x, i++;
        } else if (strcmp(o, "--mc") == 0) {
            if (raid_int(o, v, 1, 100000000, &a.mc)) return 2;
            i++;
        } else if (strcmp(o, "--seed") == 0) {
            if (raid_int(o, v, 0, 2147483647, &a.seed)) return 2;
            i++;
        } else if (strcmp(o, "--fire") == 0 && v) {
            a.fire = v, i++;
        } else if (strcmp(o, "--standing") == 0) {
            a.standing = 1;
        } else if (strcmp(o, "--range") == 0) {
            if (raid_int(o, v, 0, 1000, &a.range)) return 2;
            i++;
        } else if (strcmp(o, "--animal-defence") == 0) {
            if ((w = raid_word(o, v, animals)) < 0) return 2;
            a.animal_card = w, i++;
        } else if (strcmp(o, "--stab") == 0) {
            a.stab = 1;
        } else if (strcmp(o, "--stab-mode") == 0) {
            if ((w = raid_word(o, v, stabs)) < 0) return 2;
            a.stab_mode = w, i++;
        } else if (strcmp(o, "--beast") == 0 && v) {
            a.beast = v, i++;
        } else if (strcmp(o, "--tomb") == 0) {
            a.tomb = 1;
        } else if (!v && o[0] == '-' &&
                   (strcmp(o, "--attacker") == 0 || strcmp(o, "--defender") == 0 ||
                    strcmp(o, "--fire") == 0 || strcmp(o, "--beast") == 0)) {
            return raid_bad("%s needs a value", o);
        } else {
            return raid_bad("odds: unknown argument '%s' (try hnefi mc raid --help)", o);
        }
    }
    int kinds = !!a.fire + a.stab + !!a.beast + a.tomb;
    if (kinds > 1) return raid_bad("odds: choose one of --fire, --stab, --beast, --tomb");
    /* each kind of combat and the options it uses: any other would be ignored, so it is refused */
    const char *kind = "melee", *allowed =
                                    " --attacker --defender --moved --cover --attacker-cover "
                                    "--berserk --run --counter --cap-defence --no-swap "
                                    "--rounds --limit --mc --seed ";
    if (a.fire)
        kind = "--fire",
        allowed = " --fire --defender --standing --range --cover --animal-defence ";
    else if (a.stab)
        kind = "--stab", allowed = " --stab --stab-mode ";
    else if (a.beast)
        kind = "--beast", allowed = " --beast --attacker ";
    else if (a.tomb)
        kind = "--tomb", allowed = " --tomb --attacker ";
    for (int k = 0; k < ngiven; k++) {
        char word[64];
        snprintf(word, sizeof word, " %s ", given[k]);
        if (!strstr(allowed, word))
            return raid_bad("odds: %s does not apply to %s odds (try hnefi mc raid --help)",
                            given[k], kind);
    }
    if (a.stab) {
        double pb;
        double p = raid_assassinate((raid_stab)a.stab_mode, &pb);
        printf("a stab in the back (dagger, no additions, difference 8: %s):\n",
               a.stab_mode ? "the Spade alone" : "Spade against a bare Heart");
        print_p("the ally dies", p);
        print_p("the dagger breaks (Joker)", pb);
        print_p("the bid fails", 1 - p);
        return 0;
    }
    if (a.fire) return odds_fire(&a);
    if (a.beast) return odds_beast(&a);
    if (a.tomb) return odds_tomb(&a);
    if (!a.attacker || !a.defender)
        return raid_bad("odds: melee needs --attacker KIT and --defender KIT");
    return odds_melee(&a);
}

/* `buy`: the loadout optimiser. */
static int raid_buy_cmd(int argc, char **argv) {
    raid_buy_opts o;
    raid_buy_defaults(&o);
    int have_coins = 0, show_front = 0;
    static const char *const objectives[] = {"kills", "chest", NULL};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        int w;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s", raid_usage);
            return 0;
        } else if (strcmp(a, "--coins") == 0) {
            if (raid_int(a, v, 0, RAID_BUY_MAX_COINS, &x)) return 2;
            o.coins = (int)x, have_coins = 1, i++;
        } else if (strcmp(a, "--against") == 0) {
            if (raid_kit_arg(a, v, &o.against)) return 2;
            if (raid_kit_weapons(&o.against) == 0)
                return raid_bad("--against \"%s\": the enemy needs a weapon", v);
            i++;
        } else if (strcmp(a, "--objective") == 0) {
            if ((w = raid_word(a, v, objectives)) < 0) return 2;
            o.objective = (raid_objective)w, i++;
        } else if (strcmp(a, "--days") == 0) {
            if (raid_int(a, v, 1, 10, &x)) return 2;
            o.days = (int)x, i++;
        } else if (strcmp(a, "--max-warriors") == 0) {
            if (raid_int(a, v, 0, 200, &x)) return 2;
            o.max_warriors = (int)x, i++;
        } else if (strcmp(a, "--moved") == 0) {
            if (raid_int(a, v, 0, 100, &x)) return 2;
            o.melee.moved = x > 6, i++;
        } else if (strcmp(a, "--items") == 0) {
            if (!v) return raid_bad("%s needs a list of items", a);
            raid_kit all;
            char err[256];
            /* parse item by item: the list need not be a legal kit */
            o.items = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                int it = raid_item_parse(tok);
                if (it < 0) {
                    raid_kit_parse(tok, &all, err, sizeof err);
                    return raid_bad("--items: %s", err);
                }
                o.items |= 1u << it;
            }
            i++;
        } else if (strcmp(a, "--front") == 0) {
            show_front = 1;
        } else {
            return raid_bad("buy: unknown argument '%s' (try hnefi mc raid --help)", a);
        }
    }
    if (!have_coins) return raid_bad("buy: --coins N is required");
    raid_warband b;
    static raid_front_point front[RAID_BUY_MAX_COINS + 1];
    int nf = 0;
    char err[256];
    clock_t t0 = clock();
    if (raid_buy(&o, &b, front, &nf, err, sizeof err)) {
        fprintf(stderr, "hnefi mc raid: buy: %s\n", err);
        return 2;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    char t[RAID_KIT_TEXT_MAX], herd[128];
    raid_kit_format(&o.against, t, sizeof t);
    printf("best warband for %d coins against \"%s\" (objective: %s, %d day%s of upkeep):\n",
           o.coins, t, o.objective == RAID_OBJ_KILLS ? "expected kills" : "war chest", o.days,
           o.days > 1 ? "s" : "");
    raid_kit_format(&b.leader, t, sizeof t);
    printf("  leader:         %s (%d coins)\n", t, raid_kit_cost(&b.leader));
    raid_kit_format(&b.son, t, sizeof t);
    printf("  son of leader:  %s (%d coins)\n", t, raid_kit_cost(&b.son));
    for (int i = 0; i < b.nkinds; i++) {
        raid_kit_format(&b.kit[i], t, sizeof t);
        printf("  %2d warrior%s    %s (%d coins each + %d upkeep + 1 food)\n", b.count[i],
               b.count[i] > 1 ? "s" : " ", t, raid_kit_cost(&b.kit[i]), RAID_UPKEEP * o.days);
    }
    raid_herd_format(&b.herd, herd, sizeof herd);
    printf("  %2d villager%s   herd: %s\n", b.villagers, b.villagers > 1 ? "s" : " ", herd);
    printf("  spent %d, left %d\n", b.spent, b.left);
    printf("  expected kills %.4f (each figure fights the reference once), expected war chest "
           "%.3f\n",
           b.kills, b.chest);
    printf("  if the plague strikes this settlement: %.2f warriors lost on average\n", b.plague);
    printf("  solved exactly in %.3f s\n", secs);
    if (show_front) {
        printf("Pareto front, coins spent against expected kills:\n");
        for (int i = 0; i < nf; i++) printf("  %4d %10.4f\n", front[i].cost, front[i].kills);
    }
    return 0;
}

/* Compares doubles for qsort. */
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* `play`: a raid-day tournament with war-chest distributions, on one core. */
static int raid_play(int argc, char **argv) {
    long games = 200, players = 4, seed = 1;
    bool quiet = false;
    const char *spec[GAME_MAX_PLAYERS];
    char specbuf[GAME_MAX_PLAYERS][128];
    int nspec = 0;
    const char *options = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s", raid_usage);
            return 0;
        } else if (strcmp(a, "--games") == 0) {
            if (raid_int(a, v, 1, 10000000, &games)) return 2;
            i++;
        } else if (strcmp(a, "--players") == 0) {
            if (raid_int(a, v, 3, RAID_MAX_PLAYERS, &players)) return 2;
            i++;
        } else if (strcmp(a, "--seed") == 0) {
            if (raid_int(a, v, 0, 2147483647, &seed)) return 2;
            i++;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(a, "--options") == 0 && v) {
            options = v, i++;
        } else if ((strcmp(a, "--policy") == 0 || strcmp(a, "--policies") == 0) && v) {
            char copy[512]; /* --policies a;b;c also works */
            snprintf(copy, sizeof copy, "%s", v);
            for (char *tok = strtok(copy, ";"); tok && nspec < GAME_MAX_PLAYERS;
                 tok = strtok(NULL, ";")) {
                snprintf(specbuf[nspec], sizeof specbuf[nspec], "%s", tok);
                spec[nspec] = specbuf[nspec];
                nspec++;
            }
            i++;
        } else {
            return raid_bad("play: unknown argument '%s' (try hnefi mc raid --help)", a);
        }
    }
    if (nspec == 0) spec[nspec++] = "random";
    if (nspec > players) return raid_bad("play: more policies than the %ld players", players);
    int np = (int)players;
    mc_policy pol[GAME_MAX_PLAYERS];
    char err[256];
    for (int k = 0; k < np; k++) {
        const char *sp = spec[k < nspec ? k : nspec - 1];
        if (mc_policy_init(&pol[k], &raid_game, sp, err, sizeof err)) {
            for (int j = 0; j < k; j++) mc_policy_done(&pol[j]);
            fprintf(stderr, "hnefi mc raid: --policy \"%s\": %s\n", sp, err);
            return 2;
        }
    }
    game_buffer gb;
    if (raid_game.init(gb.bytes, np, options, err, sizeof err)) {
        for (int k = 0; k < np; k++) mc_policy_done(&pol[k]);
        fprintf(stderr, "hnefi mc raid: --options: %s\n", err);
        return 2;
    }
    bool dots = !quiet && games >= 20 && isatty(2); /* progress on a terminal only */
    double *chest = malloc(sizeof(double) * (size_t)games * (size_t)np);
    if (!chest) {
        for (int k = 0; k < np; k++) mc_policy_done(&pol[k]);
        fprintf(stderr, "hnefi mc raid: play: out of memory for %ld games\n", games);
        return 1;
    }
    double win[GAME_MAX_PLAYERS] = {0};
    long hours = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long gi = 0; gi < games; gi++) {
        game_rng rng;
        rng_seed(&rng, rng_derive((uint64_t)seed, (uint64_t)gi));
        raid_game.init(gb.bytes, np, options, err, sizeof err);
        mc_policy *seat[GAME_MAX_PLAYERS];
        for (int s = 0; s < np; s++) seat[s] = &pol[(s + gi) % np]; /* rotate the seats */
        while (!mc_step(seat, &raid_game, gb.bytes, &rng)) {
        }
        double share[GAME_MAX_PLAYERS], pts[GAME_MAX_PLAYERS];
        raid_game.result(gb.bytes, share);
        raid_game.points(gb.bytes, pts);
        hours += raid_game.length(gb.bytes);
        for (int s = 0; s < np; s++) {
            int slot = (int)((s + gi) % np);
            win[slot] += share[s];
            chest[(size_t)slot * (size_t)games + (size_t)gi] = pts[s];
        }
        if (dots && (gi + 1) % (games / 10) == 0) fprintf(stderr, ".");
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (dots) fprintf(stderr, "\n");
    printf("Viking Raid raid day, %d players, %ld games, seed %ld%s%s\n", np, games, seed,
           options ? ", options " : "", options ? options : "");
    printf("%-4s %-28s %7s %17s %8s %6s %6s %6s\n", "slot", "policy", "win", "95% interval",
           "chest", "p10", "median", "p90");
    for (int k = 0; k < np; k++) {
        double m = win[k] / games, lo, hi;
        stats_wilson(m, (double)games, &lo, &hi);
        double *c = chest + (size_t)k * (size_t)games, sum = 0;
        for (long i = 0; i < games; i++) sum += c[i];
        qsort(c, (size_t)games, sizeof *c, cmp_double);
        printf("%-4d %-28s %7.4f [%6.4f, %6.4f] %8.2f %6.0f %6.0f %6.0f\n", k, pol[k].spec, m, lo,
               hi, sum / games, c[games / 10], c[games / 2], c[(games * 9) / 10]);
    }
    printf("mean hours %.2f; %.1f games/s on one core\n", (double)hours / games, games / secs);
    free(chest);
    for (int k = 0; k < np; k++) mc_policy_done(&pol[k]);
    return 0;
}

/* `bench`: uniformly random raid days per second on one core (for S seconds, or exactly M). */
static int raid_bench(int argc, char **argv) {
    long players = 4, centis = 200, fixed = 0, seed = 1;
    bool timed = false;
    const char *options = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s", raid_usage);
            return 0;
        } else if (strcmp(a, "--players") == 0) {
            if (raid_int(a, v, 3, RAID_MAX_PLAYERS, &players)) return 2;
            i++;
        } else if (strcmp(a, "--seconds") == 0) {
            long x;
            if (raid_int(a, v, 1, 3600, &x)) return 2;
            centis = 100 * x, timed = true, i++;
        } else if (strcmp(a, "--games") == 0) {
            if (raid_int(a, v, 1, 1000000000L, &fixed)) return 2;
            i++;
        } else if (strcmp(a, "--seed") == 0) {
            if (raid_int(a, v, 0, 2147483647, &seed)) return 2;
            i++;
        } else if (strcmp(a, "--options") == 0 && v) {
            options = v, i++;
        } else {
            return raid_bad("bench: unknown argument '%s' (try hnefi mc raid --help)", a);
        }
    }
    if (timed && fixed) return raid_bad("bench takes --seconds or --games, not both");
    game_buffer gb;
    char err[200];
    if (raid_game.init(gb.bytes, (int)players, options, err, sizeof err))
        return raid_bad("--options: %s", err);
    game_rng rng;
    rng_seed(&rng, (uint64_t)seed);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long games = 0, hours = 0;
    double secs = 0;
    while (fixed ? games < fixed : secs * 100 < centis) {
        for (int k = 0; k < 256 && (!fixed || games < fixed); k++) {
            raid_game.init(gb.bytes, (int)players, options, err, sizeof err);
            hours += game_playout_random(&raid_game, gb.bytes, &rng);
            games++;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    }
    printf("raid %ld players: %ld random raid days in %.2f s = %.0f games/s on one core, mean "
           "%.2f hours\n",
           players, games, secs, games / secs, (double)hours / games);
    return 0;
}

/* Runs `hnefi mc raid <subcommand> ...`. */
int cmd_mc_raid(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        printf("%s", raid_usage);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "odds") == 0) return raid_odds(argc, argv);
    if (strcmp(argv[1], "buy") == 0) return raid_buy_cmd(argc, argv);
    if (strcmp(argv[1], "play") == 0) return raid_play(argc, argv);
    if (strcmp(argv[1], "bench") == 0) return raid_bench(argc, argv);
    return raid_bad("unknown subcommand '%s' (odds, buy, play, bench, help)", argv[1]);
}

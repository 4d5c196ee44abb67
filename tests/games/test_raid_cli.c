/* `hnefi mc raid`: every subcommand runs, and every bad argument is refused with its name. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "check.h"
#include "tools/cmd_mc_raid.h"

static char out_text[1 << 16], err_text[1 << 12];

/* Runs cmd_mc_raid on a NULL-terminated word list, capturing stdout and stderr. */
static int run(const char *first, ...) {
    char *argv[64];
    int argc = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *w = first; w && argc < 63; w = va_arg(ap, const char *))
        argv[argc++] = (char *)w;
    va_end(ap);
    argv[argc] = NULL;
    return capture_call(cmd_mc_raid, argc, argv, out_text, sizeof out_text, err_text,
                        sizeof err_text);
}

/* Reads the number printed after `label` in the captured output (or -1). */
static double value_after(const char *label) {
    const char *p = strstr(out_text, label);
    return p ? atof(p + strlen(label)) : -1;
}

/* The example and the other odds. */
static void test_odds(void) {
    CHECK_EQ_INT(run("raid", "odds", "--attacker", "sword,shield,helmet", "--defender",
                     "chain,helmet,sword,shield", "--moved", "7", "--cover", "soft", NULL),
                 0);
    CHECK(strstr(out_text, "attacker kills             0.183673  (9/49)") != NULL);
    CHECK(strstr(out_text, "whole fight") != NULL);
    double win = value_after("attacker wins (kill+surr.) ");
    CHECK(win > 0.2 && win < 0.6);
    CHECK_EQ_INT(
        run("raid", "odds", "--attacker", "sword", "--defender", "sword", "--run", "always", NULL),
        0);
    CHECK(strstr(out_text, "(55/196)") != NULL);
    CHECK_EQ_INT(run("raid", "odds", "--attacker", "axe,dagger", "--defender", "spear,helmet",
                     "--berserk", "sum", "--mc", "20000", "--seed", "3", NULL),
                 0);
    CHECK(strstr(out_text, "Monte-Carlo check") != NULL);
    /* ten fights: each interval (Wilson's) stays within [0, 1] and is not zero wide */
    CHECK_EQ_INT(
        run("raid", "odds", "--attacker", "sword", "--defender", "sword", "--mc", "10", NULL), 0);
    CHECK(strstr(out_text, "attacker kills             0.200000  [0.056682, 0.509838]"));
    CHECK(strstr(out_text, "[-") == NULL && strstr(out_text, ", 0.000000]") == NULL);
    CHECK_EQ_INT(run("raid", "odds", "--fire", "bow", "--defender", "shield,helmet,sword",
                     "--standing", "--range", "12", NULL),
                 0);
    CHECK(strstr(out_text, "(45/196)") != NULL);
    CHECK_EQ_INT(run("raid", "odds", "--fire", "javelin", "--defender", "mounted", NULL), 0);
    CHECK(strstr(out_text, "rider") != NULL);
    CHECK_EQ_INT(run("raid", "odds", "--stab", NULL), 0);
    CHECK(strstr(out_text, "(3/28)") != NULL);
    CHECK_EQ_INT(run("raid", "odds", "--beast", "any", "--attacker", "spear", NULL), 0);
    CHECK(strstr(out_text, "troll") != NULL);
    CHECK_EQ_INT(run("raid", "odds", "--tomb", "--attacker", "long-axe,sword", NULL), 0);
    CHECK(strstr(out_text, "expected treasure") != NULL);
}

/* The optimiser and the tournament run. */
static void test_buy_play(void) {
    CHECK_EQ_INT(run("raid", "buy", "--coins", "40", "--front", NULL), 0);
    CHECK(strstr(out_text, "Pareto front") != NULL);
    CHECK(value_after("expected kills ") > 1);
    CHECK_EQ_INT(run("raid", "buy", "--coins", "30", "--objective", "chest", "--against",
                     "long-axe,helmet,chain", "--items", "sword,shield,helmet,spear", NULL),
                 0);
    CHECK_EQ_INT(run("raid", "play", "--games", "20", "--policy", "heur", "--policy", "random",
                     "--players", "3", NULL),
                 0);
    CHECK(strstr(out_text, "heur") != NULL && strstr(out_text, "95% interval") != NULL);
    /* a slot that won nothing in 4 games: [0, 0.4899], not [0, 0] */
    CHECK_EQ_INT(run("raid", "play", "--games", "4", "--quiet", NULL), 0);
    CHECK(strstr(out_text, "0.0000 [0.0000, 0.4899]") && !strstr(out_text, "[0.0000, 0.0000]"));
    CHECK_EQ_INT(run("raid", "help", NULL), 0);
    CHECK_EQ_INT(run("raid", "odds", "--help", NULL), 0);
}

/* Bad input: exit status 2 and a message that names the culprit. */
static void test_errors(void) {
    static const struct {
        const char *words[12];
        const char *says;
    } cases[] = {
        {{"raid", "odds", "--attacker", "sword,halberd", "--defender", "sword"}, "halberd"},
        {{"raid", "odds", "--attacker", "spear,long-axe", "--defender", "sword"}, "conflicting"},
        {{"raid", "odds", "--attacker", "sword,axe,dagger", "--defender", "sword"}, "2 weapons"},
        {{"raid", "odds", "--attacker", "helmet", "--defender", "sword"}, "no weapon"},
        {{"raid", "odds", "--attacker", "sword", "--defender", "sword", "--moved", "x7"}, "x7"},
        {{"raid", "odds", "--attacker", "sword", "--defender", "sword", "--cover", "stone"},
         "stone"},
        {{"raid", "odds", "--attacker", "sword", "--defender", "sword", "--berserk", "maybe"},
         "maybe"},
        {{"raid", "odds", "--attacker", "sword", "--defender", "sword", "--wings"}, "--wings"},
        {{"raid", "odds", "--attacker", "sword"}, "--defender"},
        {{"raid", "odds", "--attacker"}, "--attacker"},
        {{"raid", "odds", "--fire", "sling", "--defender", "sword"}, "sling"},
        {{"raid", "odds", "--fire", "javelin", "--defender", "sword", "--range", "9"}, "range"},
        {{"raid", "odds", "--beast", "dragon", "--attacker", "sword"}, "dragon"},
        {{"raid", "odds", "--tomb", "--stab"}, "one of"},
        {{"raid", "buy"}, "--coins"},
        {{"raid", "buy", "--coins", "-5"}, "-5"},
        {{"raid", "buy", "--coins", "3"}, "3 coins"},
        {{"raid", "buy", "--coins", "30", "--against", "shield"}, "weapon"},
        {{"raid", "buy", "--coins", "30", "--items", "sword,wand"}, "wand"},
        {{"raid", "buy", "--coins", "30", "--objective", "glory"}, "glory"},
        {{"raid", "play", "--games", "0"}, "--games"},
        {{"raid", "play", "--players", "2"}, "--players"},
        {{"raid", "play", "--policy", "genius"}, "genius"},
        {{"raid", "play", "--options", "spacing=zero"}, "spacing"},
        {{"raid", "fight"}, "fight"},
        /* an option the kind of odds would ignore is refused, naming both */
        {{"raid", "odds", "--attacker", "sword", "--defender", "sword", "--range", "5"},
         "--range does not apply to melee odds"},
        {{"raid", "odds", "--fire", "bow", "--defender", "shield", "--mc", "100"},
         "--mc does not apply to --fire odds"},
        {{"raid", "odds", "--stab", "--attacker", "sword"}, "--attacker does not apply to --stab"},
        {{"raid", "bench", "--games", "5", "--seconds", "1"}, "not both"},
        {{"raid", "bench", "--policy", "heur"}, "--policy"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *const *w = cases[i].words;
        int rc = run(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], NULL);
        int named = strstr(err_text, cases[i].says) != NULL;
        if (rc != 2 || !named) fprintf(stderr, "case %zu: rc %d, stderr: %s", i, rc, err_text);
        CHECK_EQ_INT(rc, 2); /* bad arguments (docs/hnefi.1) */
        CHECK(named);
    }
}

/* Runs the Viking Raid command-line tests. */
int main(void) {
    test_odds();
    test_buy_play();
    test_errors();
    return check_done();
}

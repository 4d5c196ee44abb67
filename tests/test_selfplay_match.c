/*
 * Tournaments for real: short matches between hnefi configurations (in-process and through
 * `hnefi uci`), the same results whatever the number of parallel games, an SPRT that stops a
 * lopsided match early, resume after kill -9 giving the same records as an uninterrupted run,
 * external engines that crash, hang or send illegal moves, refused records of another tournament,
 * and the command lines of hnefi match, selfplay and games, including every argument error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "book/zio.h"
#include "check.h"
#include "search/nnue.h"
#include "selfplay/datagen.h"
#include "selfplay/match.h"
#include "selfplay/match_settings.h"
#include "selfplay/records.h"
#include "test_selfplay_util.h"
#include "tools/uci_client.h"

static char dir[64];
static bool quick;

/* Returns a path in the scratch directory (one static buffer per slot). */
static const char *tmp_path(int slot, const char *name) {
    static char paths[8][160];
    snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
    return paths[slot];
}

/* Time controls read and write back; bad ones are refused with the text named. */
static void test_time_controls(void) {
    static const char *const good[] = {"nodes:1000", "depth:6", "movetime:250",
                                       "10+0.1",     "0+0.5",   "1.5+0"};
    struct time_control tc;
    char err[300], text[64];
    for (int i = 0; i < 6; i++) {
        CHECK(tc_parse(&tc, good[i], err, sizeof err));
        tc_write(&tc, text, sizeof text);
        CHECK_EQ_STR(text, good[i]);
    }
    CHECK(tc_parse(&tc, "10+0.1", err, sizeof err) && tc.kind == TC_CLOCK && tc.base_ms == 10000 &&
          tc.inc_ms == 100);
    static const char *const bad[] = {"nodes:", "nodes:-1", "depth:0", "depth:999", "movetime:x",
                                      "+1",     "10+",      "abc",     "0+0",       "nodes:1e3"};
    for (int i = 0; i < 10; i++) {
        CHECK(!tc_parse(&tc, bad[i], err, sizeof err));
        CHECK(strstr(err, bad[i]) != NULL);
    }
}

/* Sets up a two-player in-process configuration with nodes-limited players. */
static void two_players(struct match_config *c, struct player_spec p[2], uint64_t nodes_a,
                        uint64_t nodes_b, int64_t games) {
    memset(c, 0, sizeof *c);
    player_spec_search(&p[0], "alpha");
    player_spec_search(&p[1], "beta");
    p[0].tc.nodes = nodes_a;
    p[1].tc.nodes = nodes_b;
    p[0].hash_mib = p[1].hash_mib = 4;
    c->v = variant_by_name("copenhagen");
    c->players = p;
    c->nplayers = 2;
    c->games = games;
    c->concurrency = 2;
    c->random_plies = 6;
    c->seed = 11;
    adjudication_default(&c->adj);
    c->adj.max_plies = 300;
}

/* Tells whether two statuses hold the same counts for their first encounter. */
static bool same_stats(const struct match_status *a, const struct match_status *b) {
    if (!a->enc || !b->enc || a->nenc < 1 || b->nenc < 1) return false; /* a match that failed */
    const struct match_encounter *x = &a->enc[0], *y = &b->enc[0];
    return a->counted == b->counted && memcmp(x->penta, y->penta, sizeof x->penta) == 0 &&
           memcmp(x->wdl, y->wdl, sizeof x->wdl) == 0 && a->plies == b->plies &&
           memcmp(a->ends, b->ends, sizeof a->ends) == 0;
}

/* Checks the bookkeeping of a finished two-player match of n games. */
static void check_books(const struct match_status *st, int64_t n) {
    if (!CHECK(st->enc && st->nenc >= 1)) return; /* a match that failed has no encounters */
    const struct match_encounter *e = &st->enc[0];
    int64_t games = 0, pairs = 0, ends = 0, won[SIDE_NB] = {0, 0};
    for (int s = 0; s < SIDE_NB; s++)
        for (int r = 0; r < 3; r++) games += e->wdl[s][r];
    for (int i = 0; i < STATS_PENTA; i++) pairs += e->penta[i];
    for (int i = 0; i < MATCH_END_SLOTS; i++) {
        ends += st->ends[i];
        for (int s = 0; s < SIDE_NB; s++) won[s] += st->won[s][i];
        CHECK(st->won[0][i] + st->won[1][i] <= st->ends[i]);
    }
    /* the ends each side won by: its wins, whichever player held it */
    CHECK_EQ_INT(won[SIDE_ATTACKERS], e->wdl[SIDE_ATTACKERS][0] + e->wdl[SIDE_DEFENDERS][2]);
    CHECK_EQ_INT(won[SIDE_DEFENDERS], e->wdl[SIDE_DEFENDERS][0] + e->wdl[SIDE_ATTACKERS][2]);
    CHECK_EQ_INT(st->counted, n);
    CHECK_EQ_INT(games, n);
    CHECK_EQ_INT(pairs, n / 2);
    CHECK_EQ_INT(ends, n);
    CHECK_EQ_INT(e->wdl[0][0] + e->wdl[0][1] + e->wdl[0][2], n / 2); /* half the games attacking */
    CHECK(st->plies > n);
}

/* A short real match: one configuration with null-move pruning, one without. */
static void test_real_match(void) {
    struct match_config c;
    struct player_spec p[2];
    struct match_status st;
    char err[400];
    int64_t n = quick ? 4 : 8;
    two_players(&c, p, 600, 600, n);
    p[1].opt.null_move = true;
    c.records = tmp_path(0, "real.zst");
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    check_books(&st, n);
    CHECK_EQ_INT(st.played, n);
    CHECK_EQ_INT(st.nhistory, n / 2);
    /* every game is in the records once and replays */
    char *lines = sorted_lines(c.records);
    int count = 0;
    for (char *s = lines; s && *s; s++) count += *s == '\n';
    CHECK_EQ_INT(count, n);
    free(lines);
    match_status_free(&st);
    /* with clocks (Brandubh, 2 s + 0.05 s): the games finish, whatever a loaded machine does */
    two_players(&c, p, 0, 0, 2);
    c.v = variant_by_name("brandubh");
    for (int i = 0; i < 2; i++) CHECK(tc_parse(&p[i].tc, "2+0.05", err, sizeof err));
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    check_books(&st, 2);
    /* each player's time was counted: every move of both games, and clocks were kept */
    for (int i = 0; i < 2; i++) {
        CHECK(st.times[i].games == 2 && st.times[i].moves > 0 && st.times[i].used_ms >= 0);
        CHECK(st.times[i].max_ms * st.times[i].moves >= st.times[i].used_ms);
        CHECK(st.times[i].limit_ms == 0 && st.times[i].min_left_ms >= 0);
    }
    CHECK(st.times[0].moves + st.times[1].moves <=
          st.plies); /* the openings' plies are not theirs */
    match_status_free(&st);
}

/* The same seed gives the same games and statistics with 1 or 3 games at once. */
static void test_determinism(void) {
    struct match_config c;
    struct player_spec p[2];
    struct match_status a, b;
    char err[400];
    int64_t n = quick ? 4 : 10;
    two_players(&c, p, 300, 500, n);
    c.concurrency = 1;
    c.records = tmp_path(0, "det1.zst");
    CHECK(match_run(&c, &a, err, sizeof err) == 0);
    c.concurrency = 3;
    c.records = tmp_path(1, "det3.zst");
    CHECK(match_run(&c, &b, err, sizeof err) == 0);
    CHECK(same_stats(&a, &b));
    char *x = sorted_lines(tmp_path(0, "det1.zst")), *y = sorted_lines(tmp_path(1, "det3.zst"));
    CHECK(x && y && strcmp(x, y) == 0);
    free(x);
    free(y);
    match_status_free(&a);
    match_status_free(&b);
}

/*
 * An external engine player: the fake engine with a script. An engine that answers is taken as
 * soon as it is ready; the start-up limit only ends the wait for one that never answers, so it is
 * a minute: a sanitizer build of `hnefi uci` on a loaded machine needs seconds for its uciok.
 */
static void fake_player(struct player_spec *p, struct uci_engine *e, const char *name,
                        const char *cmd) {
    memset(e, 0, sizeof *e);
    e->cmd = cmd;
    e->startup_ms = 60000;
    player_spec_search(p, name);
    p->create = uci_player_create;
    p->ext = e;
}

/*
 * Runs alpha (in-process) against a scripted fake engine; returns match_run's result. A positive
 * startup_ms replaces the fake's start-up limit (for an engine that never finishes its handshake).
 */
static int against_fake(const char *script, int64_t games, struct time_control *tc,
                        int64_t startup_ms, struct match_status *st, char *err, size_t errlen) {
    struct match_config c;
    struct player_spec p[2];
    struct uci_engine e;
    static char cmd[400];
    snprintf(cmd, sizeof cmd, "%s %s", FAKE_ENGINE, script);
    two_players(&c, p, 300, 300, games);
    fake_player(&p[1], &e, "fake", cmd);
    if (startup_ms > 0) e.startup_ms = startup_ms;
    if (tc) p[1].tc = *tc;
    c.adj.time_margin_ms = 20;
    return match_run(&c, st, err, errlen);
}

/* Tells whether process pid is dead but not reaped yet (its adopter may be slow to reap, or an
   init that never does). */
static bool zombie(pid_t pid) {
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *close = strrchr(stat, ')'); /* the state follows the command's name */
    return close && close[1] == ' ' && close[2] == 'Z';
}

/* Runs two games of alpha against the fake engine started by a shell that does not exec it. */
static int against_wrapped_fake(const char *script, struct time_control *tc,
                                struct match_status *st, char *err, size_t errlen) {
    struct match_config c;
    struct player_spec p[2];
    struct uci_engine e;
    static char cmd[900];
    snprintf(cmd, sizeof cmd, "sh -c '%s %s'", FAKE_ENGINE, script);
    two_players(&c, p, 300, 300, 2);
    fake_player(&p[1], &e, "wrapped", cmd);
    p[1].tc = *tc;
    c.adj.time_margin_ms = 20;
    return match_run(&c, st, err, errlen);
}

/* Counts the games alpha won. */
static int64_t alpha_wins(const struct match_status *st) {
    return st->enc[0].wdl[0][0] + st->enc[0].wdl[1][0];
}

/* Engines that crash, hang or send bad moves lose those games; the match goes on. */
static void test_faulty_engines(void) {
    struct match_status st;
    char err[400];
    int crash = match_end_slot(PLAYED_END_CRASH, 0), hang = match_end_slot(PLAYED_END_HANG, 0),
        illegal = match_end_slot(PLAYED_END_ILLEGAL, 0),
        timeout = match_end_slot(PLAYED_END_TIMEOUT, 0);
    /* a sound fake engine plays out its games */
    CHECK(against_fake("", 2, NULL, 0, &st, err, sizeof err) == 0);
    check_books(&st, 2);
    CHECK_EQ_INT(st.ends[crash] + st.ends[hang] + st.ends[illegal], 0);
    match_status_free(&st);
    /* crashes on its third move of every process: restarted for each game */
    CHECK(against_fake("--crash-after 2", 4, NULL, 0, &st, err, sizeof err) == 0);
    check_books(&st, 4);
    CHECK_EQ_INT(st.ends[crash], 4);
    CHECK_EQ_INT(alpha_wins(&st), 4);
    match_status_free(&st);
    /* never answers a go (a move time of 30 ms, deadline 1 s past it); it hangs on its first
       move, so no answer of it has to beat a clock on a loaded machine */
    struct time_control tc = {.kind = TC_MOVETIME, .movetime_ms = 30};
    CHECK(against_fake("--hang-after 0", 2, &tc, 0, &st, err, sizeof err) == 0);
    check_books(&st, 2);
    CHECK_EQ_INT(st.ends[hang], 2);
    CHECK_EQ_INT(alpha_wins(&st), 2);
    match_status_free(&st);
    /* stops answering isready at its second game's start (the start-up limit 5 s; two games
       at once, so four games give each process a second one): those games are lost as hangs,
       as a move not answered is, not as crashes */
    CHECK(against_fake("--readyok-only 2", 4, NULL, 5000, &st, err, sizeof err) == 0);
    CHECK(st.ends[hang] >= 1);
    CHECK_EQ_INT(st.ends[crash], 0);
    match_status_free(&st);
    /* the same from behind a wrapper that does not exec it (as scripts for Java or Python
       engines do): killing the hung engine kills its whole process group, so the real engine
       does not live on as an orphan */
    char pid_path[300], script[700];
    snprintf(pid_path, sizeof pid_path, "%s", tmp_path(0, "fake.pid"));
    snprintf(script, sizeof script, "--hang-after 0 --pid-file %s; true", pid_path);
    if (!CHECK(against_wrapped_fake(script, &tc, &st, err, sizeof err) == 0))
        fprintf(stderr, "    %s\n", err);
    CHECK_EQ_INT(st.ends[hang], 2);
    match_status_free(&st);
    FILE *pf = fopen(pid_path, "r");
    long fake_pid = 0;
    if (CHECK(pf && fscanf(pf, "%ld", &fake_pid) == 1 && fake_pid > 1)) {
        /* gone, once whoever inherited it has reaped it (a bound only a hang reaches) */
        bool gone = false;
        for (int i = 0; i < 6000 && !gone; i++) {
            gone = (kill((pid_t)fake_pid, 0) != 0 && errno == ESRCH) || zombie((pid_t)fake_pid);
            struct timespec pause = {0, 10000000};
            if (!gone) nanosleep(&pause, NULL);
        }
        CHECK(gone);
        if (!gone) kill((pid_t)fake_pid, SIGKILL);
    }
    if (pf) fclose(pf);
    /* too slow for its move time (it sleeps 60 ms, over 30 + 20 on any machine), but answering
       long before the hang deadline (1050 ms): a loss on time. On a heavily loaded machine the
       answer can still come after the deadline, and then it rightly counts as a hang: the two
       games are played again, up to 5 times. Every try must be a time loss of the fake, and one
       try at least must be scored a timeout, so a referee that calls a slow answer a hang (or
       lets it pass) still fails. */
    bool on_time = false;
    for (int tries = 0; tries < 5 && !on_time; tries++) {
        CHECK(against_fake("--slow 60", 2, &tc, 0, &st, err, sizeof err) == 0);
        CHECK_EQ_INT(st.ends[timeout] + st.ends[hang], 2);
        CHECK_EQ_INT(alpha_wins(&st), 2);
        on_time = st.ends[timeout] == 2;
        match_status_free(&st);
    }
    CHECK(on_time);
    /* a clock run below 0 within the margin still limits: the debt counts against the next
       move (100 ms, no increment, a margin of 20 ms; it takes 110 ms a move). A clock below 0
       once read as no limit at all, and the engine played on at 110 ms a move. */
    struct time_control clock_tc = {.kind = TC_CLOCK, .base_ms = 100, .inc_ms = 0};
    CHECK(against_fake("--slow 110", 2, &clock_tc, 0, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.ends[timeout] + st.ends[hang], 2);
    CHECK_EQ_INT(alpha_wins(&st), 2);
    match_status_free(&st);
    /* an illegal move, an unreadable move, no move */
    static const char *const bad[] = {"--illegal-after 2", "--garbage-after 0", "--none-after 1"};
    for (int i = 0; i < 3; i++) {
        CHECK(against_fake(bad[i], 2, NULL, 0, &st, err, sizeof err) == 0);
        check_books(&st, 2);
        CHECK_EQ_INT(st.ends[illegal], 2);
        CHECK_EQ_INT(alpha_wins(&st), 2);
        match_status_free(&st);
    }
    /* an engine that never starts stops the match before it begins, with a reason (it never
       answers, so a short start-up limit cannot fail on a slow machine) */
    CHECK(against_fake("--no-uciok", 2, NULL, 300, &st, err, sizeof err) != 0);
    CHECK(strstr(err, "fake cannot start") && strstr(err, "uciok"));
    match_status_free(&st);
}

/* Runs two scripted fake engines against each other with an adjudication; 0 on success. */
static int fakes(const char *script_a, const char *script_b, const struct adjudication *adj,
                 struct match_status *st, char *err, size_t errlen) {
    struct match_config c;
    struct player_spec p[2];
    struct uci_engine e[2];
    char cmd[2][300];
    snprintf(cmd[0], sizeof cmd[0], "%s %s", FAKE_ENGINE, script_a);
    snprintf(cmd[1], sizeof cmd[1], "%s %s", FAKE_ENGINE, script_b);
    two_players(&c, p, 100, 100, 2);
    fake_player(&p[0], &e[0], "one", cmd[0]);
    fake_player(&p[1], &e[1], "two", cmd[1]);
    c.adj = *adj;
    return match_run(&c, st, err, errlen);
}

/* With hnefi's own stdin closed (a pipe then gets descriptor 0), external engines still start
   with their stdin the pipe hnefi writes to. */
static void test_closed_stdin(void) {
    char cmd[1200], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s match --variant brandubh --games 2 --max-plies 40 --quiet --player name=a "
             "tc=nodes:200 --player name=b cmd=%s <&-",
             HNEFI_BINARY, FAKE_ENGINE);
    int status = run_command(cmd, out, sizeof out);
    if (!CHECK(status == 0 && strstr(out, "2 games played"))) fprintf(stderr, "    %s\n", out);
}

/*
 * Two copies of one deterministic engine split every pair 1-1 (the same moves from the same
 * opening, sides swapped): no information, so the SPRT never decides and the report says why
 * rather than showing a zero-width interval.
 */
static void test_split_pairs(void) {
    char cmd[1200], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s match --variant brandubh --games 40 --max-plies 60 --sprt elo0=0,elo1=5 --quiet "
             "--player name=a cmd=%s --player name=b cmd=%s",
             HNEFI_BINARY, FAKE_ENGINE, FAKE_ENGINE);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "40 of 40 games counted") && strstr(out, "0 0 20 0 0"));
    CHECK(strstr(out, "every pair split 1-1, so the games carry no information yet"));
    CHECK(strstr(out, "LLR 0.00") && strstr(out, "no decision: every pair split 1-1"));
    if (!CHECK(!strstr(out, "accepted") && !strstr(out, "[+0.0, +0.0]")))
        fprintf(stderr, "%s", out);
}

/*
 * Under Tablut scoring a pair is one match: an engine that crashes at once loses every game, so
 * every match, and the report says so (not which game points the pairs scored, which under
 * this scoring need not be 0-2: a draw and a loss also lose the match). Drawn games with no
 * capture make drawn matches: no information.
 */
static void test_tablut_wording(void) {
    char cmd[1200], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s match --variant brandubh --games 4 --scoring tablut --quiet --tc nodes:100 "
             "--player name=a cmd='%s --crash-after 0' --player name=b",
             HNEFI_BINARY, FAKE_ENGINE);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    if (!CHECK(strstr(out, "no interval: a lost every Tablut match, so its error is unknown") &&
               !strstr(out, "every pair scored")))
        fprintf(stderr, "%s", out);
    snprintf(cmd, sizeof cmd,
             "%s selfplay --variant brandubh --games 4 --scoring tablut --quiet --tc nodes:100 "
             "--max-plies 1 --sprt elo0=0,elo1=5",
             HNEFI_BINARY);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    if (!CHECK(strstr(out, "every Tablut match was drawn, so the games carry no information") &&
               strstr(out, "no decision: every Tablut match was drawn")))
        fprintf(stderr, "%s", out);
}

/* Resignation, agreed draws, and the ply limits end games as configured. */
static void test_adjudication(void) {
    struct adjudication adj;
    struct match_status st;
    char err[400];
    /* one is sure it wins, two sure it loses: two resigns after 3 moves each */
    adjudication_default(&adj);
    adj.resign_moves = 3;
    adj.resign_score = 500;
    CHECK(fakes("--score 700", "--score -700", &adj, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.ends[match_end_slot(PLAYED_END_RESIGN, 0)], 2);
    CHECK_EQ_INT(alpha_wins(&st), 2); /* "one" is the first player */
    match_status_free(&st);
    /* only one side sure: no resignation (the rules or the ply limit end the games) */
    CHECK(fakes("--score 700", "--score 0", &adj, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.ends[match_end_slot(PLAYED_END_RESIGN, 0)], 0);
    match_status_free(&st);
    /* both level: an agreed draw after 2 moves each, from ply 10 on */
    adjudication_default(&adj);
    adj.draw_moves = 2;
    adj.draw_score = 10;
    adj.draw_after = 10;
    CHECK(fakes("--score 5", "--score -5", &adj, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.ends[match_end_slot(PLAYED_END_DRAW_AGREED, 0)], 2);
    CHECK_EQ_INT(st.enc[0].wdl[0][1] + st.enc[0].wdl[1][1], 2);
    CHECK(st.plies >= 2 * 14);
    match_status_free(&st);
    /* a ply limit of 12 (6 opening plies, then 6 moves of two random movers: no rule can end
       a Copenhagen game that soon) */
    adjudication_default(&adj);
    adj.max_plies = 12;
    CHECK(fakes("", "", &adj, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.ends[match_end_slot(PLAYED_END_MAX_PLIES, 0)], 2);
    CHECK_EQ_INT(st.plies, 24);
    match_status_free(&st);
    /* no capture for 4 plies after the opening's last capture: a quiet draw */
    adjudication_default(&adj);
    adj.max_quiet = 4;
    CHECK(fakes("", "", &adj, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.ends[match_end_slot(PLAYED_END_QUIET, 0)], 2);
    match_status_free(&st);
}

/* The SPRT stops a lopsided match (hnefi against a random mover) early, at the H1 bound. */
static void test_sprt_stop(void) {
    struct match_config c;
    struct player_spec p[2];
    struct uci_engine e;
    struct match_status st;
    char err[400];
    two_players(&c, p, 400, 400, 200);
    fake_player(&p[1], &e, "random", FAKE_ENGINE);
    c.use_sprt = true;
    CHECK(sprt_init(&c.sprt, 0, 20, 0.05, 0.05, err, sizeof err));
    c.records = tmp_path(2, "sprt.zst");
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.sprt, SPRT_H1);
    CHECK(st.counted < 200 && st.counted % 2 == 0);
    CHECK(st.enc[0].llr >= c.sprt.upper);
    CHECK(st.done);
    /* the pair before the last did not decide: the test stopped at the first crossing */
    int64_t before[STATS_PENTA];
    memcpy(before, st.enc[0].penta, sizeof before);
    for (int i = STATS_PENTA - 1; i >= 0; i--)
        if (before[i]) {
            before[i]--;
            break;
        }
    CHECK(st.enc[0].pairs == c.sprt.min_pairs ||
          stats_penta_unsplit(st.enc[0].penta) == SPRT_MIN_UNSPLIT ||
          stats_penta_llr(before, 0, 20) < c.sprt.upper);
    CHECK(st.enc[0].pairs >= c.sprt.min_pairs);
    CHECK(stats_penta_unsplit(st.enc[0].penta) >= SPRT_MIN_UNSPLIT);
    /* resumed from its records, the match is decided at once, at the same pair */
    struct match_status again;
    CHECK(match_run(&c, &again, err, sizeof err) == 0);
    CHECK(same_stats(&st, &again));
    CHECK_EQ_INT(again.played, 0);
    match_status_free(&st);
    match_status_free(&again);
}

/* Copies a record file's games (not its settings line) into a new zstd file, as hnefi wrote
 * record files before they began with their settings. */
static void strip_settings(const char *from, const char *to) {
    char *lines = sorted_lines(from), err[300];
    unlink(to);
    int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(lines && fd >= 0);
    for (char *save = NULL, *l = lines ? strtok_r(lines, "\n", &save) : NULL; l && fd >= 0;
         l = strtok_r(NULL, "\n", &save)) {
        char line[8192];
        snprintf(line, sizeof line, "%s\n", l);
        CHECK(zio_append_frame(fd, line, strlen(line), false, err, sizeof err));
    }
    if (fd >= 0) close(fd);
    free(lines);
}

/*
 * Records of a tournament with other settings are refused, naming each setting that differs; a
 * longer run of the same one resumes. Old files without a settings line are still checked game
 * by game (players, openings).
 */
static void test_resume_checks(void) {
    struct match_config c;
    struct player_spec p[2];
    struct match_status st;
    char err[1000];
    two_players(&c, p, 200, 200, 4);
    c.records = tmp_path(3, "other.zst");
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    match_status_free(&st);
    char first[4096];
    CHECK(records_comment(c.records, first, sizeof first) && match_settings_line(first));
    CHECK(strstr(first, " alpha.tc=nodes:200 ") && strstr(first, " beta.weights=default"));
    static const struct {
        const char *what, *want;
    } changes[] = {
        {"name", "players: alpha,beta in the records, alpha,gamma now"},
        {"seed", "seed: 11 in the records, 12 now"},
        {"tc", "beta.tc: nodes:200 in the records, nodes:400 now"},
        {"lmr", "alpha.lmr: on in the records, off now"},
        {"variant", "variant: copenhagen in the records, brandubh now"},
        {"max-plies", "max-plies: 300 in the records, 200 now"},
    };
    for (size_t k = 0; k < sizeof changes / sizeof *changes; k++) {
        two_players(&c, p, 200, 200, 4);
        c.records = tmp_path(3, "other.zst");
        if (k == 0) snprintf(p[1].name, sizeof p[1].name, "gamma");
        if (k == 1) c.seed = 12;
        if (k == 2) p[1].tc.nodes = 400;
        if (k == 3) p[0].opt.lmr = false;
        if (k == 4) c.v = variant_by_name("brandubh");
        if (k == 5) c.adj.max_plies = 200;
        bool refused = match_run(&c, &st, err, sizeof err) != 0;
        if (!CHECK(refused && strstr(err, "a tournament with other settings") &&
                   strstr(err, changes[k].want) && !strstr(err, "damaged")))
            fprintf(stderr, "    %s: %s\n", changes[k].what, err);
        match_status_free(&st);
    }
    /* more games of the same tournament: resumed (the SPRT and concurrency may change too) */
    two_players(&c, p, 200, 200, 8);
    c.records = tmp_path(3, "other.zst");
    c.concurrency = 1;
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.resumed, 4);
    CHECK_EQ_INT(st.played, 4);
    check_books(&st, 8);
    match_status_free(&st);
    /* an uninterrupted run of 8 games gives the same records */
    c.records = tmp_path(4, "straight.zst");
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    char *x = sorted_lines(tmp_path(3, "other.zst")), *y = sorted_lines(c.records);
    CHECK(x && y && strcmp(x, y) == 0);
    free(x);
    free(y);
    match_status_free(&st);
    /* a file without a settings line: every game is checked against the schedule */
    strip_settings(tmp_path(3, "other.zst"), tmp_path(5, "old.zst"));
    c.records = tmp_path(5, "old.zst");
    snprintf(p[1].name, sizeof p[1].name, "gamma");
    CHECK(match_run(&c, &st, err, sizeof err) != 0);
    CHECK(strstr(err, "another tournament") != NULL);
    match_status_free(&st);
    snprintf(p[1].name, sizeof p[1].name, "beta");
    c.seed = 12;
    CHECK(match_run(&c, &st, err, sizeof err) != 0);
    CHECK(strstr(err, "another opening") != NULL);
    match_status_free(&st);
    c.seed = 11;
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.resumed, 8);
    match_status_free(&st);
    CHECK(!records_comment(c.records, first, sizeof first)); /* none is added to an old file */
}

/* Three players: a round robin has three encounters, a gauntlet two. */
static void test_round_robin(void) {
    struct match_config c;
    struct player_spec p[3];
    struct match_status st;
    char err[400];
    two_players(&c, p, 200, 300, 2);
    player_spec_search(&p[2], "gamma");
    p[2].tc.nodes = 400;
    p[2].hash_mib = 4;
    c.nplayers = 3;
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.nenc, 3);
    CHECK_EQ_INT(st.counted, 6);
    CHECK(st.enc[2].a == 1 && st.enc[2].b == 2);
    match_status_free(&st);
    c.format = MATCH_GAUNTLET;
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    CHECK_EQ_INT(st.nenc, 2);
    CHECK_EQ_INT(st.counted, 4);
    CHECK(st.enc[1].a == 0 && st.enc[1].b == 2);
    match_status_free(&st);
    /* the SPRT is for two players only; names must differ */
    c.use_sprt = true;
    CHECK(sprt_init(&c.sprt, 0, 5, 0.05, 0.05, err, sizeof err));
    CHECK(match_run(&c, &st, err, sizeof err) != 0 && strstr(err, "two players"));
    c.use_sprt = false;
    snprintf(p[2].name, sizeof p[2].name, "beta");
    CHECK(match_run(&c, &st, err, sizeof err) != 0 && strstr(err, "two players are called"));
}

/* Tablut match scoring: every pair is one match, lost, drawn or won. */
static void test_tablut_scoring(void) {
    struct match_config c;
    struct player_spec p[2];
    struct match_status st;
    char err[400];
    two_players(&c, p, 200, 400, quick ? 4 : 8);
    c.v = variant_by_name("tablut");
    c.scoring = SCORING_TABLUT;
    CHECK(match_run(&c, &st, err, sizeof err) == 0);
    const struct match_encounter *e = &st.enc[0];
    CHECK_EQ_INT(e->penta[1] + e->penta[3], 0);
    CHECK_EQ_INT(e->penta[0] + e->penta[2] + e->penta[4], c.games / 2);
    CHECK(e->taken + e->lost > 0);
    match_status_free(&st);
}

/* A match against `hnefi uci` plays the same games as the same hnefi in-process. */
static void test_against_uci(void) {
    struct match_config c;
    struct player_spec p[2];
    struct uci_engine e;
    struct match_status a, b;
    char err[400];
    two_players(&c, p, 800, 800, 4);
    p[1].hash_mib = 16;
    /* the evaluation `hnefi uci` starts with: the variant's built-in network */
    p[0].opt.net = p[1].opt.net = nnue_builtin(c.v);
    c.records = tmp_path(5, "inproc.zst");
    CHECK(match_run(&c, &a, err, sizeof err) == 0);
    struct time_control tc = p[1].tc; /* fake_player starts from a fresh spec: keep the clock */
    fake_player(&p[1], &e, "beta", HNEFI_BINARY " uci");
    p[1].tc = tc;
    e.opt_name[0] = "Hash";
    e.opt_value[0] = "16";
    e.nopts = 1;
    c.records = tmp_path(6, "uci.zst");
    CHECK(match_run(&c, &b, err, sizeof err) == 0);
    check_books(&b, 4);
    CHECK(same_stats(&a, &b));
    char *x = sorted_lines(tmp_path(5, "inproc.zst")), *y = sorted_lines(c.records);
    CHECK(x && y && strcmp(x, y) == 0);
    if (x && y && strcmp(x, y) != 0)
        fprintf(stderr, "in-process games:\n%s\nuci games:\n%s\n", x, y);
    free(x);
    free(y);
    match_status_free(&a);
    match_status_free(&b);
}

/* Counts the complete records of a file (a half-written last frame is not counted). */
static bool count_record(const struct record *r, int64_t line, void *ctx) {
    (void)r, (void)line;
    ++*(int *)ctx;
    return true;
}

/* Returns the number of complete records in a file (0 if it cannot be read). */
static int records_in(const char *path) {
    int n = 0;
    char err[300];
    size_t end;
    bool cut;
    if (access(path, F_OK) != 0 ||
        !records_scan(path, NULL, true, count_record, &n, &end, &cut, err, sizeof err))
        return 0;
    return n;
}

/* Sleeps ms milliseconds. */
static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* kill -9 in the middle of a tournament, then the same command: the same records as a clean run. */
static void test_kill_and_resume(void) {
    const char *rec = tmp_path(0, "killed.zst"), *clean = tmp_path(1, "clean.zst");
    int games = quick ? 8 : 12;
    char args[600], cmd[900], out[8192];
    snprintf(args, sizeof args,
             "selfplay --games %d --tc nodes:2500 --concurrency 2 --seed 5 --quiet --player "
             "name=a --player name=b lmr=off",
             games);
    unlink(rec);
    pid_t pid = fork();
    if (pid == 0) {
        char recarg[200];
        snprintf(recarg, sizeof recarg, "%s", rec);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execl(HNEFI_BINARY, "hnefi", "selfplay", "--games", games == 8 ? "8" : "12", "--tc",
              "nodes:2500", "--concurrency", "2", "--seed", "5", "--quiet", "--player", "name=a",
              "--player", "name=b", "lmr=off", "--records", recarg, (char *)NULL);
        _exit(127);
    }
    /* wait until a few games are written (however long a loaded machine takes; the run ending
       first is fine too), then kill at once */
    int status;
    bool ended = false;
    for (int seen = 0; seen < 3 && !ended;) {
        sleep_ms(10);
        seen = records_in(rec);
        ended = waitpid(pid, &status, WNOHANG) == pid;
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    int written = records_in(rec);
    CHECK(written >= 3);
    if (written >= games)
        fprintf(stderr, "  (the run finished before the kill: resume is trivial)\n");
    /* a torn write on top, as a power loss leaves it */
    int fd = open(rec, O_WRONLY | O_APPEND);
    static const unsigned char torn[7] = {0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x10, 0x05};
    CHECK(write(fd, torn, sizeof torn) == (ssize_t)sizeof torn);
    close(fd);
    snprintf(cmd, sizeof cmd, "%s %s --records %s", HNEFI_BINARY, args, rec);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "dropped a half-written record") != NULL);
    CHECK(strstr(out, "resumed") != NULL);
    char want[64];
    snprintf(want, sizeof want, "%d of %d games counted", games, games);
    CHECK(strstr(out, want) != NULL);
    CHECK_EQ_INT(records_in(rec), games);
    /* the same tournament without a kill */
    unlink(clean);
    snprintf(cmd, sizeof cmd, "%s %s --records %s", HNEFI_BINARY, args, clean);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    char *x = sorted_lines(rec), *y = sorted_lines(clean);
    CHECK(x && y && strcmp(x, y) == 0);
    free(x);
    free(y);
}

/* The command lines: a match with a report and training data, games, and argument errors. */
static void test_command_lines(void) {
    char cmd[1200], out[16384];
    const char *rec = tmp_path(2, "cli.zst"), *svg = tmp_path(3, "report.svg"),
               *data = tmp_path(4, "data.bin");
    unlink(rec);
    unlink(data);
    snprintf(cmd, sizeof cmd,
             "%s selfplay --games 4 --tc nodes:300 --records %s --report %s --datagen %s "
             "--sprt elo0=-10,elo1=10 --progress --draw 3:5 --resign 3:600 --max-quiet 100",
             HNEFI_BINARY, rec, svg, data);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "4 of 4 games counted") && strstr(out, "SPRT elo0=-10 elo1=10"));
    CHECK(strstr(out, "4/4 games") != NULL); /* progress lines */
    char err[300];
    size_t len;
    char *text = zio_read_file(svg, &len, err, sizeof err);
    CHECK(text && strstr(text, "<svg") && strstr(text, "polyline") && strstr(text, "</svg>"));
    free(text);
    int64_t games, positions;
    CHECK(datagen_read(data, variant_by_name("copenhagen"), NULL, NULL, &games, &positions, err,
                       sizeof err));
    CHECK_EQ_INT(games, 4);
    CHECK(positions > 8);
    snprintf(cmd, sizeof cmd, "%s games summary %s", HNEFI_BINARY, data);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "training data: 4 games") != NULL);
    /* hnefi games on the records */
    snprintf(cmd, sizeof cmd, "%s games summary %s", HNEFI_BINARY, rec);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "4 games") && strstr(out, "hnefi-a") && strstr(out, "hnefi-b"));
    snprintf(cmd, sizeof cmd, "%s games list %s --attackers hnefi-b", HNEFI_BINARY, rec);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    int lines = 0;
    for (char *s = out; *s; s++) lines += *s == '\n';
    CHECK_EQ_INT(lines, 2);
    snprintf(cmd, sizeof cmd, "%s games convert %s --to otg --game 1", HNEFI_BINARY, rec);
    CHECK_EQ_INT(run_command(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "[attackers:hnefi-b]") && strstr(out, "[round:1]") && strstr(out, "1. "));
    snprintf(cmd, sizeof cmd, "%s games convert %s --to text --result draw --min-plies 1000",
             HNEFI_BINARY, rec);
    CHECK(run_command(cmd, out, sizeof out) == 0 && strstr(out, "none of the 4 games of ") &&
          strstr(out, "passes the filters") && !strstr(out, ",Draw"));
    /* a game that is not in the file is an error, naming the numbers there are (lines for the
       4-field real-game files) */
    snprintf(cmd, sizeof cmd,
             "%s games list %s/copenhagen-games.csv.zst --rule repetition=none --game 99999",
             HNEFI_BINARY, HNEFI_TEST_DATA);
    CHECK(run_command(cmd, out, sizeof out) == 1 && strstr(out, "its lines run from 1 to 1752"));
    snprintf(cmd, sizeof cmd, "%s games convert %s --to otg --game 99", HNEFI_BINARY, rec);
    CHECK(run_command(cmd, out, sizeof out) == 1 && strstr(out, "--game 99") &&
          strstr(out, "no such game (its game numbers run from 0 to 3)"));
    /* a game that is there but filtered out is what the other filters say, not a missing game */
    snprintf(cmd, sizeof cmd, "%s games list %s --game 1 --min-plies 100000", HNEFI_BINARY, rec);
    CHECK(run_command(cmd, out, sizeof out) == 0 && strstr(out, "game 1 of ") &&
          strstr(out, "does not pass the filters") && !strstr(out, "no such game"));
    /* every command explains itself */
    static const char *const helps[] = {"selfplay --help", "match -h", "games --help"};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", HNEFI_BINARY, helps[i]);
        CHECK(run_command(cmd, out, sizeof out) == 0 && strstr(out, "usage: hnefi "));
        CHECK(strstr(out, "--variant") && !strstr(out, "--fen"));
    }
    /* argument errors: each named, exit status 2 (1 for files that cannot be used) */
    static const struct {
        const char *args, *why;
        int rc;
    } bad[] = {
        {"selfplay --games 3", "--games '3': expected an even number, 2 or more", 2},
        {"selfplay --games x", "--games 'x': expected an even number, 2 or more", 2},
        {"selfplay --games 99999999999", "--games '99999999999': at most 68719476736", 2},
        {"games list x --game -1", "--game '-1': expected a whole number, 0 or more", 2},
        {"selfplay --tc nodes:0", "time control 'nodes:0'", 2},
        {"selfplay --tc 10+", "time control", 2},
        {"selfplay --sprt elo0=5,elo1=0", "elo1 must be above elo0", 2},
        {"selfplay --sprt elo1=5", "elo0 and elo1 are needed", 2},
        {"selfplay --sprt elo0=0,elo1=5,gamma=2", "--sprt", 2},
        {"selfplay --resign 0:100", "--resign '0:100'", 2},
        {"selfplay --draw 2", "--draw '2'", 2},
        {"selfplay --scoring chess", "--scoring 'chess'", 2},
        {"selfplay --openings /nonexistent/o.txt", "cannot open", 1},
        {"selfplay --openings no-such-openings.txt", "no such file here, nor in hnefi's data", 1},
        {"selfplay --shuffle", "--shuffle orders the lines of an --openings file", 2},
        {"selfplay --random-plies 4 --openings x.txt", "--random-plies makes random openings", 2},
        {"selfplay --fen 11/11 a", "not for tournaments", 2},
        {"selfplay --variant chess", "unknown variant", 2},
        {"selfplay --bogus", "unknown argument '--bogus'", 2},
        {"match --player name=x", "at least two players", 2},
        {"match --player name=a,b --player", "player name 'a,b'", 2},
        {"match --player colour=red --player", "player key 'colour'", 2},
        {"match --player lmr=maybe --player", "expected on or off", 2},
        {"match --player weights=/nonexistent/w --player name=b", "weights", 1},
        {"match --player name=a --player name=a", "two players are called a", 2},
        {"selfplay --player", "--player needs KEY=VALUE arguments", 2},
        {"selfplay --player --player name=b", "--player needs KEY=VALUE arguments", 2},
        {"match --player name=a --player name=b net=/nonexistent/n.nnue", "/nonexistent/n.nnue", 1},
        {"match --player name=a --player name=b book=/nonexistent/b.zst", "/nonexistent/b.zst", 1},
        {"match --player name=a --player name=b cmd=/nonexistent/engine", "command not found", 1},
        {"match --player name=a --player name=b cmd=x threads=2",
         "player b: 'threads=2' sets an in-process hnefi", 2},
        {"match --player name=a option.Hash=8 --player name=b", "option.Hash is for an external",
         2},
        {"games list", "a record file is needed", 2},
        {"games frobnicate x", "unknown action", 2},
        {"games convert x.zst", "--to text or --to otg", 2},
        {"games convert x.zst --to pgn", "--to 'pgn': expected text or otg", 2},
        {"games list /nonexistent/r.zst", "cannot open", 1},
        {"games list x --end sideways", "--end 'sideways'", 2},
        {"games list x --result won", "--result 'won'", 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", HNEFI_BINARY, bad[i].args);
        int rc = run_command(cmd, out, sizeof out);
        bool ok = rc == bad[i].rc && strstr(out, bad[i].why);
        if (!ok) fprintf(stderr, "  '%s' gave %d: %s", bad[i].args, rc, out);
        CHECK(ok);
    }
    /* the same command with another time control does not resume the records: it names both */
    const char *sp = tmp_path(6, "tc.zst");
    unlink(sp);
    snprintf(cmd, sizeof cmd, "%s selfplay --games 6 --tc nodes:300 --quiet --records %s",
             HNEFI_BINARY, sp);
    CHECK(run_command(cmd, out, sizeof out) == 0 && strstr(out, "6 of 6 games counted"));
    snprintf(cmd, sizeof cmd, "%s selfplay --games 6 --tc nodes:400 --quiet --records %s",
             HNEFI_BINARY, sp);
    CHECK(run_command(cmd, out, sizeof out) == 1 &&
          strstr(out, "hnefi-a.tc: nodes:300 in the records, nodes:400 now") &&
          strstr(out, "hnefi-b.tc: nodes:300 in the records, nodes:400 now") &&
          !strstr(out, "games counted"));
    /* an external engine's command is a setting too */
    snprintf(cmd, sizeof cmd,
             "%s match --games 2 --tc nodes:100 --quiet --records %s --player name=hnefi-a "
             "--player name=hnefi-b cmd=%s",
             HNEFI_BINARY, sp, FAKE_ENGINE);
    CHECK(run_command(cmd, out, sizeof out) == 1 &&
          strstr(out, "hnefi-b.engine: (none) in the records, ") &&
          strstr(out, "hnefi-b.threads: 1 in the records, (none) now"));
    /* an unwritable report is refused before any game is played */
    snprintf(cmd, sizeof cmd, "%s selfplay --games 2 --tc nodes:50 --report /nonexistent/r.svg",
             HNEFI_BINARY);
    CHECK(run_command(cmd, out, sizeof out) == 1 &&
          strstr(out, "cannot write /nonexistent/r.svg") && !strstr(out, "games counted"));
    /* a damaged record file is refused by games and by a tournament, and left alone */
    FILE *f = fopen(rec, "r+b");
    fseek(f, 30, SEEK_SET);
    fputc('#', f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s games list %s", HNEFI_BINARY, rec);
    CHECK(run_command(cmd, out, sizeof out) == 1 && strstr(out, "damaged"));
    snprintf(cmd, sizeof cmd, "%s selfplay --games 4 --tc nodes:300 --records %s", HNEFI_BINARY,
             rec);
    CHECK(run_command(cmd, out, sizeof out) == 1 && strstr(out, "damaged"));
}

/* Under a sanitizer freed memory waits in quarantine: resident size is not checked there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Reads this process's resident memory (kB) and counts its open descriptors. */
static void own_usage(long *rss_kb, int *fds) {
    char text[256];
    FILE *f = fopen("/proc/self/status", "r");
    *rss_kb = -1;
    *fds = 0;
    while (f && fgets(text, sizeof text, f))
        if (strncmp(text, "VmRSS:", 6) == 0) *rss_kb = strtol(text + 6, NULL, 10);
    if (f) fclose(f);
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));) *fds += e->d_name[0] != '.';
    if (d) closedir(d);
    *fds -= 1; /* the directory being read */
}

/* Counts the processes whose parent is this one (engines not waited for, or still running). */
static int own_children(void) {
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300], text[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        char *close_paren = fgets(text, sizeof text, f) ? strrchr(text, ')') : NULL;
        fclose(f);
        int ppid;
        char state;
        if (close_paren && sscanf(close_paren + 1, " %c %d", &state, &ppid) == 2 &&
            ppid == (int)getpid())
            n++;
    }
    if (d) closedir(d);
    return n;
}

/*
 * Many games against an engine that crashes in every game and is restarted for the next: the
 * match leaves no descriptor open, no child process behind, and its memory does not grow with
 * the games (measured after a warm-up match; 16 MiB of allocator noise allowed). 400 games
 * (40 with HNEFI_QUICK, 4000 with HNEFI_LONG).
 */
static void test_crash_restarts_leak_nothing(void) {
    struct match_status st;
    char err[400];
    const char *lng = getenv("HNEFI_LONG");
    int64_t games = lng && atoi(lng) ? 4000 : quick ? 40 : 400;
    int crash = match_end_slot(PLAYED_END_CRASH, 0);
    long rss[2];
    int fds[2];
    CHECK(against_fake("--crash-after 2", 20, NULL, 0, &st, err, sizeof err) == 0);
    match_status_free(&st);
    own_usage(&rss[0], &fds[0]);
    CHECK(against_fake("--crash-after 2", games, NULL, 0, &st, err, sizeof err) == 0);
    /* nearly every game ends by the crash (one may end by the rules before the engine's third
       move) */
    int64_t crashes = st.ends[crash];
    CHECK(crashes >= games - games / 100);
    match_status_free(&st);
    own_usage(&rss[1], &fds[1]);
    printf("%lld games against a crashing engine (%lld crashes): VmRSS %ld kB -> %ld kB, %d -> %d "
           "open descriptors, %d children left\n",
           (long long)games, (long long)crashes, rss[0], rss[1], fds[0], fds[1], own_children());
    CHECK_EQ_INT(fds[1], fds[0]);
    CHECK(rss[0] > 0 && (SANITIZED || rss[1] - rss[0] <= 16 * 1024));
    CHECK_EQ_INT(own_children(), 0);
}

/* Runs the match tests in a scratch directory. */
int main(void) {
    quick = getenv("HNEFI_QUICK") != NULL;
    if (!scratch_make(dir, "match")) return 1;
    test_time_controls();
    test_real_match();
    test_determinism();
    test_faulty_engines();
    test_crash_restarts_leak_nothing();
    test_adjudication();
    test_split_pairs();
    test_closed_stdin();
    test_sprt_stop();
    test_resume_checks();
    test_round_robin();
    test_tablut_scoring();
    test_tablut_wording();
    test_against_uci();
    test_kill_and_resume();
    test_command_lines();
    scratch_remove(dir);
    return check_done();
}

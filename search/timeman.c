/* Time management: the deadlines of a search from its limits. */
#include "search/timeman.h"

/* Returns milliseconds since the search started. */
int64_t tm_elapsed_ms(const struct timeman *tm) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - tm->start.tv_sec) * 1000 +
           (now.tv_nsec - tm->start.tv_nsec) / 1000000;
}

/* Returns the soft deadline scaled by how settled the search is (see timeman.h). */
int64_t tm_soft_scaled(const struct timeman *tm, int instability, int drop) {
    if (tm->soft_ms <= 0) return 0;
    if (drop < 0) drop = 0;
    if (drop > 100) drop = 100;
    int64_t pct = 70 + instability * 60 / 100 + drop;
    if (pct > 250) pct = 250;
    int64_t ms = tm->soft_ms * pct / 100;
    return ms > 0 ? ms : 1;
}

/*
 * Starts the clock of a search and plans its deadlines for the side to move. A fixed move time
 * is used whole, as a GUI that gives one expects; the move overhead is kept back from clocks only.
 */
void tm_start(struct timeman *tm, const struct search_limits *l, int overhead_ms, int side) {
    clock_gettime(CLOCK_MONOTONIC, &tm->start);
    int64_t overhead = overhead_ms;
    tm->soft_ms = tm->hard_ms = 0;
    if (l->infinite) return;
    if (l->movetime_ms > 0) {
        tm->hard_ms = l->movetime_ms;
        return;
    }
    if (l->time_ms[side] >= 0 && (l->time_ms[side] > 0 || l->inc_ms[side] > 0)) {
        int64_t left = l->time_ms[side], inc = l->inc_ms[side] > 0 ? l->inc_ms[side] : 0;
        int togo = l->movestogo > 0 ? l->movestogo : 30;
        int64_t usable = left - overhead;
        if (usable < 1) usable = 1;
        int64_t soft = usable / togo + inc * 3 / 4;
        int64_t hard = soft * 4;
        int64_t cap = usable * 4 / 5 > 1 ? usable * 4 / 5 : 1;
        if (hard > cap) hard = cap;
        if (soft > hard) soft = hard;
        tm->soft_ms = soft > 0 ? soft : 1;
        tm->hard_ms = hard > 0 ? hard : 1;
    }
}

/*
 * A minimal unit-test harness shared by every test program in tests/.
 *
 * CHECK(cond) and CHECK_EQ_*(a, b) record a failure with file and line but let the test go on,
 * so one run reports every broken case. check_done() prints "N passed, N failed" and returns
 * the process exit status (0 only if nothing failed and at least one check ran).
 */
#ifndef HNEFI_TESTS_CHECK_H
#define HNEFI_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static long check_passed_count, check_failed_count;

/* Records one check; prints a message when it failed. */
static inline int check_record(int ok, const char *file, int line, const char *what) {
    if (ok) {
        check_passed_count++;
    } else {
        check_failed_count++;
        fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    }
    return ok;
}

#define CHECK(cond) check_record(!!(cond), __FILE__, __LINE__, #cond)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                            \
        if (!check_record(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b))                 \
            fprintf(stderr, "    left %lld, right %lld\n", check_a_, check_b_);                    \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
    do {                                                                                           \
        uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                               \
        if (!check_record(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b))                 \
            fprintf(stderr, "    left %" PRIu64 ", right %" PRIu64 "\n", check_a_, check_b_);      \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                         \
    do {                                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                                               \
        int check_ok_ = check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0;                   \
        if (!check_record(check_ok_, __FILE__, __LINE__, #a " == " #b))                            \
            fprintf(stderr, "    left \"%s\", right \"%s\"\n", check_a_ ? check_a_ : "(null)",     \
                    check_b_ ? check_b_ : "(null)");                                               \
    } while (0)

/* Prints the summary line and returns the exit status for main(). */
static inline int check_done(void) {
    printf("%ld passed, %ld failed\n", check_passed_count, check_failed_count);
    return (check_failed_count == 0 && check_passed_count > 0) ? 0 : 1;
}

#endif

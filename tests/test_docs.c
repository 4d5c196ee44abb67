/*
 * The docs against the program: every `$ hnefi ...` line inside a fenced block of README.md and
 * the pages of docs/ is run, and each line quoted after it (up to the next `$` line or the block's
 * end) must be printed by it. Output that holds a time (perft, bench) is compared up to its node
 * count ("perft 5: 6116568016 nodes", "14482518 nodes"), the rest line for line. So a change
 * of the bench signature, of a perft count or of a quoted result fails here until the docs
 * follow. With HNEFI_QUICK set (the sanitizer build) the long runs (bench, perft 5 and deeper)
 * are skipped: the release build checks them.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"

enum { OUT_MAX = 1 << 20 };

static bool quick;
static int commands_run, commands_skipped;

/* Reads a whole file; NULL if it cannot be read. */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    if (text) text[fread(text, 1, (size_t)n, f)] = '\0';
    fclose(f);
    return text;
}

/* Runs hnefi with args (as a shell would split them); returns its stdout, or NULL. */
static char *run_hnefi(const char *args) {
    static char out[OUT_MAX];
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", HNEFI_BINARY, args);
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    out[fread(out, 1, sizeof out - 1, p)] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? out : NULL;
}

/* Removes trailing blanks in place. */
static void rtrim(char *s) {
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
}

/* Tells whether text has line as one of its lines (trailing blanks ignored). */
static bool has_line(const char *text, const char *line) {
    size_t n = strlen(line);
    for (const char *s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
        size_t len = strcspn(s, "\n");
        while (len > 0 && isspace((unsigned char)s[len - 1])) len--;
        if (len == n && strncmp(s, line, n) == 0) return true;
    }
    return false;
}

/* Returns how much of a quoted line to compare: up to its node count if it has one and is a
 * timed command's output (perft, bench), else all of it. */
static size_t compared_part(const char *args, const char *quoted) {
    bool timed = strncmp(args, "perft", 5) == 0 || strncmp(args, "bench", 5) == 0;
    const char *nodes = timed ? strstr(quoted, " nodes") : NULL;
    return nodes ? (size_t)(nodes - quoted) + 6 : strlen(quoted);
}

/* Tells whether a command is long enough to skip in a quick run. */
static bool long_run(const char *args) {
    if (strncmp(args, "bench", 5) == 0) return true;
    const char *depth = strncmp(args, "perft", 5) == 0 ? strrchr(args, ' ') : NULL;
    return depth && atoi(depth + 1) >= 5;
}

/* Checks one command and the lines quoted after it (n of them) from a doc. */
static void check_command(const char *doc, const char *args, char **quoted, int n) {
    if (quick && long_run(args)) {
        commands_skipped++;
        return;
    }
    commands_run++;
    const char *out = run_hnefi(args);
    if (!check_record(out != NULL, doc, 0, args)) return;
    for (int i = 0; i < n; i++) {
        size_t part = compared_part(args, quoted[i]);
        bool found = false;
        if (part == strlen(quoted[i])) {
            found = has_line(out, quoted[i]);
        } else { /* the start of some output line */
            for (const char *s = out; s && *s && !found; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
                found = strncmp(s, quoted[i], part) == 0;
        }
        if (!check_record(found, doc, 0, quoted[i]))
            fprintf(stderr, "    'hnefi %s' does not print '%.*s'; it printed:\n%s\n", args,
                    (int)part, quoted[i], out);
    }
}

/* Checks every quoted command of one markdown file. */
static void check_doc(const char *path) {
    char *text = slurp(path);
    if (!CHECK(text != NULL)) return;
    char *lines[4096];
    int n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < 4096;
         l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    bool fenced = false;
    for (int i = 0; i < n; i++) {
        if (strncmp(lines[i], "```", 3) == 0) {
            fenced = !fenced;
            continue;
        }
        if (!fenced || strncmp(lines[i], "$ hnefi ", 8) != 0) continue;
        char args[1024];
        snprintf(args, sizeof args, "%s", lines[i] + 8);
        char *comment = strstr(args, "  #"); /* "$ hnefi bench   # what it does" */
        if (comment) *comment = '\0';
        rtrim(args);
        int k = i + 1;
        while (k < n && lines[k][0] != '$' && strncmp(lines[k], "```", 3) != 0) rtrim(lines[k++]);
        check_command(path, args, lines + i + 1, k - i - 1);
        i = k - 1;
    }
    free(text);
}

/* Checks README.md and every page of docs/. */
int main(void) {
    quick = getenv("HNEFI_QUICK") != NULL;
    check_doc(HNEFI_SOURCE_DIR "/README.md");
    DIR *d = opendir(HNEFI_SOURCE_DIR "/docs");
    if (CHECK(d != NULL)) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0) continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/docs/%s", HNEFI_SOURCE_DIR, e->d_name);
            check_doc(path);
        }
        closedir(d);
    }
    printf("%d quoted commands checked, %d long ones skipped\n", commands_run, commands_skipped);
    CHECK(commands_run + commands_skipped >= 4); /* README's perft and bench, playout.md's two */
    return check_done();
}

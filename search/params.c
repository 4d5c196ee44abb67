/* The search's tunable numbers: defaults, reading them by name, writing the changed ones. */
#include "search/params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct search_params search_default_params = {
#define SEARCH_PARAM_DEFAULT(name, def, lo, hi) .name = def,
    SEARCH_PARAM_LIST(SEARCH_PARAM_DEFAULT)
#undef SEARCH_PARAM_DEFAULT
};

/* Sets the parameter called name to val in p; false (with the reason in err) if it cannot. */
static bool param_set(struct search_params *p, const char *name, long val, char *err,
                      size_t errlen) {
#define SEARCH_PARAM_SET(pname, def, lo, hi)                                                       \
    if (strcmp(name, #pname) == 0) {                                                               \
        if (val < (lo) || val > (hi)) {                                                            \
            snprintf(err, errlen, "search parameter %s=%ld: expected %d to %d", name, val, (lo),   \
                     (hi));                                                                        \
            return false;                                                                          \
        }                                                                                          \
        p->pname = (int)val;                                                                       \
        return true;                                                                               \
    }
    SEARCH_PARAM_LIST(SEARCH_PARAM_SET)
#undef SEARCH_PARAM_SET
    snprintf(err, errlen, "unknown search parameter '%s'", name);
    return false;
}

/* Reads "name=value" items separated by spaces or commas into p (all or nothing). */
bool search_params_parse(struct search_params *p, const char *text, char *err, size_t errlen) {
    struct search_params r = *p;
    const char *s = text;
    for (;;) {
        s += strspn(s, " ,\t");
        if (!*s) break;
        size_t len = strcspn(s, " ,\t");
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)(len < 63 ? len : 63), s);
        char *eq = strchr(tok, '=');
        char *end = NULL;
        long val = eq ? strtol(eq + 1, &end, 10) : 0;
        if (!eq || eq == tok || !end || *end || end == eq + 1) {
            snprintf(err, errlen, "search parameter '%s': expected name=integer", tok);
            return false;
        }
        *eq = '\0';
        if (!param_set(&r, tok, val, err, errlen)) return false;
        s += len;
    }
    *p = r;
    return true;
}

/* Writes the parameters that differ from the built-in ones as "name:value,...". */
void search_params_write_changed(const struct search_params *p, char *out, size_t outlen) {
    size_t n = 0;
    out[0] = '\0';
#define SEARCH_PARAM_WRITE(name, def, lo, hi)                                                      \
    if (p->name != search_default_params.name && n < outlen)                                       \
        n += (size_t)snprintf(out + n, outlen - n, "%s%s:%d", n ? "," : "", #name, p->name);
    SEARCH_PARAM_LIST(SEARCH_PARAM_WRITE)
#undef SEARCH_PARAM_WRITE
}

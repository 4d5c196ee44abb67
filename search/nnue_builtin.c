/*
 * The networks built into the binary: each file of search/nets/ named in the list below is
 * embedded with the assembler's .incbin (the build passes its folder as HNEFI_NETS_DIR) and read
 * once, on first use, with the same checks as a network file.
 */
#include <pthread.h>
#include <stdio.h>

#include "search/nnue.h"

/* Embeds search/nets/NAME.nnue as the bytes from hnefi_net_NAME to hnefi_net_NAME_end. */
#define NNUE_EMBED(name)                                                                           \
    __asm__(".pushsection .rodata\n.balign 64\n.globl hnefi_net_" #name "\n"                       \
            ".hidden hnefi_net_" #name "\nhnefi_net_" #name ":\n.incbin \"" HNEFI_NETS_DIR         \
            "/" #name ".nnue\"\n.globl hnefi_net_" #name "_end\n.hidden hnefi_net_" #name          \
            "_end\nhnefi_net_" #name "_end:\n.popsection\n");                                      \
    extern const unsigned char hnefi_net_##name[], hnefi_net_##name##_end[];

/* The built-in networks, one X(name) per file of search/nets/; none in the wide build, whose
   boards (beyond 11x11) have no network yet. */
#if HNEFI_WIDE
#define NNUE_BUILTIN_LIST(X)
#else
#define NNUE_BUILTIN_LIST(X) X(copenhagen) X(brandubh) X(linnaeus) X(tablut) X(fetlar)
#endif

NNUE_BUILTIN_LIST(NNUE_EMBED)

/* One embedded file. */
struct embedded {
    const unsigned char *start, *end;
};

static const struct embedded embedded[] = {
#define NNUE_ENTRY(name) {hnefi_net_##name, hnefi_net_##name##_end},
    NNUE_BUILTIN_LIST(NNUE_ENTRY)
#undef NNUE_ENTRY
        {NULL, NULL}};

enum { NNUE_BUILTINS = sizeof embedded / sizeof embedded[0] - 1 };

static struct nnue_net nets[NNUE_BUILTINS + 1];
static bool loaded[NNUE_BUILTINS + 1];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Reads every embedded network; one that fails its checks is reported and left out. */
static void load_all(void) {
    for (int i = 0; i < NNUE_BUILTINS; i++) {
        char err[200];
        loaded[i] = nnue_load(&nets[i], embedded[i].start,
                              (size_t)(embedded[i].end - embedded[i].start), err, sizeof err);
        if (!loaded[i]) fprintf(stderr, "hnefi: built-in network %d: %s\n", i, err);
    }
}

/* Returns the built-in network for variant v, or NULL when it has none. */
const struct nnue_net *nnue_builtin(const struct variant *v) {
    pthread_once(&once, load_all);
    char err[200];
    for (int i = 0; i < NNUE_BUILTINS; i++)
        if (loaded[i] && nnue_fits(&nets[i], v, err, sizeof err)) return &nets[i];
    return NULL;
}

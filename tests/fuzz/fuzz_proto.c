/*
 * libFuzzer target for a protocol's line handler, driven in-process (tools/proto_*.c through
 * proto_run): built three times, with FUZZ_PROTO 0 (UCI), 1 (OpenTafl engine protocol) and 2
 * (hnefatafl.org text protocol). The input is a session: its first byte picks a start that puts
 * the engine in a state (a position and a search) and, for UCI, whether the protocol is chosen
 * by the first line as `hnefi` with no command does; the rest are the lines the host sends.
 *
 * The session is bounded (proto_caps): every search stops after a few hundred nodes and never
 * looks at the clock, perft and the table are kept small, one search thread, and no option may
 * name a file to read; so an input always ends soon and the same way. The engine must end the
 * session with status 0, and everything it writes must be whole lines of printable text (what a
 * host was sent is quoted with unprintable bytes as '?').
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "tools/proto_session.h"

#ifndef FUZZ_PROTO
#define FUZZ_PROTO 0
#endif

enum { FUZZ_OUT_MAX = 1 << 24 };

#define BRANDUB                                                                                    \
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"

/* The starts of a session, by protocol: each reaches a different state. */
static const char *const starts[3][4] = {
    {"", "uci\nisready\nposition startpos moves d1d3 e5e2\ngo depth 2\n",
     "setoption name Variant value brandubh\nposition startpos\ngo nodes 100\n",
     "setoption name MultiPV value 3\nposition startpos moves d1d3\ngo infinite\n"},
    {"", "rules " BRANDUB "\nplay attackers\n",
     "rules " BRANDUB "\nposition /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\nside attackers\nanalyze 3 1\n",
     "rules " BRANDUB "\nclock 1000 1000 0 0 0\nplay defenders\n"
     "opponent-move d2-c2 /3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/\n"},
    {"", "board_size 7\ngenerate_move\n", "play attacker d1 d3\ngenerate_move\nshow_board\n",
     "time_settings fischer 1 1\nfirst_move defender\ngenerate_move\n"},
};

static const proto_loop loops[3] = {proto_uci_loop, proto_otep_loop, proto_htp_loop};

/* Fuzzes one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static int out_fd = -1;
    if (out_fd < 0) {
#ifdef HNEFI_FUZZ_BOOKS
        setenv("HNEFI_DATA", HNEFI_FUZZ_BOOKS, 0); /* the shipped books, for OwnBook */
#endif
        out_fd = fuzz_file_fd(1);
        proto_out_set_fd(out_fd);
    }
    const char *start = starts[FUZZ_PROTO][data[0] & 3];
    size_t sl = strlen(start);
    uint8_t *in = malloc(sl + size);
    if (!in) return 0;
    memcpy(in, start, sl);
    memcpy(in + sl, data + 1, size - 1);
    int in_fd = fuzz_file_fd(0);
    fuzz_file(0, in, sl + size - 1);
    free(in);
    fuzz_file(1, "", 0);

    struct proto_config cfg;
    proto_config_default(&cfg);
    cfg.variant = variant_builtin((data[0] >> 3) % 5);
    cfg.hash_mib = 1;
    cfg.depth = 3; /* otep and htp: how long to think without a clock */
    cfg.book_seed = 1;
    cfg.caps = (struct proto_caps){
        .nodes = 300, .perft_depth = 2, .hash_mib = 2, .threads = 1, .no_files = true};
    bool detect = FUZZ_PROTO == 0 && (data[0] & 4);
    if (proto_run(&cfg, in_fd, detect, loops[FUZZ_PROTO]) != 0) fuzz_broken("exit status");

    /* what the engine wrote: whole lines of printable text */
    struct stat st;
    if (fstat(out_fd, &st) != 0) fuzz_broken("fstat");
    size_t n = (size_t)st.st_size < FUZZ_OUT_MAX ? (size_t)st.st_size : FUZZ_OUT_MAX;
    char *out = malloc(n + 1);
    if (out && pread(out_fd, out, n, 0) == (ssize_t)n) {
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)out[i];
            if (c != '\n' && (c < 0x20 || c >= 0x7f)) {
                out[i + 1 < n ? i + 1 : n] = 0;
                fprintf(stderr, "unprintable byte 0x%02x at %zu after: %s\n", c, i,
                        out + (i > 200 ? i - 200 : 0));
                fuzz_broken("unprintable output");
            }
        }
        if (n && out[n - 1] != '\n') fuzz_broken("output ends inside a line");
    }
    free(out);
    return 0;
}

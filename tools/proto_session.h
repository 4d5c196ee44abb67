/*
 * What the three protocol front ends (UCI-like, OpenTafl engine protocol, hnefatafl.org text
 * protocol; docs/protocol.md) share: a line reader that survives any input, one-write output
 * lines, small parsers, and a session holding the rules, the game, the search options and a
 * search that runs on its own thread while the protocol goes on reading.
 *
 * Lines. proto_read_line reads stdin with read(2), so it can tell the first line apart before
 * choosing a protocol. A line is cut at PROTO_LINE_MAX - 1 bytes (the rest is read and dropped,
 * and the line is flagged overlong); trailing CR, spaces and tabs are stripped; a NUL byte in a
 * line is flagged. Output lines go out with proto_out: each is formatted into one buffer and
 * written with a single write(2) under a lock, so lines from the search thread and the reader
 * never interleave and a host that splits reads on '\n' always sees whole lines.
 *
 * Session. `variant` is the rules in play and every position of `game` points at it, so it is
 * only changed through proto_session_set_variant, which also restarts the game. `game` is what
 * the protocol sees; a search works on its own copy (`search_game`), so the protocol may change
 * `game` while a search runs. At most one search runs at a time. Its life: proto_session_go
 * starts it (RUNNING); when search_run returns, a held search (UCI `go infinite` / `go ponder`)
 * waits in HELD until proto_session_release or proto_session_stop; then the on_done hook reports
 * the result, unless the search was discarded (proto_session_stop with report = false), and the
 * search is DONE. Hooks run on the search thread.
 *
 * Book. Before a move is searched for play (not for analysis, pondering or an endless search), a
 * protocol asks proto_session_play_book: when the book is on and holds a move for the current
 * game (book_choose), the hooks hear of it at once, on the caller's thread, and no search runs.
 * The book is on when one was named (--book, UCI's BookFile or OwnBook) or, with none named and
 * not switched off (--no-book, OwnBook false), when the shipped book of the variant in play is
 * switched on (tools/cli_book.h). A book is read when it is named and again when the variant's
 * shipped book changes; one that cannot be read, or does not fit the rules in play, leaves the
 * session without a book: the protocol reports an error when the book was named, and play goes
 * on.
 */
#ifndef HNEFI_TOOLS_PROTO_SESSION_H
#define HNEFI_TOOLS_PROTO_SESSION_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book/book.h"
#include "engine/tafl.h"
#include "search/search.h"
#include "tools/cli.h"

enum {
    PROTO_LINE_MAX = 65536,                      /* longest line kept, with its NUL */
    PROTO_MAX_TOKENS = MAX_GAME_PLIES + 64,      /* words in one command */
    PROTO_QUOTE_MAX = 48,                        /* bytes of a quoted word in a message */
    PROTO_HASH_DEFAULT = 64,                     /* MiB */
    PROTO_HASH_MAX = 65536,                      /* MiB */
    PROTO_OVERHEAD_MAX = 5000,                   /* ms of move overhead */
    PROTO_PV_TEXT_MAX = SEARCH_MAX_PLY * 8 + 16, /* a principal variation as text */
};

#define PROTO_ENGINE_NAME    "hnefi"
#define PROTO_ENGINE_VERSION "0.1.0"
#define PROTO_ENGINE_AUTHOR  "the hnefi authors"

/* A buffered reader of lines from a file descriptor, after the lines of `pre` if any. */
struct proto_reader {
    int fd;
    bool eof;
    size_t start, end;
    char buf[16384];
    char *pre; /* malloc'd lines read first (handed over by the other width: proto_handoff) */
    size_t pre_len, pre_at;
};

/* One line as read: the text (NUL-terminated, stripped) and what was wrong with it. */
struct proto_line {
    char text[PROTO_LINE_MAX];
    size_t len;      /* bytes in text */
    size_t full_len; /* bytes the line had before it was cut */
    bool overlong;   /* the line was longer than PROTO_LINE_MAX - 1 bytes */
    bool has_nul;    /* the line held a NUL byte */
};

/* Starts a reader on fd. */
void proto_reader_init(struct proto_reader *r, int fd);

/* Frees what the reader holds (lines handed over and not read). */
void proto_reader_free(struct proto_reader *r);

/* Reads the next line into line; returns false at the end of input. */
bool proto_read_line(struct proto_reader *r, struct proto_line *line);

/* Splits text in place into words separated by blanks; returns their count, -1 if more than max. */
int proto_split(char *text, char **words, int max);

/* Reads a whole decimal number in [lo, hi]; false if it is not one. */
bool proto_parse_i64(const char *text, int64_t lo, int64_t hi, int64_t *out);

/* Copies text for a message: at most PROTO_QUOTE_MAX bytes, unprintable bytes as '?'. */
const char *proto_quote(const char *text, char *out, size_t outlen);

/* Writes one formatted line and a '\n' to stdout in a single write. */
__attribute__((format(printf, 1, 2))) void proto_out(const char *fmt, ...);

/* Replaces every unprintable byte of text with '?' (messages quote what they were sent). */
void proto_clean(char *text);

/* Writes prefix and the formatted message (unprintable bytes as '?') as one line. */
__attribute__((format(printf, 2, 0))) void proto_out_message(const char *prefix, const char *fmt,
                                                             va_list ap);

/* Writes len bytes to stdout as they are, in one write under the output lock. */
void proto_out_raw(const char *text, size_t len);

/* Makes proto_out write to fd instead of stdout (the HTP --connect socket). */
void proto_out_set_fd(int fd);

/* Returns the board of p as a diagram (cli_fprint_board) in a malloc'd string; NULL if no memory.
 */
char *proto_board_text(const struct position *p);

/* Writes a line's moves joined by sep, as `d1d3` or (dash) `d1-d3`; returns out. */
char *proto_pv_text(const struct search_line *l, int size, bool dash, char sep, char *out,
                    size_t outlen);

/* The state of the background search. */
enum proto_search_state { PROTO_IDLE, PROTO_RUNNING, PROTO_HELD, PROTO_DONE };

/* What a protocol hears from its search (on the search thread), or of a book move. */
struct proto_hooks {
    void (*on_line)(const struct search_line *line, void *ctx);
    void (*on_done)(const struct search_result *result, void *ctx);
    void (*on_book)(move_t move, const struct book_move *info, void *ctx); /* may be NULL */
    void *ctx;
};

/* The session's opening book: what was asked for and what is loaded. */
struct proto_book {
    int own;          /* 1: use a book; 0: none; -1: the switch of the variant in play decides */
    char name[4096];  /* the book asked for: a file, or "default" (the variant's shipped one) */
    struct book book; /* loaded from loaded_path, if loaded */
    bool loaded;
    char loaded_path[4200];
    char failed_path[4200]; /* a file that did not load (not tried again until it changes) */
    struct book_play play;
    uint64_t seed, rng; /* BookSeed (0: from the clock) and the draws' state */
};

/*
 * Bounds that a host cannot lift, for driving a protocol in-process (the fuzz targets); 0 or
 * false: no bound. With nodes set, every search is cut to that many nodes and bounded by nodes
 * and depth only (clocks and move times are dropped), so it ends soon and, with one thread,
 * always the same way. perft_depth, hash_mib and threads cut what a command asks for; with
 * no_files, the options that name a file to read (a book other than the shipped one, a network)
 * are refused.
 */
struct proto_caps {
    uint64_t nodes;
    int perft_depth;
    long hash_mib;
    int threads;
    bool no_files;
};

struct proto_session {
    struct variant variant;
    struct tafl_game *game, *scratch, *search_game;
    struct search *search;
    struct search_options opt;
    struct cli_eval eval; /* the evaluation searches use (opt.net is set from it at each go) */
    long hash_mib;
    char *words[PROTO_MAX_TOKENS];
    /* the background search (lock guards state, released and discard) */
    pthread_t thread;
    bool thread_live;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    enum proto_search_state state;
    bool hold, released, discard;
    struct search_limits limits;
    struct proto_hooks hooks;
    struct search_result result;
    struct proto_book bk;
    char startup_note[600]; /* an error with the command line's book, for the protocol to say */
    struct proto_caps caps;
    /* handing the session to the other width's build (proto_handoff) */
    char *options_log; /* malloc'd: the option lines that took effect, to set them again there */
    size_t options_len;
    char *switch_line; /* malloc'd: the line that asked for the other build; the loop ends */
    bool continued;    /* this session goes on from the other build's: no greeting */
};

/*
 * Boards beyond 11x11 are played by the wide build (HNEFI_WIDE, docs/rules.md), the others by
 * the 128-bit one; both are in one program. When a protocol's rules, variant or board size need
 * the other build, its loop stops with PROTO_SWITCH after proto_session_switch, and tools/hnefi.c
 * runs the same protocol command of the other build, which goes on from hnefi_shared_handoff:
 * the same input (with what was read but not handled), the same output, and first the option
 * lines that had taken effect, then the line that asked for the switch. The game restarts under
 * the new rules, as any change of rules restarts it. The hnefi_shared_ name is not renamed in
 * the wide build, so both builds see the one object.
 */
enum { PROTO_SWITCH = 1000 }; /* a loop's and a protocol command's status: go on in the other */

/* Which protocol a session speaks. */
enum proto_kind { PROTO_KIND_UCI, PROTO_KIND_OTEP, PROTO_KIND_HTP };

struct proto_handoff {
    bool active;
    enum proto_kind kind;
    struct proto_reader reader; /* pre: the lines to handle first */
    int out_fd;
    /* HTP's settings (its commands reply, so they are handed over, not replayed) */
    int htp_first;
    bool htp_timed;
    int64_t htp_minutes_ms, htp_add_ms;
    /* each build's reader of rules strings ([HNEFI_WIDE]); NULL where the program has no such
       build (tools/hnefi.c sets them; tests and fuzz targets have the 128-bit build only) */
    bool (*rules_ok[2])(const char *rules, char *err, size_t errlen);
    /* ... and whether each build has a built-in variant of this name (`hnefi games` goes to
       the wide build for a file of copenhagen13 games) */
    bool (*variant_known[2])(const char *name);
};

extern struct proto_handoff hnefi_shared_handoff;

/* Tells whether rules of an n x n board need the other build than this one (which plays it). */
static inline bool proto_other_width(int n) {
    return HNEFI_WIDE ? n >= 7 && n <= 11 : n > 11 && n <= 19;
}

/*
 * Tells whether the session should go on in the other build for an n x n board: that build is
 * in the program and reads rules (an OpenTafl rules string, or NULL for a board the protocol
 * names itself). False when this build plays the board, and false with a reason in err (else
 * err is "") when the other build is missing or refuses the rules: the protocol then reports
 * err and keeps its game.
 */
bool proto_other_build(int n, const char *rules, char *err, size_t errlen);

/* Records an option line that took effect, to be set again if the session changes build. */
void proto_session_log_option(struct proto_session *s, const char *line);

/* Ends the session's loop so that the other build goes on with line (see PROTO_SWITCH). */
void proto_session_switch(struct proto_session *s, const char *line);

/* Sets up a session for variant v with a table of hash_mib MiB; false if out of memory. */
bool proto_session_init(struct proto_session *s, const struct variant *v, long hash_mib);

/* Stops any search (without a report) and frees the session. */
void proto_session_free(struct proto_session *s);

/*
 * Makes v the rules in play and restarts the game from its start position. Stops a running
 * search without a report.
 */
void proto_session_set_variant(struct proto_session *s, const struct variant *v);

/*
 * Plays moves (as text) on the session's game, all or nothing: on failure the game is unchanged
 * and err says why (the move's own error).
 */
bool proto_session_play_moves(struct proto_session *s, char *const *moves, int nmoves, char *err,
                              size_t errlen);

/*
 * Builds a game from a FEN (NULL: the variant's start) and moves, all or nothing: on success it
 * becomes the session's game; on failure the game is unchanged and err names the bad FEN or the
 * bad move with its ply.
 */
bool proto_session_set_position(struct proto_session *s, const char *fen, char *const *moves,
                                int nmoves, char *err, size_t errlen);

/* Restarts the game from position p (which must belong to the session's variant). */
void proto_session_reset_to(struct proto_session *s, const struct position *p);

/* Cuts a perft depth to the session's bound (proto_caps). */
int proto_session_perft_depth(const struct proto_session *s, int depth);

/* Starts a search of the current game on the search thread; any earlier search must be over. */
void proto_session_go(struct proto_session *s, const struct search_limits *limits, bool hold,
                      const struct proto_hooks *hooks);

/* Returns the state of the search. */
enum proto_search_state proto_session_state(struct proto_session *s);

/* Tells whether a search is running or held (it has not reported yet). */
bool proto_session_busy(struct proto_session *s);

/* Lets a held search report (and end) without stopping anything. */
void proto_session_release(struct proto_session *s);

/* Stops the search, reporting its result if report is true, and waits for its thread. */
void proto_session_stop(struct proto_session *s, bool report);

/* Waits for a search that ends by itself (not held), then for its thread. */
void proto_session_wait(struct proto_session *s);

/* Resizes the transposition table to mib MiB, stopping any search (no report) once the new
   table is found; false (table and search unchanged) if out of memory. */
bool proto_session_set_hash(struct proto_session *s, long mib);

/*
 * Asks for the book name (a file, or "default") and turns the book on; reads it now. False with
 * a reason in err when it cannot be read or does not fit the rules in play: the session then
 * plays without a book until the name or the rules change.
 */
bool proto_session_set_book(struct proto_session *s, const char *name, char *err, size_t errlen);

/* Turns the book on (own 1), off (0) or back to the default switch (-1); false as set_book. */
bool proto_session_own_book(struct proto_session *s, int own, char *err, size_t errlen);

/* Sets the seed of weighted book choices (0: from the clock) and restarts their sequence. */
void proto_session_book_seed(struct proto_session *s, uint64_t seed);

/* Returns the book in use for the variant in play, or NULL. */
const struct book *proto_session_book(struct proto_session *s);

/*
 * Plays from the book if it holds a move for the current game: stops any search, then calls
 * hooks->on_book and hooks->on_done (with the move as the result, depth 0) on this thread and
 * returns true. False, with nothing done, when there is no book move.
 */
bool proto_session_play_book(struct proto_session *s, const struct proto_hooks *hooks);

/*
 * Makes the session search with the network in path (NULL: the built-in one again); stops any
 * search (no report) once the file has been read. False, with the evaluation and any search
 * unchanged, if the file does not load or fit the variant in play; err says why.
 */
bool proto_session_set_net(struct proto_session *s, const char *path, char *err, size_t errlen);

/* How a protocol command was started: the rules, table, threads and how long to think. */
struct proto_config {
    const struct variant *variant;
    long hash_mib;
    int threads;
    int move_overhead_ms; /* kept off a clock's time for each move (not off a fixed move time) */
    int64_t movetime_ms;  /* per move when the host gives no clock */
    bool movetime_given;  /* --movetime was given (it and --depth, --nodes are alternatives) */
    int depth;            /* fixed depth instead, if > 0 */
    uint64_t nodes;       /* fixed nodes instead, if > 0 */
    bool server;          /* HTP: the light server's bare lines */
    bool repeat_moves;    /* HTP: no defender repeat ban */
    const char *connect;  /* HTP: host:port of a light server to play on */
    const char *book;     /* --book: a book file or "default"; NULL: none named */
    int book_own;         /* 1: --book, 0: --no-book, -1: the default switch decides */
    int book_depth;       /* --book-depth: no book move from this ply on (0: no limit) */
    enum book_variety book_variety;
    uint64_t book_seed;
    const char *eval;       /* --eval: "nnue" or "classic" (NULL: the default) */
    const char *net;        /* --net: a network file (NULL: the built-in one) */
    struct proto_caps caps; /* bounds for fuzzing and tests (none from the command line) */
};

/*
 * A protocol's loop: reads lines from r into line and answers them until the end; if have is
 * true, line already holds the first line. Returns the exit status.
 */
typedef int (*proto_loop)(struct proto_session *s, struct proto_reader *r, struct proto_line *line,
                          bool have, const struct proto_config *cfg);

/* Sets the defaults: Copenhagen, 64 MiB, one thread, 30 ms overhead, 3 s a move without a clock. */
void proto_config_default(struct proto_config *cfg);

/*
 * Reads one of the options every protocol command takes (--hash, --threads, --move-overhead,
 * and the book's: --book, --no-book, --book-depth, --book-variety, --book-seed) at argv[*i], and
 * with thinking also the ones that set how long a move is thought about when the host does not
 * say (--movetime, --depth, --nodes: otep and htp); returns 1 if consumed, 0 if not one of them,
 * -1 after an error message (also for alternatives given together: --book and --no-book, two of
 * --movetime, --depth and --nodes).
 */
int proto_common_option(int argc, char **argv, int *i, struct proto_config *cfg, bool thinking);

/* The usage lines of the options of every protocol command, and of the thinking options. */
extern const char proto_common_usage[], proto_thinking_usage[];

/*
 * Reads the arguments of a protocol command (argv[0] is its name): the common options (and the
 * thinking ones if thinking), --help (prints usage and the usage of those options), and what
 * extra accepts (it returns like proto_common_option). Returns -1 to go on, else the exit status.
 */
int proto_args(int argc, char **argv, struct proto_config *cfg, const char *usage, bool thinking,
               int (*extra)(int argc, char **argv, int *i, struct proto_config *cfg));

/* Fills limits for a move without a clock, from cfg. */
void proto_think_limits(const struct proto_config *cfg, struct search_limits *limits);

/*
 * Sets up a session from cfg, reads lines from in_fd and runs loop on them; with detect, the
 * first non-blank line picks OpenTafl if it is a `rules` line. Returns the exit status.
 */
int proto_run(const struct proto_config *cfg, int in_fd, bool detect, proto_loop loop);

/* Tells whether a protocol command goes on from the other build's session (PROTO_SWITCH). */
bool proto_continuing(void);

/* The protocol loops and the commands that start them (argv[0] is the command name). */
int proto_uci_loop(struct proto_session *s, struct proto_reader *r, struct proto_line *line,
                   bool have, const struct proto_config *cfg);
int proto_otep_loop(struct proto_session *s, struct proto_reader *r, struct proto_line *line,
                    bool have, const struct proto_config *cfg);
int proto_htp_loop(struct proto_session *s, struct proto_reader *r, struct proto_line *line,
                   bool have, const struct proto_config *cfg);
int cmd_uci(int argc, char **argv);
int cmd_otep(int argc, char **argv);
int cmd_htp(int argc, char **argv);

/* hnefi with no command: UCI, or OpenTafl when the first line is a `rules` line. */
int proto_auto(void);

#endif

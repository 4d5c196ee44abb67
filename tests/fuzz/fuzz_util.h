/*
 * Helpers shared by the fuzz targets (tests/fuzz/fuzz_*.c): the readers under test take a path,
 * so an input is written to an in-memory file (memfd) and named by its /proc/self/fd path; a
 * text can be wrapped in sound zstd frames, so that the parser behind the decompression is
 * reached; and a broken property stops the run with a message.
 *
 * The same target sources build two ways: with libFuzzer (clang, HNEFI_FUZZ), and with
 * tests/fuzz/replay_main.c as a plain test program that replays the seeds and the crash inputs
 * kept in tests/fuzz/ (every build, so CI without clang fuzzing still checks them).
 */
#ifndef HNEFI_TESTS_FUZZ_FUZZ_UTIL_H
#define HNEFI_TESTS_FUZZ_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { FUZZ_FILES = 4 }; /* in-memory files a target may hold at once */

/* The entry point every target defines (libFuzzer's). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the run: a property of a reader was broken (what says which). */
_Noreturn void fuzz_broken(const char *what);

/* Writes len bytes to in-memory file number slot (replacing what it held) and returns its
   path; the file stays open for the life of the process. */
const char *fuzz_file(int slot, const void *data, size_t len);

/* Returns the descriptor of in-memory file number slot (created empty if new). */
int fuzz_file_fd(int slot);

/*
 * Wraps data in checksummed zstd frames in a new buffer (free()) of *outlen bytes: one frame
 * per line (each with its '\n', as a tournament appends records) if by_line, else one frame.
 * NULL if out of memory.
 */
uint8_t *fuzz_zstd(const uint8_t *data, size_t len, bool by_line, size_t *outlen);

/* Sends everything written to stdout to /dev/null from now on (commands print there). */
void fuzz_quiet_stdout(void);

#endif

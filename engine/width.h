/*
 * Which bitboard this build of the engine has: HNEFI_WIDE is 0 for the 128-bit bitboard (boards
 * up to 11x11) and 1 for the wide one (up to 19x19). CMake compiles the engine and every layer
 * above it once per width from the same sources (the *_wide libraries, their symbols renamed);
 * the types that depend on the width (bb_t, move_t, square indices) follow this switch.
 */
#ifndef HNEFI_ENGINE_WIDTH_H
#define HNEFI_ENGINE_WIDTH_H

#ifndef HNEFI_WIDE
#define HNEFI_WIDE 0
#endif

#endif

# The engine's fast paths (rays, slides, king spots) against slow versions on random games,
# and the board symmetries against move generation.
hnefi_test(test_fastpaths ${CMAKE_CURRENT_SOURCE_DIR}/test_fastpaths.c LABELS engine)
hnefi_test(test_symmetry ${CMAKE_CURRENT_SOURCE_DIR}/test_symmetry.c LABELS engine)

# The engine's fast paths (rays, slides, king spots) against slow versions on random games.
hnefi_test(test_fastpaths ${CMAKE_CURRENT_SOURCE_DIR}/test_fastpaths.c LABELS engine)

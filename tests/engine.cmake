# Tests of the tafl rules engine.
set(T ${CMAKE_CURRENT_SOURCE_DIR})
hnefi_test(test_replay ${T}/test_replay.c ${T}/data_file.c LABELS engine)
hnefi_test(test_perft ${T}/test_perft.c ${T}/data_file.c LABELS engine)
hnefi_test(test_rules ${T}/test_rules.c LABELS engine)
if(HNEFI_WIDE_BOARDS) # the same rules on the wide bitboard, and Alea Evangelii's 19x19
  hnefi_test(test_rules_wide ${T}/test_rules.c WIDE LABELS engine)
endif()
hnefi_test(test_bitboard ${T}/test_bitboard.c LABELS engine)
hnefi_test(test_notation ${T}/test_notation.c LABELS engine)
hnefi_test(test_cli ${T}/test_cli.c ${T}/data_file.c LABELS engine)
# SVG pictures of hnefi analyze (tools/svg.c).
hnefi_test(test_svg ${CMAKE_CURRENT_SOURCE_DIR}/test_svg.c ${CMAKE_SOURCE_DIR}/tools/svg.c LABELS engine)

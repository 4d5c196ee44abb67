# The mailbox reference rules run against the bitboard engine on random games (rules.md §2-5).
hnefi_test(test_reference ${CMAKE_CURRENT_SOURCE_DIR}/test_reference.c
           ${CMAKE_CURRENT_SOURCE_DIR}/reference_mailbox.c ${CMAKE_CURRENT_SOURCE_DIR}/data_file.c)
if(HNEFI_WIDE_BOARDS)
  # the same cross-check on the wide bitboard: boards 13x13 to 19x19, and a small one
  hnefi_test(test_reference_wide ${CMAKE_CURRENT_SOURCE_DIR}/test_reference.c
             ${CMAKE_CURRENT_SOURCE_DIR}/reference_mailbox.c ${CMAKE_CURRENT_SOURCE_DIR}/data_file.c
             WIDE)
endif()

# Opening book tests (issue 11): the book layer, and the book through the program and protocols.
set(T ${CMAKE_CURRENT_SOURCE_DIR})
hnefi_test(test_book ${T}/test_book.c ${T}/data_file.c LABELS book)
hnefi_test(test_book_cli ${T}/test_book_cli.c ${T}/pipe_process.c ${T}/data_file.c LABELS book)
add_dependencies(test_book_cli hnefi)
if(HNEFI_WIDE_BOARDS) # the same tests on the wide bitboard, and books of 13x13 and 19x19 boards
  hnefi_test(test_book_wide ${T}/test_book.c ${T}/data_file.c WIDE LABELS book)
endif()

# Tests of the search.
hnefi_test(test_search ${CMAKE_CURRENT_SOURCE_DIR}/test_search.c ${CMAKE_CURRENT_SOURCE_DIR}/data_file.c LABELS search)
hnefi_test(test_nnue ${CMAKE_CURRENT_SOURCE_DIR}/test_nnue.c LABELS search)
hnefi_test(test_train ${CMAKE_CURRENT_SOURCE_DIR}/test_train.c ${CMAKE_CURRENT_SOURCE_DIR}/data_file.c LABELS search)
target_link_libraries(test_train PRIVATE hnefi_tools)
hnefi_test(test_solver ${CMAKE_CURRENT_SOURCE_DIR}/test_solver.c ${CMAKE_CURRENT_SOURCE_DIR}/data_file.c LABELS search TIMEOUT 900)
hnefi_test(test_tactics ${CMAKE_CURRENT_SOURCE_DIR}/test_tactics.c ${CMAKE_CURRENT_SOURCE_DIR}/data_file.c LABELS search TIMEOUT 900)

# The docs against the program: every quoted `$ hnefi ...` output in README.md and docs/.
hnefi_test(test_docs ${CMAKE_CURRENT_SOURCE_DIR}/test_docs.c LABELS docs)
target_compile_definitions(test_docs PRIVATE HNEFI_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_dependencies(test_docs hnefi)

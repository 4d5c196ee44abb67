# The install target (cmake --install into a scratch prefix) and the data lookup of hnefi.
add_test(NAME test_install COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh
                                   ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR})
set_tests_properties(test_install PROPERTIES LABELS install TIMEOUT ${HNEFI_TEST_TIMEOUT})

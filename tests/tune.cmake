# Evaluation corner terms and the Texel tuner (hnefi tune).
hnefi_test(test_tune ${CMAKE_CURRENT_SOURCE_DIR}/test_tune.c ${CMAKE_SOURCE_DIR}/tools/cmd_tune.c
           ${CMAKE_SOURCE_DIR}/tools/cli.c LABELS search)

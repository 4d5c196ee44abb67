# Fuzz inputs replayed in every build: each fuzz target (tests/fuzz/targets.cmake) is built with
# a plain driver (tests/fuzz/replay_main.c) and run on its seeds and on the crash inputs kept
# from fuzzing, so a fixed bug stays fixed where clang's libFuzzer is not used.
include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/targets.cmake)
foreach(name ${HNEFI_FUZZ_TARGETS})
  hnefi_fuzz_sources(${name} srcs defs)
  set(dirs ${HNEFI_FUZZ_DIR}/seeds_${name})
  if(EXISTS ${HNEFI_FUZZ_DIR}/regress_${name})
    list(APPEND dirs ${HNEFI_FUZZ_DIR}/regress_${name})
  endif()
  hnefi_test(test_fuzz_${name} ${srcs} ${HNEFI_FUZZ_DIR}/replay_main.c LABELS fuzz ARGS ${dirs})
  target_compile_definitions(test_fuzz_${name} PRIVATE ${defs})
  target_include_directories(test_fuzz_${name} PRIVATE ${HNEFI_FUZZ_DIR})
  target_link_libraries(test_fuzz_${name} PRIVATE hnefi_tools)
endforeach()

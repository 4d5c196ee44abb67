# The fuzz targets: name, source, and extra compile definitions. Each reads outside input;
# docs/testing.md says what each covers. tests/fuzz/CMakeLists.txt builds them with libFuzzer
# (HNEFI_FUZZ, clang); tests/fuzz.cmake builds each with a replay driver as a ctest test
# (test_fuzz_<name>) that runs its seeds and its kept crash inputs in every build.
set(HNEFI_FUZZ_TARGETS notation book records datagen weights nnue rules proto_uci proto_otep
                       proto_htp)
set(HNEFI_FUZZ_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz)

# hnefi_fuzz_sources(NAME OUT_SRC OUT_DEFS): the source file and definitions of target NAME.
function(hnefi_fuzz_sources name out_src out_defs)
  set(defs HNEFI_FUZZ_BOOKS="${CMAKE_SOURCE_DIR}/book/data")
  if(name MATCHES "^proto_(.*)$")
    set(src ${HNEFI_FUZZ_DIR}/fuzz_proto.c)
    list(FIND HNEFI_FUZZ_PROTOS ${CMAKE_MATCH_1} kind)
    list(APPEND defs FUZZ_PROTO=${kind})
  else()
    set(src ${HNEFI_FUZZ_DIR}/fuzz_${name}.c)
  endif()
  set(${out_src} ${src} ${HNEFI_FUZZ_DIR}/fuzz_util.c PARENT_SCOPE)
  set(${out_defs} ${defs} PARENT_SCOPE)
endfunction()
set(HNEFI_FUZZ_PROTOS uci otep htp)

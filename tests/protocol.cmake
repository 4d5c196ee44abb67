# Protocol tests: transcripts through pipes to the real hnefi binary, and a protocol fuzz test.
set(T ${CMAKE_CURRENT_SOURCE_DIR})
hnefi_test(test_proto_uci ${T}/test_proto_uci.c ${T}/pipe_process.c LABELS protocol)
hnefi_test(test_proto_otep ${T}/test_proto_otep.c ${T}/pipe_process.c ${T}/data_file.c LABELS protocol)
hnefi_test(test_proto_htp ${T}/test_proto_htp.c ${T}/pipe_process.c LABELS protocol)
hnefi_test(test_proto_fuzz ${T}/test_proto_fuzz.c ${T}/pipe_process.c LABELS protocol)

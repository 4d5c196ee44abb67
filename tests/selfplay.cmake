# Self-play tournament tests (issue 5): statistics, records, training data, matches, MPI.
set(T ${CMAKE_CURRENT_SOURCE_DIR})
# A scripted engine that speaks a little UCI and misbehaves on request.
add_executable(fake_engine ${T}/fake_engine.c)
target_link_libraries(fake_engine PRIVATE hnefi_engine)
target_include_directories(fake_engine PRIVATE ${CMAKE_SOURCE_DIR})

hnefi_test(test_selfplay_stats ${T}/test_selfplay_stats.c LABELS selfplay)
hnefi_test(test_selfplay_records ${T}/test_selfplay_records.c ${T}/data_file.c LABELS selfplay)
hnefi_test(test_selfplay_match ${T}/test_selfplay_match.c ${CMAKE_SOURCE_DIR}/tools/uci_client.c
           LABELS selfplay)
target_compile_definitions(test_selfplay_match PRIVATE FAKE_ENGINE="$<TARGET_FILE:fake_engine>")
add_dependencies(test_selfplay_match fake_engine hnefi)

if(HNEFI_MPI)
  hnefi_test(test_selfplay_mpi ${T}/test_selfplay_mpi.c LABELS selfplay mpi)
  add_dependencies(test_selfplay_mpi hnefi)
  target_compile_definitions(test_selfplay_mpi PRIVATE MPIEXEC="${MPIEXEC_EXECUTABLE}")
endif()

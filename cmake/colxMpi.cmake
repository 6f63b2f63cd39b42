# MPI for the distributed tests (tests/CMakeLists.txt) and colx-tpch-dist (examples/tpch):
# COLX_MPI_TESTS (off in the sanitize preset: Open MPI's own allocations read as leaks there),
# MPI::MPI_CXX where it is found (COLX_WITH_MPI), and colx_mpiexec(<var> <ranks>), the command
# line that starts <ranks> processes. Included by each directory that uses MPI: the imported
# target is visible only below the directory that found it.
option(COLX_MPI_TESTS "Build and run the distributed tests over MPI where MPI is found" ON)
set(COLX_WITH_MPI OFF)
if(COLX_MPI_TESTS)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(COLX_WITH_MPI ON)
  endif()
endif()

# Open MPI refuses root without --allow-run-as-root, and CI's 2 cores run 3 ranks only
# oversubscribed.
function(colx_mpiexec out ranks)
  set(flags ${MPIEXEC_PREFLAGS})
  execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version OUTPUT_VARIABLE version ERROR_QUIET)
  if(version MATCHES "Open MPI|OpenRTE")
    list(APPEND flags --oversubscribe --allow-run-as-root)
  endif()
  set(${out} "${MPIEXEC_EXECUTABLE}" ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${flags} PARENT_SCOPE)
endfunction()

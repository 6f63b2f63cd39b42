# colx::nccl: NCCL's header and library, for the distributed CUDA tests and benchmarks (colx's
# headers need no NCCL unless colx/dist/nccl_communicator.hpp is included). Looked for where the
# CUDA toolkit keeps it, then in pip's nvidia-nccl-cu13 wheel (site-packages/nvidia/nccl), then in
# NCCL_ROOT. Optional: without it, nothing distributed on the GPU is built.
if(TARGET colx::nccl)
  return()
endif()
set(colx_nccl_hints "${CUDAToolkit_LIBRARY_ROOT}" "${CUDAToolkit_TARGET_DIR}")
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c
                          "import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__) if nvidia.nccl.__file__ else list(nvidia.nccl.__path__)[0])"
                  OUTPUT_VARIABLE colx_nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(colx_nccl_wheel)
    list(APPEND colx_nccl_hints "${colx_nccl_wheel}")
  endif()
endif()
if(DEFINED ENV{NCCL_ROOT})
  list(APPEND colx_nccl_hints "$ENV{NCCL_ROOT}")
endif()
find_path(COLX_NCCL_INCLUDE_DIR nccl.h HINTS ${colx_nccl_hints} ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
find_library(COLX_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${colx_nccl_hints} ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
if(COLX_NCCL_INCLUDE_DIR AND COLX_NCCL_LIBRARY)
  add_library(colx::nccl UNKNOWN IMPORTED)
  set_target_properties(colx::nccl PROPERTIES IMPORTED_LOCATION "${COLX_NCCL_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${COLX_NCCL_INCLUDE_DIR}")
  message(STATUS "colx: NCCL ${COLX_NCCL_LIBRARY}")
else()
  message(STATUS "colx: no NCCL found: the distributed CUDA tests and benchmarks are not built")
endif()

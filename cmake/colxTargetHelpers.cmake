# Helpers for colx's own tests, examples and benchmarks (not installed).

include_guard(GLOBAL)

# colx_file_marker(<out-var> <file> <marker>)
#
# Sets <out-var> to TRUE when <file> has a line that reads exactly `// colx: <marker>`:
#   // colx: host-only   never compiled by nvcc (it includes fmt, or is about the host backend)
#   // colx: cuda-only   test sources only: not compiled into the host test binary
function(colx_file_marker out file marker)
  file(STRINGS "${file}" hits REGEX "^[ \t]*// colx: ${marker}[ \t]*$" LIMIT_COUNT 1)
  if(hits)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# colx_cuda_wrapper(<out-var> <source>)
#
# A source file has one language in CMake, so the CUDA build of a .cpp goes through a generated
# .cu in the build tree that only includes it (by absolute path, so __FILE__ and Catch2's
# filename tags are those of the .cpp). Rewritten only when its content changes.
function(colx_cuda_wrapper out source)
  cmake_path(ABSOLUTE_PATH source NORMALIZE OUTPUT_VARIABLE abs)
  cmake_path(RELATIVE_PATH abs BASE_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE rel)
  cmake_path(REPLACE_EXTENSION rel LAST_ONLY .cu)
  set(wrapper "${PROJECT_BINARY_DIR}/cuda_wrappers/${rel}")
  file(CONFIGURE OUTPUT "${wrapper}" CONTENT "#include \"${abs}\"\n" @ONLY)
  set(${out} "${wrapper}" PARENT_SCOPE)
endfunction()

# colx_target_warnings(<target>)
#
# Warnings for the project's own CXX code (never on colx::colx, which consumers link). For CUDA code,
# a call from device code to a host-only constexpr function (std::is_constant_evaluated, say) is an
# error: nvcc only warns (20013, 20015) and compiles the call to nothing, which once made every
# LIKE '%x%' false on the GPU while the host build passed.
function(colx_target_warnings target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
                                           $<$<COMPILE_LANGUAGE:CUDA>:--diag-error=20013,20015>)
  if(COLX_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()

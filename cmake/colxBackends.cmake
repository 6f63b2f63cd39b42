# Usage requirements of colx's two backends, shared by the build tree (CMakeLists.txt) and the
# installed package (colxConfig.cmake) so that both hand consumers the same flags.

include_guard(GLOBAL)

# CMake releases older than the CUDA 12+ toolkits they meet (3.25 among them) do not know that nvcc
# accepts -std=c++20: cuda_std_20 is then an unknown feature, and CUDA_STANDARD 20 silently decays
# to nvcc's default (C++17). Teach the calling directory the flag. A no-op on a CMake that knows it.
macro(colx_teach_cuda_std_20)
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION
     AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
     AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  endif()
endmacro()

# colx_link_backends(<target> [OPENMP] [CUDA] [BUILD_INTERFACE])
#
# Adds to the INTERFACE of <target> what the host backend (OPENMP) and the CUDA backend (CUDA) need.
# OpenMP::OpenMP_CXX and CCCL::CCCL must exist for the parts asked for. The CUDA runtime is not
# linked here: CMake links one into every target with CUDA sources (CMAKE_CUDA_RUNTIME_LIBRARY,
# static by default), and adding CUDA::cudart too put two runtimes on a consumer's link line. Code
# that g++ compiles never calls the runtime (COLX_HAS_CUDA is 0 there).
# BUILD_INTERFACE wraps everything in $<BUILD_INTERFACE:...>, so that it stays out of the exported
# target: the installed package decides again, on the consumer's machine, in colxConfig.cmake.
function(colx_link_backends target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "OPENMP;CUDA;BUILD_INTERFACE" "" "")
  set(open "")
  set(close "")
  if(arg_BUILD_INTERFACE)
    set(open "$<BUILD_INTERFACE:")
    set(close ">")
  endif()
  if(arg_OPENMP)
    # OpenMP::OpenMP_CXX carries -fopenmp for CXX sources only, and libgomp for the link (also of
    # CUDA executables, which CMake links with the host compiler). nvcc needs the flag forwarded.
    target_link_libraries(${target} INTERFACE "${open}OpenMP::OpenMP_CXX${close}")
    target_compile_options(${target} INTERFACE
      "${open}$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>${close}")
  endif()
  if(arg_CUDA)
    target_compile_features(${target} INTERFACE "${open}cuda_std_20${close}")
    target_link_libraries(${target} INTERFACE "${open}CCCL::CCCL${close}")
    # libcu++ (CCCL 3.0) hides the cuda::mr resource concepts behind this switch.
    target_compile_definitions(${target} INTERFACE
      "${open}LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE${close}")
  endif()
endfunction()

# colx_link_codecs(<target> [BUILD_INTERFACE]): the decompressors the Parquet reader uses on the
# host, each optional: libsnappy, libzstd and zlib are linked and announced to the headers
# (COLX_WITH_SNAPPY, COLX_WITH_ZSTD, COLX_WITH_ZLIB) where they are found. A file compressed with a
# codec that is missing gives an error naming the library.
function(colx_link_codecs target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "BUILD_INTERFACE" "" "")
  set(open "")
  set(close "")
  if(arg_BUILD_INTERFACE)
    set(open "$<BUILD_INTERFACE:")
    set(close ">")
  endif()
  find_package(Snappy CONFIG QUIET)
  if(TARGET Snappy::snappy)
    target_link_libraries(${target} INTERFACE "${open}Snappy::snappy${close}")
    target_compile_definitions(${target} INTERFACE "${open}COLX_WITH_SNAPPY${close}")
  endif()
  find_package(zstd CONFIG QUIET)
  if(TARGET zstd::libzstd_shared)
    target_link_libraries(${target} INTERFACE "${open}zstd::libzstd_shared${close}")
    target_compile_definitions(${target} INTERFACE "${open}COLX_WITH_ZSTD${close}")
  elseif(TARGET zstd::libzstd_static)
    target_link_libraries(${target} INTERFACE "${open}zstd::libzstd_static${close}")
    target_compile_definitions(${target} INTERFACE "${open}COLX_WITH_ZSTD${close}")
  endif()
  find_package(ZLIB QUIET)
  if(TARGET ZLIB::ZLIB)
    target_link_libraries(${target} INTERFACE "${open}ZLIB::ZLIB${close}")
    target_compile_definitions(${target} INTERFACE "${open}COLX_WITH_ZLIB${close}")
  endif()
  set(found "")
  foreach(lib IN ITEMS Snappy::snappy zstd::libzstd_shared zstd::libzstd_static ZLIB::ZLIB)
    if(TARGET ${lib})
      list(APPEND found ${lib})
    endif()
  endforeach()
  message(STATUS "colx: Parquet decompressors found: ${found}")
endfunction()

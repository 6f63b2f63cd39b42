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
  set(found "")
  set(open "")
  set(close "")
  if(arg_BUILD_INTERFACE)
    set(open "$<BUILD_INTERFACE:")
    set(close ">")
  endif()
  # By header and library, not by the packages' CMake files: Debian's name absolute paths, which
  # break where the packages are unpacked elsewhere (a machine without package access).
  foreach(codec IN ITEMS SNAPPY ZSTD ZLIB)
    if(codec STREQUAL "SNAPPY")
      set(header snappy-c.h)
      set(names snappy)
    elseif(codec STREQUAL "ZSTD")
      set(header zstd.h)
      set(names zstd)
    else()
      set(header zlib.h)
      set(names z zlib)
    endif()
    find_path(COLX_${codec}_INCLUDE_DIR ${header})
    find_library(COLX_${codec}_LIBRARY NAMES ${names})
    if(COLX_${codec}_INCLUDE_DIR AND COLX_${codec}_LIBRARY)
      target_link_libraries(${target} INTERFACE "${open}${COLX_${codec}_LIBRARY}${close}")
      target_compile_definitions(${target} INTERFACE "${open}COLX_WITH_${codec}${close}")
      if(NOT COLX_${codec}_INCLUDE_DIR IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
        target_include_directories(${target} INTERFACE "${open}${COLX_${codec}_INCLUDE_DIR}${close}")
      endif()
      list(APPEND found ${codec})
    endif()
  endforeach()
  # nvCOMP decompresses pages on the GPU; where it is missing the host's libraries do it. It comes
  # from pip (nvidia-libnvcomp-cu13, headers and libraries in the wheel), found through the Python
  # that has it, or from NVCOMP_ROOT / CMAKE_PREFIX_PATH.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(CUDA IN_LIST languages)
    set(hints "")
    find_package(Python3 QUIET COMPONENTS Interpreter)
    if(Python3_Interpreter_FOUND)
      execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import nvidia.libnvcomp as m, os; print(os.path.dirname(m.__file__))"
                      OUTPUT_VARIABLE wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
      if(rc EQUAL 0 AND EXISTS "${wheel}/lib64/cmake/nvcomp")
        list(APPEND hints "${wheel}/lib64/cmake/nvcomp")
      endif()
    endif()
    find_package(nvcomp CONFIG QUIET HINTS ${hints})
    if(TARGET nvcomp::nvcomp)
      target_link_libraries(${target} INTERFACE "${open}nvcomp::nvcomp${close}")
      target_compile_definitions(${target} INTERFACE "${open}COLX_WITH_NVCOMP${close}")
      list(APPEND found nvCOMP)
    endif()
  endif()
  message(STATUS "colx: Parquet decompressors found: ${found}")
endfunction()

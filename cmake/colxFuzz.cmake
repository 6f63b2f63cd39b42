# SPDX-License-Identifier: Apache-2.0
# What colx's libFuzzer projects (tests/interop/fuzz, tests/io/parquet/fuzz) share. Each is a
# project of its own, built with clang: include this after project(), then
# colx_add_fuzz_test(<target> <source> <test name>) builds the target with libFuzzer, ASan and
# UBSan against colx's headers, and adds a test that fuzzes for COLX_FUZZ_SECONDS (default 60, or
# the environment's) from the project's corpus/ (new inputs go to a corpus in the build tree).
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "${PROJECT_NAME} needs clang (libFuzzer, -fsanitize=fuzzer); ${CMAKE_CXX_COMPILER} is "
                      "${CMAKE_CXX_COMPILER_ID}. Configure with -DCMAKE_CXX_COMPILER=clang++-14 (Debian: "
                      "clang-14 and libclang-rt-14-dev).")
endif()

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)

if(DEFINED ENV{COLX_FUZZ_SECONDS})
  set(colx_fuzz_seconds_default "$ENV{COLX_FUZZ_SECONDS}")
else()
  set(colx_fuzz_seconds_default 60)
endif()
set(COLX_FUZZ_SECONDS "${colx_fuzz_seconds_default}" CACHE STRING "Seconds each fuzz test fuzzes for")
get_filename_component(colx_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
enable_testing()

function(colx_add_fuzz_test target source test_name)
  add_executable(${target} ${source})
  target_include_directories(${target} PRIVATE "${colx_root}/include" "${colx_root}/tests")
  set(flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1)
  target_compile_options(${target} PRIVATE ${flags})
  target_link_options(${target} PRIVATE ${flags})
  set(work_corpus "${CMAKE_CURRENT_BINARY_DIR}/corpus")  # (the checked-in seeds are only read)
  file(MAKE_DIRECTORY "${work_corpus}")
  add_test(NAME ${test_name}
           COMMAND ${target} -max_total_time=${COLX_FUZZ_SECONDS} -rss_limit_mb=2048 -print_final_stats=1
                   -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/ "${work_corpus}" "${CMAKE_CURRENT_SOURCE_DIR}/corpus")
  math(EXPR timeout "${COLX_FUZZ_SECONDS} + 120")
  set_tests_properties(${test_name} PROPERTIES TIMEOUT ${timeout} ENVIRONMENT "UBSAN_OPTIONS=print_stacktrace=1")
endfunction()

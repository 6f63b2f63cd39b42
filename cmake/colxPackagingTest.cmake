# Packaging tests, run by ctest as `cmake -D... -P colxPackagingTest.cmake` (see tests/CMakeLists.txt).
#
#   COLX_PKG_STEP=install           install the build tree into COLX_PKG_PREFIX (emptied first)
#   COLX_PKG_STEP=find_package      configure, build and run the consumer in COLX_PKG_CONSUMER_SOURCE
#                                   against the installed prefix
#   COLX_PKG_STEP=add_subdirectory  the same against the source tree
#
# COLX_PKG_SETTINGS names a file, written at configure time, with the generator, compiler, prefix
# path and source/binary dirs of the build under test.

cmake_minimum_required(VERSION 3.25)
include("${COLX_PKG_SETTINGS}")

function(colx_pkg_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "colx packaging test: ${what} failed (${rc})")
  endif()
endfunction()

set(config_args "")
if(COLX_PKG_BUILD_TYPE)
  set(config_args --config "${COLX_PKG_BUILD_TYPE}")
endif()

if(COLX_PKG_STEP STREQUAL "install")
  file(REMOVE_RECURSE "${COLX_PKG_PREFIX}")
  colx_pkg_run("install" "${CMAKE_COMMAND}" --install "${colx_binary_dir}" --prefix "${COLX_PKG_PREFIX}"
               ${config_args})
  return()
endif()

set(prefix_path "${colx_prefix_path}")
set(args "")
if(COLX_PKG_STEP STREQUAL "find_package")
  list(PREPEND prefix_path "${COLX_PKG_PREFIX}")
  list(APPEND args "-DCOLX_EXPECTED_PREFIX=${COLX_PKG_PREFIX}")
elseif(COLX_PKG_STEP STREQUAL "add_subdirectory")
  list(APPEND args "-DCOLX_SOURCE_DIR=${colx_source_dir}")
else()
  message(FATAL_ERROR "colx packaging test: unknown COLX_PKG_STEP '${COLX_PKG_STEP}'")
endif()
if(colx_make_program)
  list(APPEND args "-DCMAKE_MAKE_PROGRAM=${colx_make_program}")
endif()
if(COLX_PKG_BUILD_TYPE)
  list(APPEND args "-DCMAKE_BUILD_TYPE=${COLX_PKG_BUILD_TYPE}")
endif()

# A fresh consumer every time: it must not see a cache from an earlier colx. Its source folder is
# laid out as the README's: CMakeLists.txt and app.cpp side by side.
file(REMOVE_RECURSE "${COLX_PKG_CONSUMER_BINARY}")
set(consumer_source "${COLX_PKG_CONSUMER_BINARY}/source")
file(MAKE_DIRECTORY "${consumer_source}")
file(COPY "${COLX_PKG_CONSUMER_SOURCE}/CMakeLists.txt" "${COLX_PKG_CONSUMER_SOURCE}/../app.cpp"
     DESTINATION "${consumer_source}")
colx_pkg_run("configure of the ${COLX_PKG_STEP} consumer"
  "${CMAKE_COMMAND}" -S "${consumer_source}" -B "${COLX_PKG_CONSUMER_BINARY}/build"
  -G "${colx_generator}" "-DCMAKE_CXX_COMPILER=${colx_cxx_compiler}"
  "-DCMAKE_PREFIX_PATH=${prefix_path}" ${args})
colx_pkg_run("build of the ${COLX_PKG_STEP} consumer"
  "${CMAKE_COMMAND}" --build "${COLX_PKG_CONSUMER_BINARY}/build" ${config_args})

file(GLOB_RECURSE consumer LIST_DIRECTORIES false "${COLX_PKG_CONSUMER_BINARY}/build/app"
     "${COLX_PKG_CONSUMER_BINARY}/build/app.exe")
if(NOT consumer)
  message(FATAL_ERROR "colx packaging test: no app executable was built")
endif()
list(GET consumer 0 consumer)
colx_pkg_run("run of the ${COLX_PKG_STEP} consumer" "${consumer}")
message(STATUS "colx packaging test: ${COLX_PKG_STEP} consumer built and ran")

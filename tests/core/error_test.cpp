// SPDX-License-Identifier: Apache-2.0
// colx/core/error.hpp: the exception types, COLX_EXPECTS / COLX_FAIL and their messages; with CUDA,
// COLX_CUDA_TRY's mapping of runtime errors.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#if COLX_HAS_CUDA
#  include <colx/cuda.cuh>
#endif

namespace {

// What the macros append to every message: " (<file>:<line>)".
std::string location_suffix(int line) { return ":" + std::to_string(line) + ")"; }

bool ends_with(std::string const& s, std::string const& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

TEST_CASE("error: exception hierarchy", "[core]") {
  STATIC_REQUIRE(std::is_base_of_v<std::logic_error, colx::logic_error>);
  STATIC_REQUIRE(std::is_base_of_v<colx::logic_error, colx::schema_error>);
  STATIC_REQUIRE(std::is_base_of_v<colx::logic_error, colx::out_of_range>);
  STATIC_REQUIRE(std::is_base_of_v<std::runtime_error, colx::cuda_error>);
  STATIC_REQUIRE(std::is_base_of_v<std::bad_alloc, colx::out_of_memory>);
  STATIC_REQUIRE_FALSE(std::is_base_of_v<colx::out_of_range, colx::schema_error>);
  STATIC_REQUIRE_FALSE(std::is_base_of_v<colx::logic_error, colx::cuda_error>);

  // A generic handler catches each of them by its standard base.
  CHECK_THROWS_AS(throw colx::schema_error("s"), std::logic_error);
  CHECK_THROWS_AS(throw colx::out_of_range("r"), colx::logic_error);
  CHECK_THROWS_AS(throw colx::out_of_memory("m"), std::bad_alloc);
  CHECK_THROWS_AS(throw colx::cuda_error("c", 2), std::runtime_error);
}

TEST_CASE("error: out_of_memory and cuda_error keep their message and code", "[core]") {
  colx::out_of_memory const oom("no room for 42 bytes");
  CHECK(std::string(oom.what()) == "no room for 42 bytes");
  colx::out_of_memory const copy = oom;  // exceptions are copied when thrown
  CHECK(std::string(copy.what()) == "no room for 42 bytes");

  colx::cuda_error const error("launch failed", 719);
  CHECK(error.code() == 719);
  CHECK(std::string(error.what()) == "launch failed");
}

TEST_CASE("error: COLX_EXPECTS passes silently and evaluates the message only on failure", "[core]") {
  int condition_evaluations = 0;
  int message_evaluations = 0;
  auto condition = [&](bool value) {
    ++condition_evaluations;
    return value;
  };
  auto part = [&] {
    ++message_evaluations;
    return std::string("expensive part");
  };

  SECTION("a holding condition") {
    CHECK_NOTHROW([&] { COLX_EXPECTS(condition(true), "never built: ", part(), " ", part()); }());
    CHECK(condition_evaluations == 1);
    CHECK(message_evaluations == 0);
    for (int i = 0; i < 100; ++i) { COLX_EXPECTS(condition(i >= 0), part()); }
    CHECK(condition_evaluations == 101);
    CHECK(message_evaluations == 0);
  }
  SECTION("a failing condition") {
    CHECK_THROWS_AS([&] { COLX_EXPECTS(condition(false), "built once: ", part(), " and ", part()); }(), colx::logic_error);
    CHECK(condition_evaluations == 1);
    CHECK(message_evaluations == 2);
  }
}

TEST_CASE("error: COLX_EXPECTS message has the prefix, the parts and file:line", "[core]") {
  int line = 0;
  std::string message;
  try {
    line = __LINE__; COLX_EXPECTS(1 + 1 == 3, "length ", 7, " does not match ", std::string("size "), -12, ' ', 2.5);
  } catch (colx::logic_error const& e) {
    message = e.what();
  }
  REQUIRE(line != 0);
  CHECK(message.rfind("colx: length 7 does not match size -12 2.5 (", 0) == 0);
  CHECK_THAT(message, Catch::Contains("error_test.cpp:" + std::to_string(line)));
  CHECK(ends_with(message, location_suffix(line)));
}

TEST_CASE("error: COLX_EXPECTS_AS throws the named type", "[core]") {
  int line = 0;
  try {
    line = __LINE__; COLX_EXPECTS_AS(colx::out_of_range, false, "index ", 5, " of ", 3);
    FAIL("COLX_EXPECTS_AS did not throw");
  } catch (colx::out_of_range const& e) {
    CHECK(std::string(e.what()).rfind("colx: index 5 of 3 (", 0) == 0);
    CHECK(ends_with(e.what(), location_suffix(line)));
  }

  CHECK_THROWS_AS([&] { COLX_EXPECTS_AS(colx::schema_error, false, "x"); }(), colx::schema_error);
  CHECK_THROWS_WITH([&] { COLX_EXPECTS_AS(colx::schema_error, false, "column \"a\" is not int32"); }(),
                    Catch::Contains("column \"a\" is not int32"));
  // out_of_memory is no logic_error: it takes the message through its own constructor.
  CHECK_THROWS_AS([&] { COLX_EXPECTS_AS(colx::out_of_memory, false, "need ", 1024, " bytes"); }(), colx::out_of_memory);
  CHECK_THROWS_WITH([&] { COLX_EXPECTS_AS(colx::out_of_memory, false, "need ", 1024, " bytes"); }(),
                    Catch::StartsWith("colx: need 1024 bytes (") && Catch::Contains("error_test.cpp:"));
  CHECK_NOTHROW([&] { COLX_EXPECTS_AS(colx::out_of_memory, true, "unused"); }());
}

TEST_CASE("error: COLX_FAIL and COLX_FAIL_AS always throw", "[core]") {
  int line = 0;
  try {
    line = __LINE__; COLX_FAIL("unreachable state ", 3);
  } catch (colx::logic_error const& e) {
    CHECK(std::string(e.what()).rfind("colx: unreachable state 3 (", 0) == 0);
    CHECK_THAT(std::string(e.what()), Catch::Contains("error_test.cpp" + location_suffix(line)));
  }
  REQUIRE(line != 0);
  CHECK_THROWS_AS([&] { COLX_FAIL_AS(colx::schema_error, "bad schema"); }(), colx::schema_error);
  CHECK_THROWS_WITH([&] { COLX_FAIL_AS(colx::out_of_range, "row ", 9); }(), Catch::StartsWith("colx: row 9 ("));
}

TEST_CASE("error: the macros are single statements", "[core]") {
  // do { } while (0): usable as the body of an unbraced if/else.
  int branch = 0;
  bool const take_first = true;
  if (take_first)
    COLX_EXPECTS(branch == 0, "unexpected");
  else
    branch = 2;
  CHECK(branch == 0);
}

#if COLX_HAS_CUDA
namespace {
cudaError_t returns(cudaError_t status) { return status; }
}  // namespace

TEST_CASE("error: COLX_CUDA_TRY maps runtime errors", "[core][cuda]") {
  CHECK_NOTHROW([&] { COLX_CUDA_TRY(returns(cudaSuccess)); }());

  SECTION("cudaErrorMemoryAllocation is out_of_memory") {
    CHECK_THROWS_AS([&] { COLX_CUDA_TRY(returns(cudaErrorMemoryAllocation)); }(), colx::out_of_memory);
    CHECK_THROWS_WITH([&] { COLX_CUDA_TRY(returns(cudaErrorMemoryAllocation)); }(),
                      Catch::Contains("cudaErrorMemoryAllocation") && Catch::Contains("error_test.cpp:"));
  }
  SECTION("anything else is cuda_error with the code and the failing call") {
    try {
      COLX_CUDA_TRY(returns(cudaErrorInvalidValue));
      FAIL("COLX_CUDA_TRY did not throw");
    } catch (colx::cuda_error const& e) {
      CHECK(e.code() == static_cast<int>(cudaErrorInvalidValue));
      CHECK_THAT(std::string(e.what()), Catch::Contains("returns(cudaErrorInvalidValue)") &&
                                            Catch::Contains("cudaErrorInvalidValue") &&
                                            Catch::Contains("error_test.cpp:"));
    }
  }
  SECTION("a real failing call leaves no error behind for the next call") {
    int count = 0;
    REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
    CHECK_THROWS_AS([&] { COLX_CUDA_TRY(cudaSetDevice(count + 7)); }(), colx::cuda_error);
    CHECK(cudaGetLastError() == cudaSuccess);
  }
}
#endif

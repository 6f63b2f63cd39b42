// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exceptions and the checks that throw them. Messages are assembled only on failure, so a check
// on a hot host path costs one branch.
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace colx {

// A caller broke a precondition: wrong length, bad index, impossible argument.
class logic_error : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// A value does not have the type or shape the caller asked for (a checked cast, a schema).
class schema_error : public logic_error {
 public:
  using logic_error::logic_error;
};

// An index or range lies outside a column, buffer or table.
class out_of_range : public logic_error {
 public:
  using logic_error::logic_error;
};

// The CUDA runtime reported an error other than running out of memory.
class cuda_error : public std::runtime_error {
 public:
  cuda_error(std::string const& what, int code) : std::runtime_error(what), _code(code) {}
  [[nodiscard]] int code() const noexcept { return _code; }

 private:
  int _code;
};

// An allocation failed or would exceed a limit. A std::bad_alloc, so generic handlers catch it.
class out_of_memory : public std::bad_alloc {
 public:
  explicit out_of_memory(std::string what) : _what(std::move(what)) {}
  [[nodiscard]] char const* what() const noexcept override { return _what.c_str(); }

 private:
  std::string _what;
};

namespace detail {

template <class Exception, class... Parts>
[[noreturn]] void throw_error(char const* file, int line, Parts const&... parts) {
  std::ostringstream message;
  message << "colx: ";
  (message << ... << parts);
  message << " (" << file << ':' << line << ')';
  throw Exception(message.str());
}

}  // namespace detail
}  // namespace colx

// COLX_EXPECTS(condition, message parts...): throws colx::logic_error unless condition holds.
#define COLX_EXPECTS(condition, ...) COLX_EXPECTS_AS(::colx::logic_error, condition, __VA_ARGS__)

// COLX_EXPECTS_AS(exception type, condition, message parts...)
#define COLX_EXPECTS_AS(exception, condition, ...)                                 \
  do {                                                                             \
    if (!(condition)) [[unlikely]] {                                               \
      ::colx::detail::throw_error<exception>(__FILE__, __LINE__, __VA_ARGS__);     \
    }                                                                              \
  } while (0)

// COLX_FAIL(message parts...) and COLX_FAIL_AS(exception type, message parts...)
#define COLX_FAIL(...) ::colx::detail::throw_error<::colx::logic_error>(__FILE__, __LINE__, __VA_ARGS__)
#define COLX_FAIL_AS(exception, ...) ::colx::detail::throw_error<exception>(__FILE__, __LINE__, __VA_ARGS__)

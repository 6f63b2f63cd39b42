// SPDX-License-Identifier: Apache-2.0
#pragma once
// Process-wide switches for the buffer policies (copy-on-write, spilling), read once from the
// environment and changeable through the API, as cuDF's options. A scoped_option restores the
// previous value when it leaves scope, so tests and libraries can change a switch locally.
#include <colx/core/error.hpp>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace colx {
namespace detail {

// "1", "on", "true", "yes" (any case) are true; "0", "off", "false", "no" and unset are false.
inline bool env_flag(char const* name) {
  char const* value = std::getenv(name);
  if (value == nullptr) { return false; }
  std::string_view v = value;
  auto const is = [&](std::string_view word) {
    if (v.size() != word.size()) { return false; }
    for (std::size_t i = 0; i < v.size(); ++i) {
      if ((v[i] | 0x20) != word[i]) { return false; }
    }
    return true;
  };
  if (is("1") || is("on") || is("true") || is("yes")) { return true; }
  COLX_EXPECTS(v.empty() || is("0") || is("off") || is("false") || is("no"), "environment variable ", name, "=\"",
               v, "\" is neither on (1, on, true, yes) nor off (0, off, false, no)");
  return false;
}

// A byte count with an optional binary suffix: "512", "64KiB", "8MiB", "2GiB" (K/M/G alone too).
inline std::optional<std::size_t> parse_bytes(std::string_view text, char const* what) {
  std::size_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    std::size_t const digit = static_cast<std::size_t>(text[i] - '0');
    COLX_EXPECTS(value <= (~std::size_t{0} - digit) / 10, what, "=\"", text, "\" is too large");
    value = value * 10 + digit;
  }
  COLX_EXPECTS(i > 0, what, "=\"", text, "\" is not a byte count (for example 512, 64MiB, 2GiB)");
  std::string_view const suffix = text.substr(i);
  std::size_t scale = 1;
  if (suffix.empty() || suffix == "B") {
  } else if (suffix == "K" || suffix == "KiB") {
    scale = std::size_t{1} << 10;
  } else if (suffix == "M" || suffix == "MiB") {
    scale = std::size_t{1} << 20;
  } else if (suffix == "G" || suffix == "GiB") {
    scale = std::size_t{1} << 30;
  } else {
    COLX_FAIL(what, "=\"", text, "\" has an unknown unit \"", suffix, "\" (use B, KiB, MiB or GiB)");
  }
  COLX_EXPECTS(value <= ~std::size_t{0} / scale, what, "=\"", text, "\" is too large");
  return value * scale;
}

inline std::optional<std::size_t> env_bytes(char const* name) {
  char const* value = std::getenv(name);
  if (value == nullptr || *value == '\0') { return std::nullopt; }
  return parse_bytes(value, name);
}

inline int env_level(char const* name, int max_level) {
  char const* value = std::getenv(name);
  if (value == nullptr || *value == '\0') { return 0; }
  std::string_view const v = value;
  COLX_EXPECTS(v.size() == 1 && v[0] >= '0' && v[0] - '0' <= max_level, name, "=\"", v, "\" is not a level from 0 to ",
               max_level);
  return v[0] - '0';
}

inline std::atomic<bool>& copy_on_write_flag() {
  static std::atomic<bool> flag{env_flag("COLX_COPY_ON_WRITE")};
  return flag;
}

}  // namespace detail

// Copy-on-write (COLX_COPY_ON_WRITE): a write through one shallow copy never shows in another.
// Off, shallow copies are views of the same memory, as pandas' and cuDF's without it.
[[nodiscard]] inline bool copy_on_write() noexcept { return detail::copy_on_write_flag().load(std::memory_order_relaxed); }
// Returns the previous setting.
inline bool set_copy_on_write(bool on) noexcept { return detail::copy_on_write_flag().exchange(on); }

// Sets a switch for the lifetime of the object: scoped_option cow(set_copy_on_write, true).
class scoped_option {
 public:
  scoped_option(bool (*set)(bool) noexcept, bool value) : _set(set), _previous(set(value)) {}
  scoped_option(scoped_option const&) = delete;
  scoped_option& operator=(scoped_option const&) = delete;
  ~scoped_option() { _set(_previous); }

 private:
  bool (*_set)(bool) noexcept;
  bool _previous;
};

}  // namespace colx

// SPDX-License-Identifier: Apache-2.0
#pragma once
// A single value that may be null: what reductions return and fills take. scalar<T> is
// trivially copyable and passes by value into kernels; any_scalar is its run-time typed twin.
#include <colx/core/config.hpp>
#include <colx/core/error.hpp>
#include <colx/types/data_type.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <utility>

namespace colx {

// Read it like std::optional: has_value(), value() (checked: throws colx::logic_error when null),
// value_or(x), *s (unchecked; a null scalar holds T{}). There is deliberately no operator bool:
// for scalar<bool>, which any() and all() return, `if (s)` would ask "is it valid?" where the
// reader means "is it true?" (std::optional<bool>'s old trap), so say has_value() or *s.
template <class T>
class scalar {
 public:
  using value_type = T;

  constexpr scalar() noexcept = default;
  constexpr COLX_HOST_DEVICE scalar(T v) noexcept : _value(v), _valid(true) {}  // NOLINT: a value is a valid scalar

  [[nodiscard]] constexpr COLX_HOST_DEVICE bool has_value() const noexcept { return _valid; }
  [[nodiscard]] constexpr COLX_HOST_DEVICE bool is_valid() const noexcept { return _valid; }

  // Host only: a kernel cannot throw, so device code tests has_value() and reads *s.
  [[nodiscard]] constexpr T value() const {
    if (!_valid) {
      COLX_FAIL("scalar::value(): the scalar is null (an aggregate of no rows, or of nulls only); test has_value() or "
                "use value_or()");
    }
    return _value;
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE T operator*() const noexcept { return _value; }
  template <class U>
  [[nodiscard]] constexpr COLX_HOST_DEVICE T value_or(U&& fallback) const {
    return _valid ? _value : static_cast<T>(std::forward<U>(fallback));
  }
  [[nodiscard]] std::optional<T> to_optional() const { return _valid ? std::optional<T>(_value) : std::nullopt; }

  friend constexpr bool operator==(scalar const& a, scalar const& b) noexcept {
    return a._valid == b._valid && (!a._valid || a._value == b._value);
  }

 private:
  T _value{};  // T{} while null, so *s on a null scalar is defined
  bool _valid = false;
};

// A null scalar of T.
template <class T>
[[nodiscard]] constexpr scalar<T> null_scalar() noexcept {
  return {};
}

class any_scalar {
 public:
  any_scalar() = default;
  template <class T>
    requires fixed_width_element<T>
  any_scalar(scalar<T> const& s, std::int32_t scale = 0)  // NOLINT
      : _type(data_type_of<T>(scale)), _valid(s.has_value()) {
    static_assert(sizeof(T) <= sizeof(_storage), "a fixed-width element must fit an any_scalar");
    T const v = *s;
    std::memcpy(_storage, &v, sizeof(T));
  }
  // A string scalar; std::nullopt is null.
  explicit any_scalar(std::optional<std::string> s) : _type(type_id::string), _valid(s.has_value()), _string(s.value_or("")) {}

  [[nodiscard]] data_type type() const noexcept { return _type; }
  [[nodiscard]] bool is_valid() const noexcept { return _valid; }

  // Checked: throws schema_error unless the scalar holds T.
  template <class T>
  [[nodiscard]] scalar<T> as() const {
    static_assert(fixed_width_element<T>, "any_scalar::as<T>() needs a fixed-width T; use as_string() for strings");
    COLX_EXPECTS_AS(schema_error, _type.id() == type_to_id<T>, "scalar has type ", _type.to_string(),
                    ", not the requested ", to_string(type_to_id<T>));
    if (!_valid) { return scalar<T>{}; }
    T v{};
    std::memcpy(&v, _storage, sizeof(T));
    return scalar<T>(v);
  }
  [[nodiscard]] std::optional<std::string> as_string() const {
    COLX_EXPECTS_AS(schema_error, _type.id() == type_id::string, "scalar has type ", _type.to_string(), ", not string");
    return _valid ? std::optional<std::string>(_string) : std::nullopt;
  }

 private:
  data_type _type{};
  bool _valid = false;
  alignas(16) unsigned char _storage[16]{};
  std::string _string;
};

}  // namespace colx

// SPDX-License-Identifier: Apache-2.0
#pragma once
// A single value that may be null: what reductions return and fills take. scalar<T> is
// trivially copyable and passes by value into kernels; any_scalar is its run-time typed twin.
#include <colx/core/error.hpp>
#include <colx/types/data_type.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <utility>

namespace colx {

template <class T>
struct scalar {
  T value{};
  bool valid = false;

  constexpr scalar() noexcept = default;
  constexpr COLX_HOST_DEVICE scalar(T v) noexcept : value(v), valid(true) {}  // NOLINT: a value is a valid scalar

  [[nodiscard]] constexpr COLX_HOST_DEVICE bool is_valid() const noexcept { return valid; }
  [[nodiscard]] std::optional<T> to_optional() const { return valid ? std::optional<T>(value) : std::nullopt; }
  friend constexpr bool operator==(scalar const& a, scalar const& b) noexcept {
    return a.valid == b.valid && (!a.valid || a.value == b.value);
  }
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
      : _type(data_type_of<T>(scale)), _valid(s.valid) {
    static_assert(sizeof(T) <= sizeof(_storage), "a fixed-width element must fit an any_scalar");
    std::memcpy(_storage, &s.value, sizeof(T));
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
    scalar<T> out;
    std::memcpy(&out.value, _storage, sizeof(T));
    out.valid = _valid;
    return out;
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

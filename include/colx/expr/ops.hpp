// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise operations, as stateless functors usable on host and device. An op may make
// a valid input null (integer division by zero): it then has `produces_nulls` and reports through
// its `valid` out-parameter.
#include <colx/core/config.hpp>
#include <colx/core/integer_values.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/dec.hpp>
#include <colx/expr/ops_bits.hpp>
#include <colx/expr/ops_date_math.hpp>
#include <colx/expr/ops_dates.hpp>
#include <colx/expr/ops_strings.hpp>
#include <colx/expr/ops_text.hpp>
#include <colx/expr/ops_text_cast.hpp>
#include <colx/types/string_view.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace colx::expr::ops {

namespace detail {
// Signed integer overflow is undefined in C++; Arrow's unchecked kernels wrap. So do we: compute
// in the unsigned type, whose conversion back is modular since C++20.
template <class R, class F>
constexpr COLX_HOST_DEVICE R wrapping(R a, R b, F f) {
  if constexpr (std::is_integral_v<R> && std::is_signed_v<R> && !std::is_same_v<R, bool>) {
    using U = std::make_unsigned_t<R>;
    return static_cast<R>(f(static_cast<U>(a), static_cast<U>(b)));
  } else {
    return f(a, b);
  }
}
// numeric_limits<R>::min() is host-only without --expt-relaxed-constexpr.
template <class R>
constexpr COLX_HOST_DEVICE R signed_min() {
  return static_cast<R>(static_cast<std::make_unsigned_t<R>>(1) << (sizeof(R) * 8 - 1));
}
// Integers of different signedness (core/integer_values.hpp): C++ would convert the signed one to
// unsigned (uint32 + int32 is uint32, and -1 > 0u), which SQL, Arrow, cuDF and pandas users read
// as wrong.
using colx::mixed_sign;
template <std::size_t Bytes>
using signed_of_size = std::conditional_t<Bytes <= 4, int, std::int64_t>;
// The arithmetic result of A and B: C++'s usual one, except for integers of different
// signedness, which get a signed type holding both (uint32 with int32: int64, as Arrow and
// DuckDB); uint64 with a signed integer is int64 (values beyond int64 wrap). Same-type overflow
// wraps (see wrapping).
template <class A, class B>
struct arithmetic_result_of {
  using type = decltype(std::declval<A>() + std::declval<B>());
};
template <class A, class B>
  requires mixed_sign<A, B>
struct arithmetic_result_of<A, B> {
  using unsigned_t = std::conditional_t<std::is_signed_v<A>, B, A>;
  using signed_t = std::conditional_t<std::is_signed_v<A>, A, B>;
  static constexpr std::size_t bytes = 2 * sizeof(unsigned_t) > sizeof(signed_t) ? 2 * sizeof(unsigned_t) : sizeof(signed_t);
  using type = signed_of_size<bytes>;
};
template <class A, class B>
using arithmetic_result = typename arithmetic_result_of<A, B>::type;
// A decimal operand (types/dec.hpp): its operators give SQL's result types.
template <class A, class B>
concept decimal_operand = dec_type<A> || dec_type<B>;
// A duration times an integer (either way round): the duration, its ticks multiplied and wrapping
// as integers do. Durations times anything else do not compile.
template <class A, class B>
constexpr COLX_HOST_DEVICE auto scaled_duration(A a, B b) {
  if constexpr (duration_type<B> && !duration_type<A>) {
    return scaled_duration(b, a);
  } else {
    static_assert(duration_type<A> && std::is_integral_v<B> && !std::is_same_v<B, bool>,
                  "colx: a duration multiplies only by an integer (and two durations do not multiply)");
    using R = typename A::rep;
    auto const ticks = wrapping<std::int64_t>(static_cast<std::int64_t>(a.ticks), static_cast<std::int64_t>(b),
                                              [](auto x, auto y) { return x * y; });
    return A(static_cast<R>(ticks));
  }
}
// Decimal results whose precision the cap at 38 digits cut, which alone can overflow.
template <class A, class B>
inline constexpr bool capped_decimal_sum = false;
template <class A, class B>
  requires colx::detail::dec_operands<A, B>
inline constexpr bool capped_decimal_sum<A, B> = colx::detail::sum_capped<colx::detail::as_dec<A>, colx::detail::as_dec<B>>;
template <class A, class B>
inline constexpr bool capped_decimal_product = false;
template <class A, class B>
  requires colx::detail::dec_operands<A, B>
inline constexpr bool capped_decimal_product<A, B> =
    colx::detail::product_capped<colx::detail::as_dec<A>, colx::detail::as_dec<B>>;
// decimal32/64/128 carry no scale in the type: arithmetic or comparison on them would work on
// unscaled integers (1.50 at scale 2 against 1.000 at scale 3 compared 150 with 1000).
template <class A, class B>
constexpr COLX_HOST_DEVICE bool neither_runtime_scaled() {
  static_assert(!is_runtime_scaled_decimal<A> && !is_runtime_scaled_decimal<B>,
                "colx: a decimal32/64/128 column's scale is known only at run time, so expressions cannot compute "
                "with it: declare the field as colx::dec<P, S> (SQL's DECIMAL(P, S))");
  return true;
}

// Comparisons by value, as std::cmp_equal and std::cmp_less (host and device).
template <class A, class B>
constexpr COLX_HOST_DEVICE bool value_equal(A a, B b) {
  if constexpr (mixed_sign<A, B>) {
    return equal_by_value(a, b);
  } else if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
    using R = arithmetic_result<A, B>;
    return static_cast<R>(a) == static_cast<R>(b);
  } else {
    return a == b;
  }
}
template <class A, class B>
constexpr COLX_HOST_DEVICE bool value_less(A a, B b) {
  if constexpr (mixed_sign<A, B>) {
    return less_by_value(a, b);
  } else if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
    using R = arithmetic_result<A, B>;
    return static_cast<R>(a) < static_cast<R>(b);
  } else {
    return a < b;
  }
}
template <class A, class B>
constexpr COLX_HOST_DEVICE bool value_less_equal(A a, B b) {
  if constexpr (mixed_sign<A, B>) {
    return !value_less(b, a);  // integers: no NaN
  } else if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
    using R = arithmetic_result<A, B>;
    return static_cast<R>(a) <= static_cast<R>(b);
  } else {
    return a <= b;
  }
}
}  // namespace detail

// + - *: integers wrap within their type; a decimal result whose precision SQL capped at 38 digits
// is checked, and is null where it does not fit (types/dec.hpp), where DuckDB raises an error.
struct add {
  static constexpr char const* symbol = "+";
  static constexpr bool produces_nulls = true;
  template <class A, class B>
  static constexpr bool nulls_for = detail::capped_decimal_sum<A, B>;
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto apply(A a, B b, bool& valid) {
    static_assert(detail::neither_runtime_scaled<A, B>());
    if constexpr (nulls_for<A, B>) {
      return colx::detail::checked_add<colx::detail::as_dec<A>, colx::detail::as_dec<B>, false>(
          colx::detail::to_dec(a), colx::detail::to_dec(b), valid);
    } else if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
      using R = detail::arithmetic_result<A, B>;
      return detail::wrapping<R>(a, b, [](auto x, auto y) { return x + y; });
    } else {
      return a + b;  // decimals; timestamp + duration, duration + duration
    }
  }
};
struct sub {
  static constexpr char const* symbol = "-";
  static constexpr bool produces_nulls = true;
  template <class A, class B>
  static constexpr bool nulls_for = detail::capped_decimal_sum<A, B>;
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto apply(A a, B b, bool& valid) {
    static_assert(detail::neither_runtime_scaled<A, B>());
    if constexpr (nulls_for<A, B>) {
      return colx::detail::checked_add<colx::detail::as_dec<A>, colx::detail::as_dec<B>, true>(
          colx::detail::to_dec(a), colx::detail::to_dec(b), valid);
    } else if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
      using R = detail::arithmetic_result<A, B>;
      return detail::wrapping<R>(a, b, [](auto x, auto y) { return x - y; });
    } else {
      return a - b;
    }
  }
};
struct mul {
  static constexpr char const* symbol = "*";
  static constexpr bool produces_nulls = true;
  template <class A, class B>
  static constexpr bool nulls_for = detail::capped_decimal_product<A, B>;
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto apply(A a, B b, bool& valid) {
    static_assert(detail::neither_runtime_scaled<A, B>());
    if constexpr (nulls_for<A, B>) {
      return colx::detail::checked_mul(colx::detail::to_dec(a), colx::detail::to_dec(b), valid);
    } else if constexpr (detail::decimal_operand<A, B>) {
      return a * b;
    } else if constexpr (duration_type<A> || duration_type<B>) {
      return detail::scaled_duration(a, b);
    } else {
      using R = detail::arithmetic_result<A, B>;
      return detail::wrapping<R>(a, b, [](auto x, auto y) { return x * y; });
    }
  }
};
// Integer division by zero is null, not a crash; the one overflowing quotient (min / -1) wraps.
struct div {
  static constexpr char const* symbol = "/";
  static constexpr bool produces_nulls = true;
  template <class A, class B>  // only integer division can fail; floats give inf or nan
  static constexpr bool nulls_for = !detail::decimal_operand<A, B> && std::is_integral_v<detail::arithmetic_result<A, B>>;
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto apply(A a, B b, bool& valid) {
    static_assert(detail::neither_runtime_scaled<A, B>());
    if constexpr (detail::decimal_operand<A, B>) {
      (void)valid;
      return a / b;  // a double, as DuckDB
    } else {
      return integer_or_float(a, b, valid);
    }
  }

 private:
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto integer_or_float(A a, B b, bool& valid) {
    using R = detail::arithmetic_result<A, B>;
    if constexpr (std::is_integral_v<R>) {
      if (b == 0) {
        valid = false;
        return R{0};
      }
      if constexpr (std::is_signed_v<R>) {
        if (static_cast<R>(a) == detail::signed_min<R>() && static_cast<R>(b) == R{-1}) { return static_cast<R>(a); }
      }
      return static_cast<R>(static_cast<R>(a) / static_cast<R>(b));
    } else {
      return static_cast<R>(a) / static_cast<R>(b);
    }
  }
};
// Remainder with the sign of the dividend (C++'s %); fmod for floating point. x % 0 is null.
struct mod {
  static constexpr char const* symbol = "%";
  static constexpr bool produces_nulls = true;
  template <class A, class B>
  static constexpr bool nulls_for = std::is_integral_v<detail::arithmetic_result<A, B>>;
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto apply(A a, B b, bool& valid) {
    static_assert(detail::neither_runtime_scaled<A, B>());
    static_assert(!detail::decimal_operand<A, B>, "colx: % is not defined for decimals yet; cast to an integer or a double");
    using R = detail::arithmetic_result<A, B>;
    if constexpr (std::is_integral_v<R>) {
      if (b == 0) {
        valid = false;
        return R{0};
      }
      if constexpr (std::is_signed_v<R>) {
        if (static_cast<R>(b) == R{-1}) { return R{0}; }
      }
      return static_cast<R>(static_cast<R>(a) % static_cast<R>(b));
    } else {
      return static_cast<R>(std::fmod(static_cast<R>(a), static_cast<R>(b)));
    }
  }
};

// Comparisons compare values (NaN compares unequal and unordered, as IEEE): integers of
// different signedness too (-1 < 0u).
#define COLX_COMPARISON(Name, Symbol, Expression)             \
  struct Name {                                               \
    static constexpr char const* symbol = Symbol;             \
    template <class A, class B>                               \
    static constexpr COLX_HOST_DEVICE bool apply(A a, B b) {  \
      static_assert(detail::neither_runtime_scaled<A, B>());  \
      return Expression;                                      \
    }                                                         \
  };
COLX_COMPARISON(equal, "==", detail::value_equal(a, b))
COLX_COMPARISON(not_equal, "!=", !detail::value_equal(a, b))
COLX_COMPARISON(less, "<", detail::value_less(a, b))
COLX_COMPARISON(less_equal, "<=", detail::value_less_equal(a, b))
COLX_COMPARISON(greater, ">", detail::value_less(b, a))
COLX_COMPARISON(greater_equal, ">=", detail::value_less_equal(b, a))
#undef COLX_COMPARISON

struct pow {
  static constexpr char const* symbol = "pow";
  template <class A, class B>
  static COLX_HOST_DEVICE double apply(A a, B b) { return ::pow(static_cast<double>(a), static_cast<double>(b)); }
};

// ---- unary ----------------------------------------------------------------------------------

struct negate {
  static constexpr char const* symbol = "-";
  template <class A>
  static constexpr COLX_HOST_DEVICE auto apply(A a) {
    using R = decltype(-a);
    return detail::wrapping<R>(R{0}, static_cast<R>(a), [](auto x, auto y) { return x - y; });
  }
};
struct bit_not {
  static constexpr char const* symbol = "~";
  template <class A>
  static constexpr COLX_HOST_DEVICE auto apply(A a) {
    static_assert(std::is_integral_v<A> && !std::is_same_v<A, bool>, "colx: ~ needs an integer column");
    return ~a;
  }
};
struct abs {
  static constexpr char const* symbol = "abs";
  template <class A>
  static COLX_HOST_DEVICE auto apply(A a) {
    if constexpr (std::is_same_v<A, float>) {  // clears the sign bit: abs(-0.0) is +0.0
      return ::fabsf(a);
    } else if constexpr (std::is_floating_point_v<A>) {
      return ::fabs(a);
    } else {
      return a < 0 ? negate::apply(a) : static_cast<decltype(negate::apply(a))>(a);
    }
  }
};

#define COLX_FLOAT_FUNCTION(Name, Call)                                                    \
  struct Name {                                                                            \
    static constexpr char const* symbol = #Name;                                           \
    template <class A>                                                                     \
    static COLX_HOST_DEVICE auto apply(A a) {                                              \
      static_assert(std::is_arithmetic_v<A>, "colx: " #Name " needs a numeric column");    \
      if constexpr (std::is_same_v<A, float>) {                                            \
        return static_cast<float>(::Call(a));                                              \
      } else {                                                                             \
        return ::Call(static_cast<double>(a));                                             \
      }                                                                                    \
    }                                                                                      \
  };
COLX_FLOAT_FUNCTION(sqrt, sqrt)
COLX_FLOAT_FUNCTION(exp, exp)
COLX_FLOAT_FUNCTION(log, log)
COLX_FLOAT_FUNCTION(floor, floor)
COLX_FLOAT_FUNCTION(ceil, ceil)
COLX_FLOAT_FUNCTION(round, round)
#undef COLX_FLOAT_FUNCTION

// cast<T>(a). A floating-point value cast to an integer type truncates toward zero, as C++ and
// Arrow (round(a) first to round half away from zero); one the type cannot hold (NaN, infinity,
// out of range) is null, where C++'s conversion is undefined and DuckDB's an error.
template <class T>
struct cast {
  static constexpr char const* symbol = "cast";
  static constexpr bool produces_nulls = true;
  template <class A>
  static constexpr bool nulls_for = (std::is_floating_point_v<A> && plain_integer<T>) || dec_type<T> || (dec_type<A> && plain_integer<T>) ||
                                    std::is_same_v<A, string_view>;
  template <class A>
  static constexpr COLX_HOST_DEVICE T apply(A a, bool& valid) {
    static_assert(!is_runtime_scaled_decimal<A> && !is_runtime_scaled_decimal<T>,
                  "colx: cast needs a decimal's scale in its type: declare the field as colx::dec<P, S>");
    if constexpr (std::is_same_v<A, string_view>) {
      return detail::parse_text<T>(a, valid);
    } else if constexpr (dec_type<T> || dec_type<A>) {
      return colx::detail::cast_decimal<T>(a, valid);
    } else if constexpr (nulls_for<A>) {
      // |truncated a| < 2^digits: exact bounds as doubles (2^63 for int64, 2^64 for uint64).
      constexpr double bound = static_cast<double>(T{1} << (std::numeric_limits<T>::digits - 1)) * 2.0;
      constexpr double lowest = std::is_signed_v<T> ? -bound : 0.0;
      double const t = static_cast<double>(a) < 0 ? std::ceil(static_cast<double>(a)) : std::floor(static_cast<double>(a));
      if (!(t >= lowest && t < bound)) {  // NaN fails both
        valid = false;
        return T{};
      }
      return static_cast<T>(t);
    } else {
      return apply(a);
    }
  }
  template <class A>
  static constexpr COLX_HOST_DEVICE T apply(A a) {
    if constexpr (detail::calendar_value<A> && detail::calendar_value<T>) {
      return detail::convert_unit<T>(a);
    } else if constexpr (requires { a.ticks; } && std::is_arithmetic_v<T>) {
      return static_cast<T>(a.ticks);
    } else if constexpr (requires { T::unit; } && std::is_arithmetic_v<A>) {
      return T(static_cast<typename T::rep>(a));
    } else {
      return static_cast<T>(a);
    }
  }
};

// cast<string_view>(a): a's text, a computed string (see ops_text_cast.hpp).
template <>
struct cast<string_view> {
  static constexpr char const* symbol = "cast";
  static constexpr bool takes_computed_strings = true;
  template <class A>
  static constexpr COLX_HOST_DEVICE auto apply(A a) {
    return detail::format_text(a);
  }
};

}  // namespace colx::expr::ops

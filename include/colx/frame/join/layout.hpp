// SPDX-License-Identifier: Apache-2.0
#pragma once
// A join's output schema, as pandas' merge: the left's columns, then the right's, a key named
// alike on both sides kept once, and suffixes on other clashing names (see frame/join.hpp).
#include <colx/core/integer_values.hpp>
#include <colx/expr/ops.hpp>
#include <colx/frame/join/options.hpp>
#include <colx/types/schema.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace colx::detail {

template <class Field, bool MakeNullable>
using maybe_nullable_field = field<Field::name, typename Field::type, (MakeNullable || Field::is_nullable) ? nullable : not_null>;

// Keys of two types join by value when they are the same type, or integers of any widths and
// signedness that one integer type holds (int32 with int64, uint32 with int32: as DuckDB, not as
// C++, where -1 == 4294967295u). uint64 with a signed key has no such type.
template <class A, class B>
inline constexpr bool keys_join_by_value =
    std::is_same_v<A, B> || (plain_integer<A> && plain_integer<B> &&
                             !(mixed_sign<A, B> && (std::is_unsigned_v<A> ? sizeof(A) : sizeof(B)) == 8));

// The type of a key written from either side (right and full joins write a shared key from the
// build row where no probe row matched): one holding both sides' values.
template <class A, class B>
struct key_union {
  static_assert(!(dictionary_type<A> || dictionary_type<B>) || std::is_same_v<A, B>,
                "colx::join: a right or full join writes a key named alike on both sides into one column, so a "
                "dictionary key needs a dictionary key of the same type on the other side (and the same dictionary); "
                "decode it (colx::decode) or rename one side's key");
  using type = A;
};
template <class A, class B>
  requires(!std::is_same_v<A, B> && plain_integer<A> && plain_integer<B>)
struct key_union<A, B> {
  using type = std::conditional_t<mixed_sign<A, B>, expr::ops::detail::arithmetic_result<A, B>,
                                  std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>>;
};

// Both sides' key columns agree in number and, pair by pair, in type (join_rows checks only this).
template <class ProbeSchema, class BuildSchema, class LeftKeys, class RightKeys>
struct join_key_check;
template <class... P, class... B, class... L, class... R>
struct join_key_check<schema<P...>, schema<B...>, join_keys<L...>, join_keys<R...>> {
  static_assert(sizeof...(L) == sizeof...(R), "colx::join: both sides need the same number of key columns");
  static_assert((keys_join_by_value<value_of_t<typename field_of<schema<P...>, L>::type::type>,
                                    value_of_t<typename field_of<schema<B...>, R>::type::type>> && ...),
                "colx::join: a left key and its right key have types that do not compare by value (integers of "
                "any widths join, but a uint64 key only with an unsigned one; other types must match); cast one "
                "side first, e.g. with_columns(cast<std::int64_t>(\"k\"_c).as<\"k\">()); the context shows both "
                "schemas and the key columns");
  static constexpr bool ok = true;
};

// Positions of the elements of `flags` that are set, padded to one element.
template <std::size_t Count, std::size_t N>
constexpr auto positions_of(std::array<bool, N> const& flags) {
  std::array<std::size_t, Count == 0 ? 1 : Count> out{};
  std::size_t k = 0;
  for (std::size_t j = 0; j < N; ++j) {
    if (flags[j]) { out[k++] = j; }
  }
  return out;
}

template <join_kind How, class ProbeSchema, class BuildSchema, class LeftKeys, class RightKeys, class Suffixes>
struct join_layout;
template <join_kind How, class... P, class... B, class... L, class... R, class Suffixes>
struct join_layout<How, schema<P...>, schema<B...>, join_keys<L...>, join_keys<R...>, Suffixes> {
  static_assert(join_key_check<schema<P...>, schema<B...>, join_keys<L...>, join_keys<R...>>::ok);
  using probe_schema = schema<P...>;
  using build_schema = schema<B...>;
  template <std::size_t I>
  using build_at = typename build_schema::template field_at<I>;
  static constexpr bool keeps_build = How != join_kind::semi && How != join_kind::anti;
  // Right and full joins write a shared key from the build row where there is no probe row.
  static constexpr bool coalesces = How == join_kind::right || How == join_kind::full;

  // A column that is a right key paired with a left key of its own name: written once.
  template <class F>
  static constexpr bool shared_key = ((F::name.view() == R::name.view() && R::name.view() == L::name.view()) || ...);
  template <class F>
  static constexpr bool kept = keeps_build && !shared_key<F>;

  static constexpr std::size_t build_count = (std::size_t{0} + ... + (kept<B> ? 1 : 0));
  static constexpr std::size_t shared_count = (std::size_t{0} + ... + (shared_key<B> ? 1 : 0));
  struct positions {
    static constexpr auto kept_columns = positions_of<build_count>(std::array<bool, sizeof...(B)>{kept<B>...});
    static constexpr auto shared_columns = positions_of<shared_count>(std::array<bool, sizeof...(B)>{shared_key<B>...});
  };
  template <class Seq>
  struct sequences_of;
  template <std::size_t... I>
  struct sequences_of<std::index_sequence<I...>> {
    using kept = std::index_sequence<positions::kept_columns[I]...>;
  };
  template <std::size_t... I>
  struct shared_sequences_of {
    using build = std::index_sequence<positions::shared_columns[I]...>;
    // Where the probe side holds each of those keys (of the same name).
    using probe = std::index_sequence<probe_schema::template index_of<build_at<positions::shared_columns[I]>>...>;
  };
  template <std::size_t... I>
  static auto shared_sequences(std::index_sequence<I...>) -> shared_sequences_of<I...>;
  using kept_build = typename sequences_of<std::make_index_sequence<build_count>>::kept;
  using shared = decltype(shared_sequences(std::make_index_sequence<coalesces ? shared_count : 0>{}));
  using shared_build = typename shared::build;  // right and full joins only; else empty
  using shared_probe = typename shared::probe;

  // Same-named columns that are not a shared key get the suffixes, as in pandas.
  template <class F>
  static constexpr bool probe_clashes = ((kept<B> && B::name.view() == F::name.view()) || ...);
  template <class F>
  static constexpr bool build_clashes = ((P::name.view() == F::name.view()) || ...);

  // A shared key written from either side: a type that holds both sides' values.
  template <class F>
  struct shared_key_type : key_union<typename F::type, typename build_at<build_schema::template index_of<F>>::type> {};
  template <class F>
  struct probe_field {
    // A shared key in a right or full join: the probe key, or where there is no probe row the
    // build key, so null only where a null key can come from.
    static constexpr bool may_be_null = [] {
      if constexpr (coalesces && shared_key<F>) {
        using build_key = build_at<build_schema::template index_of<F>>;
        return build_key::is_nullable || (How == join_kind::full && F::is_nullable);
      } else {
        return F::is_nullable || coalesces;
      }
    }();
    using value_type =
        typename std::conditional_t<coalesces && shared_key<F>, shared_key_type<F>, std::type_identity<typename F::type>>::type;
    using base = field<F::name, value_type, may_be_null ? nullable : not_null>;
    using type = std::conditional_t<probe_clashes<F>,
                                    field<F::name + Suffixes::left, value_type, may_be_null ? nullable : not_null>, base>;
  };
  template <class F>
  struct build_field {
    using base = maybe_nullable_field<F, How == join_kind::left || How == join_kind::full>;
    using type = std::conditional_t<build_clashes<F>,
                                    field<F::name + Suffixes::right, typename F::type, base::is_nullable ? nullable : not_null>, base>;
  };
  template <class Seq>
  struct out;
  template <std::size_t... I>
  struct out<std::index_sequence<I...>> {
    static constexpr bool unique =
        detail::names_unique<typename probe_field<P>::type..., typename build_field<build_at<I>>::type...>();
    static_assert(unique, "colx::join: a column name made with the join's suffixes is already the name of another column; "
                          "pass other suffixes, e.g. join(right, on(\"k\"_c), suffixes<\"_left\", \"_right\">()), or rename "
                          "a column first with select(\"x\"_c.as<\"new_name\">(), ...)");
    // Without unique names only the message above: no schema's own error beside it.
    using type =
        std::conditional_t<unique, schema<typename probe_field<P>::type..., typename build_field<build_at<I>>::type...>, probe_schema>;
  };
  using schema_type = typename out<kept_build>::type;
  static constexpr bool unique_names = out<kept_build>::unique;
};

}  // namespace colx::detail

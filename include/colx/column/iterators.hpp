// SPDX-License-Identifier: Apache-2.0
#pragma once
// Random-access iterators over a column's device view, for std algorithms on the host backend
// and Thrust/CUB on the CUDA backend (with an explicit execution policy): values, (value, valid)
// pairs, validity flags, and values with nulls replaced (libcudf's pair, validity and
// null-replacement iterators). Each is a counting index run through a small functor.
#include <colx/column/column_device_view.hpp>

#include <cstddef>
#include <iterator>

namespace colx {

// The iterator over f(0), f(1), ...; f is called on dereference, so nothing is materialised.
template <class F>
class index_iterator {
 public:
  using value_type = decltype(std::declval<F const&>()(size_type{}));
  using difference_type = std::ptrdiff_t;
  using reference = value_type;
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;

  constexpr index_iterator() = default;
  constexpr COLX_HOST_DEVICE index_iterator(F f, size_type i) : _f(f), _i(i) {}

  [[nodiscard]] constexpr COLX_HOST_DEVICE reference operator*() const { return _f(_i); }
  [[nodiscard]] constexpr COLX_HOST_DEVICE reference operator[](difference_type n) const { return _f(_i + n); }
  constexpr COLX_HOST_DEVICE index_iterator& operator++() { ++_i; return *this; }
  constexpr COLX_HOST_DEVICE index_iterator operator++(int) { auto t = *this; ++_i; return t; }
  constexpr COLX_HOST_DEVICE index_iterator& operator--() { --_i; return *this; }
  constexpr COLX_HOST_DEVICE index_iterator operator--(int) { auto t = *this; --_i; return t; }
  constexpr COLX_HOST_DEVICE index_iterator& operator+=(difference_type n) { _i += n; return *this; }
  constexpr COLX_HOST_DEVICE index_iterator& operator-=(difference_type n) { _i -= n; return *this; }
  [[nodiscard]] friend constexpr COLX_HOST_DEVICE index_iterator operator+(index_iterator it, difference_type n) { return it += n; }
  [[nodiscard]] friend constexpr COLX_HOST_DEVICE index_iterator operator+(difference_type n, index_iterator it) { return it += n; }
  [[nodiscard]] friend constexpr COLX_HOST_DEVICE index_iterator operator-(index_iterator it, difference_type n) { return it -= n; }
  [[nodiscard]] friend constexpr COLX_HOST_DEVICE difference_type operator-(index_iterator a, index_iterator b) { return a._i - b._i; }
  friend constexpr COLX_HOST_DEVICE bool operator==(index_iterator a, index_iterator b) { return a._i == b._i; }
  friend constexpr COLX_HOST_DEVICE bool operator!=(index_iterator a, index_iterator b) { return a._i != b._i; }
  friend constexpr COLX_HOST_DEVICE bool operator<(index_iterator a, index_iterator b) { return a._i < b._i; }
  friend constexpr COLX_HOST_DEVICE bool operator<=(index_iterator a, index_iterator b) { return a._i <= b._i; }
  friend constexpr COLX_HOST_DEVICE bool operator>(index_iterator a, index_iterator b) { return a._i > b._i; }
  friend constexpr COLX_HOST_DEVICE bool operator>=(index_iterator a, index_iterator b) { return a._i >= b._i; }

 private:
  F _f{};
  size_type _i = 0;
};

// A value and whether it is valid: what the pair iterator yields.
template <class T>
struct value_valid {
  T value;
  bool valid;
};

namespace detail {
template <class T>
struct value_fn {
  column_device_view<T> view;
  COLX_HOST_DEVICE T operator()(size_type i) const { return view.value(i); }
};
template <class T>
struct pair_fn {
  column_device_view<T> view;
  COLX_HOST_DEVICE value_valid<T> operator()(size_type i) const { return {view.value(i), view.is_valid(i)}; }
};
template <class T>
struct validity_fn {
  column_device_view<T> view;
  COLX_HOST_DEVICE bool operator()(size_type i) const { return view.is_valid(i); }
};
template <class T>
struct replace_nulls_fn {
  column_device_view<T> view;
  T replacement;
  COLX_HOST_DEVICE T operator()(size_type i) const { return view.is_valid(i) ? view.value(i) : replacement; }
};
}  // namespace detail

// [begin, end) pairs for each kind of iteration; begin + view.size == end.
template <class T>
[[nodiscard]] COLX_HOST_DEVICE auto make_value_iterator(column_device_view<T> view, size_type i = 0) {
  return index_iterator<detail::value_fn<T>>({view}, i);
}
template <class T>
[[nodiscard]] COLX_HOST_DEVICE auto make_pair_iterator(column_device_view<T> view, size_type i = 0) {
  return index_iterator<detail::pair_fn<T>>({view}, i);
}
template <class T>
[[nodiscard]] COLX_HOST_DEVICE auto make_validity_iterator(column_device_view<T> view, size_type i = 0) {
  return index_iterator<detail::validity_fn<T>>({view}, i);
}
template <class T>
[[nodiscard]] COLX_HOST_DEVICE auto make_null_replacement_iterator(column_device_view<T> view, T replacement,
                                                                   size_type i = 0) {
  return index_iterator<detail::replace_nulls_fn<T>>({view, replacement}, i);
}

}  // namespace colx

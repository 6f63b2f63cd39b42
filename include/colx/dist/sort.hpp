// SPDX-License-Identifier: Apache-2.0
#pragma once
// Distributed sort: `d | sort_by("k"_c, ...)` leaves rank r's rows all before rank r + 1's, each
// rank's rows sorted, so that gather() returns the whole sorted frame. The first key chooses the
// rank: each rank samples it (sample_rows values, evenly spaced), the samples are all-gathered and
// sorted on every rank alike, and ranks - 1 splitters cut them into equal shares; a row goes to
// the rank whose range holds its first key (the range shuffle), and each rank sorts what it gets
// by all the keys. Rows with equal first keys meet on one rank, so the order is the stable
// single-process order of the ranks' rows taken in rank order. Null first keys go to the first or
// last rank, as the key places nulls. A first key held by many rows makes its rank the larger.
// Few rows in all (limits().few_groups_rows), or a first key that is not a fixed-width column
// (strings, dictionary codes, an expression), go to rank 0 and are sorted there.
#include <colx/dist/limits.hpp>
#include <colx/dist/shuffle.hpp>
#include <colx/frame/sort.hpp>

#include <algorithm>

namespace colx::dist {

inline constexpr size_type sample_rows = 1024;

namespace detail {

template <class R>
struct key_sample {
  R value;
  double weight;         // the rows this sample stands for: its rank's rows over its samples
  std::uint8_t present;  // a rank with no rows sends absent ones
  std::uint8_t valid;
};

template <class View, class R>
struct sample_key_fn {
  View view;
  size_type rows;
  size_type samples;
  key_sample<R>* out;
  COLX_HOST_DEVICE void operator()(size_type j) const {
    if (rows == 0) {
      out[j] = {R{}, 0.0, 0, 0};
      return;
    }
    // Evenly over the rows, repeating rows when there are fewer rows than samples.
    size_type const i = rows / samples * j + rows % samples * j / samples;  // floor(j * rows / samples)
    bool const valid = view.is_valid(i);
    out[j] = {valid ? colx::detail::raw_value(stored_value(view, i)) : R{}, static_cast<double>(rows) / static_cast<double>(samples), 1,
              static_cast<std::uint8_t>(valid)};
  }
};

template <class View, class R>
struct range_destination_fn {
  View view;
  R const* splitters;
  std::uint32_t count;  // ranks - 1
  bool descending;
  bool nulls_first;
  std::uint32_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    if (!view.is_valid(i)) {
      out[i] = nulls_first ? 0u : count;
      return;
    }
    R const v = colx::detail::raw_value(stored_value(view, i));
    std::uint32_t before = 0;  // splitters ahead of v in the sort order: its rank
    for (std::uint32_t s = 0; s < count; ++s) {
      before += descending ? colx::detail::value_less(v, splitters[s]) : colx::detail::value_less(splitters[s], v);
    }
    out[i] = before;
  }
};

// The rows regrouped so that rank r's first keys all sort before rank r + 1's (see above).
template <class Value, std::size_t Column, class Schema, class Key>
frame<Schema> range_shuffle(dist_frame<Schema> const& d, Key const& key) {
  auto& comm = d.comm();
  using raw = colx::detail::raw_t<stored_t<Value>>;
  auto const& f = d.local();
  stream_ref const stream{};
  resource_ref const mr = get_current_resource(comm.kind());
  auto const view = get<Column>(f.inputs());

  auto const samples = agreed(comm, "sort_by (sample)", [&] {
    uvector<key_sample<raw>> on_backend_samples(sample_rows, stream, mr);
    on_backend(comm.kind(), stream, [&](auto const& exec) {
      exec.for_each_n(sample_rows, sample_key_fn<decltype(view), raw>{view, f.num_rows(), sample_rows, on_backend_samples.data()});
    });
    std::vector<key_sample<raw>> host(static_cast<std::size_t>(sample_rows));
    colx::detail::copy_bytes(host.data(), memory_kind::host, on_backend_samples.data(), comm.kind(), host.size() * sizeof(host[0]),
                             stream);
    return host;
  });
  auto all = comm.all_gather_n(std::span<key_sample<raw> const>(samples));
  // Splitters at equal shares of the rows, each sample weighted by the rows it stands for (a
  // small rank's samples count for little).
  std::erase_if(all, [](auto const& s) { return s.present == 0 || s.valid == 0; });
  auto const before = [&](raw a, raw b) { return key.descending ? colx::detail::value_less(b, a) : colx::detail::value_less(a, b); };
  std::stable_sort(all.begin(), all.end(), [&](auto const& a, auto const& b) { return before(a.value, b.value); });
  double total = 0;
  for (auto const& s : all) { total += s.weight; }
  std::vector<raw> splitters;
  double seen = 0;
  std::size_t next = 0;
  for (int p = 1; p < comm.size(); ++p) {
    double const share = total * p / comm.size();
    while (next + 1 < all.size() && seen + all[next].weight <= share) { seen += all[next++].weight; }
    splitters.push_back(all.empty() ? raw{} : all[next].value);
  }

  auto grouped = agreed(comm, "sort_by (range partition)", [&] {
    uvector<raw> const cuts(std::span<raw const>(splitters), stream, mr);
    uvector<std::uint32_t> destination(f.num_rows(), stream, mr);
    if (f.num_rows() > 0) {
      on_backend(comm.kind(), stream, [&](auto const& exec) {
        exec.for_each_n(f.num_rows(), range_destination_fn<decltype(view), raw>{view, cuts.data(),
                                                                               static_cast<std::uint32_t>(splitters.size()),
                                                                               key.descending, key.nulls == null_order::first,
                                                                               destination.data()});
      });
    }
    return group_by_destination(f, destination.data(), comm.size(), stream);
  });
  return exchange_rows(comm, grouped.first, std::span<size_type const>(grouped.second), "sort_by (range shuffle)", stream);
}

}  // namespace detail

template <class Schema, class First, class... More>
[[nodiscard]] dist_frame<Schema> operator|(dist_frame<Schema> const& d, sort_by_stage<First, More...> const& stage) {
  auto& comm = d.comm();
  auto const sort_local = [&](frame<Schema> const& f) {
    return dist_frame<Schema>(comm, agreed(comm, "sort_by", [&] { return f | stage; }));
  };
  if (comm.size() == 1) { return sort_local(d.local()); }
  // Few rows in all, or a first key whose range cannot be split (strings, dictionary codes, an
  // expression): every row to rank 0, sorted there.
  auto const on_rank_0 = [&] {
    auto const bounds = detail::all_to_bounds(d.local().num_rows(), comm.size(), 0);
    return sort_local(exchange_rows(comm, d.local(), std::span<size_type const>(bounds), "sort_by (rows to rank 0)"));
  };
  using key_expr = std::remove_cvref_t<decltype(get<0>(stage.keys).expr)>;
  if constexpr (!expr::column_ref<key_expr>) {
    return on_rank_0();
  } else {
    constexpr std::size_t column = Schema::template index_of<key_expr>;
    using value_t = typename Schema::template field_at<column>::type;
    if constexpr (std::is_same_v<stored_t<value_t>, string_view> || dictionary_type<value_t>) {
      return on_rank_0();
    } else {
      if (d.num_rows() <= limits().few_groups_rows) { return on_rank_0(); }
      return sort_local(detail::range_shuffle<value_t, column>(d, get<0>(stage.keys)));
    }
  }
}

}  // namespace colx::dist

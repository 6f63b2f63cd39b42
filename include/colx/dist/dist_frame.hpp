// SPDX-License-Identifier: Apache-2.0
#pragma once
// dist_frame<Schema>: a frame split over the ranks of a communicator, one frame<Schema> a rank.
// Which rows a rank holds is the operations' business: a hash shuffle puts equal keys on one
// rank, a range shuffle puts rank r's rows before rank r + 1's. Global answers (num_rows, gather)
// are collectives: every rank calls them.
//
//   auto d = colx::dist::scatter(world, f);                  // rank 0's frame, split evenly
//   auto g = d | colx::group_by("k"_c) | colx::aggregate(colx::sum("v"_c).as<"s">());
//   auto all = colx::dist::gather(g);                        // every group, on rank 0
//
// Stages that need no other rank's rows (filter, with_columns, select, ...) run on each rank's
// frame as they are; group_by/aggregate, join, sort_by and reduce are the distributed ones
// (dist/group_by.hpp, join.hpp, sort.hpp, reduce.hpp).
#include <colx/dist/exchange.hpp>
#include <colx/frame/distinct.hpp>
#include <colx/frame/group_by.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/frame/select.hpp>
#include <colx/frame/stage.hpp>
#include <colx/frame/with_columns.hpp>

#include <vector>

namespace colx::dist {

template <class Schema>
class dist_frame {
 public:
  using schema_type = Schema;

  dist_frame(communicator& comm, frame<Schema> local) : _comm(&comm), _local(std::move(local)) {}

  [[nodiscard]] communicator& comm() const noexcept { return *_comm; }
  [[nodiscard]] frame<Schema> const& local() const noexcept { return _local; }
  [[nodiscard]] int rank() const noexcept { return _comm->rank(); }
  [[nodiscard]] int ranks() const noexcept { return _comm->size(); }
  // The rows of every rank (a collective).
  [[nodiscard]] size_type num_rows() const { return _comm->all_sum(_local.num_rows()); }

 private:
  communicator* _comm;
  frame<Schema> _local;
};

namespace detail {
template <class T>
inline constexpr bool is_dist_frame = false;
template <class Schema>
inline constexpr bool is_dist_frame<dist_frame<Schema>> = true;

// `parts` near-equal shares of n rows: bounds[p] = p * n / parts.
inline std::vector<size_type> even_bounds(size_type n, int parts) {
  std::vector<size_type> b(static_cast<std::size_t>(parts) + 1);
  // floor(n * p / parts) without overflow: n = q * parts + r.
  for (int p = 0; p <= parts; ++p) { b[static_cast<std::size_t>(p)] = n / parts * p + n % parts * p / parts; }
  return b;
}
// All n rows to rank `to`.
inline std::vector<size_type> all_to_bounds(size_type n, int parts, int to) {
  std::vector<size_type> b(static_cast<std::size_t>(parts) + 1, 0);
  for (int p = to + 1; p <= parts; ++p) { b[static_cast<std::size_t>(p)] = n; }
  return b;
}

// A frame of no rows in `mr`'s memory (a rank that holds nothing still has the schema, and its
// frame must meet the others' in one kind of memory).
template <class Schema>
frame<Schema> empty_frame(resource_ref mr) {
  std::vector<any_column> columns;
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    auto const one = [&]<class T>(std::type_identity<T>) {
      if constexpr (dictionary_type<T>) {  // no rows, over an empty dictionary
        columns.push_back(empty_frame<schema<field<"values", typename T::value_type>>>(mr).template column_at<0>().untyped());
        std::vector<any_column> values;
        values.push_back(std::move(columns.back()));
        columns.back() = any_column(data_type_of<T>(), 0, buffer(0, {}, mr), buffer{}, 0, std::move(values));
      } else if constexpr (std::is_same_v<stored_t<T>, string_view>) {
        std::vector<any_column> offsets;
        offsets.emplace_back(data_type{type_id::int32}, 0, buffer(0, {}, mr));
        columns.emplace_back(data_type_of<T>(), 0, buffer(0, {}, mr), buffer{}, 0, std::move(offsets));
      } else {
        columns.emplace_back(data_type_of<T>(), 0, buffer(0, {}, mr));
      }
    };
    (one(std::type_identity<typename Schema::template field_at<C>::type>{}), ...);
  }(std::make_index_sequence<Schema::size>{});
  return typed_frame<Schema>(columns, std::make_index_sequence<Schema::size>{});
}
}  // namespace detail

// Rank `root`'s frame, split evenly over the ranks (the other ranks' `f` is ignored).
template <class Schema>
[[nodiscard]] dist_frame<Schema> scatter(communicator& comm, frame<Schema> const& f, int root = 0, stream_ref stream = {}) {
  COLX_EXPECTS(0 <= root && root < comm.size(), "scatter: root ", root, " is not a rank of ", comm.size());
  size_type const n = comm.rank() == root ? f.num_rows() : 0;
  auto const bounds = comm.rank() == root ? detail::even_bounds(n, comm.size()) : detail::all_to_bounds(0, comm.size(), 0);
  return {comm, exchange_rows(comm, comm.rank() == root ? f : f.head(0, stream), std::span<size_type const>(bounds), "scatter", stream)};
}

// Every rank's rows on rank `root`, in rank order; the other ranks get no rows.
template <class Schema>
[[nodiscard]] frame<Schema> gather(dist_frame<Schema> const& d, int root = 0, stream_ref stream = {}) {
  auto& comm = d.comm();
  COLX_EXPECTS(0 <= root && root < comm.size(), "gather: root ", root, " is not a rank of ", comm.size());
  auto const bounds = detail::all_to_bounds(d.local().num_rows(), comm.size(), root);
  return exchange_rows(comm, d.local(), std::span<size_type const>(bounds), "gather", stream);
}

// Every rank's rows on every rank, in rank order (the broadcast side of a join).
template <class Schema>
[[nodiscard]] frame<Schema> replicate(dist_frame<Schema> const& d, stream_ref stream = {}) {
  if (d.comm().size() == 1) { return d.local(); }
  return exchange_to_all(d.comm(), d.local(), "replicate", stream);
}

// Each rank's rows behind a lazy local stage (a filter), not yet collected: group_by | aggregate
// and reduce run on it as the one-process pipeline does, the filter fused into their pass; any
// other stage takes the collected rows.
template <class Local>
class dist_lazy {
 public:
  dist_lazy(communicator& comm, Local local) : _comm(&comm), _local(std::move(local)) {}
  [[nodiscard]] communicator& comm() const noexcept { return *_comm; }
  [[nodiscard]] Local const& local() const noexcept { return _local; }
  [[nodiscard]] auto collect() const {
    auto rows = agreed(*_comm, "collect", [&] { return _local.collect(); });
    return dist_frame<typename decltype(rows)::schema_type>(*_comm, std::move(rows));
  }

 private:
  communicator* _comm;
  Local _local;
};

// Whatever holds one rank's share of distributed rows: a dist_frame or a dist_lazy.
template <class D>
concept dist_source = requires(D const& d) {
  d.comm();
  d.local();
  requires detail::is_dist_frame<D> || requires { d.collect(); };
};

namespace detail {
// The stages that every rank runs together (dist/group_by.hpp, dist/reduce.hpp): the generic
// stage path below leaves them alone.
template <class Stage>
inline constexpr bool is_collective_stage = false;
// The stages whose result on the union of the ranks' rows is the union of their results on each
// rank's rows: these run on each rank's frame as they are.
template <class Stage>
inline constexpr bool is_row_local_stage = false;
template <class Pred>
inline constexpr bool is_row_local_stage<filter_stage<Pred>> = true;
template <class... Named>
inline constexpr bool is_row_local_stage<with_columns_stage<Named...>> = true;
template <class... Cols>
inline constexpr bool is_row_local_stage<select_stage<Cols...>> = true;
template <class... Cols>
inline constexpr bool is_row_local_stage<drop_nulls_stage<Cols...>> = true;
template <class... Keys>
inline constexpr bool is_collective_stage<group_by_stage<Keys...>> = true;
template <class... Aggs>
inline constexpr bool is_collective_stage<reduce_stage<Aggs...>> = true;
}  // namespace detail

// A stage that needs no other rank's rows, on each rank's frame; a lazy result (a filter) stays
// lazy (dist_lazy). join and sort_by have their own overloads (dist/join.hpp, dist/sort.hpp).
template <class Schema, pipeline_stage Stage>
  requires(!detail::is_collective_stage<Stage>)
[[nodiscard]] auto operator|(dist_frame<Schema> const& d, Stage const& stage) {
  static_assert(detail::is_row_local_stage<Stage>,
                "colx::dist: this stage has no distributed form yet: on a dist_frame, each rank would compute it on its "
                "own rows alone (distinct, head, tail, count_if, set_index, a join with a plain frame). A dist_frame "
                "takes filter, with_columns, select, drop_nulls, group_by + aggregate, join with a dist_frame, sort_by "
                "and reduce, and dist::top_k(d, k, keys...) for ORDER BY ... LIMIT; gather() the rows to one rank "
                "for anything else");
  auto result = d.local() | stage;
  using R = decltype(result);
  if constexpr (requires { result.collect(); }) {
    return dist_lazy<R>(d.comm(), std::move(result));
  } else {
    return dist_frame<typename R::schema_type>(d.comm(), std::move(result));
  }
}
// Any stage but group_by and reduce on lazy rows takes them collected.
template <class Local, pipeline_stage Stage>
  requires(!detail::is_collective_stage<Stage>)
[[nodiscard]] auto operator|(dist_lazy<Local> const& d, Stage const& stage) {
  return d.collect() | stage;
}

}  // namespace colx::dist

// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a group-by knows before it reads a row: its keys and aggregations bound to the frame's
// columns (group_by_binding: the table functor and the result's schema), and the rules that size
// its table from a sample of the rows. explain() reads the same rules as a plan value
// (group_plan) without launching anything; aggregate (group_by/aggregate.hpp) applies them to
// what the sample found.
#include <colx/exec/aggregate_rows.hpp>
#include <colx/expr/expression.hpp>
#include <colx/expr/reuse.hpp>
#include <colx/frame/group_by/output.hpp>
#include <colx/frame/group_by/table.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

namespace colx {

struct group_by_options {
  bool sorted = false;          // result rows in ascending key order (else in an unspecified order)
  bool drop_null_keys = false;  // skip rows with a null key (pandas' dropna); else nulls form a group, as SQL
};

namespace detail {

// A group-by's types: the predicate, keys and aggregations bound to the frame's columns, the
// table functor over them, and the result's schema.
template <class Frame, class Pred, class Keys, class Named>
struct group_by_binding;
template <class Frame, class Pred, class... Keys, class... Named>
struct group_by_binding<Frame, Pred, std::tuple<Keys...>, std::tuple<Named...>> {
  using schema_type = typename Frame::schema_type;
  using inputs = typename Frame::inputs_type;

  static auto bind_pred(Pred const& p) { return expr::bind<schema_type>(p); }
  static auto bind_keys(std::tuple<Keys...> const& keys) {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      // A dictionary key groups by its codes, as an integer key: the result's key is a dictionary
      // column again, over the same dictionary.
      return tuple(expr::codes_if_dictionary(expr::bind<schema_type>(group_key<Keys>::expr_of(std::get<K>(keys))))...);
    }(std::index_sequence_for<Keys...>{});
  }
  // Bound, and what they share computed once a row (expr/reuse.hpp).
  static auto bind_aggs(std::tuple<Named...> const& named) {
    return expr::share_parts([&]<std::size_t... A>(std::index_sequence<A...>) {
      return tuple(std::get<A>(named).expr.map(expr::bind_fn<schema_type>{})...);
    }(std::index_sequence_for<Named...>{}));
  }
  using pred_t = decltype(bind_pred(std::declval<Pred const&>()));
  using keys_t = decltype(bind_keys(std::declval<std::tuple<Keys...> const&>()));
  using aggs_t = decltype(bind_aggs(std::declval<std::tuple<Named...> const&>()));
  using fn_t = group_table_fn<inputs, pred_t, keys_t, aggs_t>;
  using out_schema = typename group_schema<inputs, std::tuple<Keys...>, keys_t, std::tuple<Named...>, aggs_t>::type;
  static constexpr std::size_t num_keys = sizeof...(Keys);
};

// ---- sizing ------------------------------------------------------------------------------------

// Rows inserted into the sample's table (rows drawn at random when there are more).
inline constexpr size_type most_sampled_rows = size_type{1} << 16;

// The sample the table size is estimated from: the k-th sampled row's group inserted, the kept
// rows counted. Every row of an input of at most most_sampled_rows rows; else rows drawn
// uniformly at random, with replacement (a fixed sequence: the same rows each run), the draws
// estimate_groups assumes. (A strided sample sees each key of keys that come in runs once, as
// lineitem's orderkeys, four lines an order, and so estimated as many groups as rows: TPC-H Q18's
// table was sized for 60M groups where there are 15M.)
template <class Fn>
struct sample_groups_fn {
  Fn fn;
  size_type rows;  // the input's
  bool every_row;  // the input is the sample
  size_type* kept;
  COLX_HOST_DEVICE size_type row_of(size_type k) const {
    if (every_row) { return k; }
    return static_cast<size_type>(mix64(static_cast<std::uint64_t>(k)) % static_cast<std::uint64_t>(rows));
  }
  COLX_HOST_DEVICE void operator()(size_type k) const {
    size_type const i = row_of(k);
    if (!fn.keep(i)) { return; }
    atomic_add(kept, size_type{1});
    (void)fn.locate(i);
  }
};

// The rows drawn to judge the filter's share of rows where the keys bound the groups (below):
// one block's worth, one launch. Enough to tell more than half from less: the share's standard
// error is at most 3%, and near half either way of loading runs alike.
inline constexpr size_type most_filter_sampled_rows = 256;

// Counts the sampled rows that pass the filter into draw.kept: the rows drawn as sample_groups_fn
// draws them, without a table.
template <class Fn>
struct sample_kept_fn {
  sample_groups_fn<Fn> draw;
  COLX_HOST_DEVICE void operator()(size_type k) const {
    if (draw.fn.keep(draw.row_of(k))) { atomic_add(draw.kept, size_type{1}); }
  }
};

// The most groups the keys can form, known without reading a row where each key is a column of
// few values: a dictionary column's entries, a boolean's two values, an 8-bit integer's 256; one
// more where the column has nulls. 0 (not known) where a key is another expression or type.
// TPC-H Q1's flags, dictionaries of 3 and 2 entries, form at most 6 groups: its table needs no
// sample (which cost a launch, a 20 us pass and a wait on an H200). Used where the bound is under
// use_private_caches' limit (below), the path a sample of that many groups would choose.
inline double groups_bound(std::span<any_column const* const> keys) {
  double bound = 1;
  for (any_column const* key : keys) {
    if (key == nullptr) { return 0; }
    double values = 0;
    switch (key->type().id()) {
      case type_id::dictionary: values = static_cast<double>(key->children().front().size()); break;
      case type_id::bool8: values = 2; break;
      case type_id::int8:
      case type_id::uint8: values = 256; break;
      default: return 0;
    }
    bound *= values + (key->null_count() > 0 ? 1 : 0);
  }
  return bound;
}

// Solves d = g (1 - exp(-s / g)) for g: the number of groups that makes s sampled rows show d
// distinct groups (rows drawn uniformly); at most `rows`.
inline double estimate_groups(double distinct, double sampled, double rows) {
  if (distinct >= sampled) { return rows; }
  double lo = distinct;
  double hi = rows;
  for (int it = 0; it < 100 && hi - lo > 1; ++it) {
    double const g = (lo + hi) / 2;
    (g * (1 - std::exp(-sampled / g)) < distinct ? lo : hi) = g;
  }
  return hi;
}

inline size_type next_power_of_two(size_type v) {
  size_type p = 1;
  while (p < v) { p <<= 1; }
  return p;
}

// Slots per estimated group: packed keys probe cheaply (a word compare), so their table may be
// fuller, and smaller tables stay in L2 longer; others compare keys at rows.
template <class Fn>
inline constexpr double table_load_factor = Fn::packed ? 2.0 : 2.5;

template <class Fn>
size_type table_capacity(size_type rows, double estimated_groups) {
  return std::min(next_power_of_two(std::max<size_type>(64, 2 * rows)),
                  next_power_of_two(std::max<size_type>(64, static_cast<size_type>(estimated_groups * table_load_factor<Fn>))));
}

// A pair set (nunique) holds at most one pair per kept row: twice as many slots as the kept rows,
// so that it stays at most half full unless the sample's estimate of them is low.
template <class Fn>
size_type pair_capacity(double kept_rows) {
  return Fn::pair_sets == 0 ? 0 : next_power_of_two(std::max<size_type>(64, 2 * static_cast<size_type>(std::ceil(kept_rows))));
}

// Per-thread caches of a few groups pay only when a thread's rows fall into very few groups.
inline bool use_private_caches(double estimated_groups) { return estimated_groups < 2.0 * group_cache_size; }

// Slots of each block's shared-memory table (0: none, the many-groups path). A handful of groups
// needs a small one, which leaves shared memory to the threads' private cells where those live
// there (gpu/aggregate_rows.cuh).
template <class Cells>
int block_table_slots(double estimated_groups) {
  if (estimated_groups > few_groups_limit<Cells>()) { return 0; }
  return use_private_caches(estimated_groups) ? private_cache_table_slots<Cells>() : shared_table_slots<Cells>();
}

// For tests: a path forced whatever the sample shows, so that each is reached at small sizes (the
// GPU's partitioned pass otherwise needs a table larger than L2, millions of groups). Process-wide.
enum class group_by_path { by_sample, private_caches, few_groups, many_groups, partitioned };
inline std::atomic<group_by_path>& forced_group_by_path() {
  static std::atomic<group_by_path> path{group_by_path::by_sample};
  return path;
}

// How the pass runs for the number of groups the sample shows (or the path a test forces).
template <class Cells>
aggregate_pass_options pass_options(double estimated_groups) {
  switch (forced_group_by_path().load()) {
    case group_by_path::private_caches: return {private_cache_table_slots<Cells>(), true, false};
    case group_by_path::few_groups: return {shared_table_slots<Cells>(), false, false};
    case group_by_path::many_groups: return {0, false, false};
    case group_by_path::partitioned: return {0, false, true};
    case group_by_path::by_sample: break;
  }
  return {block_table_slots<Cells>(estimated_groups), use_private_caches(estimated_groups), false};
}

template <class Fn>
constexpr char const* key_form() {
  return Fn::packed         ? "packed into one 64-bit word"
         : Fn::short_packed ? "packed into one word per row when their strings are short (at most 6 bytes), else compared at rows"
                            : "compared at rows";
}

// What explain() shows of a group-by: all of it known from the types and the row count.
struct group_plan {
  size_type rows = 0;
  char const* key_form = "";      // how rows' keys are compared
  std::size_t cell_bytes = 0;     // a group's cells
  std::size_t private_bytes = 0;  // a group's cells in a thread's cache (group_by/partials.hpp)
  std::size_t entry_bytes = 0;    // a slot of the table: the header (packed keys or first row) and the cells
  double few_groups_limit = 0;    // at most this many groups (by the sample): per-block tables first
  int block_slots = 0;            // slots of each block's table on that path
  double load_factor = 0;         // slots of the global table per estimated group
  bool partitionable = false;     // packed keys: the GPU may partition rows by slot first
  std::size_t pair_sets = 0;      // nunique's sets of (group, value) pairs, one per nunique
  size_type most_pair_slots = 0;  // slots of each, when every row passes the filter
};

template <class Fn>
group_plan plan_of(size_type rows) {
  using cells = typename Fn::cells;
  return group_plan{rows,
                    key_form<Fn>(),
                    sizeof(cells),
                    sizeof(typename Fn::partial_cells),
                    Fn::table_entry_bytes,
                    few_groups_limit<cells>(),
                    shared_table_slots<cells>(),
                    table_load_factor<Fn>,
                    Fn::partitionable,
                    Fn::pair_sets,
                    pair_capacity<Fn>(static_cast<double>(rows))};
}

}  // namespace detail
}  // namespace colx

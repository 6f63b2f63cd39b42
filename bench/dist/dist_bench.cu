// SPDX-License-Identifier: Apache-2.0
// Scale-out on one machine's GPUs: the same distributed pipelines on 1, 2, 4 (8) GPUs, one process
// per GPU over NCCL (one GPU: a world of one, the same code with no transfers).
//
//   group-by  sum of an int64 value by an int64 key with `groups` distinct values over `rows`
//             rows in all (each GPU generates its share on the device; generation not timed)
//   join      inner join of `left` rows (keys drawn from the right's) with `right` unique keys,
//             both sides hash-shuffled; and the right side broadcast instead, its rows in the
//             order of their table slots (the default) and as held; with key spans looked for
//             without a sample first; with each rank's table built after every row arrived
//   broadcast table  (one GPU) a rank's hash table of a right side sent whole in 2, 4, 8 runs:
//             built a band of slots at a time and row by row, and probed by a quarter of the left
//   key spans what a rank's look at the join's left keys costs: its spans, a sample
//   sort      sort_by of a random int64 key with an int64 payload (range shuffle, local sort)
//   shuffle   a hash shuffle of two int64 columns, against NCCL's own all-to-all of the same
//             bytes per peer in the same run (the transport's ceiling)
//
// Times are the slowest rank's (a barrier before and after), median of `--repeat` after a warm-up.
//   bench_dist --ranks 1,2,4 [--rows 4e9 --groups 1e7 --left 1e9 --right 1e8 --sort-rows 1e9 --shuffle-rows 5e8]
//              [--tsv FILE]
#include "../bench_common.cuh"
#include "ranks.cuh"

#include <colx/cuda.cuh>
#include <colx/dist.hpp>
#include <colx/dist/local_ranks.hpp>
#include <colx/dist/nccl_communicator.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

using namespace colx::literals;
using colx::size_type;
namespace dist = colx::dist;

namespace {

using kv_schema = colx::schema<colx::field<"k", std::int64_t>, colx::field<"v", std::int64_t>>;
using right_schema = colx::schema<colx::field<"rk", std::int64_t>, colx::field<"w", std::int64_t>>;

struct options {
  std::vector<int> ranks{1, 2};
  double rows = 4e9;
  double groups = 1e7;
  double left = 1e9;
  double right = 1e8;
  double shuffle_rows = 5e8;
  double sort_rows = 1e9;
  int repeat = 3;
  std::string tsv;
};

// Row r of the whole table (r counts over all ranks): key mix64(r) % keys, value r % 1000.
struct generate_fn {
  std::int64_t* k;
  std::int64_t* v;
  std::int64_t first;
  std::int64_t keys;
  bool unique;  // keys are the row numbers themselves (a join's build side)
  __device__ void operator()(size_type i) const {
    std::int64_t const r = first + i;
    k[i] = unique ? r : static_cast<std::int64_t>(colx::detail::mix64(static_cast<std::uint64_t>(r) * 0x9e3779b97f4a7c15ull) %
                                                  static_cast<std::uint64_t>(keys));
    v[i] = r % 1000;
  }
};

template <class Schema>
colx::frame<Schema> generate(std::int64_t total, std::int64_t keys, bool unique, int rank, int ranks) {
  std::int64_t const first = total / ranks * rank + std::min<std::int64_t>(rank, total % ranks);
  std::int64_t const n = total / ranks + (rank < total % ranks ? 1 : 0);
  colx::uvector<std::int64_t> k(n), v(n);
  colx::gpu::executor{colx::stream_ref{}}.for_each_n(n, generate_fn{k.data(), v.data(), first, keys, unique});
  return colx::frame<Schema>(colx::column<std::int64_t>(std::move(k)), colx::column<std::int64_t>(std::move(v)));
}

// NCCL's own all-to-all: `bytes` to every peer at once, grouped send/recv, GB/s sent per rank.
double nccl_all_to_all_gbps(dist::communicator& comm, std::size_t bytes, int repeat) {
  if (comm.size() == 1) { return 0; }
  colx::buffer send(bytes * static_cast<std::size_t>(comm.size())), recv(bytes * static_cast<std::size_t>(comm.size()));
  COLX_CUDA_TRY(cudaMemset(send.data(), 1, send.size()));
  std::vector<dist::send_part> sends;
  std::vector<dist::recv_part> recvs;
  for (int p = 0; p < comm.size(); ++p) {
    if (p == comm.rank()) { continue; }
    sends.push_back({p, static_cast<char const*>(send.data()) + bytes * static_cast<std::size_t>(p), bytes});
    recvs.push_back({p, static_cast<char*>(recv.data()) + bytes * static_cast<std::size_t>(p), bytes});
  }
  double const ms = colx::bench::slowest_rank_ms(comm, [&] { comm.exchange(sends, recvs, colx::stream_ref{}); }, repeat);
  return static_cast<double>(bytes) * (comm.size() - 1) / ms / 1e6;
}

struct result_line {
  std::string name;
  int ranks;
  double ms;
  double extra;  // GB/s or rows
  std::string note;
};

int run_rank(options const& o, int rank, int ranks, std::filesystem::path const& dir, std::vector<result_line>& out) {
  auto const comm = colx::bench::join_world(rank, ranks, dir);
  auto& world = *comm;
  auto const note = [&](std::string const& name, double ms, double extra, std::string const& text) {
    if (rank == 0) {
      out.push_back({name, ranks, ms, extra, text});
      std::printf("%-30s %d GPU(s) %10.2f ms  %s\n", name.c_str(), ranks, ms, text.c_str());
      std::fflush(stdout);
    }
  };

  {  // group-by
    auto const rows = static_cast<std::int64_t>(o.rows);
    dist::dist_frame<kv_schema> const d(world, generate<kv_schema>(rows, static_cast<std::int64_t>(o.groups), false, rank, ranks));
    // Also with each rank's key spans looked for, as before its sample of keys showed them scattered.
    for (bool const sampled : {true, false}) {
      if (!sampled && ranks == 1) { continue; }
      auto const saved = dist::limits();
      if (!sampled) { dist::limits().key_sample_rows = std::numeric_limits<size_type>::max(); }
      size_type groups = 0;
      double const ms = colx::bench::slowest_rank_ms(world, [&] {
        auto const g = d | colx::group_by("k"_c) | colx::aggregate(colx::sum("v"_c).as<"s">());
        groups = g.local().num_rows();
      }, o.repeat);
      dist::limits() = saved;
      groups = world.all_sum(groups);
      if (rank == 0 && ranks > 1) { std::printf("%s", dist::explain(world).c_str()); }
      world.clear_traffic();
      double const gbs = static_cast<double>(rows) * 16 / ms / 1e6;
      note(sampled ? "group_by sum" : "group_by sum (spans)", ms, gbs,
           std::to_string(rows) + " rows, " + std::to_string(groups) + " groups, " + std::to_string(gbs).substr(0, 7) +
               " GB/s of input");
    }
  }
  {  // join: shuffled, then broadcast
    auto const left_rows = static_cast<std::int64_t>(o.left);
    auto const right_rows = static_cast<std::int64_t>(o.right);
    dist::dist_frame<kv_schema> const l(world, generate<kv_schema>(left_rows, right_rows, false, rank, ranks));
    dist::dist_frame<right_schema> const r(world, generate<right_schema>(right_rows, right_rows, true, rank, ranks));
    // The broadcast with its rows sorted by their table slots first (the default at this size,
    // dist/slot_order.hpp) and its table built a band of slots at a time (join/banded_build.hpp),
    // then each differing in one thing: its rows in the order they are held; each rank's key spans
    // looked for, as before its sample of keys showed them scattered (dist/key_spans.hpp); its
    // table built row by row, each rank's own rows while the others' arrive; row by row after.
    using table = dist::strategy_limits::broadcast_table;
    struct join_mode {
      char const* name;
      bool broadcast;
      bool slot_order;
      bool sampled;
      table build;
    };
    for (join_mode const m : {join_mode{"join (both shuffled)", false, true, true, table::in_bands},
                              join_mode{"join (right broadcast)", true, true, true, table::in_bands},
                              join_mode{"join (broadcast, row order)", true, false, true, table::in_bands},
                              join_mode{"join (broadcast, spans)", true, true, false, table::in_bands},
                              join_mode{"join (broadcast, built beside)", true, true, true, table::while_receiving},
                              join_mode{"join (broadcast, built after)", true, true, true, table::after}}) {
      bool const broadcast = m.broadcast;
      if (broadcast && ranks == 1) { continue; }
      auto const saved = dist::limits();
      // (Sent whole as a large right side is, beside the left one: in slot order, after the key
      // spans are looked at. One within broadcast_rows is sent as it is, without looking.)
      dist::limits().broadcast_rows = 0;
      dist::limits().broadcast_share = broadcast ? 1e9 : 0.0;
      dist::limits().slot_order_rows = m.slot_order ? 0 : std::numeric_limits<size_type>::max();
      dist::limits().key_sample_rows = m.sampled ? saved.key_sample_rows : std::numeric_limits<size_type>::max();
      dist::limits().broadcast_build = m.build;
      size_type matched = 0;
      double const ms = colx::bench::slowest_rank_ms(world, [&] {
        auto const j = l | colx::join(r, colx::on("k"_c), colx::on("rk"_c));
        matched = j.local().num_rows();
      }, o.repeat);
      dist::limits() = saved;
      matched = world.all_sum(matched);
      if (rank == 0 && ranks > 1) { std::printf("%s", dist::explain(world).c_str()); }
      world.clear_traffic();
      note(m.name, ms, 0,
           std::to_string(left_rows) + " x " + std::to_string(right_rows) + " rows, " + std::to_string(matched) + " out");
    }
  }
  if (ranks == 1) {  // what one rank of a broadcast join does with the right side, on one GPU
    // The right side in r runs (a run a rank), each sorted by its rows' table slots as the
    // broadcast sorts it (dist/slot_order.hpp), then one rank's table of it: built a band of slots
    // at a time (join/banded_build.hpp), and row by row (one sweep of the table a run); and the
    // probe of a rank's share of the left side against each table (bands wrap its walks).
    auto const right_rows = static_cast<std::int64_t>(o.right);
    auto const whole = generate<right_schema>(right_rows, right_rows, true, 0, 1);
    auto const left = generate<kv_schema>(static_cast<std::int64_t>(o.left) / 4, right_rows, false, 0, 1);
    for (int const runs_in : {2, 4, 8}) {
      std::vector<colx::frame<right_schema>> pieces;
      std::vector<size_type> runs{0};
      for (int k = 0; k < runs_in; ++k) {
        size_type const end = right_rows / runs_in * (k + 1) + (k + 1 == runs_in ? right_rows % runs_in : 0);
        pieces.push_back(dist::detail::in_slot_order(whole.slice(runs.back(), end), colx::on("rk"_c), right_rows, {}, {}));
        runs.push_back(end);
      }
      auto const all = colx::concat(std::span<colx::frame<right_schema> const>(pieces));
      pieces.clear();
      std::span<size_type const> const in_runs(runs);
      double const banded_ms = colx::bench::slowest_rank_ms(world, [&] { (void)colx::build_from_runs(all, colx::on("rk"_c), in_runs); }, o.repeat);
      double const by_row_ms = colx::bench::slowest_rank_ms(world, [&] { (void)colx::build(all, colx::on("rk"_c)); }, o.repeat);
      auto const banded = colx::build_from_runs(all, colx::on("rk"_c), in_runs);
      auto const by_row = colx::build(all, colx::on("rk"_c));
      size_type banded_out = 0, by_row_out = 0;
      auto const probe_ms = [&](auto const& b, size_type& out) {
        return colx::bench::slowest_rank_ms(world, [&] { out = (left | colx::join(b, colx::on("k"_c), colx::on("rk"_c))).num_rows(); }, o.repeat);
      };
      double const banded_probe = probe_ms(banded, banded_out);
      double const by_row_probe = probe_ms(by_row, by_row_out);
      std::string const of = std::to_string(right_rows) + " rows in " + std::to_string(runs_in) + " runs";
      double const table_gb = static_cast<double>(banded.mask() + 1) * 16 / 1e9;
      note("table of a broadcast, bands", banded_ms, table_gb / banded_ms * 1e3,
           of + (banded.wrap() == banded.mask() ? " (fell back to row by row)" : "") + "; table " + std::to_string(table_gb).substr(0, 5) +
               " GB written at " + std::to_string(table_gb / banded_ms * 1e3).substr(0, 6) + " GB/s");
      note("table of a broadcast, by row", by_row_ms, 0, of);
      note("probe of the banded table", banded_probe, 0, std::to_string(left.num_rows()) + " left rows, " + std::to_string(banded_out) + " out");
      note("probe of the by-row table", by_row_probe, 0, std::to_string(left.num_rows()) + " left rows, " + std::to_string(by_row_out) + " out");
    }
  }
  {  // what a rank's look at its join keys costs: the spans (a pass over the key column), a sample
    auto const left_rows = static_cast<std::int64_t>(o.left);
    auto const l = generate<kv_schema>(left_rows, static_cast<std::int64_t>(o.right), false, rank, ranks);
    double const spans_ms = colx::bench::slowest_rank_ms(world, [&] { (void)dist::detail::spans_of(l, "k"_c, {}); }, o.repeat);
    double const sample_ms = colx::bench::slowest_rank_ms(world, [&] { (void)dist::detail::sample_of(l, "k"_c, {}); }, o.repeat);
    world.clear_traffic();
    double const gbs = static_cast<double>(l.num_rows()) * 8 / spans_ms / 1e6;
    note("key spans", spans_ms, gbs, std::to_string(l.num_rows()) + " int64 keys a rank: " + std::to_string(gbs).substr(0, 7) +
                                      " GB/s; a sample of 512 keys " + std::to_string(sample_ms).substr(0, 6) + " ms");
  }
  {  // sort by a random int64 key with an int64 payload: a range shuffle, then a local sort
    auto const rows = static_cast<std::int64_t>(o.sort_rows);
    dist::dist_frame<kv_schema> const d(world, generate<kv_schema>(rows, std::int64_t{1} << 62, false, rank, ranks));
    size_type largest = 0;
    double const ms = colx::bench::slowest_rank_ms(world, [&] { largest = (d | colx::sort_by("k"_c)).local().num_rows(); }, o.repeat);
    largest = world.all_max(largest);
    if (rank == 0 && ranks > 1) { std::printf("%s", dist::explain(world).c_str()); }
    world.clear_traffic();
    note("sort_by", ms, static_cast<double>(rows) * 16 / ms / 1e6,
         std::to_string(rows) + " rows x 16 B; the largest rank holds " + std::to_string(largest) + " rows");
  }
  if (ranks > 1) {  // shuffle against NCCL's all-to-all
    auto const rows = static_cast<std::int64_t>(o.shuffle_rows);
    dist::dist_frame<kv_schema> const d(world, generate<kv_schema>(rows, rows, false, rank, ranks));
    world.clear_traffic();
    double const ms = colx::bench::slowest_rank_ms(world, [&] { (void)dist::hash_shuffle(d, "k"_c); }, o.repeat);
    double sent = 0;
    double exchange_ms = 1e30;
    for (auto const& t : world.traffic()) {
      if (t.step == "hash shuffle" && t.transfer_ms > 0) {
        sent = static_cast<double>(t.bytes_sent);
        exchange_ms = std::min(exchange_ms, t.milliseconds);
      }
    }
    double const shuffle_gbs = sent / ms / 1e6;
    double const per_peer = world.all_max(sent) / (ranks - 1);  // every rank must post the same sizes
    double const nccl_gbs = nccl_all_to_all_gbps(world, static_cast<std::size_t>(per_peer), o.repeat);
    note("hash shuffle", ms, shuffle_gbs,
         std::to_string(rows) + " rows x 16 B; sent " + std::to_string(sent / 1e9).substr(0, 6) + " GB a rank: " +
             std::to_string(shuffle_gbs).substr(0, 6) + " GB/s a rank (exchange step alone " +
             std::to_string(exchange_ms).substr(0, 6) + " ms); NCCL all-to-all of the same bytes " +
             std::to_string(nccl_gbs).substr(0, 6) + " GB/s a rank");
    if (rank == 0) { std::printf("%s", dist::explain(world).c_str()); }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string const a = argv[i];
    std::string const v = argv[i + 1];
    if (a == "--ranks") {
      o.ranks.clear();
      std::stringstream ss(v);
      for (std::string x; std::getline(ss, x, ',');) { o.ranks.push_back(std::stoi(x)); }
    } else if (a == "--rows") {
      o.rows = std::stod(v);
    } else if (a == "--groups") {
      o.groups = std::stod(v);
    } else if (a == "--left") {
      o.left = std::stod(v);
    } else if (a == "--right") {
      o.right = std::stod(v);
    } else if (a == "--sort-rows") {
      o.sort_rows = std::stod(v);
    } else if (a == "--shuffle-rows") {
      o.shuffle_rows = std::stod(v);
    } else if (a == "--repeat") {
      o.repeat = std::stoi(v);
    } else if (a == "--tsv") {
      o.tsv = v;
    } else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  auto const dir = dist::make_rendezvous_dir();
  int worst = 0;
  for (int ranks : o.ranks) {
    // Rank 0's lines go to a file the parent reads back (the children are separate processes).
    auto const lines = dir / ("lines-" + std::to_string(ranks));
    int const rc = dist::run_local_ranks(ranks, [&](int rank, int size) {
      std::vector<result_line> out;
      try {
        run_rank(o, rank, size, dir, out);
      } catch (std::exception const& e) {
        std::fprintf(stderr, "rank %d of %d: %s\n", rank, size, e.what());
        return 1;
      }
      if (rank == 0) {
        std::ofstream f(lines);
        for (auto const& l : out) { f << l.name << '\t' << l.ranks << '\t' << l.ms << '\t' << l.extra << '\t' << l.note << '\n'; }
      }
      return 0;
    });
    if (rc != 0) {
      std::printf("%d GPU(s): failed (%d)\n", ranks, rc);
      worst = rc;
    }
    if (!o.tsv.empty() && std::filesystem::exists(lines)) {
      std::ifstream in(lines);
      std::ofstream tsv(o.tsv, std::ios::app);
      for (std::string line; std::getline(in, line);) { tsv << line << '\n'; }
    }
  }
  std::filesystem::remove_all(dir);
  return worst;
}

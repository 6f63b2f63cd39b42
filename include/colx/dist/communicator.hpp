// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one thing distributed colx needs from a transport: the ranks of a world, point-to-point
// transfers posted as one group, and small host-value collectives. Two implementations move real
// data: nccl_communicator (device memory, dist/nccl_communicator.hpp) and mpi_communicator (host
// memory, dist/mpi_communicator.hpp); self_communicator is the world of one rank. Everything else
// in colx/dist is written against this interface, once.
//
// Every rank must call the same collectives in the same order. A rank whose local work throws
// would leave the others waiting in the next collective, so distributed operations run each local
// step under agree() (below): the ranks exchange whether the step succeeded, and if any rank
// failed every rank throws (the failed one its own exception, the others a dist_error naming it).
#include <colx/core/error.hpp>
#include <colx/memory/resource.hpp>
#include <colx/memory/stream.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace colx {

// Another rank of a distributed operation failed, or the ranks disagree (schemas, arguments).
class dist_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace dist {

// One transfer of a group: `bytes` bytes to or from rank `peer`. Zero bytes is allowed (no
// message is posted). Pointers are in the communicator's memory kind.
struct send_part {
  int peer;
  void const* data;
  std::size_t bytes;
};
struct recv_part {
  int peer;
  void* data;
  std::size_t bytes;
};

// What one distributed step moved, for explain(): bytes this rank sent to and received from
// other ranks (its own share is not counted: it never leaves the rank).
struct traffic_record {
  std::string step;
  bool moved_rows = false;  // an exchange between ranks (else a local step: its time and wait)
  std::int64_t rows_sent = 0;
  std::int64_t rows_received = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t bytes_received = 0;
  double milliseconds = 0;  // the whole step (a local step: this rank's work), of which:
  double prepare_ms = 0;    //   sizes and per-destination copies (nulls, strings)
  double wait_ms = 0;       //   for the other ranks (to be ready, to agree), and the sizes' exchange
  double transfer_ms = 0;   //   the grouped transfer, to its completion
};

class communicator {
 public:
  communicator() = default;
  communicator(communicator const&) = delete;
  communicator& operator=(communicator const&) = delete;
  virtual ~communicator() = default;

  [[nodiscard]] virtual int rank() const noexcept = 0;
  [[nodiscard]] virtual int size() const noexcept = 0;
  // The memory its transfers read and write: device (NCCL) or host (MPI, self).
  [[nodiscard]] virtual memory_kind kind() const noexcept = 0;
  [[nodiscard]] virtual std::string name() const = 0;

  // Posts every send and receive, then completes them all: NCCL's grouped send/recv, ordered on
  // `stream`; MPI's nonblocking send/recv and a wait. A send to this rank itself is an error:
  // callers copy their own share.
  virtual void exchange(std::span<send_part const> sends, std::span<recv_part const> recvs, stream_ref stream) = 0;
  // The exchange above with `meanwhile` run while the transfer is under way, for this rank's work
  // that needs nothing the transfer brings: NCCL moves the rows on a stream of its own, after the
  // work `stream` holds, while what `meanwhile` puts on `stream` runs beside it; `stream` then
  // waits for the transfer. A transport that moves the rows as it is called runs `meanwhile`
  // after. Either way, the rows received may be read on `stream` once this returns.
  virtual void exchange_meanwhile(std::span<send_part const> sends, std::span<recv_part const> recvs, stream_ref stream,
                                  std::function<void()> const& meanwhile) {
    exchange(sends, recvs, stream);
    meanwhile();
  }

  // Host-value collectives, small and blocking. all_gather: `bytes` from each rank into `all`,
  // rank order (size() * bytes). all_to_all: `bytes` to each rank from `send` (size() * bytes,
  // rank order) into `recv`, the r-th block from rank r. Each is counted and timed (collectives()):
  // on GPUs their round trips, not their bytes, are what a distributed plan of small tables costs.
  void all_gather_bytes(void const* mine, void* all, std::size_t bytes) {
    counted([&] { gather_bytes(mine, all, bytes); });
  }
  void all_to_all_bytes(void const* send, void* recv, std::size_t bytes) {
    counted([&] { scatter_gather_bytes(send, recv, bytes); });
  }

  // Typed faces of the collectives above.
  template <class T>
  [[nodiscard]] std::vector<T> all_gather(T const& mine) {
    static_assert(std::is_trivially_copyable_v<T>, "colx::dist: only trivially copyable values are gathered");
    std::vector<T> all(static_cast<std::size_t>(size()));
    all_gather_bytes(&mine, all.data(), sizeof(T));
    return all;
  }
  template <class T>
  [[nodiscard]] std::vector<T> all_gather_n(std::span<T const> mine) {
    static_assert(std::is_trivially_copyable_v<T>, "colx::dist: only trivially copyable values are gathered");
    std::vector<T> all(mine.size() * static_cast<std::size_t>(size()));
    all_gather_bytes(mine.data(), all.data(), mine.size_bytes());
    return all;
  }
  // Each rank sends `per_rank` values to every rank (send.size() == size() * per_rank).
  template <class T>
  [[nodiscard]] std::vector<T> all_to_all(std::span<T const> send) {
    static_assert(std::is_trivially_copyable_v<T>, "colx::dist: only trivially copyable values are exchanged");
    COLX_EXPECTS(send.size() % static_cast<std::size_t>(size()) == 0, "all_to_all: ", send.size(),
                 " values do not split evenly over ", size(), " ranks");
    std::vector<T> recv(send.size());
    all_to_all_bytes(send.data(), recv.data(), send.size_bytes() / static_cast<std::size_t>(size()));
    return recv;
  }
  template <class T>
  [[nodiscard]] T all_sum(T mine) {
    T total{};
    for (T v : all_gather(mine)) { total += v; }
    return total;
  }
  template <class T>
  [[nodiscard]] T all_max(T mine) {
    auto const all = all_gather(mine);
    return *std::max_element(all.begin(), all.end());
  }
  void barrier() { (void)all_gather(std::uint8_t{0}); }

  // What the distributed steps on this communicator moved, oldest first, and how many host-value
  // collectives ran since the last clear_traffic() and how long they took (waits for slower ranks
  // included).
  [[nodiscard]] std::vector<traffic_record> const& traffic() const noexcept { return _traffic; }
  void record(traffic_record r) { _traffic.push_back(std::move(r)); }
  struct collective_tally {
    std::int64_t calls = 0;
    double milliseconds = 0;
  };
  [[nodiscard]] collective_tally collectives() const noexcept { return _collectives; }
  void clear_traffic() noexcept {
    _traffic.clear();
    _collectives = {};
  }

 protected:
  virtual void gather_bytes(void const* mine, void* all, std::size_t bytes) = 0;
  virtual void scatter_gather_bytes(void const* send, void* recv, std::size_t bytes) = 0;

 private:
  template <class F>
  void counted(F&& f) {
    auto const started = std::chrono::steady_clock::now();
    f();
    _collectives.calls += 1;
    _collectives.milliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  }

  std::vector<traffic_record> _traffic;
  collective_tally _collectives;
};

namespace detail {
// A rank's outcome of one step, as every rank sees it: fixed size, so one all_gather carries it.
struct step_outcome {
  static constexpr std::size_t message_bytes = 472;
  std::uint32_t failed = 0;
  char message[message_bytes] = {};
};
}  // namespace detail

// Ends a step on every rank together: `local` is this rank's exception, or null. When any rank
// failed, every rank throws: the failed rank its own exception (its type kept), the others a
// dist_error naming the first failed rank and its message. Every rank must call it.
inline void agree(communicator& comm, std::exception_ptr local, std::string const& step) {
  detail::step_outcome mine;
  if (local) {
    mine.failed = 1;
    std::string text = "unknown exception";
    try {
      std::rethrow_exception(local);
    } catch (std::exception const& e) {
      text = e.what();
    } catch (...) {
    }
    std::memcpy(mine.message, text.data(), std::min(text.size(), detail::step_outcome::message_bytes - 1));
  }
  auto const all = comm.all_gather(mine);
  if (local) { std::rethrow_exception(local); }
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].failed != 0) {
      std::ostringstream what;
      what << "colx::dist: " << step << " failed on rank " << r << " of " << all.size() << ": " << all[r].message;
      throw dist_error(what.str());
    }
  }
}

// Runs `f` as one step: its result on success, else every rank throws (agree above). The step is
// recorded with this rank's time in f and its wait for the others (explain shows both).
template <class F>
auto agreed(communicator& comm, std::string const& step, F&& f) {
  std::exception_ptr failure;
  auto const started = std::chrono::steady_clock::now();
  auto const finish = [&] {
    auto const ran = std::chrono::steady_clock::now();
    agree(comm, failure, step);
    traffic_record r{step};
    r.milliseconds = std::chrono::duration<double, std::milli>(ran - started).count();
    r.wait_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - ran).count();
    comm.record(std::move(r));
  };
  if constexpr (std::is_void_v<decltype(f())>) {
    try {
      f();
    } catch (...) {
      failure = std::current_exception();
    }
    finish();
  } else {
    std::optional<decltype(f())> result;  // results need not be default-constructible (frames)
    try {
      result.emplace(f());
    } catch (...) {
      failure = std::current_exception();
    }
    finish();
    return std::move(*result);
  }
}

// Every rank's value (`all`, in rank order, the same on every rank) equal to rank 0's, or a
// dist_error on every rank alike that says where they differ.
inline void expect_same_values(std::span<std::uint64_t const> all, std::string const& what) {
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r] != all[0]) {
      std::ostringstream msg;
      msg << "colx::dist: the ranks disagree on " << what << " (rank 0 and rank " << r << " differ)";
      throw dist_error(msg.str());
    }
  }
}

// The same value on every rank, or a dist_error on every rank that says where they differ.
inline void expect_same_on_all_ranks(communicator& comm, std::uint64_t value, std::string const& what) {
  auto const all = comm.all_gather(value);
  expect_same_values(all, what);
}

}  // namespace dist
}  // namespace colx

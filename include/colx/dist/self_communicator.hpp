// SPDX-License-Identifier: Apache-2.0
#pragma once
// The world of one rank: every collective returns this rank's own values and nothing is sent.
// A distributed program runs unchanged on one process with it (the one-GPU baseline of the
// scale-out benchmarks, and unit tests that need no MPI).
#include <colx/dist/communicator.hpp>

namespace colx::dist {

class self_communicator final : public communicator {
 public:
  explicit self_communicator(memory_kind kind = memory_kind::host) : _kind(kind) {}

  [[nodiscard]] int rank() const noexcept override { return 0; }
  [[nodiscard]] int size() const noexcept override { return 1; }
  [[nodiscard]] memory_kind kind() const noexcept override { return _kind; }
  [[nodiscard]] std::string name() const override { return "self"; }

  void exchange(std::span<send_part const> sends, std::span<recv_part const> recvs, stream_ref) override {
    COLX_EXPECTS(sends.empty() && recvs.empty(), "self_communicator: a world of one rank has no peer to send to");
  }
 protected:
  // The host-value collectives (communicator::all_gather_bytes and all_to_all_bytes count each call).
  void gather_bytes(void const* mine, void* all, std::size_t bytes) override {
    if (bytes > 0) { std::memcpy(all, mine, bytes); }
  }
  void scatter_gather_bytes(void const* send, void* recv, std::size_t bytes) override {
    if (bytes > 0) { std::memcpy(recv, send, bytes); }
  }

 private:
  memory_kind _kind;
};

}  // namespace colx::dist

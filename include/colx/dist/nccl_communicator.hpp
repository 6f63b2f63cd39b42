// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx: needs-nccl
// Device memory between GPUs through NCCL: one rank per GPU, each rank a process (one process
// driving several GPUs would need one colx memory pool per device, which colx does not keep).
// The ranks meet through NCCL's unique id, which rank 0 makes and hands over by a file
// (from_file, used by run_local_ranks) or any channel the program has (MPI_Bcast, say).
// Transfers are ordered on the caller's stream; only the host-value collectives synchronise.
// NVLink multicast (NVLS) is not used: colx sets NCCL_NVLS_ENABLE=0 unless the caller set it.
#include <colx/dist/communicator.hpp>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <fstream>
#include <string>
#include <thread>

namespace colx::dist {

namespace detail {
inline void nccl_check(ncclResult_t rc, char const* what) {
  if (rc != ncclSuccess) {
    throw dist_error(std::string("colx::dist: ") + what + " failed: " + ncclGetErrorString(rc));
  }
}
inline void cuda_check(cudaError_t rc, char const* what) {
  if (rc != cudaSuccess) { throw dist_error(std::string("colx::dist: ") + what + " failed: " + cudaGetErrorString(rc)); }
}
}  // namespace detail

class nccl_communicator final : public communicator {
 public:
  // Joins the world as `rank` of `size` on the current device.
  nccl_communicator(ncclUniqueId const& id, int rank, int size) : _rank(rank), _size(size) {
    ::setenv("NCCL_NVLS_ENABLE", "0", 0);
    COLX_EXPECTS(0 <= rank && rank < size, "nccl_communicator: rank ", rank, " is outside a world of ", size);
    detail::nccl_check(ncclCommInitRank(&_comm, size, id, rank), "ncclCommInitRank");
    detail::cuda_check(cudaStreamCreateWithFlags(&_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  // Rank 0 makes the id and writes it to `path` (whole, by rename); the others wait for it.
  static nccl_communicator from_file(std::filesystem::path const& path, int rank, int size,
                                     std::chrono::seconds wait = std::chrono::seconds(120)) {
    ncclUniqueId id{};
    if (rank == 0) {
      detail::nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
      auto const partial = path.string() + ".partial";
      {
        std::ofstream out(partial, std::ios::binary);
        out.write(reinterpret_cast<char const*>(&id), sizeof id);
        COLX_EXPECTS(out.good(), "nccl_communicator: cannot write the unique id to ", partial);
      }
      std::filesystem::rename(partial, path);
    } else {
      auto const until = std::chrono::steady_clock::now() + wait;
      while (!std::filesystem::exists(path)) {
        if (std::chrono::steady_clock::now() > until) {
          throw dist_error("colx::dist: rank " + std::to_string(rank) + " found no NCCL unique id at " + path.string());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      std::ifstream in(path, std::ios::binary);
      in.read(reinterpret_cast<char*>(&id), sizeof id);
      COLX_EXPECTS(in.gcount() == static_cast<std::streamsize>(sizeof id), "nccl_communicator: a short unique id in ", path.string());
    }
    nccl_communicator comm(id, rank, size);
    // Every rank has joined once the world exists: the id's file can go, so that a later world on
    // the same path never meets it.
    comm.barrier();
    if (rank == 0) { std::filesystem::remove(path); }
    return comm;
  }

  nccl_communicator(nccl_communicator&& other) noexcept
      : _rank(other._rank), _size(other._size), _comm(other._comm), _stream(other._stream), _scratch(other._scratch),
        _scratch_bytes(other._scratch_bytes), _pinned(other._pinned), _pinned_bytes(other._pinned_bytes) {
    other._comm = nullptr;
    other._stream = nullptr;
    other._scratch = nullptr;
    other._pinned = nullptr;
  }
  ~nccl_communicator() override {
    if (_pinned != nullptr) { cudaFreeHost(_pinned); }
    if (_scratch != nullptr) { cudaFree(_scratch); }
    if (_stream != nullptr) { cudaStreamDestroy(_stream); }
    if (_comm != nullptr) { ncclCommDestroy(_comm); }
  }

  [[nodiscard]] int rank() const noexcept override { return _rank; }
  [[nodiscard]] int size() const noexcept override { return _size; }
  [[nodiscard]] memory_kind kind() const noexcept override { return memory_kind::device; }
  [[nodiscard]] std::string name() const override { return "nccl"; }
  [[nodiscard]] ncclComm_t get() const noexcept { return _comm; }

  void exchange(std::span<send_part const> sends, std::span<recv_part const> recvs, stream_ref stream) override {
    cudaStream_t const s = stream.value();
    for (auto const& r : recvs) { check_peer(r.peer); }  // before anything is posted
    for (auto const& x : sends) { check_peer(x.peer); }
    detail::nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (auto const& r : recvs) {
      if (r.bytes > 0) { detail::nccl_check(ncclRecv(r.data, r.bytes, ncclChar, r.peer, _comm, s), "ncclRecv"); }
    }
    for (auto const& x : sends) {
      if (x.bytes > 0) { detail::nccl_check(ncclSend(x.data, x.bytes, ncclChar, x.peer, _comm, s), "ncclSend"); }
    }
    detail::nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }
  void exchange_meanwhile(std::span<send_part const> sends, std::span<recv_part const> recvs, stream_ref stream,
                          std::function<void()> const& meanwhile) override {
    wait(_stream, stream.value());  // the buffers sent and received are ready
    exchange(sends, recvs, _stream);
    std::exception_ptr failure;
    try {
      meanwhile();
    } catch (...) {
      failure = std::current_exception();
    }
    wait(stream.value(), _stream);  // (also after a failure: the transfer still writes the buffers)
    if (failure) { std::rethrow_exception(failure); }
  }

 protected:
  // The host-value collectives (communicator::all_gather_bytes and all_to_all_bytes count each call).
  // The values pass through pinned host memory: a copy from pageable memory is staged by the
  // driver, and these small collectives are all latency (one a distributed step).
  void gather_bytes(void const* mine, void* all, std::size_t bytes) override {
    if (bytes == 0) { return; }
    std::size_t const total = bytes * static_cast<std::size_t>(_size);
    char* d = scratch(bytes + total);
    char* h = pinned(bytes + total);
    std::memcpy(h, mine, bytes);
    detail::cuda_check(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, _stream), "cudaMemcpyAsync");
    detail::nccl_check(ncclAllGather(d, d + bytes, bytes, ncclChar, _comm, _stream), "ncclAllGather");
    detail::cuda_check(cudaMemcpyAsync(h + bytes, d + bytes, total, cudaMemcpyDeviceToHost, _stream), "cudaMemcpyAsync");
    detail::cuda_check(cudaStreamSynchronize(_stream), "cudaStreamSynchronize");
    std::memcpy(all, h + bytes, total);
  }
  void scatter_gather_bytes(void const* send, void* recv, std::size_t bytes) override {
    if (bytes == 0) { return; }
    std::size_t const total = bytes * static_cast<std::size_t>(_size);
    char* d = scratch(2 * total);
    char* h = pinned(2 * total);
    std::memcpy(h, send, total);
    detail::cuda_check(cudaMemcpyAsync(d, h, total, cudaMemcpyHostToDevice, _stream), "cudaMemcpyAsync");
    detail::nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int p = 0; p < _size; ++p) {
      auto const at = static_cast<std::size_t>(p) * bytes;
      detail::nccl_check(ncclSend(d + at, bytes, ncclChar, p, _comm, _stream), "ncclSend");
      detail::nccl_check(ncclRecv(d + total + at, bytes, ncclChar, p, _comm, _stream), "ncclRecv");
    }
    detail::nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    detail::cuda_check(cudaMemcpyAsync(h + total, d + total, total, cudaMemcpyDeviceToHost, _stream), "cudaMemcpyAsync");
    detail::cuda_check(cudaStreamSynchronize(_stream), "cudaStreamSynchronize");
    std::memcpy(recv, h + total, total);
  }

 private:
  // Work put on `waiter` from now on waits for the work `done` holds now.
  static void wait(cudaStream_t waiter, cudaStream_t done) {
    cudaEvent_t e = nullptr;
    detail::cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    cudaError_t rc = cudaEventRecord(e, done);
    if (rc == cudaSuccess) { rc = cudaStreamWaitEvent(waiter, e, 0); }
    cudaEventDestroy(e);  // (released once the wait is done)
    detail::cuda_check(rc, "cudaStreamWaitEvent");
  }
  void check_peer(int peer) const {
    COLX_EXPECTS(0 <= peer && peer < _size && peer != _rank, "exchange: peer ", peer, " is not another rank of ", _size);
  }
  char* pinned(std::size_t bytes) {
    if (bytes > _pinned_bytes) {
      void* const old = _pinned;
      _pinned = nullptr;  // (a throw below leaves no area, not a freed one that looks big enough)
      _pinned_bytes = 0;
      if (old != nullptr) { detail::cuda_check(cudaFreeHost(old), "cudaFreeHost"); }
      detail::cuda_check(cudaMallocHost(&_pinned, bytes), "cudaMallocHost");
      _pinned_bytes = bytes;
    }
    return static_cast<char*>(_pinned);
  }
  char* scratch(std::size_t bytes) {
    if (bytes > _scratch_bytes) {
      void* const old = _scratch;
      _scratch = nullptr;  // (as in pinned above)
      _scratch_bytes = 0;
      if (old != nullptr) { detail::cuda_check(cudaFree(old), "cudaFree"); }
      detail::cuda_check(cudaMalloc(&_scratch, bytes), "cudaMalloc");
      _scratch_bytes = bytes;
    }
    return static_cast<char*>(_scratch);
  }

  int _rank;
  int _size;
  ncclComm_t _comm = nullptr;
  cudaStream_t _stream = nullptr;
  void* _scratch = nullptr;
  std::size_t _scratch_bytes = 0;
  void* _pinned = nullptr;
  std::size_t _pinned_bytes = 0;
};

}  // namespace colx::dist

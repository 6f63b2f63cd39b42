// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx: needs-mpi
// Host memory between processes through MPI (Open MPI in CI: `mpirun -n 2`). It does not own
// MPI: the program calls MPI_Init and MPI_Finalize (mpi_session below does both). Messages
// larger than 2^31 - 1 bytes go as several, since MPI counts are ints.
#include <colx/dist/communicator.hpp>

#include <mpi.h>

#include <climits>
#include <string>
#include <vector>

namespace colx::dist {

namespace detail {
inline void mpi_check(int rc, char const* what) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(rc, text, &length);
    throw dist_error(std::string("colx::dist: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(length)));
  }
}
}  // namespace detail

// MPI_Init on construction (with MPI_THREAD_SERIALIZED), MPI_Finalize on destruction; errors of
// MPI calls come back as codes (MPI_ERRORS_RETURN), which colx turns into dist_error.
class mpi_session {
 public:
  mpi_session(int* argc, char*** argv) {
    int provided = 0;
    detail::mpi_check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  mpi_session(mpi_session const&) = delete;
  mpi_session& operator=(mpi_session const&) = delete;
  ~mpi_session() { MPI_Finalize(); }
};

class mpi_communicator final : public communicator {
 public:
  explicit mpi_communicator(MPI_Comm comm = MPI_COMM_WORLD) : _comm(comm) {
    detail::mpi_check(MPI_Comm_rank(_comm, &_rank), "MPI_Comm_rank");
    detail::mpi_check(MPI_Comm_size(_comm, &_size), "MPI_Comm_size");
  }

  [[nodiscard]] int rank() const noexcept override { return _rank; }
  [[nodiscard]] int size() const noexcept override { return _size; }
  [[nodiscard]] memory_kind kind() const noexcept override { return memory_kind::host; }
  [[nodiscard]] std::string name() const override { return "mpi"; }

  void exchange(std::span<send_part const> sends, std::span<recv_part const> recvs, stream_ref) override {
    std::vector<MPI_Request> requests;
    // Receives first, so that eager sends find them posted.
    for (auto const& r : recvs) {
      check_peer(r.peer);
      post(r.data, r.bytes, r.peer, requests, true);
    }
    for (auto const& s : sends) {
      check_peer(s.peer);
      post(const_cast<void*>(s.data), s.bytes, s.peer, requests, false);  // MPI_Isend takes void const*
    }
    if (!requests.empty()) {
      detail::mpi_check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
                        "MPI_Waitall");
    }
  }
 protected:
  // The host-value collectives (communicator::all_gather_bytes and all_to_all_bytes count each call).
  void gather_bytes(void const* mine, void* all, std::size_t bytes) override {
    COLX_EXPECTS(bytes <= INT_MAX, "all_gather: ", bytes, " bytes a rank is more than MPI counts");
    detail::mpi_check(MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE, _comm),
                      "MPI_Allgather");
  }
  void scatter_gather_bytes(void const* send, void* recv, std::size_t bytes) override {
    COLX_EXPECTS(bytes <= INT_MAX, "all_to_all: ", bytes, " bytes a rank is more than MPI counts");
    detail::mpi_check(MPI_Alltoall(send, static_cast<int>(bytes), MPI_BYTE, recv, static_cast<int>(bytes), MPI_BYTE, _comm),
                      "MPI_Alltoall");
  }

 private:
  void check_peer(int peer) const {
    COLX_EXPECTS(0 <= peer && peer < _size && peer != _rank, "exchange: peer ", peer, " is not another rank of ", _size);
  }
  // One message of at most 1 GiB per request; the pieces of one transfer share a tag by order.
  void post(void* data, std::size_t bytes, int peer, std::vector<MPI_Request>& requests, bool receive) const {
    constexpr std::size_t piece = std::size_t{1} << 30;
    auto* p = static_cast<char*>(data);
    for (std::size_t done = 0; done < bytes; done += piece) {
      int const n = static_cast<int>(std::min(piece, bytes - done));
      MPI_Request req{};
      if (receive) {
        detail::mpi_check(MPI_Irecv(p + done, n, MPI_BYTE, peer, 0, _comm, &req), "MPI_Irecv");
      } else {
        detail::mpi_check(MPI_Isend(p + done, n, MPI_BYTE, peer, 0, _comm, &req), "MPI_Isend");
      }
      requests.push_back(req);
    }
  }

  MPI_Comm _comm;
  int _rank = 0;
  int _size = 1;
};

}  // namespace colx::dist

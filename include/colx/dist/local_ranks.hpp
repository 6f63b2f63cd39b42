// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx: host-only
// One machine's ranks as processes, without MPI: run_local_ranks(n, body) forks n children, child
// r runs body(r, n) and exits with its result; the parent waits for all. A child that fails
// (non-zero, a signal) takes the others down after `grace`, so that a rank that died can never
// leave the rest waiting in a collective forever. Fork before the parent touches CUDA: a CUDA
// context does not survive fork. Each child picks its GPU (rank % devices) itself.
#include <colx/core/error.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace colx::dist {

// A directory for one run's rendezvous files (the NCCL unique id), removed by the parent.
[[nodiscard]] inline std::filesystem::path make_rendezvous_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "colx-ranks-XXXXXX").string();
  COLX_EXPECTS(::mkdtemp(tmpl.data()) != nullptr, "run_local_ranks: cannot make a directory under ",
               std::filesystem::temp_directory_path().string());
  return tmpl;
}

// Returns 0 when every rank returned 0, else the first failure's code (128 + signal for a signal).
inline int run_local_ranks(int n, std::function<int(int rank, int size)> const& body,
                           std::chrono::seconds grace = std::chrono::seconds(20)) {
  COLX_EXPECTS(n >= 1, "run_local_ranks: ", n, " ranks");
  std::vector<pid_t> children;
  std::fflush(nullptr);  // else each child would print the parent's buffered output again
  for (int r = 0; r < n; ++r) {
    pid_t const pid = ::fork();
    COLX_EXPECTS(pid >= 0, "run_local_ranks: fork failed for rank ", r);
    if (pid == 0) {
      int rc = 1;
      try {
        rc = body(r, n);
      } catch (std::exception const& e) {
        std::fprintf(stderr, "rank %d: %s\n", r, e.what());
      } catch (...) {  // never back into the parent's code
        std::fprintf(stderr, "rank %d: an exception that is not a std::exception\n", r);
      }
      std::fflush(nullptr);
      std::_Exit(rc);
    }
    children.push_back(pid);
  }
  int first_failure = 0;
  auto const deadline_after_failure = [&] { return std::chrono::steady_clock::now() + grace; };
  auto deadline = std::chrono::steady_clock::time_point::max();
  std::size_t alive = children.size();
  while (alive > 0) {
    int status = 0;
    pid_t done = 0;
    for (pid_t& pid : children) {  // only this call's children (a caller may have others)
      if (pid > 0 && (done = ::waitpid(pid, &status, WNOHANG)) != 0) {
        if (done > 0) { pid = -pid; }
        break;
      }
    }
    if (done > 0) {
      --alive;
      int const rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      if (rc != 0 && first_failure == 0) {
        first_failure = rc;
        deadline = deadline_after_failure();
      }
      continue;
    }
    if (done < 0) { break; }
    if (std::chrono::steady_clock::now() > deadline) {
      for (pid_t pid : children) {
        if (pid > 0) { ::kill(pid, SIGKILL); }
      }
      deadline = std::chrono::steady_clock::time_point::max();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return first_failure;
}

}  // namespace colx::dist

// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading a file's column chunks into one buffer, several at once, handing them on in slabs (runs
// of consecutive chunks) as each slab is complete, so that what follows the read (planning the
// pages, copying them to the GPU, decompressing them there) overlaps the reading of the slabs after.
//
// The calling thread handles the slabs, in order; OpenMP's other threads read. While its next slab
// is not complete, the calling thread reads too, so the read finishes with any number of threads
// (one: it reads everything itself, then handles each slab).
#include <colx/core/error.hpp>
#include <colx/io/file_source.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <vector>

#if defined(_OPENMP)
#  include <omp.h>
#endif

namespace colx::parquet::detail {

struct chunk_read {
  std::uint64_t file_offset;
  std::size_t size, at;  // bytes, and where they go in the buffer
};

// Slabs of about slab_bytes of consecutive reads: the first read of each.
inline std::vector<std::size_t> slab_starts(std::vector<chunk_read> const& reads, std::size_t slab_bytes) {
  std::vector<std::size_t> first{0};
  for (std::size_t r = 1; r < reads.size(); ++r) {
    if (reads[r].at - reads[first.back()].at >= slab_bytes) { first.push_back(r); }
  }
  return first;
}

// Reads `reads` into `base` and calls on_slab(k, first_read, end_read) on the calling thread for
// every slab k in order, once its reads are done. An exception, from a read or from on_slab, stops
// the reading and is thrown here after the threads have stopped.
template <class OnSlab>
void read_slabs(file_source const& file, std::vector<chunk_read> const& reads, std::uint8_t* base, std::vector<std::size_t> const& first,
                OnSlab&& on_slab) {
  std::size_t const slabs = reads.empty() ? 0 : first.size();
  std::vector<std::size_t> slab_of(reads.size());
  std::vector<std::atomic<std::size_t>> left(slabs);
  for (std::size_t k = 0; k < slabs; ++k) {
    std::size_t const end = k + 1 < slabs ? first[k + 1] : reads.size();
    left[k] = end - first[k];
    std::fill(slab_of.begin() + static_cast<std::ptrdiff_t>(first[k]), slab_of.begin() + static_cast<std::ptrdiff_t>(end), k);
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex m;
  std::condition_variable done;
  std::exception_ptr failure;
  auto const fail = [&] {
    std::lock_guard lock(m);
    if (!failure) { failure = std::current_exception(); }
    stop = true;
    done.notify_all();
  };
  // Reads the next unread chunk; false when none is left (or the read stopped).
  auto const read_one = [&] {
    std::size_t const r = next.fetch_add(1);
    if (r >= reads.size() || stop) { return false; }
    try {
      file.read(reads[r].file_offset, std::span(base + reads[r].at, reads[r].size));
    } catch (...) {
      fail();
      return false;
    }
    if (left[slab_of[r]].fetch_sub(1) == 1) {
      std::lock_guard lock(m);  // (the handler checks and waits under the lock: no wake-up is lost)
      done.notify_all();
    }
    return true;
  };
  auto const handle = [&] {
    for (std::size_t k = 0; k < slabs && !stop; ++k) {
      while (left[k].load() != 0 && !stop) {
        if (!read_one()) {
          std::unique_lock lock(m);
          done.wait(lock, [&] { return left[k].load() == 0 || stop.load(); });
        }
      }
      if (stop) { break; }
      std::size_t const end = k + 1 < slabs ? first[k + 1] : reads.size();
      try {
        on_slab(k, first[k], end);
      } catch (...) {
        fail();
      }
    }
  };
#if defined(_OPENMP)
#  pragma omp parallel
  {
    if (omp_get_thread_num() == 0) {
      handle();
    } else {
      while (read_one()) {}
    }
  }
#else
  handle();
#endif
  if (failure) { std::rethrow_exception(failure); }
}

}  // namespace colx::parquet::detail

// SPDX-License-Identifier: Apache-2.0
// A timeline of each NVTX range, for GPU machines without Nsight Systems: a CUPTI injection
// library that records kernels, copies, memsets, runtime API calls and NVTX ranges, and at exit
// prints, for the last range of each name (the runner's "Q1", ...), every record in it and a
// summary: kernels and their time, copies, memsets, runtime calls, waits. Where a query's wall
// time is far above its kernels' sum, the calls and waits between them are what to cut.
//   cmake --build build/cuda --target colx_cupti_trace
//   CUDA_INJECTION64_PATH=build/cuda/bench/libcolx_cupti_trace.so \
//   NVTX_INJECTION64_PATH=/usr/local/cuda/lib64/libcupti.so \
//     build/cuda/examples/tpch/colx-tpch-cuda --data DIR --queries 1 --repeat 3
// (COLX_TRACE_DRIVER=1 adds the driver's calls.) Tracing itself slows the host side by a third.
#include <cupti.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {
// One record: K a kernel, C a copy, S a memset, R a runtime call, D a driver call; times in ns.
struct activity {
  unsigned long long start, end;
  std::string kind, name;
};
std::mutex mutex;
std::vector<activity> activities;
struct range {
  unsigned long long start = 0, end = 0;
  std::string name;
};
std::map<unsigned, range> ranges;  // by marker id

// CUPTI's buffers: asked for, then handed back full, records read out of them.
void CUPTIAPI request(uint8_t** buf, size_t* size, size_t* max) {
  *size = 8 << 20;
  *buf = static_cast<uint8_t*>(aligned_alloc(8, *size));
  *max = 0;
}
void CUPTIAPI complete(CUcontext, uint32_t, uint8_t* buf, size_t, size_t valid) {
  CUpti_Activity* r = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  while (cuptiActivityGetNextRecord(buf, valid, &r) == CUPTI_SUCCESS) {
    switch (r->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(r);
        std::string n = k->name ? k->name : "?";
        activities.push_back({k->start, k->end, "K", n.substr(0, 110) + " g" + std::to_string(k->gridX) + " b" + std::to_string(k->blockX)});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(r);
        activities.push_back({m->start, m->end, "C", "copy kind " + std::to_string(m->copyKind) + " " + std::to_string(m->bytes) + " B"});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(r);
        activities.push_back({m->start, m->end, "S", "memset " + std::to_string(m->bytes) + " B"});
        break;
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME:
      case CUPTI_ACTIVITY_KIND_DRIVER: {
        bool const runtime = r->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
        auto* a = reinterpret_cast<CUpti_ActivityAPI*>(r);
        char const* n = nullptr;
        cuptiGetCallbackName(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a->cbid, &n);
        activities.push_back({a->start, a->end, runtime ? "R" : "D", n ? n : "?"});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MARKER: {
        auto* m = reinterpret_cast<CUpti_ActivityMarker2*>(r);
        auto& g = ranges[m->id];
        if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
          g.start = m->timestamp;
          g.name = m->name ? m->name : "?";
        }
        if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) { g.end = m->timestamp; }
        break;
      }
      default: break;
    }
  }
  free(buf);
}

// At exit: each range name's last range, record by record, then its summary line.
void report() {
  cuptiActivityFlushAll(1);
  std::lock_guard<std::mutex> lock(mutex);
  std::map<std::string, range> last;
  for (auto& [id, g] : ranges) {
    if (g.end > g.start && (last[g.name].start < g.start)) { last[g.name] = g; }
  }
  std::sort(activities.begin(), activities.end(), [](activity const& a, activity const& b) { return a.start < b.start; });
  for (auto& [name, g] : last) {
    std::printf("=== trace of the last %s: %.1f us\n", name.c_str(), (g.end - g.start) / 1e3);
    double kernel = 0, copy = 0, set = 0, sync = 0;
    int nk = 0, nc = 0, ns = 0, nsync = 0, nr = 0;
    for (auto const& r : activities) {
      if (r.start < g.start || r.start > g.end) { continue; }
      double const us = (r.end - r.start) / 1e3;
      if (r.kind == "K") { kernel += us; ++nk; }
      if (r.kind == "C") { copy += us; ++nc; }
      if (r.kind == "S") { set += us; ++ns; }
      if (r.kind == "R") {
        ++nr;
        if (r.name.find("ynchronize") != std::string::npos) { sync += us; ++nsync; }
      }
      std::printf("%9.1f %8.1f %s %s\n", (r.start - g.start) / 1e3, us, r.kind.c_str(), r.name.c_str());
    }
    std::printf("=== %s: %d kernels %.1f us, %d copies %.1f us, %d memsets %.1f us, %d runtime calls, %d syncs %.1f us\n",
                name.c_str(), nk, kernel, nc, copy, ns, set, nr, nsync, sync);
  }
}
}  // namespace

// Called by the CUDA driver when it loads the library named by CUDA_INJECTION64_PATH.
extern "C" int InitializeInjection() {
  cuptiActivityRegisterCallbacks(request, complete);
  for (auto k : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
                 CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_MARKER}) {
    cuptiActivityEnable(k);
  }
  if (std::getenv("COLX_TRACE_DRIVER") != nullptr) { cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER); }
  std::atexit(report);
  return 1;
}

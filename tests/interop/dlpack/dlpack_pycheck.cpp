// SPDX-License-Identifier: Apache-2.0
// A tiny shared library for torch_cupy_check.py: colx columns exported as DLPack tensors, and
// tensors from PyTorch/CuPy imported as columns. Built with g++ its columns are in host memory;
// built with nvcc (the same file), in device memory. Errors come back as null / -1 and a message.
#include <colx/colx.hpp>
#include <colx/interop/dlpack.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace {

std::string last_error;
std::atomic<int> live_exports{0};

// Wraps a tensor's deleter to count the exports still alive.
struct counted {
  void* inner_ctx;
  void (*inner_deleter)(DLManagedTensorVersioned*);
};

void counted_deleter(DLManagedTensorVersioned* t) {
  auto* c = static_cast<counted*>(t->manager_ctx);
  t->manager_ctx = c->inner_ctx;
  t->deleter = c->inner_deleter;
  delete c;
  --live_exports;
  t->deleter(t);
}

template <class T>
double host_sum(colx::any_column const& c) {
  double sum = 0;
  for (auto v : colx::to_vector(c.view().as<T>())) { sum += static_cast<double>(v); }
  return sum;
}

int summarise(colx::any_column const& c, double* sum, long long* rows) {
  *rows = c.size();
  switch (c.type().id()) {
    case colx::type_id::int32: *sum = host_sum<std::int32_t>(c); return 0;
    case colx::type_id::int64: *sum = host_sum<std::int64_t>(c); return 0;
    case colx::type_id::float32: *sum = host_sum<float>(c); return 0;
    case colx::type_id::float64: *sum = host_sum<double>(c); return 0;
    default: last_error = "the check sums int32, int64, float32 and float64 only"; return -2;
  }
}

}  // namespace

extern "C" {

char const* colx_pycheck_last_error() { return last_error.c_str(); }
int colx_pycheck_live_exports() { return live_exports.load(); }

// A column of n rows in the default memory: which 0: int64 3i - 7; which 1: float32 i / 2.
DLManagedTensorVersioned* colx_pycheck_make(int which, long long n) {
  try {
    DLManagedTensorVersioned* t = nullptr;
    if (which == 0) {
      std::vector<std::int64_t> v(static_cast<std::size_t>(n));
      for (long long i = 0; i < n; ++i) { v[static_cast<std::size_t>(i)] = 3 * i - 7; }
      t = colx::to_dlpack(colx::make_column(v));
    } else {
      std::vector<float> v(static_cast<std::size_t>(n));
      for (long long i = 0; i < n; ++i) { v[static_cast<std::size_t>(i)] = static_cast<float>(i) / 2; }
      t = colx::to_dlpack(colx::make_column(v));
    }
    t->manager_ctx = new counted{t->manager_ctx, t->deleter};
    t->deleter = &counted_deleter;
    ++live_exports;
    return t;
  } catch (std::exception const& e) {
    last_error = e.what();
    return nullptr;
  }
}

void colx_pycheck_device(DLManagedTensorVersioned const* t, int* type, int* id, unsigned long long* flags) {
  *type = t->dl_tensor.device.device_type;
  *id = t->dl_tensor.device.device_id;
  *flags = t->flags;
}

void colx_pycheck_delete(DLManagedTensorVersioned* t) {
  if (t != nullptr && t->deleter != nullptr) { t->deleter(t); }
}

// Imports the tensor and sums it. 0: done; -1: refused, not consumed (the caller still owns it);
// -2: consumed (its deleter ran) but not summed.
int colx_pycheck_consume(DLManagedTensorVersioned* t, double* sum, long long* rows) {
  bool consumed = false;
  try {
    colx::any_column c = colx::from_dlpack(t);
    consumed = true;
    return summarise(c, sum, rows);
  } catch (std::exception const& e) {
    last_error = e.what();
    return consumed ? -2 : -1;
  }
}

int colx_pycheck_consume_legacy(DLManagedTensor* t, double* sum, long long* rows) {
  bool consumed = false;
  try {
    colx::any_column c = colx::from_dlpack_legacy(t);
    consumed = true;
    return summarise(c, sum, rows);
  } catch (std::exception const& e) {
    last_error = e.what();
    return consumed ? -2 : -1;
  }
}

}  // extern "C"

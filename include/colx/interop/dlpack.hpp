// SPDX-License-Identifier: Apache-2.0
#pragma once
// DLPack 1.x (DLManagedTensorVersioned) for null-free fixed-width columns, zero-copy both ways.
//
// A column is a 1-D tensor: shape {size}, strides NULL (compact), byte_offset 0. Element types:
// integers and floats as themselves, bool as kDLBool (8 bits), timestamps and durations as
// their kDLInt counts (32 bits for days, 64 otherwise; DLPack has no time units). Decimals are
// refused (their integers are not the numbers they stand for), and so are strings and columns
// with nulls (DLPack has no validity mask; a nullable column with no nulls is fine).
//
// Memory: host memory is kDLCPU, pinned host memory kDLCUDAHost, device memory kDLCUDA with the
// ordinal of the device that holds it.
//
// Export and the buffer policies. The tensor holds a slice of the column's data buffer (what a
// shallow copy of the column holds), so its memory lives until the consumer calls the deleter,
// whatever happens to colx's objects meanwhile. What the consumer may do with it:
//   - copy-on-write off: the memory is the column's, writable (flags 0) and exposed
//     (shared_buffer::expose: never spilled again); writes show in the column, as they would
//     through any shallow copy with copy-on-write off.
//   - copy-on-write on, memory still shared with a column after export (always so for
//     to_dlpack(c) while c lives; for to_dlpack(std::move(c)) when another column shares it):
//     zero-copy and DLPACK_FLAG_BITMASK_READ_ONLY. The tensor's slice keeps the memory shared,
//     so colx copies before any write of its own and the values never change under the
//     consumer; the buffer is not marked exposed (the columns keep their shallow copies) but it
//     stops being spillable. A consumer that ignores the flag (PyTorch has no read-only tensors)
//     breaks copy-on-write for the columns sharing the memory.
//   - copy-on-write on, the tensor's slice the only one (to_dlpack(std::move(c)) of a column that
//     was the memory's sole holder): zero-copy, writable, exposed.
//   - copy-on-write on, memory already exposed: a shallow copy of exposed memory is a deep one
//     (shared_buffer), so the tensor gets a private copy: writable, exposed,
//     DLPACK_FLAG_BITMASK_IS_COPIED. Also the fallback when to_dlpack runs inside a
//     spill_lock_scope (an address taken there is locked for the scope only).
// Export synchronises `stream`: the consumer knows nothing of colx's streams, so the values must
// be in place when it gets the pointer. Work on other streams is the caller's to finish.
//
// Import. from_dlpack checks everything first (version 1.x, 1-D, compact, one lane, a supported
// dtype and device, aligned data) and throws colx::logic_error naming what it cannot take; then
// the tensor is NOT consumed and the caller still owns it (and must call its deleter). Once the
// checks pass it is consumed: the column wraps data + byte_offset without copying, and the
// tensor's deleter is called exactly once, when the last colx buffer over that memory is gone.
// Imported memory is foreign to colx: under copy-on-write colx copies before writing it; with
// copy-on-write off a write through the column writes the producer's memory, read-only flag or
// not (the flag is not tracked).
#include <colx/column/any_column.hpp>
#include <colx/column/column.hpp>
#include <colx/core/options.hpp>
#include <colx/interop/dlpack_abi.hpp>
#include <colx/memory/shared_buffer.hpp>
#include <colx/memory/spill_manager.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace colx {

// The DLPack version colx writes into the tensors it exports.
inline constexpr DLPackVersion dlpack_version{1, 0};

namespace detail {

// Names for messages. Plain numbers, not the enumerators: a dlpack.h included before colx may
// be an older 1.x without the newer ones.
[[nodiscard]] constexpr char const* dlpack_code_name(std::uint8_t code) noexcept {
  constexpr char const* names[] = {"int", "uint", "float", "opaque handle", "bfloat", "complex", "bool"};
  if (code < sizeof(names) / sizeof(names[0])) { return names[code]; }
  return code <= 17 ? "low-precision float" : "unknown";
}

[[nodiscard]] constexpr char const* dlpack_device_name(std::int32_t type) noexcept {
  constexpr char const* names[] = {"unknown", "CPU",     "CUDA",        "CUDAHost", "OpenCL",  "unknown",
                                   "unknown", "Vulkan",  "Metal",       "VPI",      "ROCM",    "ROCMHost",
                                   "ExtDev",  "CUDAManaged", "OneAPI",  "WebGPU",   "Hexagon", "MAIA", "Trn"};
  if (type >= 0 && static_cast<std::size_t>(type) < sizeof(names) / sizeof(names[0])) { return names[type]; }
  return "unknown";
}

// The DLPack dtype of a column type; throws for the types DLPack cannot carry.
[[nodiscard]] inline DLDataType dlpack_dtype_of(data_type type) {
  auto const id = type.id();
  COLX_EXPECTS(!data_type::is_decimal(id), "to_dlpack: a ", type.to_string(),
               " column has no DLPack type (its unscaled integers are not the numbers it holds)");
  COLX_EXPECTS(id != type_id::string, "to_dlpack: a strings column has no DLPack type (DLPack holds fixed-width values)");
  COLX_EXPECTS(id != type_id::dictionary, "to_dlpack: a dictionary column has no DLPack type; export its codes "
               "(dictionary_column::codes()) or decode it (colx::decode) first");
  COLX_EXPECTS(id != type_id::empty, "to_dlpack: a column of type empty has no DLPack type");
  auto const bits = static_cast<std::uint8_t>(size_of(type) * 8);
  switch (id) {
    case type_id::bool8: return {kDLBool, 8, 1};
    case type_id::int8:
    case type_id::int16:
    case type_id::int32:
    case type_id::int64: return {kDLInt, bits, 1};
    case type_id::uint8:
    case type_id::uint16:
    case type_id::uint32:
    case type_id::uint64: return {kDLUInt, bits, 1};
    case type_id::float32:
    case type_id::float64: return {kDLFloat, bits, 1};
    default: return {kDLInt, bits, 1};  // timestamps and durations: their counts
  }
}

// The column type of a DLPack dtype (timestamps and durations come back as their integers);
// nothing for a dtype colx does not hold.
[[nodiscard]] constexpr std::optional<type_id> type_of_dlpack(DLDataType dtype) noexcept {
  switch (dtype.code) {
    case kDLInt:
      switch (dtype.bits) {
        case 8: return type_id::int8;
        case 16: return type_id::int16;
        case 32: return type_id::int32;
        case 64: return type_id::int64;
        default: return std::nullopt;
      }
    case kDLUInt:
      switch (dtype.bits) {
        case 8: return type_id::uint8;
        case 16: return type_id::uint16;
        case 32: return type_id::uint32;
        case 64: return type_id::uint64;
        default: return std::nullopt;
      }
    case kDLFloat:
      switch (dtype.bits) {
        case 32: return type_id::float32;
        case 64: return type_id::float64;
        default: return std::nullopt;
      }
    case kDLBool: return dtype.bits == 8 ? std::optional<type_id>(type_id::bool8) : std::nullopt;
    default: return std::nullopt;
  }
}

[[nodiscard]] inline DLDevice dlpack_device_of(memory_kind kind, [[maybe_unused]] void const* data) {
  switch (kind) {
    case memory_kind::host: return {kDLCPU, 0};
    case memory_kind::pinned: return {kDLCUDAHost, 0};
    case memory_kind::device: break;
  }
#if COLX_HAS_CUDA
  int device = current_device();
  if (data != nullptr) {
    cudaPointerAttributes attributes{};
    COLX_CUDA_TRY(cudaPointerGetAttributes(&attributes, data));
    device = attributes.device;
  }
  return {kDLCUDA, device};
#else
  return {kDLCUDA, 0};  // device memory cannot be allocated without the CUDA backend
#endif
}

// What an exported tensor owns: itself, its shape and the slice that keeps the memory alive.
struct dlpack_export {
  DLManagedTensorVersioned tensor{};
  std::int64_t shape[1] = {0};
  shared_buffer data;

  static void deleter(DLManagedTensorVersioned* self) noexcept {
    delete static_cast<dlpack_export*>(self->manager_ctx);  // NOLINT: DLPack's ownership is manual
  }
};

// `held`: the slice the tensor keeps (a shallow copy of the column's data, or the data moved
// out of it); `source`: the column's slice when it still lives, to tell whether `held` is a copy.
[[nodiscard]] inline DLManagedTensorVersioned* to_dlpack(data_type type, size_type size, shared_buffer held,
                                                         shared_buffer const* source, stream_ref stream) {
  DLDataType const dtype = dlpack_dtype_of(type);
  std::uint64_t flags = 0;
  bool const copied = source != nullptr && !source->empty() && !held.shares_memory_with(*source);
  void* data = nullptr;
  if (copy_on_write() && held.is_shared()) {
    data = const_cast<void*>(held.read(stream));  // NOLINT: handed out read-only
    flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
    if (held.is_spillable()) {  // inside a spill_lock_scope: the address would be locked for its lifetime only
      held = held.copy(stream, get_current_resource(held.kind()));
      data = held.expose(stream);
      flags = DLPACK_FLAG_BITMASK_IS_COPIED;
    }
  } else {
    data = held.expose(stream);
    if (copied) { flags |= DLPACK_FLAG_BITMASK_IS_COPIED; }
  }
  stream.synchronize();

  auto out = std::make_unique<dlpack_export>();
  out->shape[0] = size;
  out->tensor.version = dlpack_version;
  out->tensor.manager_ctx = out.get();
  out->tensor.deleter = &dlpack_export::deleter;
  out->tensor.flags = flags;
  DLTensor& t = out->tensor.dl_tensor;
  t.data = size == 0 ? nullptr : data;
  t.device = dlpack_device_of(held.kind(), data);
  t.ndim = 1;
  t.dtype = dtype;
  t.shape = out->shape;
  t.strides = nullptr;
  t.byte_offset = 0;
  out->data = std::move(held);
  return &out.release()->tensor;
}

inline void check_exportable(any_column const& c) {
  (void)dlpack_dtype_of(c.type());
  COLX_EXPECTS(!c.has_nulls(), "to_dlpack: the column has ", c.null_count(),
               " nulls and DLPack has no validity mask (fill or drop them first)");
}

// Checks a tensor and, when colx can hold it, returns its column type and memory kind. Throws
// before anything is consumed.
struct dlpack_import {
  data_type type;
  memory_kind kind;
  void* data;
  size_type size;
};

[[nodiscard]] inline dlpack_import check_importable(DLTensor const& t, std::optional<type_id> wanted) {
  COLX_EXPECTS(t.ndim == 1, "from_dlpack: a column is a 1-D tensor, not a tensor of ", t.ndim, " dimensions");
  COLX_EXPECTS(t.shape != nullptr && t.shape[0] >= 0, "from_dlpack: the tensor has no valid shape");
  size_type const size = t.shape[0];
  COLX_EXPECTS(t.strides == nullptr || t.strides[0] == 1 || size <= 1, "from_dlpack: the tensor has stride ",
               t.strides == nullptr ? 1 : t.strides[0], " and a column needs compact values (stride 1)");
  COLX_EXPECTS(t.dtype.lanes == 1, "from_dlpack: the tensor's dtype has ", t.dtype.lanes,
               " lanes and a column holds one value per row (lanes 1)");
  std::optional<type_id> id = type_of_dlpack(t.dtype);
  COLX_EXPECTS(id.has_value(), "from_dlpack: DLPack dtype code ", static_cast<int>(t.dtype.code), " (",
               dlpack_code_name(t.dtype.code), ") with ", static_cast<int>(t.dtype.bits),
               " bits has no colx type (supported: int and uint of 8 to 64 bits, float of 32 and 64, bool of 8)");
  if (wanted && *wanted != *id) {
    // A typed import may read integers as timestamps or durations of the same width.
    bool const time_type = type_id::timestamp_days <= *wanted && *wanted <= type_id::duration_nanoseconds;
    bool const same_storage = time_type && t.dtype.code == kDLInt && size_of(data_type{*wanted}) * 8 == t.dtype.bits;
    COLX_EXPECTS_AS(schema_error, same_storage, "from_dlpack: DLPack dtype code ", static_cast<int>(t.dtype.code), " (",
                    dlpack_code_name(t.dtype.code), ") with ", static_cast<int>(t.dtype.bits), " bits is ", to_string(*id),
                    ", not the requested ", to_string(*wanted));
    id = wanted;
  }
  memory_kind kind = memory_kind::host;
  switch (t.device.device_type) {
    case kDLCPU: kind = memory_kind::host; break;
    case kDLCUDAHost: kind = memory_kind::pinned; break;
    case kDLCUDA: kind = memory_kind::device; break;
    default:
      COLX_FAIL("from_dlpack: DLPack device type ", static_cast<int>(t.device.device_type), " (",
                dlpack_device_name(t.device.device_type), ") is not supported (supported: CPU, CUDA, CUDAHost)");
  }
#if COLX_HAS_CUDA
  if (kind == memory_kind::device) {
    COLX_EXPECTS(t.device.device_id == current_device(), "from_dlpack: the tensor is on CUDA device ",
                 t.device.device_id, " and colx works on the current device, ", current_device(),
                 " (call cudaSetDevice first)");
  }
#endif
  data_type const type{*id};
  COLX_EXPECTS(size == 0 || t.data != nullptr, "from_dlpack: a tensor of ", size, " rows has no data");
  void* const data = t.data == nullptr ? nullptr : static_cast<char*>(t.data) + t.byte_offset;
  COLX_EXPECTS(reinterpret_cast<std::uintptr_t>(data) % size_of(type) == 0, "from_dlpack: the data at byte offset ",
               t.byte_offset, " is not aligned to its ", size_of(type), "-byte ", to_string(*id), " values");
  return {type, kind, data, size};
}

template <class Managed>
[[nodiscard]] any_column adopt_dlpack(Managed* t, dlpack_import const& in) {
  auto const bytes = static_cast<std::size_t>(in.size) * size_of(in.type);
  auto release = [t]() noexcept {
    if (t->deleter != nullptr) { t->deleter(t); }
  };
  return any_column(in.type, in.size, shared_buffer::adopt(in.data, bytes, in.kind, release), shared_buffer{});
}

[[nodiscard]] inline any_column from_dlpack(DLManagedTensorVersioned* t, std::optional<type_id> wanted) {
  COLX_EXPECTS(t != nullptr, "from_dlpack: the tensor is null");
  COLX_EXPECTS(t->version.major == DLPACK_MAJOR_VERSION, "from_dlpack: the tensor has DLPack version ",
               t->version.major, ".", t->version.minor, " and colx reads DLPack ", DLPACK_MAJOR_VERSION, ".x (",
               dlpack_version.major, ".", dlpack_version.minor, ")");
  return adopt_dlpack(t, check_importable(t->dl_tensor, wanted));
}

[[nodiscard]] inline any_column from_dlpack_legacy(DLManagedTensor* t, std::optional<type_id> wanted) {
  COLX_EXPECTS(t != nullptr, "from_dlpack_legacy: the tensor is null");
  return adopt_dlpack(t, check_importable(t->dl_tensor, wanted));
}

}  // namespace detail

// ---- export --------------------------------------------------------------------------------------

// A DLPack tensor over the column's data (see the top of this file for flags and buffer
// policies). The caller owns the result until it hands it on; whoever holds it last calls its
// deleter once. Throws colx::logic_error for decimals, strings and columns with nulls.
[[nodiscard]] inline DLManagedTensorVersioned* to_dlpack(any_column const& c, stream_ref stream = {}) {
  detail::check_exportable(c);
  shared_buffer held = c.data();
  return detail::to_dlpack(c.type(), c.size(), std::move(held), &c.data(), stream);
}

// Hands the column's data over to the tensor: c is left empty. Zero-copy and writable under
// copy-on-write too when c was the only column holding its memory.
[[nodiscard]] inline DLManagedTensorVersioned* to_dlpack(any_column&& c, stream_ref stream = {}) {
  detail::check_exportable(c);
  data_type const type = c.type();
  size_type const size = c.size();
  auto parts = std::move(c).release();
  return detail::to_dlpack(type, size, std::move(parts.data), nullptr, stream);
}

template <class T>
[[nodiscard]] DLManagedTensorVersioned* to_dlpack(column<T> const& c, stream_ref stream = {}) {
  static_assert(!data_type::is_decimal(type_to_id<T>), "to_dlpack: decimal columns have no DLPack type (their unscaled integers are "
                                  "not the numbers they hold); convert them to floats or integers first");
  return to_dlpack(c.untyped(), stream);
}

template <class T>
[[nodiscard]] DLManagedTensorVersioned* to_dlpack(column<T>&& c, stream_ref stream = {}) {
  static_assert(!data_type::is_decimal(type_to_id<T>), "to_dlpack: decimal columns have no DLPack type (their unscaled integers are "
                                  "not the numbers they hold); convert them to floats or integers first");
  return to_dlpack(std::move(c).release(), stream);
}

// ---- import --------------------------------------------------------------------------------------

// A column over the tensor's memory, without copying; consumes the tensor only on success (see
// the top of this file). int, uint (8 to 64 bits), float (32, 64) and bool (8) tensors become
// columns of those types.
[[nodiscard]] inline any_column from_dlpack(DLManagedTensorVersioned* t) { return detail::from_dlpack(t, std::nullopt); }

// Typed: the tensor's dtype must be T's, or, for timestamps and durations, an int of T's width
// (DLPack has no time units). Throws schema_error for another dtype, without consuming.
template <class T>
[[nodiscard]] column<T> from_dlpack(DLManagedTensorVersioned* t) {
  static_assert(fixed_width_element<T> && !data_type::is_decimal(type_to_id<T>),
                "from_dlpack<T>: T must be bool, an integer, a float, a timestamp or a duration");
  return column<T>(detail::from_dlpack(t, type_to_id<T>));
}

// The same for a pre-1.0 DLManagedTensor (no version, no flags), as older producers give.
[[nodiscard]] inline any_column from_dlpack_legacy(DLManagedTensor* t) {
  return detail::from_dlpack_legacy(t, std::nullopt);
}
template <class T>
[[nodiscard]] column<T> from_dlpack_legacy(DLManagedTensor* t) {
  static_assert(fixed_width_element<T> && !data_type::is_decimal(type_to_id<T>),
                "from_dlpack_legacy<T>: T must be bool, an integer, a float, a timestamp or a duration");
  return column<T>(detail::from_dlpack_legacy(t, type_to_id<T>));
}

}  // namespace colx

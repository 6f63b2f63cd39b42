// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Arrow C Device Data Interface: ArrowDeviceArray and ArrowDeviceArrayStream, export and
// import. Memory kinds map to device types: host to ARROW_DEVICE_CPU (device_id -1), device to
// ARROW_DEVICE_CUDA and pinned to ARROW_DEVICE_CUDA_HOST (device_id: the current CUDA device).
//
// Synchronisation (CUDA builds): the exporter records a cudaEvent_t on the given stream after the
// work that produced the buffers was queued, and points sync_event at it; the event is destroyed
// by the array's release. The importer makes its stream wait on the producer's event
// (cudaStreamWaitEvent) before it touches the buffers. Validation of device strings copies only
// the first and last offsets to the host.
#include <colx/interop/arrow_export.hpp>
#include <colx/interop/arrow_import.hpp>
#include <colx/interop/arrow_stream.hpp>

#if COLX_HAS_CUDA
#  include <colx/core/cuda_try.cuh>
#endif

namespace colx {
namespace detail {

[[nodiscard]] constexpr ArrowDeviceType arrow_device_type(memory_kind kind) noexcept {
  switch (kind) {
    case memory_kind::host: return ARROW_DEVICE_CPU;
    case memory_kind::pinned: return ARROW_DEVICE_CUDA_HOST;
    case memory_kind::device: return ARROW_DEVICE_CUDA;
  }
  return ARROW_DEVICE_CPU;
}

inline memory_kind memory_kind_of_arrow_device(ArrowDeviceType type) {
  switch (type) {
    case ARROW_DEVICE_CPU: return memory_kind::host;
    case ARROW_DEVICE_CUDA_HOST: return memory_kind::pinned;
    case ARROW_DEVICE_CUDA:
      COLX_EXPECTS(has_cuda, "an ArrowDeviceArray in CUDA device memory (ARROW_DEVICE_CUDA) needs the CUDA backend: "
                             "compile this translation unit with nvcc");
      return memory_kind::device;
    default: break;
  }
  COLX_FAIL("ArrowDeviceArray device_type ", type,
            " is not supported: colx imports ARROW_DEVICE_CPU (1), ARROW_DEVICE_CUDA (2) and ARROW_DEVICE_CUDA_HOST (3)");
}

inline memory_kind table_kind(table const& t) {
  memory_kind const kind = t.num_columns() == 0 ? memory_kind::host : t.column(0).kind();
  for (std::size_t i = 1; i < t.num_columns(); ++i) {
    COLX_EXPECTS(t.column(i).kind() == kind, "an ArrowDeviceArray lives on one device: column 0 is in ", to_string(kind),
                 " memory, column ", i, " in ", to_string(t.column(i).kind()), " memory");
  }
  return kind;
}

#if COLX_HAS_CUDA
inline void destroy_arrow_sync_event(void* event) noexcept { (void)cudaEventDestroy(static_cast<cudaEvent_t>(event)); }
#endif

// Fills the device fields of an ArrowDeviceArray whose array was exported; releases the array if
// that fails.
inline void finish_device_array(ArrowDeviceArray* out, memory_kind kind, stream_ref stream) {
  out->device_type = arrow_device_type(kind);
  out->device_id = -1;
  out->sync_event = nullptr;
  out->reserved[0] = out->reserved[1] = out->reserved[2] = 0;
#if COLX_HAS_CUDA
  if (kind != memory_kind::host) {
    try {
      int device = 0;
      COLX_CUDA_TRY(cudaGetDevice(&device));
      out->device_id = device;
      auto* p = static_cast<arrow_array_private*>(out->array.private_data);
      cudaEvent_t event = nullptr;
      COLX_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
      p->sync_event = event;
      p->destroy_event = &destroy_arrow_sync_event;
      COLX_CUDA_TRY(cudaEventRecord(event, stream.value()));
      out->sync_event = &p->sync_event;  // a cudaEvent_t*, as the spec asks
    } catch (...) {
      out->array.release(&out->array);
      throw;
    }
  }
#else
  (void)stream;
#endif
}

// Makes `stream` wait for the producer's event before the buffers are used; pinned memory is
// read by the host (validation), so the host waits too.
inline void wait_arrow_sync_event(ArrowDeviceArray const* array, memory_kind kind, stream_ref stream) {
#if COLX_HAS_CUDA
  if (kind != memory_kind::host && array->sync_event != nullptr) {
    COLX_CUDA_TRY(cudaStreamWaitEvent(stream.value(), *static_cast<cudaEvent_t const*>(array->sync_event), 0));
  }
  if (kind == memory_kind::pinned) { stream.synchronize(); }
#else
  (void)array;
  (void)kind;
  (void)stream;
#endif
}

inline memory_kind check_device_array(ArrowDeviceArray const* array) {
  COLX_EXPECTS(array != nullptr, "Arrow device import: the ArrowDeviceArray pointer is null");
  return memory_kind_of_arrow_device(array->device_type);
}

}  // namespace detail

// ---- export ----------------------------------------------------------------------------------------

// Rows [begin, end) of a column, in any memory, as an ArrowDeviceArray; see export_arrow_array.
inline void export_arrow_device_array(any_column column, size_type begin, size_type end, ArrowDeviceArray* out,
                                      stream_ref stream = {}) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs an ArrowDeviceArray to write to (got a null pointer)");
  memory_kind const kind = column.kind();
  detail::export_column_array(std::move(column), begin, end, &out->array, stream);
  detail::finish_device_array(out, kind, stream);
}
inline void export_arrow_device_array(any_column column, ArrowDeviceArray* out, stream_ref stream = {}) {
  size_type const n = column.size();
  export_arrow_device_array(std::move(column), 0, n, out, stream);
}

// A table (all columns in one kind of memory) as a struct ArrowDeviceArray.
inline void export_arrow_device_array(table t, size_type begin, size_type end, ArrowDeviceArray* out,
                                      stream_ref stream = {}) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs an ArrowDeviceArray to write to (got a null pointer)");
  memory_kind const kind = detail::table_kind(t);
  detail::export_table_array(std::move(t), begin, end, &out->array, stream);
  detail::finish_device_array(out, kind, stream);
}
inline void export_arrow_device_array(table t, ArrowDeviceArray* out, stream_ref stream = {}) {
  size_type const n = t.num_rows();
  export_arrow_device_array(std::move(t), 0, n, out, stream);
}

// ---- import ----------------------------------------------------------------------------------------

// A column from an ArrowDeviceArray (CPU, CUDA or CUDA host memory), ready for work on `stream`
// (which waits on the producer's sync_event). The inner array is moved from, as import_arrow_column.
[[nodiscard]] inline any_column import_arrow_device_column(ArrowSchema const* schema, ArrowDeviceArray* array,
                                                           stream_ref stream = {}) {
  memory_kind const kind = detail::check_device_array(array);
  detail::wait_arrow_sync_event(array, kind, stream);
  return detail::import_column(schema, &array->array, kind, stream);
}

[[nodiscard]] inline arrow_table import_arrow_device_table(ArrowSchema const* schema, ArrowDeviceArray* array,
                                                           stream_ref stream = {}) {
  memory_kind const kind = detail::check_device_array(array);
  detail::wait_arrow_sync_event(array, kind, stream);
  return detail::import_table(schema, &array->array, kind, stream);
}

// ---- streams ---------------------------------------------------------------------------------------

namespace detail {
inline void export_device_stream_table(table t, ArrowDeviceArray* out, stream_ref stream) {
  export_arrow_device_array(std::move(t), out, stream);
}
}  // namespace detail

// An ArrowDeviceArrayStream over `tables` (all in one kind of memory); each get_next records its
// sync event on `stream`. device_type is that of the first table (CPU for none).
inline void export_arrow_device_stream(std::vector<table> tables, std::vector<std::string> names,
                                       ArrowDeviceArrayStream* out, stream_ref stream = {}) {
  memory_kind const kind = tables.empty() ? memory_kind::host : detail::table_kind(tables.front());
  for (auto const& t : tables) {
    COLX_EXPECTS(detail::table_kind(t) == kind, "an ArrowDeviceArrayStream lives on one device: tables in ",
                 to_string(kind), " and ", to_string(detail::table_kind(t)), " memory");
  }
  detail::export_table_stream<ArrowDeviceArrayStream, ArrowDeviceArray, &detail::export_device_stream_table>(
      std::move(tables), std::move(names), stream, out);
  out->device_type = detail::arrow_device_type(kind);
}

// Drains an ArrowDeviceArrayStream into tables with their names (ready for work on `stream`), and
// releases the stream, also when it fails.
[[nodiscard]] inline std::vector<arrow_table> import_arrow_device_stream(ArrowDeviceArrayStream* in,
                                                                         stream_ref stream = {}) {
  return detail::import_table_stream<ArrowDeviceArray>(in, [&](ArrowSchema const* schema, ArrowDeviceArray* array) {
    return import_arrow_device_table(schema, array, stream);
  });
}

}  // namespace colx

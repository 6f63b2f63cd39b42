// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Arrow C Stream Interface over a sequence of tables: an ArrowArrayStream that hands out each
// table as a struct array (export), and a consumer that drains a stream into tables (import).
// The device variant (ArrowDeviceArrayStream) is in arrow_device.hpp; both share this machinery.
#include <colx/interop/arrow_export.hpp>
#include <colx/interop/arrow_import.hpp>

#include <cerrno>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace colx {
namespace detail {

// What an exported stream of tables owns. `Exporter` fills the stream's array type from a table.
struct arrow_table_stream_state {
  std::vector<table> tables;
  std::vector<std::string> names;
  std::size_t next = 0;
  std::string last_error;
  stream_ref stream{};
};

// Every table must have the names' number of columns and the first table's column types (and
// strings offset widths), so one schema describes them all.
inline void check_stream_tables(std::vector<table> const& tables, std::vector<std::string> const& names) {
  for (std::size_t t = 0; t < tables.size(); ++t) {
    check_names(tables[t], names);
    for (std::size_t c = 0; c < names.size(); ++c) {
      any_column const& a = tables[0].column(c);
      any_column const& b = tables[t].column(c);
      COLX_EXPECTS_AS(schema_error,
                      a.type() == b.type() && (a.type().id() != type_id::string || strings_offset_type(a) == strings_offset_type(b)) &&
                          (a.type().id() != type_id::dictionary || a.children().front().type() == b.children().front().type()),
                      "a stream's tables must share one schema: column ", c, " (\"", names[c], "\") of table ", t,
                      " has type ", b.type().to_string(), ", table 0 has ", a.type().to_string());
    }
  }
}

// Runs f() for a stream callback: exceptions become errno codes and the stream's last error.
template <class F>
int arrow_stream_call(arrow_table_stream_state& state, F&& f) noexcept {
  try {
    f();
    state.last_error.clear();
    return 0;
  } catch (std::bad_alloc const& e) {
    state.last_error = e.what();
    return ENOMEM;
  } catch (std::exception const& e) {
    state.last_error = e.what();
    return EINVAL;
  } catch (...) {
    state.last_error = "colx: unknown error";
    return EIO;
  }
}

template <class Stream>
arrow_table_stream_state& stream_state(Stream* self) {
  COLX_EXPECTS(self != nullptr && self->release != nullptr, "the stream was released");
  return *static_cast<arrow_table_stream_state*>(self->private_data);
}

// The callbacks of an exported stream of tables, for both kinds of stream: `Array` is ArrowArray
// or ArrowDeviceArray, and `Export` writes one table into it.
template <class Stream>
int table_stream_get_schema(Stream* self, ArrowSchema* schema) noexcept {
  if (self == nullptr || self->release == nullptr) { return EINVAL; }
  auto& s = stream_state(self);
  return arrow_stream_call(s, [&] {
    COLX_EXPECTS(!s.tables.empty(), "this stream has no tables, so it has no schema");
    export_arrow_schema(s.tables.front(), s.names, schema);
  });
}
template <class Stream, class Array, void (*Export)(table, Array*, stream_ref)>
int table_stream_get_next(Stream* self, Array* array) noexcept {
  if (self == nullptr || self->release == nullptr) { return EINVAL; }
  auto& s = stream_state(self);
  return arrow_stream_call(s, [&] {
    COLX_EXPECTS(array != nullptr, "get_next needs an array to write to");
    if (s.next == s.tables.size()) {
      *array = Array{};  // the end: release NULL
      return;
    }
    Export(std::move(s.tables[s.next]), array, s.stream);
    ++s.next;
  });
}
template <class Stream>
char const* table_stream_last_error(Stream* self) noexcept {
  if (self == nullptr || self->release == nullptr) { return nullptr; }
  auto const& state = *static_cast<arrow_table_stream_state*>(self->private_data);
  return state.last_error.empty() ? nullptr : state.last_error.c_str();
}
template <class Stream>
void release_table_stream(Stream* self) noexcept {
  if (self == nullptr || self->release == nullptr) { return; }
  delete static_cast<arrow_table_stream_state*>(self->private_data);
  self->release = nullptr;
}

// A stream that owns shallow copies of `tables` until its release.
template <class Stream, class Array, void (*Export)(table, Array*, stream_ref)>
void export_table_stream(std::vector<table> tables, std::vector<std::string> names, stream_ref stream, Stream* out) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs a stream to write to (got a null pointer)");
  check_stream_tables(tables, names);
  auto state = std::make_unique<arrow_table_stream_state>();
  state->tables = std::move(tables);
  state->names = std::move(names);
  state->stream = stream;
  *out = Stream{};
  out->get_schema = &table_stream_get_schema<Stream>;
  out->get_next = &table_stream_get_next<Stream, Array, Export>;
  out->get_last_error = &table_stream_last_error<Stream>;
  out->release = &release_table_stream<Stream>;
  out->private_data = state.release();
}

// Calls the stream's release at scope exit, unless already released.
template <class Stream>
struct stream_release_guard {
  Stream* stream;
  ~stream_release_guard() {
    if (stream != nullptr && stream->release != nullptr) { stream->release(stream); }
  }
};

template <class Stream>
[[noreturn]] void throw_stream_error(Stream* stream, int code, char const* call) {
  char const* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
  COLX_FAIL("Arrow stream: ", call, " failed with error ", code, ": ", message != nullptr ? message : "(no message)");
}

inline ArrowArray& inner_array(ArrowArray& a) noexcept { return a; }
inline ArrowArray& inner_array(ArrowDeviceArray& a) noexcept { return a.array; }

// Drains a stream of struct arrays into tables with their names, through `import(schema, array)`,
// and releases the stream, also when it fails.
template <class Array, class Stream, class Import>
std::vector<arrow_table> import_table_stream(Stream* in, Import const& import) {
  COLX_EXPECTS(in != nullptr, "Arrow stream import: the stream pointer is null");
  COLX_EXPECTS(in->release != nullptr, "Arrow stream import: the stream was already released");
  stream_release_guard<Stream> const stream_guard{in};
  ArrowSchema schema{};
  if (int const rc = in->get_schema(in, &schema); rc != 0) { throw_stream_error(in, rc, "get_schema"); }
  stream_release_guard<ArrowSchema> const schema_guard{&schema};
  std::vector<arrow_table> out;
  for (;;) {
    Array array{};
    if (int const rc = in->get_next(in, &array); rc != 0) { throw_stream_error(in, rc, "get_next"); }
    if (inner_array(array).release == nullptr) { break; }
    stream_release_guard<ArrowArray> const array_guard{&inner_array(array)};  // if the import rejects it
    out.push_back(import(&schema, &array));
  }
  return out;
}

// Exporters with the signature the stream callbacks take.
inline void export_stream_table(table t, ArrowArray* out, stream_ref stream) { export_arrow_array(std::move(t), out, stream); }

}  // namespace detail

// An ArrowArrayStream over `tables` (host memory), each a struct array with fields `names`. The
// stream owns shallow copies of the tables until its release; get_next hands them out in order,
// then an array with release NULL (the end). A stream of no tables has no schema (get_schema fails).
inline void export_arrow_stream(std::vector<table> tables, std::vector<std::string> names, ArrowArrayStream* out) {
  detail::export_table_stream<ArrowArrayStream, ArrowArray, &detail::export_stream_table>(std::move(tables), std::move(names),
                                                                                          stream_ref{}, out);
}

// Drains an ArrowArrayStream of struct arrays in host memory into tables with their names, and
// releases the stream (also when it fails). A failing callback throws logic_error with the
// stream's get_last_error message; malformed arrays throw as import_arrow_table does.
[[nodiscard]] inline std::vector<arrow_table> import_arrow_stream(ArrowArrayStream* stream) {
  return detail::import_table_stream<ArrowArray>(
      stream, [](ArrowSchema const* schema, ArrowArray* array) { return import_arrow_table(schema, array); });
}

}  // namespace colx

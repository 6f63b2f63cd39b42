// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Arrow C Stream Interface over a sequence of tables: an ArrowArrayStream that hands out each
// table as a struct array (export), and a consumer that drains a stream into tables (import).
// The device variant (ArrowDeviceArrayStream) is in arrow_device.hpp; both share this machinery.
#include <colx/interop/arrow_export.hpp>
#include <colx/interop/arrow_import.hpp>

#include <cerrno>
#include <exception>
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
                      a.type() == b.type() && (a.type().id() != type_id::string || strings_offset_type(a) == strings_offset_type(b)),
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

inline void export_stream_schema(arrow_table_stream_state& state, ArrowSchema* out) {
  COLX_EXPECTS(!state.tables.empty(), "this stream has no tables, so it has no schema");
  export_arrow_schema(state.tables.front(), state.names, out);
}

template <class Stream>
arrow_table_stream_state& stream_state(Stream* self) {
  COLX_EXPECTS(self != nullptr && self->release != nullptr, "the stream was released");
  return *static_cast<arrow_table_stream_state*>(self->private_data);
}

template <class Stream>
void release_table_stream(Stream* self) noexcept {
  if (self == nullptr || self->release == nullptr) { return; }
  delete static_cast<arrow_table_stream_state*>(self->private_data);
  self->release = nullptr;
}

template <class Stream>
char const* table_stream_last_error(Stream* self) noexcept {
  if (self == nullptr || self->release == nullptr) { return nullptr; }
  auto const& state = *static_cast<arrow_table_stream_state*>(self->private_data);
  return state.last_error.empty() ? nullptr : state.last_error.c_str();
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

}  // namespace detail

// An ArrowArrayStream over `tables` (host memory), each a struct array with fields `names`. The
// stream owns shallow copies of the tables until its release; get_next hands them out in order,
// then an array with release NULL (the end). A stream of no tables has no schema (get_schema fails).
inline void export_arrow_stream(std::vector<table> tables, std::vector<std::string> names, ArrowArrayStream* out) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs an ArrowArrayStream to write to (got a null pointer)");
  detail::check_stream_tables(tables, names);
  auto state = std::make_unique<detail::arrow_table_stream_state>();
  state->tables = std::move(tables);
  state->names = std::move(names);
  *out = ArrowArrayStream{};
  out->get_schema = [](ArrowArrayStream* self, ArrowSchema* schema) -> int {
    if (self == nullptr || self->release == nullptr) { return EINVAL; }
    auto& s = detail::stream_state(self);
    return detail::arrow_stream_call(s, [&] { detail::export_stream_schema(s, schema); });
  };
  out->get_next = [](ArrowArrayStream* self, ArrowArray* array) -> int {
    if (self == nullptr || self->release == nullptr) { return EINVAL; }
    auto& s = detail::stream_state(self);
    return detail::arrow_stream_call(s, [&] {
      COLX_EXPECTS(array != nullptr, "get_next needs an ArrowArray to write to");
      if (s.next == s.tables.size()) {
        *array = ArrowArray{};  // the end: release NULL
        return;
      }
      export_arrow_array(std::move(s.tables[s.next]), array, s.stream);
      ++s.next;
    });
  };
  out->get_last_error = &detail::table_stream_last_error<ArrowArrayStream>;
  out->release = &detail::release_table_stream<ArrowArrayStream>;
  out->private_data = state.release();
}

// Drains an ArrowArrayStream of struct arrays in host memory into tables with their names, and
// releases the stream (also when it fails). A failing callback throws logic_error with the
// stream's get_last_error message; malformed arrays throw as import_arrow_table does.
[[nodiscard]] inline std::vector<arrow_table> import_arrow_stream(ArrowArrayStream* stream) {
  COLX_EXPECTS(stream != nullptr, "Arrow stream import: the ArrowArrayStream pointer is null");
  COLX_EXPECTS(stream->release != nullptr, "Arrow stream import: the ArrowArrayStream was already released");
  detail::stream_release_guard<ArrowArrayStream> const stream_guard{stream};
  ArrowSchema schema{};
  if (int const rc = stream->get_schema(stream, &schema); rc != 0) { detail::throw_stream_error(stream, rc, "get_schema"); }
  detail::stream_release_guard<ArrowSchema> const schema_guard{&schema};
  std::vector<arrow_table> out;
  for (;;) {
    ArrowArray array{};
    if (int const rc = stream->get_next(stream, &array); rc != 0) { detail::throw_stream_error(stream, rc, "get_next"); }
    if (array.release == nullptr) { break; }
    detail::stream_release_guard<ArrowArray> const array_guard{&array};  // if the import rejects it
    out.push_back(import_arrow_table(&schema, &array));
  }
  return out;
}

}  // namespace colx

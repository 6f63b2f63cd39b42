// SPDX-License-Identifier: Apache-2.0
#pragma once
// CSV files in and out: the typed door, read_csv<Schema>(path) -> frame<Schema>, and the runtime
// one, read_csv(path) -> any_table with the types detected (io/csv/reader.hpp); write_csv of a
// frame or an any_table (io/csv/writer.hpp).
//
// The typed reader reads the schema's fields by name, each as its field's type (no detection for
// them), and checks the result against the schema; a dictionary<V, Code> field is encoded as it is
// read.
#include <colx/io/csv/reader.hpp>
#include <colx/io/csv/writer.hpp>
#include <colx/io/typed_read.hpp>

#include <string>

namespace colx {

template <class Schema>
[[nodiscard]] frame<Schema> read_csv(std::string const& path, csv_read_options options = {}, stream_ref stream = {},
                                     resource_ref mr = get_current_resource()) {
  [&]<class... Fields>(schema<Fields...> const*) {
    options.columns = {std::string(Fields::name.view())...};
    ((options.types[std::string(Fields::name.view())] = io::detail::read_type<Fields>()), ...);
  }(static_cast<Schema const*>(nullptr));
  return io::detail::to_frame<Schema>(read_csv(path, options, stream, mr), stream);
}

template <class Schema>
void write_csv(frame<Schema> const& f, std::string const& path, csv_write_options const& options = {}, stream_ref stream = {}) {
  write_csv(to_table(f), path, options, stream);
}

}  // namespace colx

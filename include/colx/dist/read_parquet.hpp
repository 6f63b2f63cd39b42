// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each rank reads its share of a set of Parquet files: file i goes to rank i % ranks, and a
// rank's files are concatenated in the order given (dictionary columns recoded over the union of
// the files' dictionaries). Every rank checks its files against the same
// schema (read_parquet<Schema>), so a file that does not fit fails on its rank and every rank
// throws. A rank with no file holds no rows.
//
// Two things keep large shares readable. The files' columns are concatenated one column at a
// time, each file's piece freed as soon as its column is whole, so a rank holds its share once
// plus one column, not twice. And a strings column takes int64 offsets on every rank as soon as
// one rank's share needs them (over 2^31 bytes of characters): shuffles exchange rows only
// between ranks whose column types agree.
#include <colx/column/copying.hpp>
#include <colx/dist/dist_frame.hpp>
#include <colx/io/parquet.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace colx::dist {
namespace detail {

// A strings column with int64 offsets, if they are int32 (concatenating a column with no rows of
// int64 offsets gives int64 offsets; the characters are copied once).
[[nodiscard]] inline any_column with_int64_offsets(any_column column, stream_ref stream, resource_ref mr) {
  if (strings_column_view(column).offset_type() == type_id::int64) { return column; }
  buffer zero(sizeof(std::int64_t), stream, mr);
  colx::detail::fill_bytes(zero.data(), zero.kind(), 0, zero.size(), stream);
  std::vector<any_column> children;
  children.emplace_back(data_type{type_id::int64}, 1, std::move(zero));
  any_column const none(data_type{type_id::string}, 0, buffer(0, stream, mr), buffer(0, stream, mr), 0, std::move(children));
  std::vector<any_column_view> const views{column, none};
  return concatenate(views, stream, mr);
}

}  // namespace detail

template <class Schema>
[[nodiscard]] dist_frame<Schema> read_parquet(communicator& comm, std::vector<std::string> const& files,
                                              parquet_read_options options = {}, stream_ref stream = {}) {
  static_assert(Schema::size <= 64, "dist::read_parquet: a schema of at most 64 columns (one bit a column agrees offsets)");
  resource_ref const mr = get_current_resource(comm.kind());
  std::vector<any_column> columns(Schema::size);
  std::uint64_t int64_offsets = 0;  // bit C: column C holds strings with int64 offsets on this rank
  agreed(comm, "read_parquet", [&] {
    std::vector<std::vector<any_column>> pieces(Schema::size);  // pieces[C]: column C of each file
    for (std::size_t i = static_cast<std::size_t>(comm.rank()); i < files.size(); i += static_cast<std::size_t>(comm.size())) {
      auto file = colx::read_parquet<Schema>(files[i], options, stream, mr);
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        (pieces[C].push_back(file.template column_at<C>().untyped()), ...);
      }(std::make_index_sequence<Schema::size>{});
    }
    if (pieces.front().empty()) {
      auto empty = detail::empty_frame<Schema>(mr);
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        ((columns[C] = empty.template column_at<C>().untyped()), ...);
      }(std::make_index_sequence<Schema::size>{});
      return 0;
    }
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      auto const join = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
        columns[I] = detail::join_pieces<Schema, I>(pieces[I], stream, mr);
        pieces[I].clear();  // the files' copies of this column go now
        if (columns[I].type().id() == type_id::string && strings_column_view(columns[I]).offset_type() == type_id::int64) {
          int64_offsets |= std::uint64_t{1} << I;
        }
      };
      (join(std::integral_constant<std::size_t, C>{}), ...);
    }(std::make_index_sequence<Schema::size>{});
    return 0;
  });
  std::uint64_t any_int64 = 0;
  for (std::uint64_t bits : comm.all_gather(int64_offsets)) { any_int64 |= bits; }
  auto local = agreed(comm, "read_parquet (string offsets)", [&] {
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      auto const widen = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
        if ((any_int64 >> I) & 1u) { columns[I] = detail::with_int64_offsets(std::move(columns[I]), stream, mr); }
      };
      (widen(std::integral_constant<std::size_t, C>{}), ...);
    }(std::make_index_sequence<Schema::size>{});
    return detail::typed_frame<Schema>(columns, std::make_index_sequence<Schema::size>{});
  });
  return {comm, std::move(local)};
}

}  // namespace colx::dist

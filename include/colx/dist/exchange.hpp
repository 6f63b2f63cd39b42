// SPDX-License-Identifier: Apache-2.0
#pragma once
// Moving rows between ranks: every shuffle, broadcast, scatter and gather ends here. The rows of a
// frame come grouped by destination (rows [bounds[p], bounds[p + 1]) go to rank p); each rank
// gets the rows every rank sent it, concatenated in rank order, so the result is deterministic.
//
// The work is type-erased (one instantiation per schema is only the final rebuild of the typed
// frame): sizes go first (one all_to_all of a few integers per column), then every column's
// buffers to every peer in one grouped call. A fixed-width column without nulls is sent from
// where it lies; a column with nulls or strings is first copied per destination, so that its
// mask and offsets start at bit and byte 0 (strings' offsets are rebased by the copy).
// A dictionary column's rows go as codes with the sender's whole dictionary (ranks may hold
// different ones: read from different files); the receiver recodes what it got over the union of
// the dictionaries (unify_dictionaries) before concatenating.
#include <colx/column/copying.hpp>
#include <colx/dist/communicator.hpp>
#include <colx/frame/dictionary_encode.hpp>
#include <colx/frame/gather.hpp>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace colx::dist {
namespace detail {

// What a receiver must know of one column of one peer's rows.
struct column_header {
  std::int64_t null_count;
  std::int64_t payload_bytes;  // values (fixed width), chars (strings) or codes (dictionary)
  std::int64_t offset_bytes;   // a string offset's width, else 0
  // A dictionary column's dictionary, sent whole: its values, their payload and offset width.
  std::int64_t dictionary_rows = 0;
  std::int64_t dictionary_payload_bytes = 0;
  std::int64_t dictionary_offset_bytes = 0;
};
inline constexpr std::size_t header_fields = 6;
inline constexpr std::size_t header_words(std::size_t columns) { return 1 + header_fields * columns; }
inline void write_header(std::int64_t* at, column_header const& h) {
  at[0] = h.null_count;
  at[1] = h.payload_bytes;
  at[2] = h.offset_bytes;
  at[3] = h.dictionary_rows;
  at[4] = h.dictionary_payload_bytes;
  at[5] = h.dictionary_offset_bytes;
}
inline column_header read_header(std::int64_t const* at) { return {at[0], at[1], at[2], at[3], at[4], at[5]}; }

// The bytes of a compact column (a copy: row 0 at offset 0): fixed-width values, or a strings
// column's chars with its offsets' width.
inline std::pair<std::int64_t, std::int64_t> payload_and_offsets(any_column_view const& v, stream_ref stream) {
  size_type const rows = v.size();
  if (v.type().id() != type_id::string) {
    return {static_cast<std::int64_t>(static_cast<std::size_t>(rows) * size_of(v.type())), 0};
  }
  auto const& offsets = v.child(0);
  bool const wide = offsets.type().id() == type_id::int64;
  std::int64_t const chars =
      rows == 0 ? 0
      : wide    ? colx::detail::read_value(static_cast<std::int64_t const*>(offsets.head()) + rows, offsets.kind(), stream)
                : colx::detail::read_value(static_cast<std::int32_t const*>(offsets.head()) + rows, offsets.kind(), stream);
  return {chars, wide ? 8 : 4};
}

// A column's rows for one destination, in a form whose buffers can be sent as they are.
struct outgoing_piece {
  any_column owned;  // empty when the rows are sent from the source column itself
  any_column_view view;
  column_header header{};
};

inline outgoing_piece make_piece(any_column_view const& column, size_type begin, size_type end, stream_ref stream,
                                 resource_ref mr) {
  outgoing_piece piece;
  piece.view = column.slice(begin, end, stream);
  bool const strings = column.type().id() == type_id::string;
  bool const dictionary = column.type().id() == type_id::dictionary;
  if (strings || dictionary || piece.view.null_count() > 0) {  // copies start at row 0 (a dictionary's whole)
    piece.owned = copy(piece.view, stream, mr);
    piece.view = piece.owned.view();
  }
  piece.header.null_count = piece.view.null_count();
  if (dictionary) {
    auto const& values = piece.view.child(0);
    COLX_EXPECTS(values.null_count() == 0 && values.type().id() != type_id::dictionary,
                 "colx::dist: a dictionary's values must be a plain column without nulls");
    piece.header.payload_bytes =
        static_cast<std::int64_t>(static_cast<std::size_t>(piece.view.size()) * size_of(data_type{column.type().codes()}));
    if (piece.view.size() > 0) {  // a piece of no rows needs no dictionary
      piece.header.dictionary_rows = values.size();
      std::tie(piece.header.dictionary_payload_bytes, piece.header.dictionary_offset_bytes) = payload_and_offsets(values, stream);
    }
  } else {
    std::tie(piece.header.payload_bytes, piece.header.offset_bytes) = payload_and_offsets(piece.view, stream);
  }
  return piece;
}

inline void const* payload_of(any_column_view const& v) {
  if (v.type().id() == type_id::string) { return v.head(); }  // a copy's chars start at 0
  return static_cast<char const*>(v.head()) + static_cast<std::size_t>(v.offset()) * size_of(v.type());
}

// Buffers for `rows` rows of `type` from one peer, laid out as make_piece sent them. A
// dictionary's values take the type `values_type` (every rank's schema has the same).
inline any_column make_values(data_type type, size_type rows, std::int64_t payload_bytes, std::int64_t offset_bytes,
                              buffer mask, std::int64_t null_count, stream_ref stream, resource_ref mr) {
  std::vector<any_column> children;
  if (type.id() == type_id::string) {
    data_type const offset_type{offset_bytes == 8 ? type_id::int64 : type_id::int32};
    size_type const n = rows == 0 ? 0 : rows + 1;
    children.emplace_back(offset_type, n, buffer(static_cast<std::size_t>(n) * static_cast<std::size_t>(offset_bytes), stream, mr));
  }
  return any_column(type, rows, buffer(static_cast<std::size_t>(payload_bytes), stream, mr), std::move(mask), null_count,
                    std::move(children));
}
inline any_column make_incoming(data_type type, data_type values_type, size_type rows, column_header const& h,
                                stream_ref stream, resource_ref mr) {
  buffer mask = h.null_count > 0 ? buffer(bitmask_allocation_bytes(rows), stream, mr) : buffer{};
  if (type.id() != type_id::dictionary) {
    return make_values(type, rows, h.payload_bytes, h.offset_bytes, std::move(mask), h.null_count, stream, mr);
  }
  std::vector<any_column> children;
  children.push_back(make_values(values_type, h.dictionary_rows, h.dictionary_payload_bytes, h.dictionary_offset_bytes, buffer{},
                                 0, stream, mr));
  return any_column(type, rows, buffer(static_cast<std::size_t>(h.payload_bytes), stream, mr), std::move(mask), h.null_count,
                    std::move(children));
}

// Where one column's buffers are, to send or to fill: payload, mask, offsets, and a dictionary's
// payload and offsets (empty ones skipped).
struct column_buffers {
  void* payload = nullptr;
  std::size_t payload_bytes = 0;
  void* mask = nullptr;
  std::size_t mask_bytes = 0;
  void* offsets = nullptr;
  std::size_t offset_bytes = 0;
  void* dictionary_payload = nullptr;
  std::size_t dictionary_payload_bytes = 0;
  void* dictionary_offsets = nullptr;
  std::size_t dictionary_offset_bytes = 0;
  [[nodiscard]] std::size_t total() const {
    return payload_bytes + mask_bytes + offset_bytes + dictionary_payload_bytes + dictionary_offset_bytes;
  }
};
inline std::size_t offsets_bytes(size_type rows, std::int64_t width) {
  return rows > 0 && width > 0 ? static_cast<std::size_t>(rows + 1) * static_cast<std::size_t>(width) : 0;
}
inline column_buffers buffers_of(any_column_view const& v, column_header const& h) {
  column_buffers b;
  b.payload = const_cast<void*>(payload_of(v));
  b.payload_bytes = static_cast<std::size_t>(h.payload_bytes);
  if (h.null_count > 0) {
    b.mask = const_cast<bitmask_type*>(v.null_mask());
    b.mask_bytes = static_cast<std::size_t>(bitmask_words(v.size())) * sizeof(bitmask_type);
  }
  if ((b.offset_bytes = offsets_bytes(v.size(), h.offset_bytes)) > 0) { b.offsets = const_cast<void*>(v.child(0).head()); }
  if (v.type().id() == type_id::dictionary) {  // a copy's whole dictionary, from its row 0
    auto const& values = v.child(0);
    b.dictionary_payload = const_cast<void*>(values.head());
    b.dictionary_payload_bytes = static_cast<std::size_t>(h.dictionary_payload_bytes);
    if ((b.dictionary_offset_bytes = offsets_bytes(values.size(), h.dictionary_offset_bytes)) > 0) {
      b.dictionary_offsets = const_cast<void*>(values.child(0).head());
    }
  }
  return b;
}
// A fresh column's buffers, writable (no other owner has seen them yet).
inline column_buffers buffers_of(any_column& c, column_header const& h) {
  column_buffers b;
  b.payload_bytes = static_cast<std::size_t>(h.payload_bytes);
  if (b.payload_bytes > 0) { b.payload = c.mutable_data(); }
  if (h.null_count > 0) {
    b.mask = c.mutable_null_mask();
    b.mask_bytes = static_cast<std::size_t>(bitmask_words(c.size())) * sizeof(bitmask_type);
  }
  if ((b.offset_bytes = offsets_bytes(c.size(), h.offset_bytes)) > 0) { b.offsets = c.mutable_children().front().mutable_data(); }
  if (c.type().id() == type_id::dictionary) {
    auto& values = c.mutable_children().front();
    b.dictionary_payload_bytes = static_cast<std::size_t>(h.dictionary_payload_bytes);
    if (b.dictionary_payload_bytes > 0) { b.dictionary_payload = values.mutable_data(); }
    if ((b.dictionary_offset_bytes = offsets_bytes(values.size(), h.dictionary_offset_bytes)) > 0) {
      b.dictionary_offsets = values.mutable_children().front().mutable_data();
    }
  }
  return b;
}

template <class Part>
void add_parts(std::vector<Part>& parts, int peer, column_buffers const& b) {
  if (b.payload_bytes > 0) { parts.push_back({peer, b.payload, b.payload_bytes}); }
  if (b.mask_bytes > 0) { parts.push_back({peer, b.mask, b.mask_bytes}); }
  if (b.offset_bytes > 0) { parts.push_back({peer, b.offsets, b.offset_bytes}); }
  if (b.dictionary_payload_bytes > 0) { parts.push_back({peer, b.dictionary_payload, b.dictionary_payload_bytes}); }
  if (b.dictionary_offset_bytes > 0) { parts.push_back({peer, b.dictionary_offsets, b.dictionary_offset_bytes}); }
}

// Column C's pieces from every rank as one column: a dictionary column's recoded over the union of
// their dictionaries first (ranks may hold different ones).
template <class Schema, std::size_t C>
any_column join_pieces(std::vector<any_column>& pieces, stream_ref stream, resource_ref mr) {
  if (pieces.size() == 1) { return std::move(pieces.front()); }
  using value_t = typename Schema::template field_at<C>::type;
  std::vector<any_column_view> views;
  if constexpr (dictionary_type<value_t>) {
    using typed = column_storage_t<value_t>;
    std::vector<typed> columns;
    for (auto& p : pieces) {
      if (p.size() > 0) { columns.emplace_back(std::move(p)); }  // (empty ones may come without a dictionary)
    }
    if (columns.empty()) { return std::move(pieces.front()); }
    if (columns.size() == 1) { return std::move(columns.front()).release(); }
    auto const unified = unify_dictionaries(std::span<typed const>(columns), stream);
    for (auto const& u : unified) { views.push_back(static_cast<any_column_view>(u)); }
    return concatenate(views, stream, mr);
  } else {
    views.assign(pieces.begin(), pieces.end());
    return concatenate(views, stream, mr);
  }
}

// The column types as this rank holds them (decimal scales, string offsets), hashed: ranks that
// read different files must not exchange bytes under different meanings.
template <class Schema>
std::uint64_t schema_fingerprint(frame<Schema> const& f) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto const mix = [&](std::string const& text) {
    for (char ch : text) { h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ull; }
    h = (h ^ 0xffu) * 0x100000001b3ull;
  };
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (mix(static_cast<any_column_view>(f.template column_at<C>()).type().to_string()), ...);
  }(std::make_index_sequence<Schema::size>{});
  return h;
}

template <class Schema, std::size_t... C>
frame<Schema> typed_frame(std::vector<any_column>& columns, std::index_sequence<C...>) {
  return frame<Schema>(
      std::remove_cvref_t<decltype(std::declval<frame<Schema>>().template column_at<C>())>(std::move(columns[C]))...);
}

}  // namespace detail

// Sends rows [bounds[p], bounds[p + 1]) of `rows` to rank p (bounds has size() + 1 entries) and
// returns what every rank sent here, in rank order. Records the bytes under `step`.
template <class Schema>
[[nodiscard]] frame<Schema> exchange_rows(communicator& comm, frame<Schema> const& rows, std::span<size_type const> bounds,
                                          char const* step, stream_ref stream = {}) {
  constexpr std::size_t columns = Schema::size;
  int const ranks = comm.size();
  int const me = comm.rank();
  auto const started = std::chrono::steady_clock::now();
  resource_ref const mr = get_current_resource(comm.kind());

  // Local preparation, one step: a rank that fails here lets the others know instead of hanging.
  std::vector<detail::outgoing_piece> pieces;  // [peer * columns + c]
  std::vector<std::int64_t> headers(static_cast<std::size_t>(ranks) * detail::header_words(columns));
  double prepare_ms = 0;
  agreed(comm, std::string(step) + " (prepare)", [&] {
    auto const prepare_start = std::chrono::steady_clock::now();
    COLX_EXPECTS(bounds.size() == static_cast<std::size_t>(ranks) + 1 && bounds.front() == 0 && bounds.back() == rows.num_rows(),
                 "exchange_rows: bounds must split the ", rows.num_rows(), " rows over ", ranks, " ranks");
    COLX_EXPECTS(rows.num_rows() == 0 || is_host_accessible(rows.kind()) == is_host_accessible(comm.kind()),
                 "colx::dist: the frame lives in ", to_string(rows.kind()), " memory, but the ", comm.name(),
                 " communicator moves ", to_string(comm.kind()), " memory");
    std::vector<any_column_view> views;
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      (views.push_back(static_cast<any_column_view>(rows.template column_at<C>())), ...);
    }(std::make_index_sequence<columns>{});
    pieces.reserve(static_cast<std::size_t>(ranks) * columns);
    for (int p = 0; p < ranks; ++p) {
      auto* h = headers.data() + static_cast<std::size_t>(p) * detail::header_words(columns);
      h[0] = bounds[p + 1] - bounds[p];
      for (std::size_t c = 0; c < columns; ++c) {
        pieces.push_back(detail::make_piece(views[c], bounds[p], bounds[p + 1], stream, mr));
        detail::write_header(h + 1 + detail::header_fields * c, pieces.back().header);
      }
    }
    prepare_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - prepare_start).count();
  });
  // The schema's column types must agree: a rank that read another file must not be misread.
  expect_same_on_all_ranks(comm, detail::schema_fingerprint(rows), std::string("the column types of the rows of ") + step);

  auto const incoming = comm.all_to_all(std::span<std::int64_t const>(headers));
  auto const header_of = [&](int p) { return incoming.data() + static_cast<std::size_t>(p) * detail::header_words(columns); };
  std::vector<size_type> first_row(static_cast<std::size_t>(ranks) + 1, 0);  // where each rank's rows land
  for (int p = 0; p < ranks; ++p) { first_row[static_cast<std::size_t>(p) + 1] = first_row[static_cast<std::size_t>(p)] + header_of(p)[0]; }
  size_type const total = first_row.back();

  // Per column: a fixed-width column that no rank sends nulls of is received in place, every
  // rank's rows at their offset in one buffer (this rank's own rows copied there); any other
  // column is received per rank and concatenated (masks and offsets need rebasing).
  std::vector<any_column> out_columns(columns);
  std::vector<std::vector<any_column>> per_rank(columns);
  std::vector<send_part> sends;
  std::vector<recv_part> recvs;
  traffic_record traffic{step};
  traffic.moved_rows = true;
  auto const prepared = std::chrono::steady_clock::now();
  // Receive buffers are allocated (and this rank's own rows copied) as one step: a rank that runs
  // out of memory here must not leave the others waiting in the transfer.
  agreed(comm, std::string(step) + " (receive buffers)", [&] {
    for (std::size_t c = 0; c < columns; ++c) {
      data_type const type = pieces[c].view.type();
      bool in_place = type.id() != type_id::string && type.id() != type_id::dictionary;
      for (int p = 0; p < ranks && in_place; ++p) { in_place = detail::read_header(header_of(p) + 1 + detail::header_fields * c).null_count == 0; }
      if (in_place) {
        std::size_t const width = size_of(type);
        out_columns[c] = any_column(type, total, buffer(static_cast<std::size_t>(total) * width, stream, mr));
        auto* const base = total > 0 ? static_cast<char*>(out_columns[c].mutable_data(stream)) : nullptr;
        for (int p = 0; p < ranks; ++p) {
          auto const& piece = pieces[static_cast<std::size_t>(p) * columns + c];
          char* const at = base + static_cast<std::size_t>(first_row[static_cast<std::size_t>(p)]) * width;
          if (p == me) {
            if (piece.header.payload_bytes > 0) {
              colx::detail::copy_bytes(at, comm.kind(), detail::payload_of(piece.view), comm.kind(),
                                       static_cast<std::size_t>(piece.header.payload_bytes), stream);
            }
            continue;
          }
          // What this rank sends follows its own piece (its rows to p may have nulls even so).
          auto const out = detail::buffers_of(piece.view, piece.header);
          detail::add_parts(sends, p, out);
          auto const bytes = static_cast<std::size_t>(detail::read_header(header_of(p) + 1 + detail::header_fields * c).payload_bytes);
          if (bytes > 0) { recvs.push_back({p, at, bytes}); }
          traffic.bytes_sent += static_cast<std::int64_t>(out.total());
          traffic.bytes_received += static_cast<std::int64_t>(bytes);
        }
        continue;
      }
      for (int p = 0; p < ranks; ++p) {
        auto& piece = pieces[static_cast<std::size_t>(p) * columns + c];
        if (p == me) {  // this rank's own share never leaves it
          per_rank[c].push_back(piece.owned.size() == piece.view.size() && piece.view.size() > 0 ? std::move(piece.owned)
                                                                                                  : copy(piece.view, stream, mr));
          continue;
        }
        auto const* h = header_of(p);
        detail::column_header const in = detail::read_header(h + 1 + detail::header_fields * c);
        data_type const values_type = type.id() == type_id::dictionary ? pieces[c].view.child(0).type() : type;
        per_rank[c].push_back(detail::make_incoming(type, values_type, h[0], in, stream, mr));
        auto const out = detail::buffers_of(piece.view, piece.header);
        auto const got = detail::buffers_of(per_rank[c].back(), in);
        detail::add_parts(sends, p, out);
        detail::add_parts(recvs, p, got);
        traffic.bytes_sent += static_cast<std::int64_t>(out.total());
        traffic.bytes_received += static_cast<std::int64_t>(got.total());
      }
    }
    for (int p = 0; p < ranks; ++p) {
      if (p == me) { continue; }
      traffic.rows_sent += bounds[p + 1] - bounds[p];
      traffic.rows_received += header_of(p)[0];
    }
  });
  auto const transfer_start = std::chrono::steady_clock::now();
  comm.exchange(sends, recvs, stream);
  if (ranks > 1) { stream.synchronize(); }  // the pieces sent from must outlive the transfer
  auto const transfer_end = std::chrono::steady_clock::now();

  frame<Schema> out = agreed(comm, std::string(step) + " (assemble)", [&] {
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      ((per_rank[C].empty() ? void() : void(out_columns[C] = detail::join_pieces<Schema, C>(per_rank[C], stream, mr))), ...);
    }(std::make_index_sequence<columns>{});
    return detail::typed_frame<Schema>(out_columns, std::make_index_sequence<columns>{});
  });
  auto const ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  traffic.prepare_ms = prepare_ms;
  traffic.wait_ms = ms(started, prepared) - prepare_ms;
  traffic.transfer_ms = ms(transfer_start, transfer_end);
  traffic.milliseconds = ms(started, std::chrono::steady_clock::now());
  comm.record(std::move(traffic));
  return out;
}

}  // namespace colx::dist

// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pieces an exchange (dist/exchange.hpp) moves, type-erased: what a receiver must know of one
// column of one peer's rows (its header), the sender's piece of a column for one destination (its
// rows copied where their mask or offsets must start at 0, its dictionary whole), the receiver's
// buffers for it, and the receiver's joining of the pieces of a column into one.
#include <colx/column/copying.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/frame/dictionary_encode.hpp>
#include <colx/frame/gather.hpp>

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
// A rank's header to one peer: whether its preparation failed, its schema's fingerprint, the rows
// it sends, then each column's fields. The first two ride on the sizes' exchange, so that one
// collective both sizes the transfer and agrees that every rank is ready for it.
enum header_word : std::size_t { failed_word, fingerprint_word, rows_word, header_lead };
inline constexpr std::size_t header_words(std::size_t columns) { return header_lead + header_fields * columns; }
inline void write_header(std::int64_t* at, column_header const& h) {
  at[0] = h.null_count;
  at[1] = h.payload_bytes;
  at[2] = h.offset_bytes;
  at[3] = h.dictionary_rows;
  at[4] = h.dictionary_payload_bytes;
  at[5] = h.dictionary_offset_bytes;
}
inline column_header read_header(std::int64_t const* at) { return {at[0], at[1], at[2], at[3], at[4], at[5]}; }

// The bytes of a compact column (a copy: row 0 at offset 0, its chars exactly its rows'):
// fixed-width values, or a strings column's chars with its offsets' width. Read from the copy's
// buffers, not from its offsets on the device: no wait.
inline std::pair<std::int64_t, std::int64_t> payload_and_offsets(any_column const& compact) {
  if (compact.type().id() != type_id::string) {
    return {static_cast<std::int64_t>(static_cast<std::size_t>(compact.size()) * size_of(compact.type())), 0};
  }
  bool const wide = compact.children().front().type().id() == type_id::int64;
  return {static_cast<std::int64_t>(compact.data().size()), wide ? 8 : 4};
}

// A column of no rows of v's type (a dictionary's over no values): what a rank keeps of its own
// rows when it has none, with nothing copied.
inline any_column empty_like(any_column_view const& v, resource_ref mr) {
  std::vector<any_column> children;
  if (v.type().id() == type_id::dictionary) { children.push_back(empty_like(v.child(0), mr)); }
  if (v.type().id() == type_id::string) { children.emplace_back(data_type{type_id::int32}, 0, buffer(0, {}, mr)); }
  return any_column(v.type(), 0, buffer(0, {}, mr), buffer{}, 0, std::move(children));
}

// A column's rows for one destination, in a form whose buffers can be sent as they are.
struct outgoing_piece {
  any_column owned;  // empty when the rows are sent from the source column itself
  any_column_view view;
  column_header header{};
};

// Rows [begin, end) as they lie, unsent or sent from there: a fixed-width column's header (its
// nulls and bytes); a strings or dictionary column's none (it is copied to be sent). This rank's
// own rows, when it sends none elsewhere, stay such a view (copied, if at all, when assembled).
inline outgoing_piece own_piece(any_column_view const& column, size_type begin, size_type end, stream_ref stream) {
  outgoing_piece piece;
  piece.view = column.slice(begin, end, stream);
  if (begin == end) { return piece; }  // no rows: nothing to copy or send (a header of zeros)
  if (column.type().id() != type_id::string && column.type().id() != type_id::dictionary) {
    piece.header.null_count = piece.view.null_count();
    piece.header.payload_bytes =
        static_cast<std::int64_t>(static_cast<std::size_t>(piece.view.size()) * size_of(column.type()));
  }
  return piece;
}

inline outgoing_piece make_piece(any_column_view const& column, size_type begin, size_type end, stream_ref stream,
                                 resource_ref mr) {
  outgoing_piece piece = own_piece(column, begin, end, stream);
  bool const dictionary = column.type().id() == type_id::dictionary;
  bool const fixed_width = column.type().id() != type_id::string && !dictionary;
  if (begin == end || (fixed_width && piece.header.null_count == 0)) { return piece; }  // sent from where it lies
  piece.owned = copy(piece.view, stream, mr);  // starts at row 0 (a dictionary's whole, with it)
  piece.view = piece.owned.view();
  piece.header.null_count = piece.view.null_count();
  if (dictionary) {
    auto const& values = piece.owned.children().front();
    COLX_EXPECTS(values.null_count() == 0 && values.type().id() != type_id::dictionary,
                 "colx::dist: a dictionary's values must be a plain column without nulls");
    piece.header.payload_bytes =
        static_cast<std::int64_t>(static_cast<std::size_t>(piece.view.size()) * size_of(data_type{column.type().codes()}));
    piece.header.dictionary_rows = values.size();
    std::tie(piece.header.dictionary_payload_bytes, piece.header.dictionary_offset_bytes) = payload_and_offsets(values);
  } else {
    std::tie(piece.header.payload_bytes, piece.header.offset_bytes) = payload_and_offsets(piece.owned);
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

// Sets *differ when a and b differ anywhere (one thread a byte: dictionaries are small beside
// rows). A thread that finds it set writes nothing: no contention when everything differs.
struct mark_differing_bytes_fn {
  unsigned char const* a;
  unsigned char const* b;
  unsigned int* differ;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    if (a[i] != b[i] && colx::detail::atomic_load(differ) == 0u) { (void)colx::detail::atomic_cas(differ, 0u, 1u); }
  }
};

// Whether the dictionaries of `pieces` (compact dictionary columns with rows: copies made to send
// or to receive) hold the same values in the same order, so that their codes mean the same values:
// sizes compared here, bytes on the backend, one wait for them all. Ranks that read files of the
// same few values (flags, names) build equal dictionaries; their rows then join without recoding.
inline bool same_dictionaries(std::span<any_column* const> pieces, stream_ref stream) {
  auto const& first = pieces.front()->children().front();
  auto const buffers = [](any_column const& d) {  // values, and a strings dictionary's offsets
    std::vector<shared_buffer const*> out{&d.data()};
    if (!d.children().empty()) { out.push_back(&d.children().front().data()); }
    return out;
  };
  auto const first_buffers = buffers(first);
  for (auto const* piece : pieces.subspan(1)) {
    auto const& d = piece->children().front();
    auto const other = buffers(d);
    if (d.type() != first.type() || d.size() != first.size() || other.size() != first_buffers.size()) { return false; }
    for (std::size_t b = 0; b < other.size(); ++b) {
      if (other[b]->size() != first_buffers[b]->size()) { return false; }
    }
  }
  memory_kind const kind = first.kind();
  uvector<unsigned int> differ(1, stream, get_current_resource(kind));
  colx::detail::fill_bytes(differ.data(), kind, 0, sizeof(unsigned int), stream);
  on_backend(kind, stream, [&](auto const& exec) {
    for (auto const* piece : pieces.subspan(1)) {
      auto const other = buffers(piece->children().front());
      for (std::size_t b = 0; b < other.size(); ++b) {
        exec.for_each_n(static_cast<size_type>(other[b]->size()),
                        mark_differing_bytes_fn{static_cast<unsigned char const*>(first_buffers[b]->read(stream)),
                                                static_cast<unsigned char const*>(other[b]->read(stream)), differ.data()});
      }
    }
  });
  return colx::detail::read_value(differ.data(), kind, stream) == 0u;
}

// Column C's pieces from every rank as one column: a dictionary column's recoded over the union of
// their dictionaries first (ranks may hold different ones), unless they hold one dictionary.
template <class Schema, std::size_t C>
any_column join_pieces(std::vector<any_column>& pieces, stream_ref stream, resource_ref mr) {
  if (pieces.size() == 1) { return std::move(pieces.front()); }
  using value_t = typename Schema::template field_at<C>::type;
  std::vector<any_column_view> views;
  if constexpr (dictionary_type<value_t>) {
    using typed = column_storage_t<value_t>;
    std::vector<any_column*> filled;  // (empty ones may come without a dictionary)
    for (auto& p : pieces) {
      if (p.size() > 0) { filled.push_back(&p); }
    }
    if (filled.empty()) { return std::move(pieces.front()); }
    if (filled.size() == 1) { return std::move(*filled.front()); }
    if (same_dictionaries(std::span<any_column* const>(filled), stream)) {
      any_column_view const dictionary = filled.front()->children().front().view();
      for (auto const* p : filled) {  // the codes of each, over the first one's dictionary
        any_column_view const v = p->view();
        views.emplace_back(v.type(), v.size(), v.head(), v.kind(), v.null_mask(), v.null_count(), v.offset(),
                           std::vector<any_column_view>{dictionary});
      }
      return concatenate(views, stream, mr);
    }
    std::vector<typed> columns;
    for (auto* p : filled) { columns.emplace_back(std::move(*p)); }
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

}  // namespace colx::dist

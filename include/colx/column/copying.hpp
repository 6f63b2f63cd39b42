// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deep copies, concatenation and moves between memories, for every column type. Kernels run on
// the backend that owns the inputs; a copy to another kind of memory first compacts the rows in
// the source memory (only when the view is a slice), then moves whole buffers.
#include <colx/column/column.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/exec/dispatch.hpp>

#include <algorithm>
#include <limits>
#include <span>
#include <vector>

namespace colx {
namespace detail {

// Writes `count` bits of `in` from bit `in_begin` into `out` from bit `out_begin`, leaving the
// other bits of the words it touches alone. Call k handles the k-th output word of the range, so
// no two threads share a word; ranges of successive calls may share a boundary word, which
// stream order (or the host's program order) serialises.
struct insert_bits_fn {
  bitmask_type* out;
  bitmask_type const* in;  // null: all valid
  size_type in_begin, out_begin, count;
  COLX_HOST_DEVICE void operator()(size_type k) const {
    size_type const w = out_begin / bits_per_word + k;
    size_type const word_begin = w * bits_per_word;
    size_type const lo = word_begin > out_begin ? word_begin : out_begin;
    size_type const end = out_begin + count;
    size_type const hi = word_begin + bits_per_word < end ? word_begin + bits_per_word : end;
    bitmask_type const bits_mask = low_bits(hi - lo) << (lo - word_begin);
    bitmask_type const src =
        in == nullptr ? ~bitmask_type{0} : word_at(in, in_begin + (lo - out_begin), in_begin + count);
    out[w] = (out[w] & ~bits_mask) | ((src << (lo - word_begin)) & bits_mask);
  }
};

template <class In, class Out>
struct rebase_offsets_fn {
  Out* out;
  In const* in;
  In in_base;
  Out out_base;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = static_cast<Out>(in[i] - in_base) + out_base; }
};

template <class T>
[[nodiscard]] T read_value(T const* p, memory_kind kind, stream_ref stream) {
  T value;
  copy_bytes(&value, memory_kind::host, p, kind, sizeof(T), stream);
  return value;
}

// The kind of memory the rows live in; empty views (a default column lives nowhere in
// particular) do not count. `fallback` when all are empty.
inline memory_kind common_kind(std::span<any_column_view const> views, memory_kind fallback) {
  COLX_EXPECTS(!views.empty(), "concatenate needs at least one column");
  auto const first = std::find_if(views.begin(), views.end(), [](auto const& v) { return !v.empty(); });
  if (first == views.end()) { return fallback; }
  memory_kind const kind = first->kind();
  for (auto const& v : views) {
    if (v.empty()) { continue; }
    COLX_EXPECTS(is_host_accessible(v.kind()) == is_host_accessible(kind),
                 "concatenate needs all columns in one kind of memory; found ", to_string(kind), " and ",
                 to_string(v.kind()), ": copy them first");
  }
  return kind;
}

// The rows' validity as a new mask, or an empty buffer when no input has a mask.
inline buffer concatenate_masks(std::span<any_column_view const> views, size_type total, memory_kind kind,
                                stream_ref stream, resource_ref mr) {
  bool const any_mask = std::any_of(views.begin(), views.end(), [](auto const& v) { return v.nullable(); });
  if (!any_mask) { return buffer(0, stream, mr); }
  // Zeroed, padding included, so masks compare and hash deterministically; rows of views without a
  // mask are inserted as valid.
  buffer mask = create_bitmask(total, false, stream, mr);
  auto* out = static_cast<bitmask_type*>(mask.data());
  size_type row = 0;
  for (auto const& v : views) {
    if (!v.empty()) {
      size_type const words = bitmask_words(row + v.size()) - row / bits_per_word;
      on_backend(kind, stream, [&](auto const& exec) {
        exec.for_each_n(words, insert_bits_fn{out, v.null_mask(), v.offset(), row, v.size()});
      });
    }
    row += v.size();
  }
  return mask;
}

// The first and last offset of each strings view, in one wait rather than two a view: on the
// device, every pair is copied into one staging buffer (in stream order) and that is read once.
// An empty view reads (0, 0).
inline std::vector<std::pair<std::int64_t, std::int64_t>> offset_bounds(std::span<any_column_view const> views, memory_kind kind,
                                                                        stream_ref stream) {
  std::vector<std::pair<std::int64_t, std::int64_t>> bounds(views.size(), {0, 0});
  if (is_host_accessible(kind)) {
    if (kind == memory_kind::pinned) { stream.synchronize(); }  // written by earlier device work
    for (std::size_t i = 0; i < views.size(); ++i) {
      strings_column_view const s(views[i]);
      if (s.empty()) { continue; }
      s.visit([&](auto const& dv) { bounds[i] = {dv.offsets[0], dv.offsets[s.size()]}; });
    }
    return bounds;
  }
  if (std::all_of(views.begin(), views.end(), [](auto const& v) { return v.size() == 0; })) { return bounds; }
  // Each offset (4 or 8 bytes, little-endian) lands in the low bytes of a zeroed 8-byte slot.
  buffer staging(views.size() * 2 * sizeof(std::int64_t), stream, get_current_resource(kind));
  fill_bytes(staging.data(), kind, 0, staging.size(), stream);
  auto* const slots = static_cast<std::int64_t*>(staging.data());
  for (std::size_t i = 0; i < views.size(); ++i) {
    strings_column_view const s(views[i]);
    if (s.empty()) { continue; }
    s.visit([&](auto const& dv) {
      std::size_t const width = sizeof(*dv.offsets);
      copy_bytes(slots + 2 * i, kind, dv.offsets, kind, width, stream);
      copy_bytes(slots + 2 * i + 1, kind, dv.offsets + s.size(), kind, width, stream);
    });
  }
  std::vector<std::int64_t> read(views.size() * 2);
  copy_bytes(read.data(), memory_kind::host, slots, kind, staging.size(), stream);
  for (std::size_t i = 0; i < views.size(); ++i) { bounds[i] = {read[2 * i], read[2 * i + 1]}; }
  return bounds;
}

// Appends each view's offsets, rebased, to `out` (the chars of view i start where view i - 1's
// end); `bounds` are the views' first and last offsets (offset_bounds).
template <class Out>
void append_rebased_offsets(std::span<any_column_view const> views, std::span<std::pair<std::int64_t, std::int64_t> const> bounds,
                            Out* out, memory_kind kind, stream_ref stream) {
  size_type row = 0;
  Out chars = 0;
  for (std::size_t i = 0; i < views.size(); ++i) {
    strings_column_view const s(views[i]);
    if (!s.empty()) {
      s.visit([&](auto const& dv) {
        using In = std::remove_cv_t<std::remove_pointer_t<decltype(dv.offsets)>>;
        on_backend(kind, stream, [&](auto const& exec) {
          exec.for_each_n(s.size() + 1, rebase_offsets_fn<In, Out>{out + row, dv.offsets, static_cast<In>(bounds[i].first), chars});
        });
      });
    }
    chars += static_cast<Out>(bounds[i].second - bounds[i].first);
    row += s.size();
  }
  if (row == 0) { copy_bytes(out, kind, &chars, memory_kind::host, sizeof(Out), stream); }
}

inline any_column concatenate_strings(std::span<any_column_view const> views, size_type total, memory_kind kind,
                                      stream_ref stream, resource_ref mr) {
  auto const bounds = offset_bounds(views, kind, stream);
  std::int64_t total_chars = 0;
  bool any_large = false;
  for (std::size_t i = 0; i < views.size(); ++i) {
    any_large = any_large || strings_column_view(views[i]).offset_type() == type_id::int64;
    total_chars += bounds[i].second - bounds[i].first;
  }
  bool const large = any_large || total_chars > std::numeric_limits<std::int32_t>::max();
  data_type const offset_type{large ? type_id::int64 : type_id::int32};
  buffer offsets((total + 1) * size_of(offset_type), stream, mr);
  if (large) {
    append_rebased_offsets(views, std::span(bounds), static_cast<std::int64_t*>(offsets.data()), kind, stream);
  } else {
    append_rebased_offsets(views, std::span(bounds), static_cast<std::int32_t*>(offsets.data()), kind, stream);
  }
  buffer chars(static_cast<std::size_t>(total_chars), stream, mr);
  std::size_t at = 0;
  for (std::size_t i = 0; i < views.size(); ++i) {
    auto const [first, last] = bounds[i];
    auto const bytes = static_cast<std::size_t>(last - first);
    copy_bytes(static_cast<char*>(chars.data()) + at, kind, static_cast<char const*>(views[i].head()) + first, kind, bytes,
               stream);
    at += bytes;
  }
  std::vector<any_column> children;
  children.emplace_back(offset_type, total + 1, std::move(offsets));
  size_type nulls = 0;
  for (auto const& v : views) { nulls += v.null_count(); }
  buffer mask = concatenate_masks(views, total, kind, stream, mr);
  any_column out(data_type{type_id::string}, total, std::move(chars), std::move(mask), nulls, std::move(children));
  // Strings of one size throughout (a copy or slice of a fixed-width column among them): the
  // rebased offsets are 0, w, 2w, ... again.
  size_type const width = views.empty() ? -1 : views.front().uniform_bytes();
  bool const uniform = width >= 0 && std::all_of(views.begin(), views.end(), [&](auto const& v) { return v.uniform_bytes() == width; });
  if (uniform) { out.set_uniform_bytes(width, built_uniform_offsets{}); }
  return out;
}

// A copy of an unsliced fixed-width view in memory from `mr`, buffer by buffer: the move across
// the bus needs no kernel when the rows already start at row 0.
inline any_column transfer(any_column_view const& view, stream_ref stream, resource_ref mr) {
  std::size_t const bytes = static_cast<std::size_t>(view.size()) * size_of(view.type());
  buffer data(view.head(), view.kind(), bytes, stream, mr);
  buffer mask(0, stream, mr);
  if (view.nullable()) {
    mask = buffer(bitmask_allocation_bytes(view.size()), stream, mr);
    std::size_t const used = static_cast<std::size_t>(bitmask_words(view.size())) * sizeof(bitmask_type);
    copy_bytes(mask.data(), mask.kind(), view.null_mask(), view.kind(), used, stream);
    fill_bytes(static_cast<char*>(mask.data()) + used, mask.kind(), 0, mask.size() - used, stream);
  }
  return any_column(view.type(), view.size(), std::move(data), std::move(mask), view.null_count());
}

// The one dictionary of dictionary columns being concatenated, copied into memory from `mr`.
// Codes index only their own dictionary, so columns of different dictionaries do not concatenate
// as codes.
inline any_column common_dictionary(std::span<any_column_view const> views, stream_ref stream, resource_ref mr);

// The same for a compact column of any type, children included.
inline any_column transfer(any_column const& c, stream_ref stream, resource_ref mr) {
  std::vector<any_column> children;
  for (auto const& child : c.children()) { children.push_back(transfer(child, stream, mr)); }
  any_column out(c.type(), c.size(), c.data().copy(stream, mr), c.mask().copy(stream, mr), c.null_count(), std::move(children));
  if (c.uniform_bytes() >= 0) { out.set_uniform_bytes(c.uniform_bytes(), built_uniform_offsets{}); }  // the same offsets
  return out;
}

}  // namespace detail

// The rows of all `views`, in order, as one new column in memory from `mr`. All views must have
// the same type and live in the same kind of memory as `mr` allocates (host or device).
[[nodiscard]] inline any_column concatenate(std::span<any_column_view const> views, stream_ref stream = {},
                                            resource_ref mr = get_current_resource()) {
  memory_kind const kind = detail::common_kind(views, mr.kind());
  COLX_EXPECTS(is_host_accessible(mr.kind()) == is_host_accessible(kind), "concatenate writes ",
               to_string(mr.kind()), " memory from ", to_string(kind), " columns: copy them there first");
  data_type const type = views.front().type();
  size_type total = 0;
  for (auto const& v : views) {
    COLX_EXPECTS_AS(schema_error, v.type() == type, "concatenate needs one type; found ", type.to_string(), " and ",
                    v.type().to_string());
    total += v.size();
  }
  if (type.id() == type_id::string) { return detail::concatenate_strings(views, total, kind, stream, mr); }
  std::size_t const width = size_of(type);
  buffer data(static_cast<std::size_t>(total) * width, stream, mr);
  std::size_t at = 0;
  size_type nulls = 0;
  for (auto const& v : views) {
    auto const bytes = static_cast<std::size_t>(v.size()) * width;
    detail::copy_bytes(static_cast<char*>(data.data()) + at, data.kind(),
                       static_cast<char const*>(v.head()) + static_cast<std::size_t>(v.offset()) * width, v.kind(), bytes,
                       stream);
    at += bytes;
    nulls += v.null_count();
  }
  buffer mask = detail::concatenate_masks(views, total, kind, stream, mr);
  std::vector<any_column> children;
  if (type.id() == type_id::dictionary) { children.push_back(detail::common_dictionary(views, stream, mr)); }
  return any_column(type, total, std::move(data), std::move(mask), nulls, std::move(children));
}

template <class T>
[[nodiscard]] column<T> concatenate(std::span<column_view<T> const> views, stream_ref stream = {},
                                    resource_ref mr = get_current_resource()) {
  std::vector<any_column_view> untyped(views.begin(), views.end());
  return column<T>(concatenate(untyped, stream, mr));
}

// A deep copy of the view's rows into memory from `mr`, of any kind: this is also how columns
// move between host and device.
[[nodiscard]] inline any_column copy(any_column_view const& view, stream_ref stream = {},
                                     resource_ref mr = get_current_resource()) {
  if (is_host_accessible(mr.kind()) == is_host_accessible(view.kind())) {
    return concatenate(std::span<any_column_view const>(&view, 1), stream, mr);
  }
  // Across the bus: compact in the source memory if the view is a slice, then move whole buffers.
  if (view.offset() == 0 && is_fixed_width(view.type().id()) && view.children().empty()) {
    return detail::transfer(view, stream, mr);
  }
  any_column compact = concatenate(std::span<any_column_view const>(&view, 1), stream, get_current_resource(view.kind()));
  return detail::transfer(compact, stream, mr);
}

inline any_column detail::common_dictionary(std::span<any_column_view const> views, stream_ref stream, resource_ref mr) {
  any_column_view const& first = views.front().child(0);
  for (auto const& v : views) {
    any_column_view const& d = v.child(0);
    COLX_EXPECTS(d.head() == first.head() && d.offset() == first.offset() && d.size() == first.size() && d.type() == first.type(),
                 "concatenate: dictionary columns over different dictionaries (of ", first.size(), " and ", d.size(),
                 " values); recode them over one first (colx::unify_dictionaries) or decode them (colx::decode)");
  }
  return copy(first, stream, mr);
}

template <class T>
[[nodiscard]] column<T> copy(column_view<T> const& view, stream_ref stream = {}, resource_ref mr = get_current_resource()) {
  return column<T>(copy(any_column_view(view), stream, mr));
}
template <class T>
[[nodiscard]] column<T> copy(column<T> const& c, stream_ref stream = {}, resource_ref mr = get_current_resource()) {
  return copy(c.view(), stream, mr);
}
[[nodiscard]] inline strings_column copy(strings_column_view const& view, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  return strings_column(copy(view.untyped(), stream, mr));
}
[[nodiscard]] inline strings_column copy(strings_column const& c, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  return copy(c.view(), stream, mr);
}

// Copies to device memory (the current device resource by default). Needs the CUDA backend.
template <class View>
[[nodiscard]] auto to_device(View const& view, stream_ref stream = {}, resource_ref mr = get_current_resource(memory_kind::device)) {
  return copy(view, stream, mr);
}

// Copies to host memory (the current host resource by default; pass the pinned resource for
// fast transfers). Returns once the data is on the host.
template <class View>
[[nodiscard]] auto to_host(View const& view, stream_ref stream = {}, resource_ref mr = get_current_host_resource()) {
  auto out = copy(view, stream, mr);
  stream.synchronize();
  return out;
}

}  // namespace colx

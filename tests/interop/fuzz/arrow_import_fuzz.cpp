// SPDX-License-Identifier: Apache-2.0
// libFuzzer target of the Arrow C Data Interface import (import_arrow_column, import_arrow_table).
//
// The input is read front to back (see make_seeds.py for the encoding) into an ArrowSchema and an
// ArrowArray, possibly a struct with children: format, length, offset, null_count, n_buffers,
// n_children, buffers. Every buffer is its own heap allocation of the size the spec demands of a
// producer for the array's offset + length (bitmaps ceil(bits / 8) bytes, no padding), so ASan
// reports any read an importer that checks what it can check should not make. What an importer
// cannot check (the chars behind the last strings offset) is sized to fit when it is small, and
// otherwise left short: the import must then not read it, and the target does not read it either.
//
// Accepted outcomes: a column or table (then read back on the host), or colx::logic_error (and its
// schema_error, out_of_range) or std::bad_alloc before the array was taken. The producer's release
// must run exactly once: by colx after a successful import, once no column shares its memory (at
// once when everything was copied; ASan catches a release while memory is still shared), or by
// this target when the import threw. Anything else aborts.
#include <colx/column/factories.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/interop/arrow_import.hpp>
#include <colx/types/type_dispatch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

[[noreturn]] void finding(char const* what, char const* detail = "") {
  std::fprintf(stderr, "FINDING: %s %s\n", what, detail);
  std::abort();
}

// The input, consumed from the front; zeros once it runs out.
struct reader {
  std::uint8_t const* p;
  std::size_t n;
  std::uint8_t u8() {
    if (n == 0) { return 0; }
    --n;
    return *p++;
  }
  std::uint64_t le(int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) { v |= std::uint64_t{u8()} << (8 * i); }
    return v;
  }
  // A count: small, 16-bit, raw 64-bit, or one of the edge values.
  std::int64_t count() {
    static constexpr std::int64_t edges[] = {0,
                                             -1,
                                             1,
                                             INT64_MAX,
                                             INT64_MIN,
                                             std::int64_t{1} << 31,
                                             std::int64_t{1} << 32,
                                             INT64_MAX / 32,
                                             INT64_MAX / 32 + 1,
                                             std::int64_t{1} << 62,
                                             -2,
                                             31,
                                             32,
                                             33,
                                             63,
                                             64};
    switch (u8() & 3) {
      case 0: return u8();
      case 1: return static_cast<std::int64_t>(le(2));
      case 2: return static_cast<std::int64_t>(le(8));
      default: return edges[u8() % std::size(edges)];
    }
  }
};

enum class layout { fixed, boolean, strings32, strings64, structure, unknown };

struct format_entry {
  char const* format;
  layout kind;
  std::size_t width;  // bytes per value of a fixed-width layout
};

// Every format colx imports, and a few it must reject.
constexpr format_entry formats[] = {
    {"b", layout::boolean, 0},      {"c", layout::fixed, 1},         {"s", layout::fixed, 2},
    {"i", layout::fixed, 4},        {"l", layout::fixed, 8},         {"C", layout::fixed, 1},
    {"S", layout::fixed, 2},        {"I", layout::fixed, 4},         {"L", layout::fixed, 8},
    {"f", layout::fixed, 4},        {"g", layout::fixed, 8},         {"tdD", layout::fixed, 4},
    {"tss:", layout::fixed, 8},     {"tsm:", layout::fixed, 8},      {"tsu:", layout::fixed, 8},
    {"tsn:", layout::fixed, 8},     {"tsn:UTC", layout::fixed, 8},   {"tDs", layout::fixed, 8},
    {"tDm", layout::fixed, 8},      {"tDu", layout::fixed, 8},       {"tDn", layout::fixed, 8},
    {"d:9,2,32", layout::fixed, 4}, {"d:18,-3,64", layout::fixed, 8}, {"d:38,4", layout::fixed, 16},
    {"d:38,4,128", layout::fixed, 16}, {"u", layout::strings32, 4},  {"U", layout::strings64, 8},
    {"+s", layout::structure, 0},   {"", layout::unknown, 0},        {"x", layout::unknown, 0},
    {"d:99,2", layout::unknown, 0}, {"tsq:", layout::unknown, 0},    {"+l", layout::unknown, 0},
    {"z", layout::unknown, 0},      {"d:9,2,256", layout::unknown, 0}, {"tdm", layout::unknown, 0},
};
constexpr std::size_t n_formats = std::size(formats);

// A fuzzed format string's layout, as colx parses it (the layout only sizes the buffers).
format_entry layout_of(char const* format) {
  for (auto const& e : formats) {
    if (std::strcmp(e.format, format) == 0) { return e; }
  }
  try {
    colx::data_type const type = colx::data_type_from_arrow_format(format);
    if (type.id() == colx::type_id::string) {
      return std::string_view(format) == "U" ? format_entry{format, layout::strings64, 8}
                                             : format_entry{format, layout::strings32, 4};
    }
    if (type.id() == colx::type_id::bool8) { return {format, layout::boolean, 0}; }
    return {format, layout::fixed, colx::size_of(type)};
  } catch (colx::logic_error const&) {
    return {format, std::string_view(format) == "+s" ? layout::structure : layout::unknown, 0};
  }
}

constexpr std::size_t max_buffer_bytes = std::size_t{1} << 20;

// What the array's release frees: every allocation of the array tree.
struct array_state {
  int* calls;
  std::vector<void*> allocations;
  std::vector<ArrowArray*> children;  // every node below the root, released by the root
};

struct child_state {
  int* calls;
};

void release_child(ArrowArray* self) {
  ++*static_cast<child_state*>(self->private_data)->calls;
  self->release = nullptr;
}

void release_root(ArrowArray* self) {
  auto* state = static_cast<array_state*>(self->private_data);
  for (ArrowArray* child : state->children) {
    if (child->release != nullptr) { child->release(child); }
  }
  ++*state->calls;
  self->release = nullptr;  // before the frees: `self` may be one of the children's structs, never freed here
  for (void* p : state->allocations) { std::free(p); }
  delete state;
}

void release_schema(ArrowSchema* self) { self->release = nullptr; }

// The schema tree is the target's: the importer only reads it.
struct schema_store {
  std::vector<void*> allocations;
  ~schema_store() {
    for (void* p : allocations) { std::free(p); }
  }
};

void* allocate(std::vector<void*>& into, std::size_t bytes) {
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) { finding("malloc failed in the target"); }
  into.push_back(p);
  return p;
}

char* copy_string(std::vector<void*>& into, std::string const& s) {
  auto* p = static_cast<char*>(allocate(into, s.size() + 1));
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

// Rows [0, offset + length) when both are sane and the buffers fit the arena; -1 otherwise.
std::int64_t rows_needed(std::int64_t offset, std::int64_t length) {
  if (offset < 0 || length < 0 || offset > (std::int64_t{1} << 40) || length > (std::int64_t{1} << 40)) { return -1; }
  return offset + length;
}

// The spec's size of buffer `i` of an array of `rows` rows (offset + length); -1: no such size.
std::int64_t buffer_bytes(format_entry const& f, std::int64_t i, std::int64_t rows) {
  if (rows < 0) { return -1; }
  std::int64_t const bitmap = (rows + 7) / 8;
  if (i == 0) { return f.kind == layout::unknown ? 16 : bitmap; }
  switch (f.kind) {
    case layout::boolean: return i == 1 ? bitmap : 16;
    case layout::fixed: return i == 1 ? rows * static_cast<std::int64_t>(f.width) : 16;
    case layout::strings32:
    case layout::strings64: return i == 1 ? (rows + 1) * static_cast<std::int64_t>(f.width) : -2;  // -2: chars
    default: return 16;
  }
}

struct node_info {
  ArrowArray* array;
  ArrowSchema* schema;
  // For the read-back: whether the chars buffer holds every byte the offsets reach.
  bool chars_fit = true;
  int expected_child_releases = 0;
};

struct builder {
  reader in;
  array_state* state;
  schema_store* schemas;
  std::deque<int>* child_calls;  // one counter per child node; a deque keeps their addresses
  std::deque<child_state>* child_st;
  bool all_chars_fit = true;
  int expected_child_releases = 0;

  // Fills `bytes` bytes from the input; `mode` bit 5: pad with 0xff instead of 0.
  void fill(std::uint8_t* p, std::size_t bytes, std::uint8_t mode) {
    std::size_t const take = std::min(bytes, in.n);
    std::memcpy(p, in.p, take);
    in.p += take;
    in.n -= take;
    std::memset(p + take, (mode & 0x20) != 0 ? 0xff : 0, bytes - take);
  }

  // Increasing (or, rarely, not) offsets from small steps taken from the input.
  template <class Offset>
  void fill_offsets(Offset* o, std::size_t count) {
    std::int64_t v = in.u8() % 4 == 0 ? 0 : in.u8();
    for (std::size_t k = 0; k < count; ++k) {
      o[k] = static_cast<Offset>(v);
      std::uint8_t const step = in.u8();
      v += step == 0xff ? -1 : step % 16;
    }
  }

  template <class Offset>
  static std::int64_t max_offset(void const* p, std::int64_t entries) {
    std::int64_t m = 0;
    for (std::int64_t k = 0; k < entries; ++k) {
      Offset v;
      std::memcpy(&v, static_cast<char const*>(p) + k * sizeof(Offset), sizeof(Offset));
      m = std::max<std::int64_t>(m, v);
    }
    return m;
  }

  // `root`: the caller's struct (the importer writes to it), or null for a child, which the array owns.
  node_info build(int depth, ArrowArray* root = nullptr) {
    auto* array = root != nullptr ? root : static_cast<ArrowArray*>(allocate(state->allocations, sizeof(ArrowArray)));
    auto* schema = static_cast<ArrowSchema*>(allocate(schemas->allocations, sizeof(ArrowSchema)));
    std::memset(array, 0, sizeof(ArrowArray));
    std::memset(schema, 0, sizeof(ArrowSchema));

    std::uint8_t const f = in.u8();
    if (f < n_formats) {
      schema->format = formats[f].format;
    } else if (f == 0xff) {
      schema->format = nullptr;
    } else {
      std::string raw;
      std::size_t const len = in.u8() % 12;
      for (std::size_t k = 0; k < len; ++k) { raw += static_cast<char>(in.u8() | 1); }  // no NUL inside
      schema->format = copy_string(schemas->allocations, raw);
    }
    format_entry const fmt = schema->format == nullptr ? format_entry{"", layout::unknown, 0} : layout_of(schema->format);

    std::uint8_t const flags = in.u8();
    schema->name = (flags & 1) != 0 ? "field" : nullptr;
    schema->flags = ARROW_FLAG_NULLABLE;
    schema->release = (flags & 2) != 0 ? nullptr : &release_schema;
    if ((flags & 8) != 0) {
      auto* dict = static_cast<ArrowSchema*>(allocate(schemas->allocations, sizeof(ArrowSchema)));
      std::memset(dict, 0, sizeof(ArrowSchema));
      dict->format = "u";
      dict->release = &release_schema;
      schema->dictionary = dict;
    }
    if ((flags & 16) != 0) {
      auto* dict = static_cast<ArrowArray*>(allocate(state->allocations, sizeof(ArrowArray)));
      std::memset(dict, 0, sizeof(ArrowArray));
      array->dictionary = dict;  // released with the root; never a valid array, must be rejected
    }

    array->length = in.count();
    array->offset = in.count();
    std::uint8_t const nc = in.u8();
    array->null_count = nc < 0x80 ? (nc % 4 == 0 ? -1 : nc % 4 == 1 ? 0 : nc % 8) : in.count();

    std::int64_t const natural_buffers = fmt.kind == layout::structure                                      ? 1
                                         : fmt.kind == layout::strings32 || fmt.kind == layout::strings64 ? 3
                                                                                                          : 2;
    std::uint8_t const nb = in.u8();
    array->n_buffers = nb < 0x80 ? natural_buffers : nb < 0x88 ? nb - 0x80 : in.count();
    std::int64_t const slots = std::clamp<std::int64_t>(array->n_buffers, 0, 8);
    std::int64_t const rows = rows_needed(array->offset, array->length);
    if ((flags & 32) == 0) {
      auto** buffers = static_cast<void const**>(allocate(state->allocations, static_cast<std::size_t>(slots) * sizeof(void*)));
      array->buffers = buffers;
      std::int64_t max_chars = 0;  // the largest strings offset the chars must cover
      for (std::int64_t i = 0; i < slots; ++i) {
        std::uint8_t const mode = in.u8();
        buffers[i] = nullptr;
        if ((mode & 1) == 0) { continue; }
        std::size_t const shift = (mode & 0x40) != 0 ? 1 + ((mode >> 1) & 7) : 0;  // misaligned
        std::int64_t bytes = buffer_bytes(fmt, i, rows);
        bool const chars = bytes == -2;
        if (chars) { bytes = max_chars <= static_cast<std::int64_t>(max_buffer_bytes) ? max_chars : -3; }
        if (bytes == -1 || bytes > static_cast<std::int64_t>(max_buffer_bytes)) { continue; }  // no producer could
        if (bytes == -3) {  // offsets beyond what the target gives: the import must not read chars
          bytes = 16;
          all_chars_fit = false;
        }
        auto* base = static_cast<std::uint8_t*>(allocate(state->allocations, static_cast<std::size_t>(bytes) + shift));
        std::uint8_t* p = base + shift;
        if (i == 1 && (fmt.kind == layout::strings32 || fmt.kind == layout::strings64) && (mode & 0x10) != 0) {
          std::size_t const count = static_cast<std::size_t>(rows + 1);
          if (fmt.kind == layout::strings32) {
            std::vector<std::int32_t> o(count);
            fill_offsets(o.data(), count);
            std::memcpy(p, o.data(), count * 4);
          } else {
            std::vector<std::int64_t> o(count);
            fill_offsets(o.data(), count);
            std::memcpy(p, o.data(), count * 8);
          }
        } else {
          fill(p, static_cast<std::size_t>(bytes), mode);
        }
        if (i == 1 && rows >= 0) {
          max_chars = fmt.kind == layout::strings32   ? max_offset<std::int32_t>(p, rows + 1)
                      : fmt.kind == layout::strings64 ? max_offset<std::int64_t>(p, rows + 1)
                                                      : 0;
        }
        buffers[i] = p;
      }
    }

    // Children: only a struct's are meant, but any node may claim some.
    std::uint8_t const ch = in.u8();
    std::int64_t count = depth < 1 ? (ch & 7) % 5 : 0;
    if (depth < 1 && fmt.kind != layout::structure && (ch & 0x80) == 0) { count = 0; }
    std::int64_t const schema_count = (ch & 8) != 0 && depth < 1 ? count + 1 : count;  // one level only
    array->n_children = (ch & 0x20) != 0 ? -1 - static_cast<std::int64_t>(in.u8() % 3) : count;
    schema->n_children = schema_count;
    std::int64_t const allocated = std::max(count, schema_count);
    if (allocated > 0 && (ch & 0x10) == 0) {
      auto** ac = static_cast<ArrowArray**>(allocate(state->allocations, static_cast<std::size_t>(allocated) * sizeof(void*)));
      auto** sc = static_cast<ArrowSchema**>(allocate(schemas->allocations, static_cast<std::size_t>(allocated) * sizeof(void*)));
      for (std::int64_t k = 0; k < allocated; ++k) {
        node_info const child = build(depth + 1);
        ac[k] = child.array;
        sc[k] = child.schema;
        child_calls->push_back(0);
        child_st->push_back(child_state{&child_calls->back()});
        if (child.array->release != nullptr) {
          child.array->private_data = &child_st->back();
          child.array->release = &release_child;
          ++expected_child_releases;
        }
        state->children.push_back(child.array);
      }
      array->children = ac;
      schema->children = sc;
    }
    // Non-root nodes get release_child above (or stay released when the flag says so).
    array->release = (flags & 4) != 0 ? nullptr : &release_root;
    return {array, schema};
  }
};

// Reads every row of an imported column on the host.
void touch(colx::any_column const& c, bool chars_fit) {
  if (c.type().id() == colx::type_id::string) {
    if (!chars_fit) { return; }  // the target gave fewer chars than the offsets claim
    auto const rows = colx::to_strings(colx::strings_column_view(c.view()));
    if (static_cast<colx::size_type>(rows.size()) != c.size()) { finding("to_strings returned the wrong row count"); }
    return;
  }
  colx::type_dispatch(c.type(), [&]<class T>() {
    if constexpr (colx::fixed_width_element<T>) {
      auto const rows = colx::to_optional_vector(c.view().template as<T>());
      colx::size_type nulls = 0;
      for (auto const& r : rows) { nulls += r ? 0 : 1; }
      if (nulls != c.null_count()) { finding("the null count disagrees with the mask"); }
    }
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static bool const trace = std::getenv("COLX_FUZZ_TRACE") != nullptr;  // outcome of each input
  reader in{data, size};
  std::uint8_t const entry = in.u8();
  int root_calls = 0;
  std::deque<int> child_calls;
  std::deque<child_state> child_st;
  schema_store schemas;
  auto* state = new array_state{&root_calls, {}, {}};
  builder b{in, state, &schemas, &child_calls, &child_st};
  ArrowArray root_array;
  node_info const root = b.build(0, &root_array);
  ArrowArray* const array = root.array;
  ArrowSchema* const schema = root.schema;
  bool const pre_released = array->release == nullptr;
  array->private_data = state;
  // A released root: the target owns its memory still; keep a copy of the callback to free it.
  ArrowArray owner = *array;
  owner.release = &release_root;

  ArrowSchema const* schema_arg = (entry & 2) != 0 ? nullptr : schema;
  ArrowArray* array_arg = (entry & 4) != 0 ? nullptr : array;
  bool imported = false;
  try {
    if ((entry & 1) != 0) {
      colx::arrow_table const t = colx::import_arrow_table(schema_arg, array_arg);
      imported = true;
      if (t.names.size() != t.columns.num_columns()) { finding("names and columns differ"); }
      for (std::size_t i = 0; i < t.columns.num_columns(); ++i) { touch(t.columns.column(i), b.all_chars_fit); }
    } else {
      colx::any_column const c = colx::import_arrow_column(schema_arg, array_arg);
      imported = true;
      touch(c, b.all_chars_fit);
    }
  } catch (colx::logic_error const& e) {
    if (trace) { std::fprintf(stderr, "rejected: %s\n", e.what()); }
    if (array->release == nullptr && !pre_released) { finding("logic_error after the array was taken"); }
  } catch (std::bad_alloc const&) {
    // An allocation may fail after the array was taken: then colx released it.
  } catch (std::exception const& e) {
    finding("unexpected exception:", e.what());
  } catch (...) {
    finding("unexpected non-standard exception");
  }
  if (imported && trace) { std::fprintf(stderr, "imported\n"); }
  if (imported) {
    if (pre_released) { finding("a released array was imported"); }
    if (array->release != nullptr) { finding("the import did not mark the caller's array released"); }
    if (root_calls != 1) { finding("release not called exactly once after the columns were gone"); }
  } else if (array->release != nullptr) {
    if (root_calls != 0) { finding("released, yet the caller's array still has its release"); }
    array->release(array);  // never taken: the producer's struct is still the caller's
  } else if (pre_released) {
    owner.release(&owner);  // the target's own cleanup of a struct it built as released
    root_calls = 1;
  }
  if (root_calls != 1) { finding("release called other than once"); }
  for (std::size_t k = 0; k < child_calls.size(); ++k) {
    if (child_calls[k] > 1) { finding("a child released more than once"); }
  }
  int released_children = 0;
  for (int c : child_calls) { released_children += c; }
  if (released_children != b.expected_child_releases) { finding("a child was not released by its parent"); }
  return 0;
}

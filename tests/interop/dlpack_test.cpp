// SPDX-License-Identifier: Apache-2.0
// DLPack 1.x export and import of fixed-width columns on the backend under test: dtypes, devices,
// zero-copy both ways, deleters called once, the refusals, and the flags under copy-on-write.
#include "support/backend.hpp"

#include <colx/interop/dlpack.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using colx::size_type;
using colx::test::backend_kind;
using colx::test::backend_resource;
using colx::test::tracked_resource;

colx::memory_kind kind_of(DLDevice device) {
  switch (device.device_type) {
    case kDLCUDA: return colx::memory_kind::device;
    case kDLCUDAHost: return colx::memory_kind::pinned;
    default: return colx::memory_kind::host;
  }
}

DLDeviceType expected_device_type(colx::memory_kind kind) {
  switch (kind) {
    case colx::memory_kind::device: return kDLCUDA;
    case colx::memory_kind::pinned: return kDLCUDAHost;
    default: return kDLCPU;
  }
}

// The tensor's values, copied to the host (bools as bytes).
template <class T>
std::vector<colx::detail::host_staging_t<T>> tensor_values(DLManagedTensorVersioned const* t) {
  auto const n = static_cast<std::size_t>(t->dl_tensor.shape[0]);
  std::vector<colx::detail::host_staging_t<T>> out(n);
  auto const* data = static_cast<char const*>(t->dl_tensor.data) + t->dl_tensor.byte_offset;
  colx::detail::copy_bytes(out.data(), colx::memory_kind::host, data, kind_of(t->dl_tensor.device), n * sizeof(T), {});
  return out;
}

template <class T>
std::vector<T> sample(std::size_t n) {
  std::vector<T> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto const v = static_cast<std::int64_t>(i * 7 % 101) - 50;
    if constexpr (std::is_same_v<T, bool>) {
      out.push_back(i % 3 == 0);
    } else if constexpr (std::is_arithmetic_v<T>) {
      out.push_back(static_cast<T>(std::is_unsigned_v<T> ? v + 50 : v));
    } else {
      out.push_back(T(static_cast<typename T::rep>(v * 1000 + static_cast<std::int64_t>(i))));
    }
  }
  return out;
}

// A tensor produced by "another library": memory from the backend's resource, values at
// `pad` elements into it (byte_offset), and a deleter that counts its calls.
struct foreign {
  colx::buffer memory;
  std::int64_t shape[2] = {0, 1};
  std::int64_t strides[2] = {1, 1};
  int* deletions = nullptr;
  DLManagedTensorVersioned tensor{};
  DLManagedTensor legacy{};

  static void deleter(DLManagedTensorVersioned* self) {
    auto* f = static_cast<foreign*>(self->manager_ctx);
    ++*f->deletions;
    delete f;
  }
  static void legacy_deleter(DLManagedTensor* self) {
    auto* f = static_cast<foreign*>(self->manager_ctx);
    ++*f->deletions;
    delete f;
  }
};

template <class T>
DLTensor tensor_fields(foreign& f, std::vector<T> const& values, std::size_t pad, DLDataType dtype) {
  std::vector<colx::detail::host_staging_t<T>> host(pad, {});
  host.insert(host.end(), values.begin(), values.end());
  f.memory = colx::buffer(host.data(), colx::memory_kind::host, host.size() * sizeof(T), {}, backend_resource());
  f.shape[0] = static_cast<std::int64_t>(values.size());
  DLTensor t{};
  t.data = f.memory.data();
  t.device = colx::detail::dlpack_device_of(f.memory.kind(), f.memory.data());
  t.ndim = 1;
  t.dtype = dtype;
  t.shape = f.shape;
  t.strides = nullptr;
  t.byte_offset = pad * sizeof(T);
  return t;
}

template <class T>
DLManagedTensorVersioned* make_tensor(std::vector<T> const& values, DLDataType dtype, int& deletions,
                                      std::size_t pad = 0) {
  auto* f = new foreign;
  f->deletions = &deletions;
  f->tensor.version = {1, 0};
  f->tensor.manager_ctx = f;
  f->tensor.deleter = &foreign::deleter;
  f->tensor.dl_tensor = tensor_fields(*f, values, pad, dtype);
  return &f->tensor;
}

template <class T>
DLManagedTensor* make_legacy_tensor(std::vector<T> const& values, DLDataType dtype, int& deletions) {
  auto* f = new foreign;
  f->deletions = &deletions;
  f->legacy.manager_ctx = f;
  f->legacy.deleter = &foreign::legacy_deleter;
  f->legacy.dl_tensor = tensor_fields(*f, values, 0, dtype);
  return &f->legacy;
}

// Deletes an exported tensor the way a consumer would.
void drop(DLManagedTensorVersioned* t) { t->deleter(t); }

}  // namespace

// ---- export and import, type by type ---------------------------------------------------------------

TEMPLATE_TEST_CASE("dlpack: a column goes out and comes back without copying", "[dlpack]", bool, std::int8_t,
                   std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t,
                   float, double, colx::date32, colx::timestamp_s, colx::timestamp_ns, colx::duration_days,
                   colx::duration_ms) {
  using T = TestType;
  // Under copy-on-write the column keeps sharing the memory with the tensor: read-only.
  bool const cow_on = GENERATE(false, true);
  colx::scoped_option const cow(colx::set_copy_on_write, cow_on);
  tracked_resource mr;
  {
    auto const values = sample<T>(1000);
    auto c = colx::make_column(values, {}, mr.ref());
    DLManagedTensorVersioned* t = colx::to_dlpack(c);
    REQUIRE(t != nullptr);
    CHECK(t->version.major == 1);
    CHECK(t->flags == (cow_on ? DLPACK_FLAG_BITMASK_READ_ONLY : 0));
    DLTensor const& d = t->dl_tensor;
    CHECK(d.ndim == 1);
    CHECK(d.shape[0] == 1000);
    CHECK(d.strides == nullptr);
    CHECK(d.byte_offset == 0);
    CHECK(d.dtype.lanes == 1);
    CHECK(d.dtype.bits == sizeof(T) * 8);
    if constexpr (std::is_same_v<T, bool>) {
      CHECK(d.dtype.code == kDLBool);
    } else if constexpr (std::is_floating_point_v<T>) {
      CHECK(d.dtype.code == kDLFloat);
    } else if constexpr (std::is_unsigned_v<T>) {
      CHECK(d.dtype.code == kDLUInt);
    } else {
      CHECK(d.dtype.code == kDLInt);  // signed integers, timestamps and durations
    }
    CHECK(d.device.device_type == expected_device_type(backend_kind()));
#if COLX_HAS_CUDA
    CHECK(d.device.device_id == colx::current_device());
#else
    CHECK(d.device.device_id == 0);
#endif
    CHECK(d.data == static_cast<void const*>(c.data()));  // zero-copy
    CHECK(c.untyped().data().is_exposed() == !cow_on);
    auto const expected_bytes = std::vector<colx::detail::host_staging_t<T>>(values.begin(), values.end());
    CHECK(tensor_values<T>(t) == expected_bytes);

    // Back in: the same memory, as column<T> (timestamps and durations from their integers).
    colx::column<T> back = colx::from_dlpack<T>(t);
    CHECK(back.size() == 1000);
    CHECK(back.kind() == backend_kind());
    CHECK_FALSE(back.nullable());
    CHECK(static_cast<void const*>(back.data()) == static_cast<void const*>(c.data()));
    CHECK(colx::to_vector(back.view()) == values);
    CHECK(back.untyped().data().is_foreign());
  }
  // The tensor's deleter ran when `back` went, and everything came back.
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("dlpack: untyped import maps dtypes to column types", "[dlpack]") {
  struct expectation {
    DLDataType dtype;
    colx::type_id id;
  };
  expectation const cases[] = {
      {{kDLInt, 8, 1}, colx::type_id::int8},     {{kDLInt, 16, 1}, colx::type_id::int16},
      {{kDLInt, 32, 1}, colx::type_id::int32},   {{kDLInt, 64, 1}, colx::type_id::int64},
      {{kDLUInt, 8, 1}, colx::type_id::uint8},   {{kDLUInt, 16, 1}, colx::type_id::uint16},
      {{kDLUInt, 32, 1}, colx::type_id::uint32}, {{kDLUInt, 64, 1}, colx::type_id::uint64},
      {{kDLFloat, 32, 1}, colx::type_id::float32}, {{kDLFloat, 64, 1}, colx::type_id::float64},
      {{kDLBool, 8, 1}, colx::type_id::bool8},
  };
  for (auto const& e : cases) {
    int deletions = 0;
    std::vector<std::uint64_t> const raw(5, 1);  // wide enough for every dtype
    auto* t = make_tensor(raw, e.dtype, deletions);
    t->dl_tensor.shape[0] = 5;
    {
      colx::any_column c = colx::from_dlpack(t);
      CHECK(c.type().id() == e.id);
      CHECK(c.size() == 5);
      CHECK(c.kind() == backend_kind());
      CHECK(c.data().read() == t->dl_tensor.data);
      CHECK(deletions == 0);
    }
    CHECK(deletions == 1);
  }
}

TEST_CASE("dlpack: a timestamp column comes back as its integers", "[dlpack]") {
  auto const days = sample<colx::date32>(10);
  auto c = colx::make_column(days, {}, backend_resource());
  colx::any_column back = colx::from_dlpack(colx::to_dlpack(c));
  CHECK(back.type().id() == colx::type_id::int32);
  auto const ints = colx::to_vector(back.view().as<std::int32_t>());
  for (std::size_t i = 0; i < days.size(); ++i) { CHECK(ints[i] == days[i].ticks); }
}

// ---- lifetimes ------------------------------------------------------------------------------------

TEST_CASE("dlpack: an imported tensor's deleter runs once, when the last column over it goes", "[dlpack]") {
  int deletions = 0;
  auto const values = sample<std::int64_t>(100);
  auto* t = make_tensor(values, {kDLInt, 64, 1}, deletions, 3);  // byte_offset 24
  std::optional<colx::column<std::int64_t>> a = colx::from_dlpack<std::int64_t>(t);
  CHECK(static_cast<void const*>(a->data()) == static_cast<char const*>(t->dl_tensor.data) + 24);
  CHECK(colx::to_vector(a->view()) == values);
  std::optional<colx::column<std::int64_t>> b = *a;  // a shallow copy shares the memory
  colx::any_column moved = colx::any_column(std::move(*a).release());
  a.reset();
  CHECK(deletions == 0);
  b.reset();
  CHECK(deletions == 0);
  CHECK(colx::to_vector(moved.view().as<std::int64_t>()) == values);
  moved = colx::any_column{};
  CHECK(deletions == 1);
}

TEST_CASE("dlpack: an exported tensor keeps its memory after the columns are gone", "[dlpack]") {
  tracked_resource mr;
  auto const values = sample<double>(4096);
  DLManagedTensorVersioned* t = nullptr;
  {
    auto c = colx::make_column(values, {}, mr.ref());
    auto copy = c;
    t = colx::to_dlpack(copy);
  }
  CHECK(mr.outstanding_allocations() == 1);
  CHECK(tensor_values<double>(t) == values);
  drop(t);
  CHECK(mr.outstanding_allocations() == 0);
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("dlpack: export, import, export again: one chain of deleters", "[dlpack]") {
  tracked_resource mr;
  auto const values = sample<float>(333);
  DLManagedTensorVersioned* second = nullptr;
  {
    colx::any_column imported = colx::from_dlpack(colx::to_dlpack(colx::make_column(values, {}, mr.ref())));
    second = colx::to_dlpack(std::move(imported));
    CHECK(imported.size() == 0);
  }
  CHECK(mr.outstanding_allocations() == 1);
  CHECK(tensor_values<float>(second) == values);
  drop(second);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("dlpack: a legacy (unversioned) tensor", "[dlpack]") {
  int deletions = 0;
  auto const values = sample<std::uint16_t>(50);
  {
    auto c = colx::from_dlpack_legacy<std::uint16_t>(make_legacy_tensor(values, {kDLUInt, 16, 1}, deletions));
    CHECK(colx::to_vector(c.view()) == values);
    auto u = colx::from_dlpack_legacy(make_legacy_tensor(values, {kDLUInt, 16, 1}, deletions));
    CHECK(u.type().id() == colx::type_id::uint16);
    CHECK(deletions == 0);
  }
  CHECK(deletions == 2);
  DLManagedTensor* bad = make_legacy_tensor(values, {kDLUInt, 16, 2}, deletions);
  CHECK_THROWS_WITH(colx::from_dlpack_legacy(bad), Catch::Contains("2 lanes"));
  bad->deleter(bad);
  CHECK(deletions == 3);
}

// ---- sizes ----------------------------------------------------------------------------------------

TEST_CASE("dlpack: empty, one row and 1000003 rows", "[dlpack]") {
  tracked_resource mr;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000003}}) {
    auto const values = sample<std::int32_t>(n);
    auto c = colx::make_column(values, {}, mr.ref());
    DLManagedTensorVersioned* t = colx::to_dlpack(c);
    CHECK(t->dl_tensor.shape[0] == static_cast<std::int64_t>(n));
    if (n == 0) { CHECK(t->dl_tensor.data == nullptr); }
    CHECK(tensor_values<std::int32_t>(t) == values);
    auto back = colx::from_dlpack<std::int32_t>(t);
    CHECK(back.size() == static_cast<size_type>(n));
    CHECK(colx::to_vector(back.view()) == values);
  }
  {
    colx::column<double> const empty;  // no memory at all
    auto back = colx::from_dlpack(colx::to_dlpack(empty));
    CHECK(back.size() == 0);
    CHECK(back.type().id() == colx::type_id::float64);
  }
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("dlpack: a size-1 tensor may have any stride; stride 1 is compact", "[dlpack]") {
  int deletions = 0;
  auto* one = make_tensor(std::vector<std::int32_t>{42}, {kDLInt, 32, 1}, deletions);
  one->dl_tensor.strides = static_cast<foreign*>(one->manager_ctx)->strides;
  one->dl_tensor.strides[0] = 7;
  CHECK(colx::to_vector(colx::from_dlpack<std::int32_t>(one).view()) == std::vector<std::int32_t>{42});
  auto* compact = make_tensor(sample<std::int32_t>(9), {kDLInt, 32, 1}, deletions);
  compact->dl_tensor.strides = static_cast<foreign*>(compact->manager_ctx)->strides;
  CHECK(colx::to_vector(colx::from_dlpack<std::int32_t>(compact).view()) == sample<std::int32_t>(9));
  CHECK(deletions == 2);
}

// ---- refusals -------------------------------------------------------------------------------------

TEST_CASE("dlpack: export refuses nulls, strings and decimals", "[dlpack][errors]") {
  SECTION("nulls") {
    auto c = colx::make_column(std::vector<std::optional<std::int32_t>>{1, std::nullopt, 3}, {}, backend_resource());
    CHECK_THROWS_AS(colx::to_dlpack(c), colx::logic_error);
    CHECK_THROWS_WITH(colx::to_dlpack(c), Catch::Contains("1 nulls") && Catch::Contains("no validity mask"));
    CHECK_FALSE(c.untyped().data().is_exposed());
  }
  SECTION("a nullable column without nulls is fine") {
    auto const values = sample<std::int32_t>(40);
    colx::column<std::int32_t> c(colx::uvector<std::int32_t>(std::span<std::int32_t const>(values), {}, backend_resource()),
                                 colx::create_bitmask(40, true, {}, backend_resource()), 0);
    REQUIRE(c.nullable());
    auto back = colx::from_dlpack<std::int32_t>(colx::to_dlpack(c));
    CHECK(colx::to_vector(back.view()) == values);
  }
  SECTION("strings") {
    auto s = colx::make_strings_column({"a", "bc"}, colx::type_id::int32, {}, backend_resource());
    CHECK_THROWS_AS(colx::to_dlpack(s.untyped()), colx::logic_error);
    CHECK_THROWS_WITH(colx::to_dlpack(s.untyped()), Catch::Contains("strings column has no DLPack type"));
  }
  SECTION("decimals") {
    auto d = colx::make_decimal_column<std::int64_t>({colx::decimal64{125}, colx::decimal64{-5}}, -2, {},
                                                     backend_resource());
    CHECK_THROWS_AS(colx::to_dlpack(d.untyped()), colx::logic_error);
    CHECK_THROWS_WITH(colx::to_dlpack(d.untyped()), Catch::Contains("decimal64(scale -2) column has no DLPack type"));
  }
}

TEST_CASE("dlpack: import refuses what a column cannot hold, and leaves the tensor to the caller", "[dlpack][errors]") {
  int deletions = 0;
  auto* t = make_tensor(sample<std::int32_t>(8), {kDLInt, 32, 1}, deletions);
  auto* f = static_cast<foreign*>(t->manager_ctx);
  DLManagedTensorVersioned const original = *t;
  auto const refused = [&](char const* why) {
    CHECK_THROWS_AS(colx::from_dlpack(t), colx::logic_error);
    CHECK_THROWS_WITH(colx::from_dlpack(t), Catch::Contains(why));
    CHECK(deletions == 0);  // not consumed
  };
  SECTION("strides {2}") {
    t->dl_tensor.strides = f->strides;
    f->strides[0] = 2;
    refused("stride 2 and a column needs compact values");
  }
  SECTION("2 lanes") {
    t->dl_tensor.dtype.lanes = 2;
    refused("2 lanes");
  }
  SECTION("2 dimensions") {
    t->dl_tensor.ndim = 2;
    f->shape[1] = 1;
    refused("not a tensor of 2 dimensions");
  }
  SECTION("0 dimensions") {
    t->dl_tensor.ndim = 0;
    refused("not a tensor of 0 dimensions");
  }
  SECTION("version 2.0") {
    t->version = {2, 0};
    refused("DLPack version 2.0 and colx reads DLPack 1.x");
  }
  SECTION("an unknown dtype code") {
    t->dl_tensor.dtype.code = 99;
    refused("dtype code 99 (unknown) with 32 bits has no colx type");
  }
  SECTION("float16 and bfloat16") {
    t->dl_tensor.dtype = {kDLFloat, 16, 1};
    refused("dtype code 2 (float) with 16 bits");
    t->dl_tensor.dtype = {kDLBfloat, 16, 1};
    refused("dtype code 4 (bfloat) with 16 bits");
  }
  SECTION("an int of 24 bits") {
    t->dl_tensor.dtype.bits = 24;
    refused("dtype code 0 (int) with 24 bits");
  }
  SECTION("an unsupported device") {
    t->dl_tensor.device = {kDLVulkan, 0};
    refused("device type 7 (Vulkan) is not supported");
    t->dl_tensor.device = {kDLROCM, 1};
    refused("device type 10 (ROCM)");
  }
  SECTION("misaligned data") {
    t->dl_tensor.byte_offset = 2;
    refused("not aligned to its 4-byte int32 values");
  }
  SECTION("no data for rows") {
    t->dl_tensor.data = nullptr;
    refused("a tensor of 8 rows has no data");
  }
  SECTION("a null tensor") {
    CHECK_THROWS_WITH(colx::from_dlpack(nullptr), Catch::Contains("the tensor is null"));
  }
  SECTION("a typed import of another dtype") {
    CHECK_THROWS_AS(colx::from_dlpack<double>(t), colx::schema_error);
    CHECK_THROWS_WITH(colx::from_dlpack<double>(t), Catch::Contains("is int32, not the requested float64"));
    CHECK_THROWS_WITH(colx::from_dlpack<colx::timestamp_ns>(t), Catch::Contains("not the requested timestamp[ns]"));
    CHECK(deletions == 0);
  }
  // The caller still owns the tensor: it can put it right and import it, or delete it.
  *t = original;
  auto c = colx::from_dlpack<std::int32_t>(t);
  CHECK(colx::to_vector(c.view()) == sample<std::int32_t>(8));
  CHECK(deletions == 0);
  c = colx::column<std::int32_t>{};
  CHECK(deletions == 1);
}

// ---- buffer policies ------------------------------------------------------------------------------

TEST_CASE("dlpack: flags and exposure under copy-on-write", "[dlpack][cow]") {
  auto const values = sample<std::int64_t>(64);
  SECTION("copy-on-write off: zero-copy, writable, exposed") {
    colx::scoped_option const cow(colx::set_copy_on_write, false);
    auto a = colx::make_column(values, {}, backend_resource());
    auto b = a;
    DLManagedTensorVersioned* t = colx::to_dlpack(a);
    CHECK(t->flags == 0);
    CHECK(t->dl_tensor.data == static_cast<void const*>(a.data()));
    CHECK(a.untyped().data().is_exposed());
    CHECK(b.untyped().data().is_exposed());  // b shares the owner
    drop(t);
  }
  SECTION("copy-on-write on, memory shared with a column: zero-copy, read-only, not exposed") {
    colx::scoped_option const cow(colx::set_copy_on_write, true);
    auto a = colx::make_column(values, {}, backend_resource());
    DLManagedTensorVersioned* t = colx::to_dlpack(a);
    CHECK(t->flags == DLPACK_FLAG_BITMASK_READ_ONLY);
    CHECK(t->dl_tensor.data == static_cast<void const*>(a.data()));
    CHECK_FALSE(a.untyped().data().is_exposed());
    CHECK(a.untyped().data().is_shared());  // with the tensor
    // A write through the column copies first: the tensor's values do not change.
    a.set_element(0, std::int64_t{-1});
    CHECK(static_cast<void const*>(a.data()) != t->dl_tensor.data);
    CHECK(tensor_values<std::int64_t>(t) == values);
    drop(t);
  }
  SECTION("copy-on-write on, moved in while another column shares the memory: read-only") {
    colx::scoped_option const cow(colx::set_copy_on_write, true);
    auto a = colx::make_column(values, {}, backend_resource());
    auto b = a;
    DLManagedTensorVersioned* t = colx::to_dlpack(std::move(a));
    CHECK(t->flags == DLPACK_FLAG_BITMASK_READ_ONLY);
    CHECK(t->dl_tensor.data == static_cast<void const*>(b.data()));
    CHECK_FALSE(b.untyped().data().is_exposed());
    drop(t);
    CHECK_FALSE(b.untyped().data().is_shared());
  }
  SECTION("copy-on-write on, moved in as the only holder: zero-copy, writable, exposed") {
    colx::scoped_option const cow(colx::set_copy_on_write, true);
    auto a = colx::make_column(values, {}, backend_resource());
    void const* const p = a.data();
    DLManagedTensorVersioned* t = colx::to_dlpack(std::move(a));
    CHECK(t->flags == 0);
    CHECK(t->dl_tensor.data == p);
    // Imported again, the memory is the exposed buffer's, still without a copy.
    auto back = colx::from_dlpack<std::int64_t>(t);
    CHECK(static_cast<void const*>(back.data()) == p);
    CHECK(colx::to_vector(back.view()) == values);
  }
  SECTION("copy-on-write on, memory already exposed: a private copy, writable") {
    auto a = colx::make_column(values, {}, backend_resource());
    a.untyped().expose();
    colx::scoped_option const cow(colx::set_copy_on_write, true);
    DLManagedTensorVersioned* t = colx::to_dlpack(a);
    CHECK(t->flags == DLPACK_FLAG_BITMASK_IS_COPIED);
    CHECK(t->dl_tensor.data != static_cast<void const*>(a.data()));
    CHECK(tensor_values<std::int64_t>(t) == values);
    drop(t);
  }
}

#if COLX_HAS_CUDA
TEST_CASE("dlpack: pinned host memory is kDLCUDAHost", "[dlpack]") {
  auto const values = sample<std::int32_t>(100);
  auto c = colx::make_column(values, {}, colx::get_current_pinned_resource());
  DLManagedTensorVersioned* t = colx::to_dlpack(c);
  CHECK(t->dl_tensor.device.device_type == kDLCUDAHost);
  CHECK(t->dl_tensor.device.device_id == 0);
  auto back = colx::from_dlpack<std::int32_t>(t);
  CHECK(back.kind() == colx::memory_kind::pinned);
  CHECK(colx::to_vector(back.view()) == values);
}

TEST_CASE("dlpack: a CUDA tensor on another device is refused", "[dlpack][errors]") {
  if (!colx::test::on_device()) {
    SUCCEED("CUDA tensors: the run over device frames covers them");
    return;
  }
  int deletions = 0;
  auto* t = make_tensor(sample<std::int32_t>(4), {kDLInt, 32, 1}, deletions);
  t->dl_tensor.device.device_id = colx::current_device() + 1;
  CHECK_THROWS_WITH(colx::from_dlpack(t), Catch::Contains("colx works on the current device"));
  CHECK(deletions == 0);
  drop(t);
  CHECK(deletions == 1);
}
#endif

// SPDX-License-Identifier: Apache-2.0
// colx: cuda-only
// The Arrow C Device Data Interface on device memory: ARROW_DEVICE_CUDA arrays with a sync event,
// zero-copy both ways, bools and validity copies made on the device, device strings, streams.
#include "support/backend.hpp"

#include <colx/interop/arrow_device.hpp>

#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace {

template <class T>
using optionals = std::vector<std::optional<T>>;

optionals<std::int32_t> ints(std::size_t n) {
  optionals<std::int32_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 != 1) { out[i] = static_cast<std::int32_t>(i * 5); }
  }
  return out;
}

colx::any_column device_column(optionals<std::int32_t> const& v) {
  return std::move(colx::make_column(v, {}, colx::get_current_device_resource())).release();
}

}  // namespace

TEST_CASE("arrow device: a device column is ARROW_DEVICE_CUDA with a sync event, zero-copy both ways",
          "[arrow_device]") {
  auto const values = ints(70);
  colx::any_column const c = device_column(values);
  REQUIRE(c.kind() == colx::memory_kind::device);
  ArrowSchema schema{};
  colx::export_arrow_schema(c, "v", &schema);
  ArrowDeviceArray d{};
  colx::export_arrow_device_array(c, 33, 70, &d);
  CHECK(d.device_type == ARROW_DEVICE_CUDA);
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  CHECK(d.device_id == device);
  REQUIRE(d.sync_event != nullptr);
  CHECK(cudaEventSynchronize(*static_cast<cudaEvent_t*>(d.sync_event)) == cudaSuccess);
  CHECK(d.array.offset == 33);
  if (!colx::copy_on_write()) { CHECK(d.array.buffers[1] == c.data().read()); }  // zero-copy unless shared under copy-on-write

  auto const back = colx::import_arrow_device_column(&schema, &d);
  CHECK(d.array.release == nullptr);
  CHECK(back.kind() == colx::memory_kind::device);
  CHECK(back.data().is_foreign());
  CHECK(colx::to_optional_vector(back.view().as<std::int32_t>()) == optionals<std::int32_t>(values.begin() + 33, values.end()));
  schema.release(&schema);

  // The C Data Interface proper is for host memory.
  ArrowArray a{};
  REQUIRE_THROWS_AS(colx::export_arrow_array(c, &a), colx::logic_error);
}

TEST_CASE("arrow device: bools, unaligned validity and strings on the device", "[arrow_device]") {
  optionals<bool> bools(45);
  for (std::size_t i = 0; i < bools.size(); ++i) {
    if (i % 4 != 2) { bools[i] = i % 3 == 0; }
  }
  auto const b = std::move(colx::make_column(bools, {}, colx::get_current_device_resource())).release();
  std::vector<std::optional<std::string>> strs(40);
  for (std::size_t i = 0; i < strs.size(); ++i) {
    if (i % 5 != 0) { strs[i] = std::string(i % 7, 'q'); }
  }
  auto const s = colx::make_strings_column(strs, colx::type_id::int64, {}, colx::get_current_device_resource()).release();
  auto const n = device_column(ints(45));
  colx::table const t(std::vector<colx::any_column>{b, n});

  ArrowSchema bs{};
  colx::export_arrow_schema(b, "b", &bs);
  ArrowDeviceArray bd{};
  colx::export_arrow_device_array(b, 3, 45, &bd);
  auto const b_back = colx::import_arrow_device_column(&bs, &bd);
  CHECK(colx::to_optional_vector(b_back.view().as<bool>()) == optionals<bool>(bools.begin() + 3, bools.end()));
  bs.release(&bs);

  ArrowSchema ss{};
  colx::export_arrow_schema(s, "s", &ss);
  ArrowDeviceArray sd{};
  colx::export_arrow_device_array(s, 7, 40, &sd);
  auto const s_back = colx::import_arrow_device_column(&ss, &sd);
  CHECK(colx::to_strings(colx::strings_column_view(s_back.view())) ==
        std::vector<std::optional<std::string>>(strs.begin() + 7, strs.end()));
  ss.release(&ss);

  ArrowDeviceArrayStream stream{};
  colx::export_arrow_device_stream({t, t}, {"b", "n"}, &stream);
  CHECK(stream.device_type == ARROW_DEVICE_CUDA);
  auto const tables = colx::import_arrow_device_stream(&stream);
  REQUIRE(tables.size() == 2);
  CHECK(colx::to_optional_vector(tables[1].columns.column(1).view().as<std::int32_t>()) == ints(45));
}

// SPDX-License-Identifier: Apache-2.0
// colx's column model in a few lines: build nullable columns, slice them without copying,
// concatenate, and read back. Runs on the GPU when built with nvcc, on the host otherwise.
#include <colx/colx.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

int main() {
  if (!colx::has_cuda) { std::puts("backend: host (OpenMP)"); }
  try {
    auto prices = colx::make_column<double>({{9.5}, std::nullopt, {12.25}, {3.0}, {7.75}});
    auto names = colx::make_strings_column({"apple", "pear", std::nullopt, "fig", "plum"});
    auto tail = prices.view().slice(2, 5);  // zero-copy: rows 2..4
    auto both = colx::concatenate<double>(std::vector{prices.view(), tail});
    auto ids = colx::sequence<std::int64_t>(both.size(), 100, 10);

    auto const values = colx::to_optional_vector(both.view());
    auto const keys = colx::to_vector(ids.view());
    std::printf("%zu rows, %lld null\n", values.size(), static_cast<long long>(both.null_count()));
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::printf("  id %lld: %s\n", static_cast<long long>(keys[i]), values[i] ? std::to_string(*values[i]).c_str() : "null");
    }
    for (auto const& s : colx::to_strings(names.view().slice(1, 4))) { std::printf("  name: %s\n", s ? s->c_str() : "null"); }
  } catch (colx::cuda_error const& e) {
    std::printf("no usable GPU: %s\n", e.what());
    return 77;
  }
  return 0;
}

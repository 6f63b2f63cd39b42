// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything host-safe in colx. Compiled by nvcc, the same headers also bring the CUDA backend;
// colx/cuda.cuh adds the CUDA-only resources explicitly.
#include <colx/column/any_column.hpp>
#include <colx/column/any_column_view.hpp>
#include <colx/column/bitmask.hpp>
#include <colx/column/bitmask_ops.hpp>
#include <colx/column/column.hpp>
#include <colx/column/column_device_view.hpp>
#include <colx/column/column_view.hpp>
#include <colx/column/copying.hpp>
#include <colx/column/factories.hpp>
#include <colx/column/iterators.hpp>
#include <colx/column/scalar.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/column/table.hpp>
#include <colx/core/config.hpp>
#include <colx/core/error.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/expr/aggregate.hpp>
#include <colx/expr/functions.hpp>
#include <colx/frame/explain.hpp>
#include <colx/frame/frame.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/frame/schema.hpp>
#include <colx/memory/buffer.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/failure_callback_adaptor.hpp>
#include <colx/memory/host_resource.hpp>
#include <colx/memory/limiting_adaptor.hpp>
#include <colx/memory/resource.hpp>
#include <colx/memory/statistics_adaptor.hpp>
#include <colx/memory/stream.hpp>
#include <colx/memory/uvector.hpp>
#include <colx/types/data_type.hpp>
#include <colx/types/type_dispatch.hpp>

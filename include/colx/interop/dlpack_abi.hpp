// SPDX-License-Identifier: Apache-2.0
#pragma once
// The DLPack 1.x C ABI (https://github.com/dmlc/dlpack, include/dlpack/dlpack.h), written out so
// that colx needs no dlpack package: the structs, enumerations and flags with the layout the
// specification gives them. They live at global scope with C linkage, under dlpack.h's own names
// and include guard, so whichever comes first wins:
//   - dlpack.h included before this header: its definitions are used (and must be 1.x);
//   - this header first: it defines DLPACK_DLPACK_H_, so a later #include <dlpack/dlpack.h> is a
//     no-op instead of a redefinition.
#include <stddef.h>  // NOLINT: the C headers, as dlpack.h's
#include <stdint.h>  // NOLINT

#ifndef DLPACK_DLPACK_H_
#  define DLPACK_DLPACK_H_

#  ifdef __cplusplus
#    define DLPACK_EXTERN_C extern "C"
#  else
#    define DLPACK_EXTERN_C
#  endif
#  define DLPACK_MAJOR_VERSION 1
#  define DLPACK_MINOR_VERSION 1
#  define DLPACK_DLL

extern "C" {

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

typedef enum : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;  // 0 for CPU, pinned and managed memory
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;  // a DLDataTypeCode
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; NULL means compact row-major
  uint64_t byte_offset;
} DLTensor;

// The pre-1.0 ("legacy") managed tensor: no version, no flags.
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

#  define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#  define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#  define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

}  // extern "C"

#endif  // DLPACK_DLPACK_H_

#if !defined(DLPACK_MAJOR_VERSION) || !defined(DLPACK_FLAG_BITMASK_READ_ONLY)
#  error "colx: the dlpack.h included before colx/interop/dlpack_abi.hpp predates DLPack 1.0 (no DLManagedTensorVersioned); include a 1.x dlpack.h or none"
#endif
static_assert(DLPACK_MAJOR_VERSION == 1, "colx speaks DLPack 1.x: the dlpack.h included first has another major version");

// The layout is the ABI: the offsets every DLPack 1.x producer and consumer agree on (LP64).
static_assert(sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4);
static_assert(sizeof(void*) != 8 || (sizeof(DLTensor) == 48 && offsetof(DLTensor, byte_offset) == 40));
static_assert(sizeof(void*) != 8 ||
              (offsetof(DLManagedTensorVersioned, flags) == 24 && offsetof(DLManagedTensorVersioned, dl_tensor) == 32));

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""colx's DLPack tensors against real consumers and producers (PyTorch, CuPy).

    python3 torch_cupy_check.py LIB [LIB...]

Each LIB is a build of dlpack_pycheck.cpp (host memory with g++, device memory with nvcc).
colx's own capsule round trip always runs; the torch/cupy checks run when they can be imported
(exit 0 with a message when neither can). Exits 1 when a check fails.
"""
import ctypes
import gc
import sys

NAME = b"dltensor_versioned"
USED = b"used_dltensor_versioned"
LEGACY, LEGACY_USED = b"dltensor", b"used_dltensor"
CPU, CUDA = 1, 2

_api = ctypes.pythonapi
_Destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, _Destructor)(("PyCapsule_New", _api))
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_raw_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))
_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))
_set_name = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_SetName", _api))
_lib_for_delete = None


@_Destructor
def _destroy_unconsumed(capsule):
    # A capsule no consumer renamed still owns its tensor.
    if _raw_is_valid(capsule, NAME):
        _lib_for_delete.colx_pycheck_delete(ctypes.c_void_p(_raw_pointer(capsule, NAME)))


def load(path):
    lib = ctypes.CDLL(path)
    lib.colx_pycheck_make.restype = ctypes.c_void_p
    lib.colx_pycheck_make.argtypes = [ctypes.c_int, ctypes.c_longlong]
    lib.colx_pycheck_last_error.restype = ctypes.c_char_p
    lib.colx_pycheck_delete.argtypes = [ctypes.c_void_p]
    lib.colx_pycheck_device.argtypes = [ctypes.c_void_p] + [ctypes.c_void_p] * 3
    for f in (lib.colx_pycheck_consume, lib.colx_pycheck_consume_legacy):
        f.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_longlong)]
    return lib


class ColxTensor:
    """A colx column behind the Python DLPack protocol (__dlpack__, __dlpack_device__)."""

    def __init__(self, lib, which, n):
        self._ptr = lib.colx_pycheck_make(which, n)
        if not self._ptr:
            raise RuntimeError(lib.colx_pycheck_last_error().decode())
        t, i, f = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulonglong()
        lib.colx_pycheck_device(self._ptr, ctypes.byref(t), ctypes.byref(i), ctypes.byref(f))
        self.device, self.flags, self._lib = (t.value, i.value), f.value, lib

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        # colx synchronised its stream at export: nothing to order against `stream`.
        if max_version is None or tuple(max_version)[0] < 1:
            raise BufferError("colx exports DLPack 1.x (versioned) tensors only")
        if self._ptr is None:
            raise BufferError("this colx tensor was exported already")
        ptr, self._ptr = self._ptr, None
        return _capsule_new(ptr, NAME, _destroy_unconsumed)

    def __del__(self):
        if self._ptr is not None:
            self._lib.colx_pycheck_delete(self._ptr)


def consume_capsule(lib, capsule):
    """Imports the tensor in a DLPack capsule into colx; returns (rows, sum)."""
    name, used, f = NAME, USED, lib.colx_pycheck_consume
    if not _api.PyCapsule_IsValid(ctypes.py_object(capsule), name):
        name, used, f = LEGACY, LEGACY_USED, lib.colx_pycheck_consume_legacy
    s, n = ctypes.c_double(), ctypes.c_longlong()
    rc = f(_pointer(capsule, name), ctypes.byref(s), ctypes.byref(n))
    if rc != -1:
        _set_name(capsule, used)  # colx owns it now
    if rc != 0:
        raise RuntimeError(lib.colx_pycheck_last_error().decode())
    return n.value, s.value


def consume(lib, tensor):
    try:
        capsule = tensor.__dlpack__(max_version=(1, 0))
    except TypeError:  # a producer older than DLPack 1.0's protocol: a legacy capsule
        capsule = tensor.__dlpack__()
    return consume_capsule(lib, capsule)


def run(path, torch, cupy):
    global _lib_for_delete
    lib = _lib_for_delete = load(path)
    failures = []

    def check(what, ok):
        print(("ok    " if ok else "FAIL  ") + f"{path}: {what}")
        if not ok:
            failures.append(what)

    n = 1000
    ints, floats = [3 * i - 7 for i in range(n)], [i / 2 for i in range(n)]
    # The capsule machinery itself, with colx on both ends.
    check("colx reads its own capsule", consume_capsule(lib, ColxTensor(lib, 0, n).__dlpack__(max_version=(1, 0)))
          == (n, float(sum(ints))))
    unused = ColxTensor(lib, 1, n).__dlpack__(max_version=(1, 0))
    check("an unconsumed capsule holds its tensor", lib.colx_pycheck_live_exports() == 1)
    del unused
    gc.collect()
    check("an unconsumed capsule deletes its tensor", lib.colx_pycheck_live_exports() == 0)
    probe = ColxTensor(lib, 0, 1)
    on_gpu = probe.device[0] == CUDA
    del probe
    consumers = []
    if torch is not None and (not on_gpu or torch.cuda.is_available()):
        consumers.append(("torch", lambda x: torch.from_dlpack(x).cpu().tolist()))
    if cupy is not None and on_gpu:
        consumers.append(("cupy", lambda x: cupy.from_dlpack(x).get().tolist()))
    for name, to_list in consumers:
        check(f"{name} reads an int64 column", to_list(ColxTensor(lib, 0, n)) == ints)
        check(f"{name} reads a float32 column", to_list(ColxTensor(lib, 1, n)) == floats)
        check(f"{name} reads an empty column", to_list(ColxTensor(lib, 0, 0)) == [])
        gc.collect()
        check(f"{name} called every deleter", lib.colx_pycheck_live_exports() == 0)

    producers = []
    if torch is not None:
        producers.append(("torch cpu", torch.arange(n, dtype=torch.int64) * 3 - 7))
        if on_gpu and torch.cuda.is_available():
            producers.append(("torch cuda", (torch.arange(n, dtype=torch.int64) * 3 - 7).cuda()))
    if cupy is not None and on_gpu:
        producers.append(("cupy", cupy.arange(n, dtype=cupy.int64) * 3 - 7))
    for name, tensor in producers:
        check(f"colx reads a {name} tensor", consume(lib, tensor) == (n, float(sum(ints))))
    return failures


def main(argv):
    try:
        import torch
    except ImportError:
        torch = None
    try:
        import cupy
    except ImportError:
        cupy = None
    if len(argv) < 2:
        if torch is None and cupy is None:
            print("colx DLPack check skipped: neither torch nor cupy can be imported (and no library given)")
            return 0
        print(__doc__)
        return 2
    # With neither, only colx's own capsule round trip runs.
    failures = [f for path in argv[1:] for f in run(path, torch, cupy)]
    if failures:
        print(f"{len(failures)} failed")
        return 1
    if torch is None and cupy is None:
        print("colx DLPack check against torch/cupy skipped: neither torch nor cupy can be imported")
    else:
        print("all DLPack checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

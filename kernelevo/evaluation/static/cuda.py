"""Static checks on a CUDA candidate's C++ text (the Python around it is checked by static.check).

They read the CUDA sources found by :func:`kernelevo.utils.cuda_source.find_cuda`, with
comments removed, and reject what a KernelBench-style harness lets through: library calls
in place of one's own kernels (cuBLAS, cuDNN, Thrust, CUB's device-wide algorithms),
streams of one's own, reads of clocks and timers, PyTorch compute in the C++ host code,
and host file or process access. The child's runtime checks (every kernel the GPU ran,
by name and stream) back them up: what a string built at run time hides is seen there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kernelevo.records.result import ErrorKind
from kernelevo.utils.cuda_source import CudaSource, strip_comments

# Libraries whose kernels would do the work instead of the candidate's own (allow-listable by name).
LIBRARIES = {
    "cublas": re.compile(r"\bcublas\w*|cublas(?:Lt)?_v2\.h|cublasLt\.h|-lcublas"),
    "cudnn": re.compile(r"\bcudnn\w*|-lcudnn"),
    "thrust": re.compile(r"\bthrust::|<thrust/"),
    "cub": re.compile(r"\bcub::Device\w+|\bhipcub::"),
    "cufft": re.compile(r"\bcufft\w*|-lcufft"),
    "cusparse": re.compile(r"\bcusparse\w*|-lcusparse"),
    "curand": re.compile(r"\bcurand(?:Generate|Create)\w*|-lcurand"),
}
SIDE_STREAMS = re.compile(r"\bcudaStreamCreate\w*|\bgetStreamFromPool\b|\bcuStreamCreate\w*|\bgetStreamFromExternal\b")
TIMERS = re.compile(r"%globaltimer\w*|%clock(?:64)?\b|\bclock(?:64)?\s*\(|\bcudaEvent\w+|\bcuEvent\w+"
                    r"|\bstd::chrono\b|\bgettimeofday\b|\bclock_gettime\b|\bcudaProfiler\w+")
FILE_OR_PROCESS = re.compile(r"\b(?:fopen|freopen|open|popen|system|fork|exec[lv]p?e?|dlopen|socket|connect|remove|"
                             r"unlink|rename)\s*\(|\bstd::(?:i|o)?fstream\b|#\s*include\s*<(?:fstream|filesystem|"
                             r"sys/\w+|unistd\.h|dlfcn\.h)>")
# #include "..." or of an absolute or parent path would read files of the evaluator's machine
# into the compile (and its error messages).
INCLUDE_PATH = re.compile(r'#\s*include\s*(?:"[^"]*"|<\s*(?:/|\.\.)[^>]*>)')
DEVICE_RESETS = re.compile(r"\bcudaDeviceReset\b|\bcudaSetDevice\b|\bcudaDeviceSetLimit\b|\bcudaThreadExit\b"
                           r"|\bcudaDeviceSetCacheConfig\b|\bcudaSetDeviceFlags\b")
# ATen / torch C++ functions host code may call: allocation, views, metadata, streams and checks.
ALLOWED_CXX_TORCH = frozenset(
    {"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
     "from_blob", "TensorOptions", "Tensor", "Scalar", "IntArrayRef", "Device", "DeviceGuard", "kFloat", "kHalf",
     "kBFloat16", "kFloat32", "kFloat16", "kInt", "kLong", "kInt32", "kInt64", "kCUDA", "kCPU", "kByte", "kBool",
     "kDouble", "dtype", "device", "ScalarType", "Half", "BFloat16", "cuda", "getCurrentCUDAStream",
     "getDefaultCUDAStream", "CUDAGuard", "OptionalCUDAGuard", "check", "detail", "native", "TensorArg",
     "checkAllSameGPU", "Layout", "kStrided", "MemoryFormat", "typeMetaToScalarType", "elementSize",
     "toString", "kernel", "indexing", "Slice", "autocast", "NoGradGuard", "InferenceMode",
     "AutoDispatchBelowADInplaceOrView"}
)
CXX_TORCH_CALL = re.compile(r"\b(?:torch|at)::(\w+)\s*(?:<[^<>()]*>)?\s*\(")
# Tensor methods that compute, as C++ writes them (x.sum(), x.matmul(y), x.exp_()).
CXX_COMPUTE_METHODS = re.compile(
    r"\.\s*(matmul|mm|bmm|addmm|einsum|sum|mean|prod|cumsum|softmax|log_softmax|exp|log|tanh|sigmoid|relu|gelu|"
    r"silu|sqrt|rsqrt|pow|abs|neg|add|sub|mul|div|clamp|where|norm|var|std|max|min|amax|amin|argmax|argmin|"
    r"layer_norm|conv2d|sort|topk|gather|scatter|index_select|erf|mv|dot|baddbmm|linear)_?\s*\(")
ALLOWED_LINK_FLAGS = re.compile(r"^-l(?:cuda|cudart)$|^-L")


def check_cuda_text(cuda: CudaSource, *, allowed_libraries: Iterable[str] = (), allowed_ops: Iterable[str] = (),
                    line_of: dict[str, int] | None = None) -> list[tuple[ErrorKind, int, str]]:
    """(kind, line, message) for each rejected construct in ``cuda``'s C++; empty: it may be compiled."""
    allowed_libs, extra_ops = set(allowed_libraries), set(allowed_ops)
    found: list[tuple[ErrorKind, int, str]] = []
    for unit in cuda.units or []:
        _check_code(strip_comments(unit.code), unit.host_code and strip_comments(unit.host_code), unit.line,
                    allowed_libs, extra_ops, found)
        for flag in unit.options:
            for lib, pattern in LIBRARIES.items():
                if lib not in allowed_libs and pattern.search(flag):
                    found.append((ErrorKind.LIBRARY_CALL, unit.line, f"compiler option {flag!r} brings in {lib}"))
    for loose in cuda.loose:
        _check_code(strip_comments(loose), "", 0, allowed_libs, extra_ops, found)
    return found


def check_link_flags(flags: Iterable[str], line: int, allowed_libraries: Iterable[str] = ()) -> list[
        tuple[ErrorKind, int, str]]:
    """load_inline's ``extra_ldflags``: linking a math library means calling it instead of one's kernels."""
    found = []
    for flag in flags:
        lib = next((name for name, p in LIBRARIES.items() if p.search(flag)), None)
        if lib is not None and lib not in set(allowed_libraries):
            found.append((ErrorKind.LIBRARY_CALL, line, f"linking {flag!r} calls {lib} instead of your own kernels"))
        elif flag.startswith("-l") and not ALLOWED_LINK_FLAGS.match(flag):
            found.append((ErrorKind.LIBRARY_CALL, line, f"linking {flag!r} is not allowed (only -lcuda, -lcudart)"))
    return found


def _check_code(device: str, host: str, line: int, allowed_libs: set[str], extra_ops: set[str],
                found: list[tuple[ErrorKind, int, str]]) -> None:
    text = device + "\n" + host
    for lib, pattern in LIBRARIES.items():
        match = pattern.search(text)
        if match and lib not in allowed_libs:
            found.append((ErrorKind.LIBRARY_CALL, line, f"{match.group(0)}: {lib} would do the work instead of "
                                                        "your own kernels"))
    for kind, pattern, why in (
        (ErrorKind.SIDE_STREAM, SIDE_STREAMS, "kernels must run on the current stream (the caller's)"),
        (ErrorKind.TIMER_ACCESS, TIMERS, "a kernel must not read clocks or timers, nor time itself"),
        (ErrorKind.FILE_OR_NETWORK, FILE_OR_PROCESS, "kernels must not touch files, processes or the network"),
        (ErrorKind.FILE_OR_NETWORK, INCLUDE_PATH, "only system and library headers may be included (#include <...>)"),
        (ErrorKind.MONKEY_PATCH, DEVICE_RESETS, "kernels must not change the device or its settings"),
    ):
        match = pattern.search(text)
        if match:
            found.append((kind, line, f"{match.group(0).strip().rstrip('(').strip()}: {why}"))
    for match in CXX_TORCH_CALL.finditer(text):
        name = match.group(1)
        if name not in ALLOWED_CXX_TORCH and name not in extra_ops:
            found.append((ErrorKind.TORCH_COMPUTE, line, f"{match.group(0).rstrip('(').strip()}() computes in "
                                                         "PyTorch; your kernels must do the work"))
            break
    # KernelBench's host wrappers sit in cuda_sources next to the kernels: read both (device
    # code has no tensor methods to confuse with these).
    for match in CXX_COMPUTE_METHODS.finditer(text):
        if match.group(1) not in extra_ops:
            found.append((ErrorKind.TORCH_COMPUTE, line, f".{match.group(1)}() in the host code computes in "
                                                         "PyTorch; your kernels must do the work"))
            break

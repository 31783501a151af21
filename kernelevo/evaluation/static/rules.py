"""The tables the static checks read: what a kernel may import and call, and the names that compute.

:mod:`kernelevo.evaluation.static.check` walks a candidate's AST against these; kept apart so
that the rules read as one list and the checker as one walk.
"""

from __future__ import annotations

from kernelevo.records.result import ErrorKind

ALLOWED_IMPORTS = frozenset(
    {"torch", "triton", "math", "typing", "functools", "itertools", "dataclasses", "enum", "numbers",
     "operator", "__future__", "collections", "abc"}
)
FORBIDDEN_SUBMODULES = {
    "torch._C": ErrorKind.DYNAMIC_CODE,
    "torch._dynamo": ErrorKind.TORCH_COMPUTE,
    "torch._inductor": ErrorKind.TORCH_COMPUTE,
    "torch.compiler": ErrorKind.TORCH_COMPUTE,
    "torch.library": ErrorKind.DYNAMIC_CODE,
    "torch.utils.cpp_extension": ErrorKind.UNSUPPORTED_LANGUAGE,
    "torch.multiprocessing": ErrorKind.THREADS,
    "torch.distributed": ErrorKind.THREADS,
    "torch.ops": ErrorKind.TORCH_COMPUTE,
}
IMPORT_KINDS = {
    **dict.fromkeys(("threading", "_thread", "concurrent", "multiprocessing", "asyncio", "sched"), ErrorKind.THREADS),
    **dict.fromkeys(
        ("os", "subprocess", "socket", "shutil", "pathlib", "io", "urllib", "http", "requests", "tempfile",
         "pickle", "glob", "signal", "ssl", "ftplib", "smtplib", "mmap", "fcntl", "resource", "pty"),
        ErrorKind.FILE_OR_NETWORK,
    ),
    **dict.fromkeys(
        ("sys", "ctypes", "importlib", "builtins", "inspect", "gc", "types", "code", "runpy", "marshal",
         "weakref", "traceback", "atexit", "faulthandler", "cffi"),
        ErrorKind.DYNAMIC_CODE,
    ),
    **dict.fromkeys(("time", "timeit"), ErrorKind.MONKEY_PATCH),
}
DYNAMIC_BUILTINS = frozenset(
    {"exec", "eval", "compile", "__import__", "globals", "locals", "vars", "setattr", "delattr", "breakpoint",
     "input", "memoryview"}
)
FILE_BUILTINS = frozenset({"open"})
SAFE_DUNDERS = frozenset({"__init__", "__name__", "__future__"})
# torch.backends functions that only ask: any other call there changes a setting for the whole process
BACKEND_QUERIES = frozenset(
    {"is_available", "is_built", "version", "is_flash_attention_available", "can_use_flash_attention",
     "can_use_efficient_attention", "can_use_cudnn_attention", "flash_sdp_enabled", "mem_efficient_sdp_enabled",
     "math_sdp_enabled", "cudnn_sdp_enabled", "is_acceptable"}
)
STREAM_NAMES = frozenset({"Stream", "stream", "set_stream", "ExternalStream", "StreamContext", "default_stream"})

# torch functions host code may call: allocation, views, metadata. Anything else computes.
ALLOWED_TORCH_FUNCS = frozenset(
    {"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
     "arange", "tensor", "as_strided", "is_tensor", "device", "finfo", "iinfo", "Size", "no_grad",
     "inference_mode", "get_default_dtype", "promote_types", "result_type", "broadcast_shapes", "numel",
     "is_floating_point", "reshape", "flatten", "transpose", "permute", "squeeze", "unsqueeze", "narrow",
     "chunk", "split", "broadcast_to", "t", "movedim", "view_as_real", "view_as_complex", "dtype",
     # torch.cuda: device queries
     "current_device", "get_device_properties", "get_device_capability", "is_available", "device_count",
     "synchronize", "current_stream", "get_device_name",
     # torch.nn: building modules in __init__ and parameters
     "Parameter", "Module", "ModuleList", "ParameterList", "Buffer"}
)
# Tensor methods that compute. Views, metadata, allocation and fills are allowed.
COMPUTE_METHODS = frozenset(
    {"matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "mv", "einsum", "dot", "linear", "sum",
     "mean", "prod", "cumsum", "cumprod", "max", "min", "amax", "amin", "argmax", "argmin", "softmax",
     "log_softmax", "exp", "exp2", "log", "log2", "log1p", "expm1", "tanh", "sigmoid", "relu", "gelu", "silu",
     "sin", "cos", "sqrt", "rsqrt", "pow", "abs", "neg", "reciprocal", "add", "sub", "mul", "div",
     "true_divide", "floor_divide", "fmod", "remainder", "clamp", "clip", "where", "masked_fill", "norm",
     "var", "std", "layer_norm", "batch_norm", "group_norm", "conv1d", "conv2d", "conv3d", "sort", "topk",
     "gather", "scatter", "scatter_add", "index_select", "index_add", "logsumexp", "erf", "erfc",
     "outer", "cross", "tril", "triu", "lerp", "addcmul", "addcdiv", "square", "sign", "floor", "ceil",
     "round", "all", "any", "nansum", "median", "mode", "kthvalue", "cummax", "cummin", "diff", "flip",
     "roll", "repeat", "repeat_interleave", "tile"}
)
COMPUTE_METHODS = COMPUTE_METHODS | frozenset(f"{m}_" for m in COMPUTE_METHODS)
# CUDA candidates: CuPy compiles and launches their kernels; its array maths would do the work instead.
CUPY_ALLOWED = frozenset(
    {"cupy.RawModule", "cupy.RawKernel", "cupy.cuda.ExternalStream", "cupy.from_dlpack", "cupy.asarray",
     "cupy.cuda.Device", "cupy.cuda.runtime.getDeviceProperties", "cupy.dtype"}
    | {f"cupy.{t}" for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "intp",
                             "uintp", "float16", "float32", "float64", "bool_")}
)
# Host-code calls (torch functions and tensor methods) that hand a library family's work to torch: let
# through where the run's library policy allows the family (kernelevo.evaluation.common.library), named
# library_call where it does not. What such a call may compute is judged at run time against the reference.
LIBRARY_NAMES: dict[str, frozenset[str]] = {
    "gemm": frozenset({"mm", "addmm", "bmm", "baddbmm", "matmul", "mv", "addmv", "linear"}),
    "conv": frozenset({"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                       "convolution"}),
    "attention": frozenset({"scaled_dot_product_attention"}),
    "rnn": frozenset({"lstm", "gru", "rnn_tanh", "rnn_relu"}),
}
# nn modules that are one library call: a candidate that builds one in __init__ and calls it in forward
# hands that family's work to torch, as a call of the function would
LIBRARY_MODULES: dict[str, str] = {
    "Linear": "gemm", "Bilinear": "gemm", "LSTM": "rnn", "GRU": "rnn", "RNN": "rnn",
    **dict.fromkeys(("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"), "conv"),
}
TORCH_NAMESPACES = frozenset({"torch", "torch.nn.functional", "torch.special", "torch.linalg", "torch.fft",
                              "torch.cuda", "torch.nn", "torch.Tensor"})

"""Compile metadata without a GPU: ahead-of-time Triton compiles for sm_90.

When kernels run in Triton's interpreter, nothing is compiled. This module compiles each
kernel the candidate launched, with the argument types, constexprs and launch options
seen at its last launch, for Hopper (``GPUTarget("cuda", 90, 32)``), and reads the real
register, spill and shared-memory figures from the cubin with ``cuobjdump``.

It executes the candidate's module once more, so it runs in a sandbox of its own, one per
candidate, started without ``TRITON_INTERPRET`` (Triton builds its standard library for
the interpreter or for the compiler when it is imported, not later).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from kernelevo.evaluation.child.candidate_module import exec_candidate
from kernelevo.evaluation.child.cuda_build import cuda_tool
from kernelevo.evaluation.common.diagnostics import trim
from kernelevo.evaluation.common.precision import tf32_dots
from kernelevo.evaluation.common.protocol import LaunchSignature
from kernelevo.records.result import KernelMetadata

TARGET_ARCH = 90
_TRITON_TYPES = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64", "int64": "i64",
                 "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8", "bool": "i1"}


@dataclass
class AotRequest:
    source: str
    signatures: dict[str, LaunchSignature]
    launches: dict[str, int]


class AotCompiler:
    """Sandbox handler, started without the interpreter: compiles one candidate's kernels."""

    @staticmethod
    def preload(arg: None) -> None:
        """Done once in the fork server (:mod:`kernelevo.isolation.zygote`): each forked child has torch imported
        (every candidate imports it: 1.3 s a child) and compiles warm."""
        import torch  # noqa: F401

        _warm_up()

    def __init__(self, arg: None, conn: Connection) -> None:
        import triton  # noqa: F401  (imported now; this child serves one candidate)

        # Triton took its home folder from $HOME when it was imported: in a forked child, the fork server's
        os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(os.environ.get("HOME", os.getcwd()), ".triton", "cache"))
        if not _warm:  # a child started, not forked: the same, while it waits as the pool's spare
            self.preload(arg)

    def handle(self, request: AotRequest) -> list[KernelMetadata]:
        try:
            namespace = exec_candidate(request.source).__dict__
        except Exception as exc:
            return [KernelMetadata(name=n, launches=request.launches.get(n, 0), source="aot-sm90",
                                   error=f"re-import failed: {exc}") for n in request.signatures]
        return [_compile_one(name, sig, namespace, request.launches.get(name, 0))
                for name, sig in request.signatures.items()]


_warm = False  # this process has compiled once (in a forked child: its fork server has)


def _warm_up() -> None:
    """Compile a one-line kernel for sm_90 and read its cubin, so that the candidate's compile is this process's second.

    A process's first compile sets Triton's compiler up (its backend, passes and tools): 1.6 s of a tiny kernel's
    1.8 s, against 0.2 s for the next one, and the first ``cuobjdump`` 0.3 s against nothing (the 2-core development
    machine, 2026-11-27). That was most of the 3.3 to 4.6 s an evaluation spent on its metadata without a GPU.
    """
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget

    global _warm
    _warm = True

    @triton.jit
    def add_one(x_ptr):
        tl.store(x_ptr, tl.load(x_ptr) + 1.0)

    try:
        source = triton.compiler.ASTSource(fn=add_one, signature={"x_ptr": "*fp32"}, constexprs={}, attrs={})
        kernel = triton.compile(source, target=GPUTarget("cuda", TARGET_ARCH, 32), options={"num_warps": 1})
        cubin_resources(kernel.asm["cubin"])
    except Exception:  # a warm-up that fails leaves the candidate's compile to pay the set-up
        pass


def _find_jit(name: str, namespace: dict[str, Any]) -> Any:
    from triton.runtime.jit import JITFunction

    for value in namespace.values():
        fn = value
        while fn is not None and not isinstance(fn, JITFunction):
            fn = getattr(fn, "fn", None)  # Autotuner and Heuristics wrap the JITFunction
        if fn is not None and fn.__name__ == name:
            return fn
    raise LookupError(f"kernel {name} not found at module level")


def _compile_one(name: str, sig: LaunchSignature, namespace: dict[str, Any], launches: int) -> KernelMetadata:
    import triton
    from triton.backends.compiler import GPUTarget

    try:
        fn = _find_jit(name, namespace)
        signature, constexprs, attrs = _signature(fn, sig)
        options = {"num_warps": sig.options.get("num_warps", 4), "num_stages": sig.options.get("num_stages", 3)}
        src = triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
        kernel = triton.compile(src, target=GPUTarget("cuda", TARGET_ARCH, 32), options=options)
    except Exception as exc:
        return KernelMetadata(name=name, launches=launches, source="aot-sm90", error=trim(str(exc), 8))
    usage = cubin_resources(kernel.asm["cubin"])
    return KernelMetadata(
        name=name, launches=launches, registers=usage.get("REG"), spills=usage.get("LOCAL"),
        shared_bytes=max(int(kernel.metadata.shared), usage.get("SHARED", 0)),
        num_warps=kernel.metadata.num_warps, num_stages=kernel.metadata.num_stages, source="aot-sm90",
        tf32_dots=tf32_dots(kernel.asm.get("ttir")),
    )


def _signature(fn: Any, sig: LaunchSignature) -> tuple[dict[str, str], dict[str, Any], dict[tuple[int, ...], Any]]:
    """Triton's signature, constexprs and divisibility attributes, as its JIT would specialize them."""
    signature: dict[str, str] = {}
    constexprs: dict[str, Any] = {}
    attrs: dict[tuple[int, ...], Any] = {}
    for index, param in enumerate(fn.params):
        name = param.name
        kind, *rest = sig.args.get(name, ("other", param.default if param.has_default else None))
        value: Any = rest[0] if rest else None
        if param.is_constexpr or kind == "other" or (kind == "int" and value == 1):
            signature[name] = "constexpr"
            constexprs[name] = value
        elif kind == "tensor":
            signature[name] = "*" + _TRITON_TYPES.get(value, "fp32")
            if rest[1]:
                attrs[(index,)] = [["tt.divisibility", 16]]
        elif kind == "bool":
            signature[name] = "i1"
        elif kind == "int":
            signature[name] = "i32" if -(2**31) <= value < 2**31 else "i64"
            if value % 16 == 0 and not param.do_not_specialize:
                attrs[(index,)] = [["tt.divisibility", 16]]
        elif kind == "float":
            signature[name] = "fp32"
    return signature, constexprs, attrs


def cubin_resources(cubin: bytes) -> dict[str, int]:
    """REG, SHARED, LOCAL, STACK of the first function in ``cubin`` (from ``cuobjdump -res-usage``)."""
    tool = cuda_tool("cuobjdump")
    if tool is None:
        return {}
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run([tool, "-res-usage", f.name], capture_output=True, text=True, timeout=30).stdout
    return {k: int(v) for k, v in re.findall(r"\b(REG|SHARED|LOCAL|STACK):(\d+)", out)}


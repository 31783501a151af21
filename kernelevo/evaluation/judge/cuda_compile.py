"""CUDA candidates compiled with nvcc outside the judge, from the evaluator's side.

Without a GPU a CUDA candidate is only compiled, for its errors and its kernels' figures; on a GPU,
the PTX and SASS of the CuPy units it ran (NVRTC keeps neither) are compiled once the judge has let
go of the GPU. Compilers read untrusted source: each compile runs in a sandbox
(:class:`kernelevo.evaluation.child.cuda_build.CudaCompiler` is the child's side).
"""

from __future__ import annotations

import logging
import time

from kernelevo.evaluation.child.cuda_build import TARGET_ARCH, CudaCompileReply, CudaCompileRequest
from kernelevo.isolation.sandbox import FailureKind, Limits, Sandbox, SandboxFailure
from kernelevo.records.options import EvalOptions
from kernelevo.records.result import ErrorKind, EvalResult, Stage
from kernelevo.utils.devices import sandbox_env

log = logging.getLogger(__name__)


def compile_cuda(request: CudaCompileRequest, options: EvalOptions) -> CudaCompileReply:
    """The candidate's CUDA units compiled with nvcc in a sandbox; raises :class:`SandboxFailure`."""
    box = Sandbox("kernelevo.evaluation.child.cuda_build:CudaCompiler", None, env=sandbox_env(gpu=True),
                  limits=Limits(int(options.cpu_memory_limit_gb * 2**30)), name="nvcc")
    try:
        box.start()
        box.wait_ready(options.start_timeout_s)
        reply: CudaCompileReply = box.call(request, {"*": options.compile_timeout_s})
        return reply
    finally:
        box.kill()


def add_cupy_listings(source: str, result: EvalResult, options: EvalOptions) -> None:
    """PTX and SASS of the CuPy units the GPU ran, added to ``result``; a failure here costs the listings,
    never the verdict."""
    if not any(b.form == "cupy" for b in result.cuda):
        return
    cc = result.environment.compute_capability if result.environment else None
    arch = f"sm_{cc.replace('.', '')}" if cc else TARGET_ARCH
    started = time.perf_counter()
    try:
        reply = compile_cuda(CudaCompileRequest(source, arch, forms=("cupy",)), options)
        result.cuda += reply.builds
    except SandboxFailure as exc:
        log.warning("PTX and SASS of a CuPy candidate: %s", exc.message)
    result.costs.compile_s += time.perf_counter() - started


def cuda_without_gpu(source: str, options: EvalOptions) -> EvalResult:
    """CUDA on a machine without a GPU: compiled for sm_90 in a sandbox, for its errors and figures."""
    started = time.perf_counter()
    try:
        reply = compile_cuda(CudaCompileRequest(source), options)
    except SandboxFailure as exc:
        kind = ErrorKind.COMPILE_TIMEOUT if exc.kind == FailureKind.TIMEOUT else ErrorKind.EVALUATOR_ERROR
        return EvalResult(stage=Stage.COMPILE, error=kind, message=f"compiling the CUDA for sm_90: {exc.message}")
    result = EvalResult(stage=Stage.COMPILE, cuda=reply.builds, kernels=reply.kernels)
    result.costs.compile_s = time.perf_counter() - started
    failed = next((b.error for b in reply.builds if b.error), None)
    if failed is not None:
        result.error, result.message = ErrorKind.COMPILE_ERROR, failed
        return result
    figures = ", ".join(f"{k.name}: {k.registers} registers, {k.spills or 0} B spilled, {k.shared_bytes or 0} B "
                        "shared" for k in reply.kernels)
    compiled = reply.missing or f"compiled for {TARGET_ARCH}" + (f" ({figures})" if figures else "")
    result.error = ErrorKind.NEEDS_GPU
    result.message = (f"{compiled}; correctness and timing of CUDA kernels need a GPU, and this machine "
                      "has none")
    return result

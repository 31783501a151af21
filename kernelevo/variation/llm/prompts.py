"""The messages sent to an LLM: the task, the evidence, the current meta-prompt.

Every prompt carries the spec, the parent's source and what was measured of it (speedups,
roofline fraction, compile metadata), failure output of earlier tries, the hardware's
facts, and the meta-prompt's know-how. The rules the evaluator enforces are stated up
front so that the model does not waste a call on a kernel that will be rejected.

The spec's ``language`` setting (``KERNELEVO = {"language": "cuda"}``, read from the spec's
source without running it) picks the candidate format the messages describe: ``@triton.jit``
kernels, or CUDA C++ compiled through CuPy or ``load_inline``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kernelevo.evaluation.common.library_policy import describe_policy
from kernelevo.records.result import LIBRARY_FAMILIES, EvalResult
from kernelevo.spec.errors import SpecError
from kernelevo.spec.settings import parse_settings
from kernelevo.variation.llm.metaprompt import MUTATIONS, SECTIONS, MetaPrompt

RULES = """\
The kernel is a Python module defining `class ModelNew(nn.Module)` with the same constructor arguments as the \
reference `Model`, whose `forward` returns the same outputs (same dtype and shape) by launching `@triton.jit` \
kernels. It is checked by an evaluator that rejects:
- imports other than torch, triton, math, typing, functools, itertools, dataclasses;
- PyTorch compute in forward (only allocation such as torch.empty, views, .contiguous(), shapes and strides, and \
the library calls the library policy below allows);
- try/except, calls to the reference Model, new CUDA streams, threads, file or network access, patching of \
libraries, and caching of results between calls;
- wrong results on any input variant (several shapes are checked, with fresh random inputs).
Expose block sizes, num_warps and num_stages as literal keyword arguments at the launch so they can be tuned."""


def library_rule(families: Sequence[str]) -> str:
    """The run's library policy, for the rules: what may go to torch's libraries, and what that is bounded by."""
    return ("Library policy: " + describe_policy(families) + (
        ". A library call may do only the reference's own GEMMs, convolutions, attention or recurrent layers "
        "(same sizes, no more calls than the reference makes): using one for another op (a GEMM with a ones "
        "vector to sum, an identity convolution to add a bias) is rejected. Keeping the library GEMM or "
        "convolution and fusing everything around it into your own kernels is a good answer; a Triton GEMM "
        "with the epilogue fused into its store can be better." if families else "."))


CUDA_RULES = """\
The kernel is a Python module defining `class ModelNew(nn.Module)` with the same constructor arguments as the \
reference `Model`, whose `forward` returns the same outputs (same dtype and shape) by launching your own CUDA C++ \
`__global__` kernels, written in one of two forms:
- CuPy: `mod = cupy.RawModule(code=CUDA_SRC, options=("-std=c++17",))`, `kern = mod.get_function("name")` \
(templated kernels through `name_expressions=["name<128>"]`), launched on torch tensors as \
`kern((grid,), (block,), (x.data_ptr(), out.data_ptr(), cupy.int32(n)), shared_mem=bytes)` inside \
`with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):`;
- KernelBench's `torch.utils.cpp_extension.load_inline(name=..., cpp_sources=..., cuda_sources=..., \
functions=[...])`, whose C++ wrapper allocates with `torch::empty_like` / `torch::empty` and launches \
`kernel<<<blocks, threads, shared_bytes, at::cuda::getCurrentCUDAStream()>>>(...)`.
Launch on torch's current stream only. It is checked by an evaluator that rejects:
- imports other than torch, cupy, math, typing, functools, itertools, dataclasses;
- cuBLAS, cuDNN, CUTLASS, Thrust, CUB's device-wide algorithms, or CuPy's array operations (cupy.matmul, \
cupy.sum, elementwise and reduction kernels of CuPy's own) in place of your own kernels;
- PyTorch compute in forward or in the C++ wrapper (only allocation such as torch.empty, views, .contiguous(), \
shapes and strides);
- try/except, calls to the reference Model, new CUDA streams, threads, reads of clocks, file or network access, \
patching of libraries, and caching of results between calls;
- wrong results on any input variant (several shapes are checked, with fresh random inputs).
Expose tile and block sizes as `#define` / `constexpr int` constants, template arguments or integer literals at the \
launch (and `#pragma unroll N`) so they can be tuned; keep the launch's block size, `__launch_bounds__` and shared \
array sizes consistent. Target sm_90: at most 1024 threads per block, 48 KiB of static shared memory per block \
(up to 227 KiB dynamic with cudaFuncSetAttribute)."""
# The meta-prompt's know-how may be written in Triton's terms; a CUDA writer reads it through this.
CUDA_TRANSLATION = ("Where the know-how below names Triton constructs, apply the same idea in CUDA: block sizes are "
                    "threads and tiles per block, tl.dot is wmma / mma.sync on tensor cores, num_stages is a "
                    "cp.async (cuda::memcpy_async) pipeline through shared memory, masks are bounds checks.")


def spec_language(spec_source: str) -> str:
    """The spec's target language, "triton" or "cuda", read from its ``KERNELEVO`` settings."""
    try:
        return parse_settings(spec_source).language
    except SpecError:  # the evaluator reports a broken spec; a prompt falls back to the default
        return "triton"


@dataclass(frozen=True)
class HardwareFacts:
    """What the model should know about the GPU it writes for."""

    name: str
    sm_count: int | None
    shared_per_sm_bytes: int | None
    l2_bytes: int | None
    bandwidth_gbs: float | None
    peak_tflops: float | None
    interpreted: bool
    read_bandwidth_gbs: float | None = None  # a read-only pass's: what a reduction's floor is made of

    @classmethod
    def from_result(cls, result: EvalResult | None) -> HardwareFacts:
        env = result.environment if result else None
        roof = result.roofline if result else None
        return cls(
            name=env.device_name if env else "unknown GPU",
            sm_count=env.sm_count if env else None,
            shared_per_sm_bytes=env.shared_per_sm_bytes if env else None,
            l2_bytes=env.l2_bytes if env else None,
            bandwidth_gbs=roof.bandwidth_gbs if roof else None,
            peak_tflops=roof.peak_tflops if roof else None,
            interpreted=bool(result and result.interpreted),
            read_bandwidth_gbs=roof.read_bandwidth_gbs if roof else None,
        )

    def describe(self, language: str = "triton") -> str:
        if self.interpreted and language == "cuda":
            return ("No GPU has measured this kernel yet: write for an NVIDIA H100/H200 (sm_90, 132 SMs, 228 KiB "
                    "shared memory per SM, ~3.3-4.8 TB/s HBM).")
        if self.interpreted:
            return ("Kernels are run by Triton's CPU interpreter on small inputs (no GPU here): correctness matters; "
                    "write for an NVIDIA H100/H200 (132 SMs, 228 KiB shared memory per SM, ~3.3-4.8 TB/s HBM).")
        parts = [self.name]
        if self.sm_count:
            parts.append(f"{self.sm_count} SMs")
        if self.shared_per_sm_bytes:
            parts.append(f"{self.shared_per_sm_bytes // 1024} KiB shared memory per SM")
        if self.l2_bytes:
            parts.append(f"{self.l2_bytes / 2**20:.0f} MiB L2")
        if self.bandwidth_gbs:
            parts.append(f"measured copy bandwidth {self.bandwidth_gbs:.0f} GB/s")
        if self.read_bandwidth_gbs:
            parts.append(f"measured read bandwidth {self.read_bandwidth_gbs:.0f} GB/s")
        if self.peak_tflops:
            parts.append(f"peak {self.peak_tflops:.0f} TFLOP/s (dense tensor cores)")
        return ", ".join(parts)


def results_summary(result: EvalResult | None) -> str:
    """What was measured of a kernel, as a model should read it."""
    if result is None:
        return "not evaluated yet"
    if not result.ok:
        return f"REJECTED ({result.error}): {result.message[:1500]}"
    lines = []
    if result.interpreted:
        lines.append("correct (timed in the CPU interpreter: no GPU speed is known)")
    else:
        if result.kernel:
            lines.append(f"median {result.kernel.median_ms:.4f} ms (IQR {result.kernel.iqr_ms:.4f} ms)")
        if result.speedup_eager:
            lines.append(f"{result.speedup_eager:.2f}x faster than PyTorch eager")
        if result.speedup_compile:
            lines.append(f"{result.speedup_compile:.2f}x the speed of torch.compile")
        if result.roofline and result.roofline.fraction:
            roof = result.roofline
            lines.append(f"{roof.fraction:.0%} of the roofline's {roof.floor_kind()} floor ({roof.floor_ms:.4f} ms)")
    for k in result.kernels:
        lines.append(f"kernel {k.name}: {k.registers} registers, {k.spills} spilled, {k.shared_bytes} B shared, "
                     f"{k.num_warps} warps, {k.num_stages} stages")
    return "; ".join(lines)


def system_message(meta: MetaPrompt | None, hardware: HardwareFacts, language: str = "triton",
                   library: Sequence[str] = LIBRARY_FAMILIES) -> str:
    know_how = meta.render() if meta else ""
    if language == "cuda":
        intro = "You are an expert GPU kernel engineer who writes CUDA C++ kernels that beat PyTorch and torch.compile."
        rules, know_how = CUDA_RULES, f"{CUDA_TRANSLATION}\n\n{know_how}" if know_how else ""
    else:
        intro = "You are an expert GPU kernel engineer who writes Triton kernels that beat PyTorch and torch.compile."
        rules = RULES
    rules += "\n" + library_rule(library)
    return f"{intro}\n\n{rules}\n\nTarget hardware: {hardware.describe(language)}\n\n{know_how}".strip()


def _spec_block(spec_source: str) -> str:
    return f"The reference operator (PyTorch, KernelBench format):\n```python\n{spec_source.strip()}\n```"


def _kernel_block(title: str, source: str, result: EvalResult | None) -> str:
    return f"{title}\n```python\n{source.strip()}\n```\nMeasured: {results_summary(result)}"


def _inspiration_blocks(inspirations: list[tuple[str, EvalResult | None]]) -> str:
    if not inspirations:
        return ""
    blocks = [_kernel_block(f"Other kernel {i} (a different approach):", src, res)
              for i, (src, res) in enumerate(inspirations, 1)]
    return "\n\n".join(blocks)


def _messages(meta: MetaPrompt | None, hardware: HardwareFacts, parts: list[str],
              spec_source: str, library: Sequence[str]) -> list[dict[str, str]]:
    return [{"role": "system", "content": system_message(meta, hardware, spec_language(spec_source), library)},
            {"role": "user", "content": "\n\n".join(p for p in parts if p)}]


REWRITE = ("Write a faster kernel. Think about where the time goes, then return the complete new module in "
           "one ```python code block.")
DIFF = ("Make a focused change that makes the current kernel faster. Reply with one or more edits, each as\n"
        "<<<<<<< SEARCH\n(exact lines of the current kernel)\n=======\n(their replacement)\n>>>>>>> REPLACE\n"
        "Each SEARCH block must match the current kernel exactly once.")


def improve_messages(spec_source: str, parent: tuple[str, EvalResult | None],
                     inspirations: list[tuple[str, EvalResult | None]], failures: list[str],
                     meta: MetaPrompt | None, hardware: HardwareFacts, instruction: str, *,
                     library: Sequence[str] = LIBRARY_FAMILIES) -> list[dict[str, str]]:
    """The prompt to improve one kernel; ``instruction`` (REWRITE or DIFF) says what form the reply takes."""
    parts = [_spec_block(spec_source), _kernel_block("The current kernel:", *parent),
             _inspiration_blocks(inspirations)]
    if failures:
        parts.append("Earlier attempts from this kernel failed:\n" + "\n".join(f"- {f[:600]}" for f in failures))
    parts.append(instruction)
    return _messages(meta, hardware, parts, spec_source, library)


def crossover_messages(spec_source: str, first: tuple[str, EvalResult | None], second: tuple[str, EvalResult | None],
                       meta: MetaPrompt | None, hardware: HardwareFacts, *,
                       library: Sequence[str] = LIBRARY_FAMILIES) -> list[dict[str, str]]:
    parts = [_spec_block(spec_source), _kernel_block("Kernel A:", *first), _kernel_block("Kernel B:", *second),
             "Combine the strengths of A and B into one kernel that is faster than both. Return the complete new "
             "module in one ```python code block."]
    return _messages(meta, hardware, parts, spec_source, library)


def repair_messages(spec_source: str, broken: str, error: str, meta: MetaPrompt | None,
                    hardware: HardwareFacts, *, library: Sequence[str] = LIBRARY_FAMILIES) -> list[dict[str, str]]:
    parts = [_spec_block(spec_source), f"This kernel was rejected:\n```python\n{broken.strip()}\n```",
             f"The evaluator's output:\n```\n{error.strip()[:3000]}\n```",
             "Fix the kernel so that it is correct and keeps its optimizations. Return the complete fixed module in "
             "one ```python code block."]
    return _messages(meta, hardware, parts, spec_source, library)


def evolve_prompt_messages(meta: MetaPrompt, mutation: str, best: tuple[str, EvalResult | None] | None,
                           hardware: HardwareFacts, *, language: str = "triton") -> list[dict[str, str]]:
    """The prompt to evolve a meta-prompt; ``language`` ("triton", "cuda") is the spec's."""
    evidence = (_kernel_block("The best kernel written with this prompt:", *best) if best
                else "No kernel written with this prompt has been measured yet.")
    kernels = "CUDA C++ kernels (CuPy RawModule or load_inline)" if language == "cuda" else "Triton kernels"
    parts = [f"This is a meta-prompt that guides an LLM writing {kernels} for {hardware.describe(language)}:\n\n"
             f"{meta.render()}", evidence, MUTATIONS[mutation],
             "Return the new meta-prompt with exactly these four markdown sections: "
             + ", ".join(f"'## {s.capitalize()}'" for s in SECTIONS) + ". No other text."]
    return [{"role": "system", "content": "You improve the instructions that guide GPU kernel engineers."},
            {"role": "user", "content": "\n\n".join(parts)}]

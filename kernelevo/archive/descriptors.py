"""Behavioural descriptors of a kernel: where it sits in the archive's grid.

A descriptor is a function of (source, evaluation) returning a number in its range. The
default grid follows KernelFoundry: three levels from deterministic static analysis of the
kernel's AST (never by running it), 0 to 3 each. A kernel's level is the highest whose
feature it shows.

**Memory optimization level**

- 0, naive indexing: scalar loads, one element per ``tl.load`` (``x = tl.load(x_ptr + pid)``).
- 1, coalesced / vectorized block loads: offsets built from ``tl.arange``
  (``tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK), mask=...)``).
- 2, explicit tiling: 2-D tiles (``offs_m[:, None] * stride + offs_k[None, :]``), block
  pointers (``tl.make_block_ptr``, ``tl.advance``) or tensor descriptors
  (``tl.make_tensor_descriptor``).
- 3, software pipelining / async copies: a loop that loads and is pipelined, by
  ``tl.range(..., num_stages=N)`` / ``warp_specialize=True``, or by ``num_stages >= 2`` at the
  launch or in an autotune config.

**Compute level**

- 0, several passes: more than one kernel launch in ``forward``, or a kernel with several
  loops that load the same pointer (two passes over the data).
- 1, fused: one kernel does the whole operator in one pass.
- 2, single-pass / online algorithms: a loop that carries a running maximum and rescales
  (online softmax) or running mean / M2 statistics (Welford).
- 3, tiled ``tl.dot``: a matrix multiply on tensor cores inside a loop over tiles.

**Parallelism level**

- 0, one program per element, row or block: only ``tl.program_id(0)``.
- 1, 2-D tiling of the grid: ``tl.program_id(1)``, or one program id split into tile
  coordinates (``pid // num_pid_n`` and ``pid % num_pid_n``, grouped orderings).
- 2, split reductions or persistent programs: a loop over work strided by
  ``tl.num_programs`` (or by a constant the kernel declares for the program count, as
  inductor's persistent GEMM's ``NUM_SMS``), or partial results combined with atomics.
- 3, autotuned or specialized variants: ``@triton.autotune`` / ``@triton.heuristics``.

``tests/archive/descriptor_examples/`` holds one kernel per level, and a test checks that
each lands in its level. CUDA C++ candidates get the same three levels from
:mod:`kernelevo.archive.cuda_descriptors`, which documents their features level by level.
Descriptors from compile metadata (registers, shared memory, warps) can be chosen instead
in the run's configuration. Code marked ``# kernelevo: keep`` (a fallback for sizes the timing
never runs, :mod:`kernelevo.utils.kept`) is not read.
"""

from __future__ import annotations

import ast
import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kernelevo.archive import cuda_descriptors
from kernelevo.records.result import EvalResult
from kernelevo.utils.cuda_source import is_cuda_source
from kernelevo.utils.kept import kept_lines
from kernelevo.utils.pyast import decorator_names, dotted_name, loops_over_programs, program_id_axis


@dataclass(frozen=True)
class Descriptor:
    """One axis of the archive: a name, a range, a number of cells, and how to measure it."""

    name: str
    low: float
    high: float
    cells: int
    measure: Callable[[str, EvalResult | None], float]
    doc: str = ""

    def __call__(self, source: str, result: EvalResult | None = None) -> float:
        value = self.measure(source, result)
        # clamp into the range: a value on the upper bound belongs to the last cell
        return min(max(value, self.low), self.high - 1e-9)


# -- static analysis ---------------------------------------------------------------------------
def _dotted(node: ast.AST) -> str:
    return dotted_name(node) or ""


@dataclass
class KernelFeatures:
    """What the static analysis found in a candidate's source."""

    kernels: list[ast.FunctionDef]
    host: list[ast.FunctionDef]
    autotuned: bool
    launches: int  # kernel launch sites in host code
    stage_kwargs: list[int]  # num_stages values given at launches or in configs


@functools.lru_cache(maxsize=64)  # each level descriptor asks for the same source; callers only read
def analyse(source: str) -> KernelFeatures:
    tree = ast.parse(source)
    kept = kept_lines(source)  # code the timed sizes never run describes nothing that is timed
    kernels, host = [], []
    autotuned = False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.lineno not in kept:
            names = decorator_names(node)
            if "jit" in names:
                kernels.append(node)
                autotuned |= bool({"autotune", "heuristics"} & set(names))
            else:
                host.append(node)
    kernel_names = {k.name for k in kernels}
    launches = 0
    stages: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.lineno not in kept:
            func = node.func
            if isinstance(func, ast.Subscript) and _dotted(func.value) in kernel_names:
                launches += 1
            for kw in node.keywords:
                if kw.arg == "num_stages" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, int):
                    stages.append(kw.value.value)
    return KernelFeatures(kernels, host, autotuned, launches, stages)


@functools.lru_cache(maxsize=64)  # asked once per level descriptor of the same source
def _is_cuda(source: str) -> bool:
    return is_cuda_source(source)


@functools.lru_cache(maxsize=4096)  # the nodes of analyse()'s cached trees: each is walked once, not per question
def _calls_by_name(root: ast.AST) -> dict[str, list[ast.Call]]:
    found: dict[str, list[ast.Call]] = {}
    for node in ast.walk(root):
        if isinstance(node, ast.Call):
            found.setdefault(_dotted(node.func).split(".")[-1], []).append(node)
    return found


def _calls(nodes: Iterable[ast.AST], name: str) -> list[ast.Call]:
    return [call for root in nodes for call in _calls_by_name(root).get(name, ())]


@functools.lru_cache(maxsize=1024)
def _loops(kernel: ast.FunctionDef) -> list[ast.For | ast.While]:
    return [n for n in ast.walk(kernel) if isinstance(n, ast.For | ast.While)]


def _has_2d_tile(nodes: Iterable[ast.AST]) -> bool:
    """An index expression broadcast to 2-D: ``x[:, None]`` or ``x[None, :]``."""
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple):
                elts = node.slice.elts
                if any(isinstance(e, ast.Constant) and e.value is None for e in elts) and any(
                    isinstance(e, ast.Slice) for e in elts
                ):
                    return True
    return False


def memory_level(source: str, result: EvalResult | None = None) -> float:
    if _is_cuda(source):
        return cuda_descriptors.memory_level(source)
    f = analyse(source)
    loads = _calls(f.kernels, "load")
    pipelined_range = any(
        kw.arg in ("num_stages", "warp_specialize") for call in _calls(f.kernels, "range") for kw in call.keywords
    )
    loop_loads = any(_calls(_loops(k), "load") for k in f.kernels)
    if pipelined_range or (loop_loads and any(s >= 2 for s in f.stage_kwargs)):
        return 3
    if _calls(f.kernels, "make_block_ptr") or _calls(f.kernels, "make_tensor_descriptor") or (
        loads and _has_2d_tile(f.kernels)
    ):
        return 2
    if loads and _calls(f.kernels, "arange"):
        return 1
    return 0


def _loaded_pointers(loop: ast.AST) -> set[str]:
    names = set()
    for call in _calls([loop], "load"):
        if call.args:
            names |= {n.id for n in ast.walk(call.args[0]) if isinstance(n, ast.Name) and n.id.endswith("ptr")}
    return names


def _is_online(loop: ast.AST) -> bool:
    """A loop carrying a running max with rescaling (online softmax) or Welford statistics."""
    text = ast.unparse(loop)
    running_max = "maximum(" in text and "exp" in text
    welford = ("mean" in text and "m2" in text.lower()) or "welford" in text.lower()
    return running_max or welford


def _over_programs(loop: ast.For | ast.While) -> bool:
    """A grid-stride loop (``for b in tl.range(tl.program_id(0), n, tl.num_programs(0))``): it walks the
    program's share of the work, and what it computes per step is the algorithm."""
    return isinstance(loop, ast.For) and bool(_calls([loop.iter], "num_programs"))


def compute_level(source: str, result: EvalResult | None = None) -> float:
    if _is_cuda(source):
        return cuda_descriptors.compute_level(source)
    f = analyse(source)
    loops = [loop for k in f.kernels for loop in _loops(k) if not _over_programs(loop)]
    if any(_calls([loop], "dot") for loop in loops):
        return 3
    if any(_is_online(loop) for loop in loops):
        return 2
    multi_pass = any(
        len(loops_k) >= 2 and set.intersection(*(_loaded_pointers(lp) for lp in loops_k))
        for loops_k in ([lp for lp in _loops(k) if _loaded_pointers(lp) and not _over_programs(lp)]
                        for k in f.kernels)
        if len(loops_k) >= 2
    )
    if f.launches >= 2 or multi_pass:
        return 0
    return 1


def parallelism_level(source: str, result: EvalResult | None = None) -> float:
    if _is_cuda(source):
        return cuda_descriptors.parallelism_level(source)
    f = analyse(source)
    if f.autotuned:
        return 3
    if _calls(f.kernels, "num_programs") or _atomics(f.kernels) or any(loops_over_programs(k) for k in f.kernels):
        return 2
    second_axis = any(program_id_axis(call) in (1, 2) for call in _calls(f.kernels, "program_id"))
    split_pid = any(
        isinstance(n, ast.BinOp) and isinstance(n.op, ast.FloorDiv | ast.Mod)
        and isinstance(n.left, ast.Name) and "pid" in n.left.id
        for k in f.kernels for n in ast.walk(k)
    )
    return 1 if second_axis or split_pid else 0


def _atomics(kernels: Iterable[ast.FunctionDef]) -> bool:
    return any(
        isinstance(n, ast.Call) and _dotted(n.func).split(".")[-1].startswith("atomic_")
        for k in kernels for n in ast.walk(k)
    )


# -- compile metadata --------------------------------------------------------------------------
def _max_meta(result: EvalResult | None, field: str) -> float:
    if result is None:
        return 0.0
    values = [getattr(k, field) for k in result.kernels if getattr(k, field) is not None]
    return float(max(values)) if values else 0.0


def registers(source: str, result: EvalResult | None = None) -> float:
    return _max_meta(result, "registers")


def shared_kib(source: str, result: EvalResult | None = None) -> float:
    return _max_meta(result, "shared_bytes") / 1024


def log2_warps(source: str, result: EvalResult | None = None) -> float:
    warps = _max_meta(result, "num_warps")
    return math.log2(warps) if warps > 0 else 0.0


LEVELS = {
    "memory": Descriptor("memory", 0, 4, 4, memory_level, "memory optimization level 0-3"),
    "compute": Descriptor("compute", 0, 4, 4, compute_level, "compute / fusion level 0-3"),
    "parallelism": Descriptor("parallelism", 0, 4, 4, parallelism_level, "parallelism level 0-3"),
}
METADATA = {
    "registers": Descriptor("registers", 0, 256, 8, registers, "registers per thread (max over kernels)"),
    "shared_kib": Descriptor("shared_kib", 0, 232, 8, shared_kib, "shared memory per block, KiB"),
    "warps": Descriptor("warps", 0, 6, 6, log2_warps, "log2(num_warps): 1 to 32 warps"),
}
DESCRIPTOR_SETS = {
    "levels": [LEVELS["memory"], LEVELS["compute"], LEVELS["parallelism"]],
    "metadata": [METADATA["registers"], METADATA["shared_kib"], METADATA["warps"]],
}


def descriptor_set(name_or_names: str | list[str]) -> list[Descriptor]:
    """A named set ("levels", "metadata") or a list of descriptor names."""
    if isinstance(name_or_names, str) and name_or_names in DESCRIPTOR_SETS:
        return DESCRIPTOR_SETS[name_or_names]
    names = name_or_names.split(",") if isinstance(name_or_names, str) else name_or_names
    known = {**LEVELS, **METADATA}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown descriptor(s) {', '.join(unknown)}; choose from {', '.join(known)} "
                         f"or a set: {', '.join(DESCRIPTOR_SETS)}")
    return [known[n] for n in names]


def measure(names: list[str], source: str, result: EvalResult | None = None) -> dict[str, float] | None:
    """The named descriptors of ``source``, where the evaluator runs (EvalOptions.descriptors), so that the
    driver does not parse every source again. None if one fails: the driver then measures, and says why."""
    try:
        return {d.name: d(source, result) for d in descriptor_set(names)}
    except Exception:  # an odd source the static analysis did not foresee: not the evaluator's verdict
        return None

"""The level descriptors for CUDA C++ candidates, with the same meaning as the Triton levels.

The analysis reads the CUDA text of a candidate (:func:`kernelevo.utils.cuda_source.find_cuda`,
comments removed; kernels and the ``__device__`` functions they call) and the Python around
it, at the level of tokens and brackets; it never compiles or runs anything, so a kernel
always gets the same levels. A kernel's level is the highest whose feature it shows.

**Memory optimization level**

- 0, naive scalar loads: ``y[i] = fmaxf(x[i], 0.f)``.
- 1, vectorized / read-only-cache loads: vector types (``float4``, ``float2``, ``half2``,
  ``__nv_bfloat162``, ``int4``...), ``__ldg`` and the other load intrinsics, ``ld.global.nc``
  (``float4 v = reinterpret_cast<const float4*>(x)[i];``). ``__restrict__`` alone does not
  count: naive kernels carry it too.
- 2, shared-memory tiling: global data staged in a ``__shared__`` array (or a pointer into
  one): stored there from a global read (``tile[threadIdx.y][threadIdx.x] = A[row * K + k];``),
  or stored in the innermost loop that reads global memory (staging through registers), or
  read by tensor-core fragment loads (``wmma::load_matrix_sync(a, As + off, lda)``). A
  ``__shared__`` array that only holds per-thread partial results (``partial[tid] = sum;``)
  is scratch, not tiling.
- 3, async copies / pipelining: ``cp.async`` (TMA's ``cp.async.bulk`` included),
  ``__pipeline_memcpy_async``, ``cuda::memcpy_async`` / ``cooperative_groups::memcpy_async``,
  ``cuda::pipeline``, ``CUtensorMap``.

**Compute level**

- 0, several kernels or passes: two or more distinct kernels launched, or one kernel with
  two loops (neither inside the other) that both read the same input pointer (a max pass,
  then a sum pass). A scalar loop or kernel that finishes the elements a vectorized one
  left over (the tail after the ``float4``s) is part of that one pass.
- 1, fused: one kernel does the whole operator in one pass.
- 2, single-pass / online algorithms or warp-level reductions: a loop that makes one pass
  over global memory carrying a running maximum with exp rescaling (online softmax) or
  Welford's mean / M2, or reductions through warp shuffles (``__shfl_xor_sync``,
  ``__shfl_down_sync``, ``__reduce_add_sync``, cooperative groups' ``reduce``).
- 3, tensor cores: ``nvcuda::wmma`` (``wmma::mma_sync``), ``mma.sync`` / ``wgmma`` / ``tcgen05.mma``
  in inline PTX.

**Parallelism level**

- 0, one thread per element (or one block per row): only ``blockIdx.x`` and ``threadIdx.x``.
- 1, 2-D decomposition: ``blockIdx.y`` / ``blockIdx.z``, 2-D blocks (``threadIdx.y``), or one
  block index split into tile coordinates (``blockIdx.x / tiles_n``, ``blockIdx.x % tiles_n``).
- 2, grid-stride loops or split work: a loop stepping by ``gridDim.x * blockDim.x``, or
  partial results combined with atomics (``atomicAdd``, ``atomicMax``...).
- 3, persistent blocks or specialized variants: blocks that take tiles from an atomic work
  counter in a loop (``tile = atomicAdd(&next, 1)``), a grid sized from the SM count
  (``multi_processor_count``, ``cudaDevAttrMultiProcessorCount``), or several
  instantiations of one templated kernel chosen at launch (``k<128>`` and ``k<512>``,
  CuPy ``name_expressions``): the CUDA counterpart of Triton's autotuned variants.

``tests/archive/descriptor_examples/cuda/`` holds one candidate per level; a test checks
each lands in its level and another compiles each with nvcc.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from kernelevo.utils.cuda_source import find_cuda, strip_comments
from kernelevo.utils.cuda_text import Function, Loop, chevron_launches, device_functions, global_functions, loops

_ASYNC_COPY = re.compile(r"cp\.async|cp_async|__pipeline_memcpy_async|\bmemcpy_async\s*\(|cuda::pipeline|CUtensorMap")
_VECTOR = re.compile(r"\b(?:float[24]|double2|u?int[24]|u?longlong2|u?char4|__half2|half2|__nv_bfloat162|"
                     r"nv_bfloat162)\b|\b__ld(?:g|cg|ca|cs|lu|cv)\s*\(|ld\.global\.(?:nc|v[24])")
_TENSOR_CORES = re.compile(r"\bwmma::|\bmma_sync\s*\(|\bmma\.sync\b|\bwgmma\b|tcgen05\.mma")
_SHUFFLE = re.compile(r"__shfl(?:_up|_down|_xor)?_sync\s*\(|__reduce_\w+_sync\s*\(|\bcg::reduce\s*\(|"
                      r"cooperative_groups::reduce\s*\(|\.shfl(?:_up|_down|_xor)?\s*\(")
_MAX_ASSIGN = re.compile(r"\b(\w+)\s*=\s*(?:fmaxf|fmax|max|__hmax)\s*\(([^;]*)\)\s*;")
_EXP = re.compile(r"\b(?:__expf|expf|exp|exp2f|__exp2f|hexp|h2exp|exp2)\s*\(")
_ATOMIC = re.compile(r"\batomic(?:Add|Sub|Max|Min|Exch|CAS|And|Or|Xor|Inc|Dec)\w*\s*\(|\bred\.global|\batom\.|"
                     r"atomic_ref")
_WORK_COUNTER = re.compile(r"=\s*atomic(?:Add|Inc)\w*\s*\(")
_SM_COUNT = re.compile(r"multi_processor_count|multiProcessorCount|cudaDevAttrMultiProcessorCount|"
                       r"MultiProcessorCount")
_SECOND_AXIS = re.compile(r"\b(?:blockIdx|threadIdx)\.[yz]\b|\bblockIdx\.x\s*[/%]")
_GET_FUNCTION = re.compile(r"""get_function\(\s*[rbuf]*["'](\w+)\s*(<[^"']*>)?["']""")
_NAME_EXPRESSIONS = re.compile(r"""name_expressions\s*=\s*[\[(]([^\])]*)[\])]""")
_TEMPLATE_NAME = re.compile(r"""["'](\w+)\s*(<[^"']*>)["']""")


@dataclass(frozen=True)
class CudaFeatures:
    """What the static analysis found in a CUDA candidate."""

    text: str  # all its CUDA C++, comments removed
    kernels: list[Function]  # the __global__ functions
    functions: list[Function]  # kernels and the __device__ functions they may keep their work in
    launched: set[str]  # names of the kernels it launches (or defines, when no launch was seen)
    variants: int  # most instantiations of one templated kernel
    sm_sized: bool  # a launch sized from the SM count


@functools.lru_cache(maxsize=64)  # each level descriptor asks for the same source; callers only read
def analyse(source: str) -> CudaFeatures:
    text = strip_comments(find_cuda(source).text)
    kernels = global_functions(text)
    python = source  # the Python around the CUDA: get_function names, name_expressions, the SM count
    instances: dict[str, set[str]] = {}
    for launch in chevron_launches(text):
        instances.setdefault(launch.kernel, set()).add(launch.template.replace(" ", ""))
    for name, args in _GET_FUNCTION.findall(python):
        instances.setdefault(name, set()).add(args.replace(" ", ""))
    for group in _NAME_EXPRESSIONS.findall(python):
        for name, args in _TEMPLATE_NAME.findall(group):
            instances.setdefault(name, set()).add(args.replace(" ", ""))
    for name in re.findall(r"""RawKernel\([^)]*?["'](\w+)["']\s*[,)]""", python):
        instances.setdefault(name, set()).add("")
    defined = {k.name for k in kernels}
    launched = {name for name in instances if name in defined} or defined
    variants = max((len({a for a in args if a}) for args in instances.values()), default=0)
    sm_sized = bool(_SM_COUNT.search(text) or _SM_COUNT.search(python))
    return CudaFeatures(text, kernels, kernels + device_functions(text), launched, variants, sm_sized)


def _mentions(name: str) -> str:
    """A regex for ``name`` as a variable, not a member (``threadIdx.x`` is no use of a pointer ``x``)."""
    return rf"(?<![.\w])(?<!->){re.escape(name)}\b"


def _global_pointers(kernel: Function) -> dict[str, str]:
    """Pointer parameters and the local pointers derived from them (``row = x + r * cols``), to their root."""
    roots = {p: p for p in kernel.pointers}
    for name, value in re.findall(r"\*\s*(?:__restrict__\s*)?(\w+)\s*=\s*([^;]*);", kernel.body):
        root = next((roots[p] for p in list(roots) if re.search(_mentions(p), value)), None)
        if root is not None:
            roots.setdefault(name, root)
    return roots


def _reads(code: str, pointers: dict[str, str]) -> set[str]:
    """The global pointers (by root) ``code`` reads from: a use that is not a store ``p[i] = ...``."""
    found = set()
    for name, root in pointers.items():
        for match in re.finditer(_mentions(name) + r"\s*(\[[^\]]*\])?", code):
            after = code[match.end():match.end() + 3]
            if match.group(1) and re.match(r"\s*(?:[-+*/|&^]?=)(?!=)", after):
                continue  # x[i] = ...: a store
            found.add(root)
    if re.search(r"\b__ld\w*\s*\(", code):
        found.add("__ldg")
    return found


def _inner(loop: Loop, all_loops: list[Loop]) -> list[Loop]:
    return [o for o in all_loops if loop.start < o.start and o.end <= loop.end]


def memory_level(source: str) -> int:
    f = analyse(source)
    if _ASYNC_COPY.search(f.text):
        return 3
    if _shared_tiles(f):
        return 2
    return 1 if _VECTOR.search(f.text) else 0


def _shared_tiles(f: CudaFeatures) -> bool:
    """Global data staged in shared memory: stored there from a global read, directly or in the loop
    that reads it (through registers), or shared memory read by tensor-core fragment loads."""
    declared = set(re.findall(r"__shared__[^;=]*?\b(\w+)\s*(?:\[|;)", f.text))
    for fn in f.functions:
        shared = _aliases(declared, fn.body)
        if not shared:
            continue
        names = "|".join(map(re.escape, shared))
        if re.search(rf"(?:load_matrix_sync|ldmatrix)[^;]*(?<![.\w])(?:{names})\b", fn.body):
            return True
        pointers = _global_pointers(fn)
        all_loops = loops(fn.body)
        staging_loops = [loop.text for loop in all_loops if _reads(loop.text, pointers)
                         and not any(_reads(inner.text, pointers) for inner in _inner(loop, all_loops))]
        for code in [fn.body, *staging_loops]:
            for statement in re.split(r"[;{}]", code):
                target, eq, value = statement.partition("=")
                if not eq or value.startswith("=") or target.rstrip().endswith(("!", "<", ">")):
                    continue
                staged = code is not fn.body or _reads(value, pointers)  # in a staging loop, or from global
                if staged and re.search(rf"(?<![.\w])(?:{names})\b", target):
                    return True
    return False


def _aliases(shared: set[str], body: str) -> set[str]:
    """Shared arrays and the pointers into them (``float* As = smem + off``), to a fixed point."""
    found = set(shared)
    while True:
        more = {m.group(1) for s in found for m in re.finditer(rf"\*\s*(?:__restrict__\s*)?(\w+)\s*=\s*[^;]*"
                                                                  rf"(?<![.\w]){re.escape(s)}\b", body)}
        if more <= found:
            return found
        found |= more


def compute_level(source: str) -> int:
    f = analyse(source)
    if _TENSOR_CORES.search(f.text):
        return 3
    if _SHUFFLE.search(f.text) or any(_is_online(fn) for fn in f.functions):
        return 2
    return 0 if _kernel_passes(f) >= 2 or any(_multi_pass(fn) for fn in f.functions) else 1


def _kernel_passes(f: CudaFeatures) -> int:
    """Kernels launched, a scalar kernel launched next to a vectorized one counting as its tail."""
    vectorized = sum(bool(_VECTOR.search(k.params + k.body)) for k in f.kernels if k.name in f.launched)
    return len(f.launched) - min(vectorized, len(f.launched) - vectorized)


def _is_online(kernel: Function) -> bool:
    """A loop that passes over global memory once, carrying a running max with rescaling or Welford's M2."""
    all_loops, pointers = loops(kernel.body), _global_pointers(kernel)
    for loop in all_loops:
        if any(_reads(inner.text, pointers) for inner in _inner(loop, all_loops)):
            continue  # an outer loop around passes: the passes are judged on their own
        running_max = _running_max(loop.text) and bool(_EXP.search(loop.text))
        welford = ("mean" in loop.text and "m2" in loop.text.lower()) or "welford" in loop.text.lower()
        if running_max or welford:
            return True
    return False


def _running_max(code: str) -> bool:
    """``m = fmaxf(m, v)``, or ``m_new = fmaxf(m, v)`` with ``m = m_new``: a maximum carried across iterations."""
    for target, args in _MAX_ASSIGN.findall(code):
        names = set(re.findall(r"\b[A-Za-z_]\w*\b", args))
        if target in names or any(re.search(rf"\b{re.escape(n)}\s*=\s*{re.escape(target)}\s*;", code)
                                  for n in names):
            return True
    return False


def _multi_pass(kernel: Function) -> bool:
    """Two loops, neither inside the other, that read the same pointer: two passes over the data.

    A vectorized loop and its scalar tail read the same pointer once between them: not two passes.
    """
    all_loops, pointers = loops(kernel.body), _global_pointers(kernel)
    reads = [(loop, _reads(loop.text, pointers) - {"__ldg"}, bool(_VECTOR.search(loop.text)))
             for loop in all_loops]
    for i, (a, read_a, vector_a) in enumerate(reads):
        for b, read_b, vector_b in reads[i + 1:]:
            disjoint = a.end <= b.start or b.end <= a.start
            if disjoint and read_a & read_b and vector_a == vector_b:
                return True
    return False


def parallelism_level(source: str) -> int:
    f = analyse(source)
    if f.variants >= 2 or f.sm_sized or any(_work_counter(fn) for fn in f.functions):
        return 3
    if any(_grid_stride(fn) for fn in f.functions) or _ATOMIC.search(f.text):
        return 2
    return 1 if _SECOND_AXIS.search(f.text) or any(_split_block_index(fn) for fn in f.functions) else 0


def _work_counter(kernel: Function) -> bool:
    return any(_WORK_COUNTER.search(loop.text) for loop in loops(kernel.body))


def _grid_stride(kernel: Function) -> bool:
    """A loop whose header steps by the grid's size (``gridDim``, directly or through a variable)."""
    strides = set(re.findall(r"\b(\w+)\s*=[^;=]*\bgridDim\.", kernel.body))
    names = "|".join(["gridDim", *map(re.escape, strides)])
    return any(re.search(rf"\b(?:{names})\b", loop.header) for loop in loops(kernel.body))


def _split_block_index(kernel: Function) -> bool:
    """``bid = blockIdx.x`` and then ``bid / tiles_n`` or ``bid % tiles_n``: tile coordinates."""
    names = re.findall(r"\b(\w+)\s*=\s*(?:\(\s*\w+\s*\)\s*)?blockIdx\.x\s*;", kernel.body)
    return any(re.search(rf"\b{re.escape(n)}\s*[/%]", kernel.body) for n in names)

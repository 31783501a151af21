"""Seeds from ``torch.compile``: what inductor writes for a spec, as it compiles by default and under its
structural options.

:func:`inductor_seeds` captures inductor's modules for a spec in isolated children
(:mod:`kernelevo.variation.seeding.inductor_capture`), side by side, and converts each into a standalone
candidate (:mod:`kernelevo.variation.seeding.inductor_seed`): torch.compile's default module (library calls
included) at every variant's sizes, its generic kernels, GEMMs as Triton templates, then one seed
per structure of :data:`STRUCTURES` that changes inductor's kernels at the timed sizes.
:func:`seeds_from_compile` adds each one's epilogue fusions (:func:`fused_seeds`), the project's
Triton attention (:mod:`kernelevo.variation.seeding.attention_seed`) and, for fp32, the default module's library
GEMMs as Triton GEMMs on bf16 parts (:func:`bf16x6_seeds`), and falls back on the reference itself
where nothing can be captured (:mod:`kernelevo.variation.seeding.reference_seed`). Beside them go the seeds of the
project's kernel families whose structure the reference's traced graph matches
(:mod:`kernelevo.variation.seeding.families`), named ``<spec>-family-<family>-<variant>``.
"""

from __future__ import annotations

import ast
import functools
import logging
import os
import re
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kernelevo.records.result import LIBRARY_FAMILIES
from kernelevo.variation.moves.fuse_epilogue import fusions
from kernelevo.variation.moves.library_gemm import bf16x6_swaps
from kernelevo.variation.seeding.attention_seed import attention_seeds
from kernelevo.variation.seeding.capturer import Capturer
from kernelevo.variation.seeding.families import family_seeds
from kernelevo.variation.seeding.families.tracer import trace
from kernelevo.variation.seeding.inductor_capture import Capture, CaptureError
from kernelevo.variation.seeding.inductor_seed import ConversionError, to_candidate
from kernelevo.variation.seeding.op_graph import GraphError, OpGraph
from kernelevo.variation.seeding.reference_seed import ReferenceSeedError, reference_seed
from kernelevo.variation.source.source_text import SourceText

if TYPE_CHECKING:
    from kernelevo.spec.spec import Spec

log = logging.getLogger(__name__)

# Inductor's own options that change the structure of what it writes (or, the last, how far it tunes
# each kernel's launch): each seeds one more kernel where it changes the kernels inductor writes for the
# spec's timed sizes, so that an offline archive starts spread over cells. Reductions can be persistent
# (the whole row in one block) or looped; loads plain, through block pointers or TMA; an elementwise
# grid 1-D or tiled in 2-D; a row's reduction one program's or split over several; a GEMM tiled one
# tile per program or persistent over tiles with TMA loads.
@dataclass(frozen=True)
class Structure:
    options: dict[str, Any]  # inductor's configuration, dotted names
    # what the default kernels must include for the option to change them: inductor names its kernels
    # triton_poi_ (pointwise), triton_per_ (persistent reduction), triton_red_ (looped reduction) and
    # triton_tem_ (a GEMM template); empty: any kernel
    kinds: tuple[str, ...] = ()


STRUCTURES: dict[str, Structure] = {
    "looped-reductions": Structure({"triton.persistent_reductions": False}, ("triton_per_",)),
    "block-pointers": Structure({"triton.use_block_ptr": True}),
    "tensor-descriptors": Structure({"triton.use_tensor_descriptor": True}),
    "2d-tiles": Structure({"triton.prefer_nd_tiling": True}, ("triton_poi_",)),
    "cooperative-reductions": Structure({"triton.cooperative_reductions": True}, ("triton_per_", "triton_red_")),
    "persistent-tma-matmul": Structure({"triton.enable_persistent_tma_matmul": True}, ("triton_tem_",)),
    # Not inductor's exhaustive GEMM search (max_autotune_gemm_search_space="EXHAUSTIVE"): on an H200 it
    # had not finished one 4096-cube GEMM after 9 minutes.
    "coordinate-descent": Structure({"coordinate_descent_tuning": True}),
}


@dataclass
class InductorSeeds:
    """The candidates made from torch.compile's kernels for a spec, and why a structure made none."""

    seeds: list[tuple[str, str]]  # (name, source)
    skipped: dict[str, str]  # structure -> why it made no seed
    captures: dict[str, Capture]  # structure -> its capture at the timed sizes, for each seed it made
    seconds: dict[str, float] = field(default_factory=dict)  # capture -> its wall time (s)
    default: list[Capture] = field(default_factory=list)  # torch.compile's default: generic, then by sizes


# captures side by side: each is a child compiling on the CPU with a few of inductor's compile workers,
# and the structures of one spec share what inductor compiled and tuned through one cache folder. On a
# 16-core GPU host: the default, the templates and up to six structures at once, two compile threads each.
CAPTURE_WORKERS = 8
CHILD_COMPILE_THREADS = max(1, (os.cpu_count() or 2) // CAPTURE_WORKERS)
TEMPLATES = "templates"  # the capture with GEMMs as inductor's autotuned Triton templates
# The captures beside the default one (templates, structures) stop this long after seeding starts: each adds
# diversity, none is needed, and a run's budget should go to the search. On an H200 a level-2 GEMM fusion's
# default capture took 24 s, the templates' 45 s, most structures' 30 s, and the persistent TMA GEMM's 78 s
# (it wrote the same kernels as the templates): 94 s of seeding before this deadline.
SEEDING_DEADLINE_S = 50.0
_LIBRARY_GEMMS = re.compile(r"\bextern_kernels\.(?:mm|addmm|bmm|baddbmm)\(")


def capture_for_seed(spec: Spec, device: str = "auto", *, templates: bool = False) -> tuple[Capture, list[Capture]]:
    """Inductor's generic module for ``spec`` and its module at each variant's sizes, the timed one first
    (GEMMs left to the libraries, or as Triton templates)."""
    with Capturer(spec, device=device) as capturer:  # one child: torch and the spec load once
        by_sizes = [capturer.capture(generic=False, templates=templates)]
        return _rest_of_default(capturer, spec, by_sizes[0], templates=templates)


def _rest_of_default(capturer: Capturer, spec: Spec, timed: Capture, *, templates: bool
                     ) -> tuple[Capture, list[Capture]]:
    """After the timed sizes' capture: the generic module, and every other variant's at its own sizes.

    Every variant gets its own module, as torch.compile recompiles for new sizes: a generic module can
    fix what no shape shows (GroupNorm's groups, which differ between variants, are a number in its
    kernels), and the seed would be wrong on those variants."""
    generic = capturer.capture(templates=templates)
    others = [capturer.capture(generic=False, variant=v, templates=templates)
              for v in spec.settings.variant_names() if v != timed.variant]
    return generic, [timed, *others]


def _code(candidate: str) -> str:
    """A candidate's code without its header (which names the options): equal for two options that
    change nothing inductor writes (its module's text differs in metadata even then)."""
    return candidate.split('"""', 2)[2]


def _kinds(capture: Capture) -> set[str]:
    """The kinds of kernel a capture launches (triton_poi_, ...); a GEMM left to a library counts as a
    template (triton_tem_), which inductor writes for it under max-autotune."""
    kinds = {k[:11] for k in capture.kernels}
    return kinds | ({"triton_tem_"} if _LIBRARY_GEMMS.search(capture.code) else set())


def _structure_jobs(timed: Capture, chosen: Sequence[str], skipped: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The structures that change a kernel torch.compile wrote at the timed sizes, by name, with their
    options; why each other one makes no seed, in ``skipped``."""
    kinds = _kinds(timed)
    jobs: dict[str, dict[str, Any]] = {}
    for name in chosen:
        structure = STRUCTURES[name]
        if structure.kinds and not kinds & set(structure.kinds):
            skipped[name] = f"no kernel it changes (inductor wrote {', '.join(timed.kernels) or 'none'})"
        else:
            jobs[name] = structure.options
    return jobs


def inductor_seeds(spec: Spec, device: str = "auto", structures: Sequence[str] | None = None, *,
                   workers: int = CAPTURE_WORKERS, deadline_s: float = SEEDING_DEADLINE_S) -> InductorSeeds:
    """The candidates made from torch.compile's kernels for ``spec`` on this machine's GPU.

    First torch.compile's default module, GEMMs and convolutions left to the libraries as it leaves
    them, at each variant's sizes: its speed is torch.compile's. Then its generic kernels alone (on
    the H200 the faster at the timed sizes on softmax, log-softmax and cross-entropy:
    benchmarks/results/compile_seeds-generic-h200.json; judged on every variant like any seed). Then
    GEMMs as inductor's Triton templates, and one seed per structure of :data:`STRUCTURES` (all unless
    named) that changes the kernels at the timed sizes, each under templates; the other variants'
    sizes keep the default module's kernels.

    The captures run side by side, in up to ``workers`` children sharing one inductor cache: the
    templates' from the start, each structure's as soon as the timed sizes' default capture says it
    applies. A capture that fails to compile or convert, or that is still running ``deadline_s`` after
    seeding began, is skipped with its reason; the default capture (never stopped early) failing
    raises :class:`~kernelevo.variation.seeding.inductor_capture.CaptureError` or :class:`ConversionError`."""
    chosen = list(STRUCTURES) if structures is None else list(structures)
    seconds: dict[str, float] = {}
    skipped: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="kernelevo-inductor-") as cache, \
            ThreadPoolExecutor(max_workers=max(2, workers)) as pool:
        capture = functools.partial(_timed_capture, spec, device, cache, seconds, time.monotonic() + deadline_s)
        templates = pool.submit(capture, TEMPLATES, {})
        timed_ready: Future[Capture] = Future()
        default = pool.submit(_default_in_order, spec, device, cache, seconds, timed_ready)
        try:
            timed = timed_ready.result()
        except CaptureError:
            templates.cancel()
            raise
        jobs = {name: pool.submit(capture, name, options)
                for name, options in _structure_jobs(timed, chosen, skipped).items()}
        generic, by_sizes = default.result()
        captured = {TEMPLATES: templates.result(), **{name: job.result() for name, job in jobs.items()}}
    seeds = [(f"{spec.name}-torch-compile", to_candidate(generic, by_sizes))]
    if not generic.fixed_sizes:
        seeds.append((f"{spec.name}-torch-compile-generic", to_candidate(generic)))
    if "triton_tem_" not in _kinds(timed):
        skipped[TEMPLATES] = "no GEMM inductor writes as a template"
        captured.pop(TEMPLATES)
    written = {_code(source) for _, source in seeds}
    captures: dict[str, Capture] = {}
    for name, made in captured.items():
        if isinstance(made, str):
            skipped[name] = made
            continue
        try:
            source = to_candidate(generic, [made, *by_sizes[1:]])
        except ConversionError as exc:
            skipped[name] = str(exc)
            continue
        if _code(source) in written:
            skipped[name] = "inductor writes the same kernels with it"
            continue
        written.add(_code(source))
        seeds.append((f"{spec.name}-torch-compile-{name}", source))
        captures[name] = made
    return InductorSeeds(seeds, skipped, captures, seconds, [generic, *by_sizes])


def _default_in_order(spec: Spec, device: str, cache: str, seconds: dict[str, float],
                      timed_ready: Future[Capture]) -> tuple[Capture, list[Capture]]:
    """torch.compile's default module, the timed sizes' first (told through ``timed_ready`` at once, so that
    the structures start), then the generic one and the other variants'."""
    started = time.perf_counter()
    try:
        with Capturer(spec, device=device, cache_dir=cache, compile_threads=CHILD_COMPILE_THREADS) as capturer:
            timed = capturer.capture(generic=False, templates=False)
            timed_ready.set_result(timed)
            return _rest_of_default(capturer, spec, timed, templates=False)
    except CaptureError as exc:
        if not timed_ready.done():
            timed_ready.set_exception(exc)
        raise
    finally:
        seconds["default"] = time.perf_counter() - started


def _timed_capture(spec: Spec, device: str, cache: str, seconds: dict[str, float], deadline: float, name: str,
                   options: dict[str, Any]) -> Capture | str:
    """One capture at the timed sizes, GEMMs as templates, under ``options``, stopped (its child killed) at
    ``deadline`` (time.monotonic()); or why it made none."""
    started = time.monotonic()
    left = deadline - started
    if left <= 1.0:
        return "its capture would start after the seeding deadline"
    try:
        with Capturer(spec, device=device, cache_dir=cache, compile_threads=CHILD_COMPILE_THREADS) as capturer:
            stop = threading.Timer(left, capturer.stop)  # the whole capture, its child's start included
            stop.start()
            try:
                return capturer.capture(generic=False, options=options, templates=True)
            finally:
                stop.cancel()
    except CaptureError as exc:
        if time.monotonic() >= deadline - 0.5:
            return f"its capture was stopped at the seeding deadline, {time.monotonic() - started:.0f} s after it began"
        return str(exc)
    finally:
        seconds[name] = time.monotonic() - started


def fused_seeds(seeds: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each seed whose in-place elementwise kernel can run in the store of the kernel before it, so
    fused (:mod:`kernelevo.variation.moves.fuse_epilogue`): one launch and one pass over the output fewer.

    A search would find the fusion as a structural move, but only if it drew it: the persistent TMA
    GEMM's GELU was fused in one 3-minute search on an H100 (1.037x torch.compile) and never in the
    next (0.985x, benchmarks/README.md, 2026-11-25). As a seed it is judged in every run."""
    found = []
    for name, source in seeds:
        for i, move in enumerate(fusions(source, ast.parse(source))):
            found.append((f"{name}-fused-epilogue" + (f"-{i + 1}" if i else ""), move.apply()))
    return found


def bf16x6_seeds(spec: Spec, seeds: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """For an fp32 spec, each seed whose GEMMs are library calls with all of them as the project's Triton GEMM on
    bf16 parts (:func:`kernelevo.variation.moves.library_gemm.bf16x6_swaps`: about fp32's accuracy on the tensor
    cores), and that seed with its epilogues fused. An fp32 GEMM through cuBLAS runs on the CUDA cores: on an
    H200 this form took matmul_square from 2.68 to 1.39 ms (benchmarks/results/fp32_bf16x6-judged-h200.json).
    As a move alone, a search of a network with many kernels draws it seldom; as a seed it is judged in every
    run. Seeds come from captures on a GPU, where bf16 products are right (the interpreter's are not). None where
    the spec keeps its GEMMs exact (``"bf16x6": False``)."""
    if spec.settings.dtype not in (None, "float32") or not spec.settings.bf16x6:
        return []
    found = []
    for name, source in seeds:
        for move in bf16x6_swaps(source, ast.parse(source), SourceText(source)):
            found.append((f"{name}-bf16x6", move.apply()))
    return found + fused_seeds(found)


def seeds_from_compile(spec: Spec, device: str = "auto", *, library: Sequence[str] = LIBRARY_FAMILIES
                       ) -> list[tuple[str, str]]:
    """(name, source) of every candidate :func:`inductor_seeds` makes, of their :func:`fused_seeds`, of their
    twins with the project's Triton attention (:func:`attention_seeds`) and of the kernel families that match
    the reference's graph (:func:`family_seeds`); the structures' skips and the captures' times logged. Where
    torch.compile cannot capture the reference (an LSTM: dynamo does not trace recurrent layers; no GPU),
    the reference itself if it is library calls alone (:func:`reference_seed`), and the families' seeds from
    a graph traced apart."""
    try:
        found = inductor_seeds(spec, device)
    except (CaptureError, ConversionError) as exc:
        families = _family_seeds(spec, None)
        try:
            seed = reference_seed(spec.source, library=library)
        except ReferenceSeedError as no_seed:
            if not families:
                raise CaptureError(f"{exc}; {no_seed}") from None
            log.warning("No capture of torch.compile for %s (%s): seeded by the kernel families alone", spec.name, exc)
            return families
        log.warning("No capture of torch.compile for %s (%s): the reference's own library calls are its seed",
                    spec.name, exc)
        return [(f"{spec.name}-reference-library", seed), *families]
    for name, reason in found.skipped.items():
        log.info("No %s seed from torch.compile for %s: %s", name, spec.name, reason)
    log.info("torch.compile's captures of %s: %s", spec.name,
             ", ".join(f"{name} {s:.1f} s" for name, s in found.seconds.items()))
    graph = found.default[0].graph if found.default else None
    return (found.seeds + fused_seeds(found.seeds) + attention_seeds(found.seeds[:1])
            + bf16x6_seeds(spec, found.seeds[:1])
            + _family_seeds(spec, graph, found.default[0].graph_error if found.default else ""))


def _family_seeds(spec: Spec, graph: OpGraph | None, why_not: str = "") -> list[tuple[str, str]]:
    """The kernel families' seeds for ``spec`` (:mod:`kernelevo.variation.seeding.families`), from ``graph`` or, where
    there is none, from a graph traced in a child of its own; each family that matched but wrote nothing
    and a graph that could not be traced are logged, never raised."""
    if graph is None and not why_not:
        try:
            graph = trace(spec)
        except GraphError as exc:
            why_not = str(exc)
    if graph is None:
        log.info("No kernel family seeds for %s: no graph of the reference (%s)", spec.name, why_not)
        return []
    found = family_seeds(spec.name, graph)
    for family, reason in found.skipped.items():
        log.info("No %s family seed for %s: %s", family, spec.name, reason)
    return found.seeds


__all__ = ["STRUCTURES", "InductorSeeds", "Structure", "capture_for_seed", "fused_seeds", "inductor_seeds",
           "seeds_from_compile"]

"""Seeds from ``torch.compile``: what inductor writes for a spec, under its default and structural options.

:func:`inductor_seeds` captures inductor's modules for a spec in one isolated child
(:mod:`kernelevo.variation.inductor_capture`) and converts each into a standalone candidate
(:mod:`kernelevo.variation.inductor_seed`): the default seeds, then one per structure of
:data:`STRUCTURES` that changes inductor's kernels at the timed sizes. :func:`seeds_from_compile`
adds each one's epilogue fusions (:func:`fused_seeds`).
"""

from __future__ import annotations

import ast
import logging
import re
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kernelevo.variation.fuse_epilogue import fusions
from kernelevo.variation.inductor_capture import Capture, CaptureError, Capturer
from kernelevo.variation.inductor_seed import ConversionError, to_candidate

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


# captures side by side: each is a child compiling on the CPU (inductor's own workers besides), and
# the structures of one spec share what inductor compiled and tuned through one cache folder
CAPTURE_WORKERS = 4
TEMPLATES = "templates"  # the capture with GEMMs as inductor's autotuned Triton templates
_LIBRARY_GEMMS = re.compile(r"\bextern_kernels\.(?:mm|addmm|bmm|baddbmm)\(")


def capture_for_seed(spec: Spec, device: str = "auto", *, templates: bool = False) -> tuple[Capture, list[Capture]]:
    """Inductor's generic module for ``spec`` and its module for the timed variant's sizes (GEMMs left to
    the libraries, or as Triton templates); a module for every variant's sizes where the generic one
    fixed some (``Capture.specialized``)."""
    with Capturer(spec, device=device) as capturer:  # one child: torch and the spec load once
        return _default_captures(capturer, spec, templates=templates)


def _default_captures(capturer: Capturer, spec: Spec, *, templates: bool) -> tuple[Capture, list[Capture]]:
    generic = capturer.capture(templates=templates)
    by_sizes = [capturer.capture(generic=False, templates=templates)]
    if generic.specialized:
        by_sizes += [capturer.capture(generic=False, variant=v, templates=templates)
                     for v in spec.settings.variant_names() if v != by_sizes[0].variant]
    return generic, by_sizes


def _code(candidate: str) -> str:
    """A candidate's code without its header (which names the options): equal for two options that
    change nothing inductor writes (its module's text differs in metadata even then)."""
    return candidate.split('"""', 2)[2]


def _kinds(capture: Capture) -> set[str]:
    """The kinds of kernel a capture launches (triton_poi_, ...); a GEMM left to a library counts as a
    template (triton_tem_), which inductor writes for it under max-autotune."""
    kinds = {k[:11] for k in capture.kernels}
    return kinds | ({"triton_tem_"} if _LIBRARY_GEMMS.search(capture.code) else set())


def inductor_seeds(spec: Spec, device: str = "auto", structures: Sequence[str] | None = None, *,
                   workers: int = CAPTURE_WORKERS) -> InductorSeeds:
    """The candidates made from torch.compile's kernels for ``spec`` on this machine's GPU.

    First torch.compile's default module, GEMMs and convolutions left to the libraries as it leaves
    them: its speed is torch.compile's. Then, where inductor kept every size dynamic, its generic
    kernels alone (on the H200 the faster at the timed sizes on softmax, log-softmax and
    cross-entropy: benchmarks/results/compile_seeds-generic-h200.json). Then, side by side in up to
    ``workers`` children sharing one inductor cache, GEMMs as inductor's Triton templates (where the
    spec has a GEMM) and one seed per structure of :data:`STRUCTURES` (all unless named) that changes
    the kernels at the timed sizes, each under templates; the other variants' sizes keep the default
    module's kernels. A capture that fails to compile or convert is skipped with its reason; the
    default capture failing raises :class:`~kernelevo.variation.inductor_capture.CaptureError` or
    :class:`ConversionError`."""
    chosen = list(STRUCTURES) if structures is None else list(structures)
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="kernelevo-inductor-") as cache:
        started = time.perf_counter()
        with Capturer(spec, device=device, cache_dir=cache) as capturer:
            generic, by_sizes = _default_captures(capturer, spec, templates=False)
        seconds["default"] = time.perf_counter() - started
        seeds = [(f"{spec.name}-torch-compile", to_candidate(generic, by_sizes))]
        if not generic.specialized:
            seeds.append((f"{spec.name}-torch-compile-generic", to_candidate(generic)))
        skipped: dict[str, str] = {}
        kinds = _kinds(by_sizes[0])
        jobs: dict[str, dict[str, Any]] = {}
        if "triton_tem_" in kinds:
            jobs[TEMPLATES] = {}
        else:
            skipped[TEMPLATES] = "no GEMM inductor writes as a template"
        for name in chosen:
            structure = STRUCTURES[name]
            if structure.kinds and not kinds & set(structure.kinds):
                skipped[name] = f"no kernel it changes (inductor wrote {', '.join(by_sizes[0].kernels) or 'none'})"
            else:
                jobs[name] = structure.options
        captured = _capture_side_by_side(spec, device, cache, jobs, workers, seconds)
    written = {_code(source) for _, source in seeds}
    captures: dict[str, Capture] = {}
    for name, timed in captured.items():
        if isinstance(timed, str):
            skipped[name] = timed
            continue
        try:
            source = to_candidate(generic, [timed, *by_sizes[1:]])
        except ConversionError as exc:
            skipped[name] = str(exc)
            continue
        if _code(source) in written:
            skipped[name] = "inductor writes the same kernels with it"
            continue
        written.add(_code(source))
        seeds.append((f"{spec.name}-torch-compile-{name}", source))
        captures[name] = timed
    return InductorSeeds(seeds, skipped, captures, seconds, [generic, *by_sizes])


def _capture_side_by_side(spec: Spec, device: str, cache: str, jobs: dict[str, dict[str, Any]], workers: int,
                          seconds: dict[str, float]) -> dict[str, Capture | str]:
    """Each job's capture at the timed sizes (GEMMs as templates, under its options), or why it failed."""

    def one(name: str) -> Capture | str:
        started = time.perf_counter()
        try:
            with Capturer(spec, device=device, cache_dir=cache) as capturer:
                return capturer.capture(generic=False, options=jobs[name], templates=True)
        except CaptureError as exc:
            return str(exc)
        finally:
            seconds[name] = time.perf_counter() - started

    if not jobs:
        return {}
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(jobs)))) as pool:
        return dict(zip(jobs, pool.map(one, jobs), strict=True))


def fused_seeds(seeds: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each seed whose in-place elementwise kernel can run in the store of the kernel before it, so
    fused (:mod:`kernelevo.variation.fuse_epilogue`): one launch and one pass over the output fewer.

    A search would find the fusion as a structural move, but only if it drew it: the persistent TMA
    GEMM's GELU was fused in one 3-minute search on an H100 (1.037x torch.compile) and never in the
    next (0.985x, benchmarks/README.md, 2026-11-25). As a seed it is judged in every run."""
    found = []
    for name, source in seeds:
        for i, move in enumerate(fusions(source, ast.parse(source))):
            found.append((f"{name}-fused-epilogue" + (f"-{i + 1}" if i else ""), move.apply()))
    return found


def seeds_from_compile(spec: Spec, device: str = "auto") -> list[tuple[str, str]]:
    """(name, source) of every candidate :func:`inductor_seeds` makes and of their :func:`fused_seeds`,
    the structures' skips and the captures' times logged."""
    found = inductor_seeds(spec, device)
    for name, why in found.skipped.items():
        log.info("No %s seed from torch.compile for %s: %s", name, spec.name, why)
    log.info("torch.compile's captures of %s: %s", spec.name,
             ", ".join(f"{name} {s:.1f} s" for name, s in found.seconds.items()))
    return found.seeds + fused_seeds(found.seeds)


__all__ = ["STRUCTURES", "InductorSeeds", "Structure", "capture_for_seed", "fused_seeds", "inductor_seeds",
           "seeds_from_compile"]

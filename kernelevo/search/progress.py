"""A running search's progress (:class:`~kernelevo.records.progress.Progress`), taken from its scheduler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelevo.records.progress import BestKernel, Coverage, Progress
from kernelevo.records.result import Roofline

if TYPE_CHECKING:
    from kernelevo.search.scheduler import Scheduler


def _floor_name(roofline: Roofline | None) -> str | None:
    kind = roofline.floor_kind() if roofline is not None else None
    return str(kind) if kind is not None else None


def snapshot(loop: Scheduler) -> Progress:
    """Evaluations, correct ones, rates, the best per hardware, coverage, LLM usage.

    Counts are the run's (a resumed run's included); the rate is this session's evaluations
    over this session's time. Speedups and roofline come only from GPU timings: an
    interpreted run has ``interpreted`` set and none of them.
    """
    state = loop.state
    n, correct = state.evaluated_count(), state.correct_count()
    elapsed = loop.elapsed_s()
    this_session = n - loop.started_evaluations
    best: dict[str, BestKernel] = {}
    for hardware in state.hardware_types():
        found = state.best(hardware)
        if found is None:
            continue
        elite, candidate = found
        result = state.result_of(candidate.id, hardware)
        if result is None:
            continue
        best[hardware] = BestKernel(
            candidate=candidate.id, objective=elite.objective, interpreted=result.interpreted,
            kernel_ms=result.kernel.median_ms if result.kernel else None,
            speedup_eager=result.speedup_eager, speedup_compile=result.speedup_compile,
            roofline=result.roofline.fraction if result.roofline else None,
            roofline_floor=_floor_name(result.roofline),
            library=result.library.summary() if result.library and result.library.calls else None,
        )
    coverage = {}
    for hardware in state.hardware_types():
        archives = [a for (_, hw), a in state.archives.items() if hw == hardware]
        coverage[hardware] = Coverage(filled=sum(len(a) for a in archives), cells=archives[0].cells,
                                      qd_score=sum(a.qd_score for a in archives))
    top = max(best.items(), key=lambda kv: kv[1].objective, default=None)
    on_gpu = top[1] if top is not None and not top[1].interpreted else None
    return Progress(
        evaluations=n, correct=correct, candidates=len(state.candidates),
        evaluations_per_min=this_session / elapsed * 60 if elapsed > 0 else 0.0,
        busy=loop.busy_fraction(), workers=loop.pool.workers,
        session_s=elapsed, elapsed_s=loop.previous_elapsed_s + elapsed,
        seeding_s=loop.seeding_s, search_s=max(0.0, elapsed - loop.seeding_s),
        hardware=top[0] if top else None, interpreted=bool(top and top[1].interpreted),
        best_speedup_eager=on_gpu.speedup_eager if on_gpu else None,
        best_speedup_compile=on_gpu.speedup_compile if on_gpu else None,
        best_roofline=on_gpu.roofline if on_gpu else None,
        best_roofline_floor=on_gpu.roofline_floor if on_gpu else None,
        best=best, coverage=coverage,
        calls=state.usage.calls, tokens=state.usage.tokens, dollars=state.usage.cost_usd,
    )

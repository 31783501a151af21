"""Starting, resuming and finishing a search run: everything ``kernelevo run`` does."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.archive.export import export_run
from kernelevo.search.config import RunConfig
from kernelevo.search.loop import SearchLoop
from kernelevo.search.pool import EvaluatorPool, LocalEvaluatorPool
from kernelevo.search.state import SearchState
from kernelevo.search.store import RunStore
from kernelevo.spec import Spec
from kernelevo.variation.llm import LLMClient, missing_key_message
from kernelevo.variation.operators import build_operators

log = logging.getLogger(__name__)

OFFLINE_HINT = (
    "No LLM configured: searching with the template operator only (block sizes, warps, stages). "
    "Add one with --model PROVIDER/MODEL, e.g. --model openai/gpt-4o-mini (key in OPENAI_API_KEY) or "
    "--model openai/qwen2.5-coder --api-base http://localhost:8000/v1 for a local server."
)


class RunSetupError(ValueError):
    """The run cannot start as configured; the message says how to fix it."""


@dataclass
class RunOutcome:
    reason: str
    state: SearchState
    loop: SearchLoop
    exported: list[Path]


def load_state(store: RunStore, config: RunConfig, operators: list[str]) -> SearchState:
    """A fresh state, or the stored run's replayed in order."""
    state = SearchState(descriptors=descriptor_set(config.descriptors), tie_tolerance=config.tie_tolerance,
                        operators=operators)
    prompts = store.prompts()
    if prompts is not None:
        state.prompts = prompts
    for candidate in store.candidates():
        state.add_candidate(candidate)
    for failure in store.failures():
        state.add_failure(failure)
    for evolution in store.evolutions():
        state.usage = state.usage + evolution.usage
    for evaluated in store.evaluations():
        known = state.candidates.get(evaluated.candidate_id)
        if known is not None:
            state.tell(known, evaluated.hardware, evaluated.result)
    return state


def make_llm(config: RunConfig) -> LLMClient | None:
    if config.llm is None:
        return None
    problem = missing_key_message(config.llm)
    if problem:
        raise RunSetupError(problem)
    return LLMClient(config.llm)


def make_pool(spec: Spec, config: RunConfig) -> EvaluatorPool:
    """Ray actors (attached to ``RAY_ADDRESS`` or a local Ray), or evaluators in this process."""
    if config.ray:
        from kernelevo.distributed import ray_pool

        return ray_pool(spec, config)
    return LocalEvaluatorPool(spec, config.evaluation, workers=config.workers or 1)


async def run_search(
    spec: Spec,
    config: RunConfig,
    out: str | Path,
    *,
    resume: bool = False,
    pool: EvaluatorPool | None = None,
    on_start: Callable[[SearchLoop], None] | None = None,
    on_event: Callable[[str], None] | None = None,
    export_to: str | Path | None = None,
) -> RunOutcome:
    """Run (or resume) a search of ``spec`` into the run directory ``out``."""
    store = RunStore(out)
    if resume:
        if not store.exists():
            raise RunSetupError(f"nothing to resume in {out}: start the run without --resume")
        store.check(spec.sha256)
    else:
        store.create(spec_name=spec.name, spec_sha256=spec.sha256, config=config.model_dump(mode="json"))
    llm = make_llm(config)
    if llm is None:
        log.warning(OFFLINE_HINT)
    operators = build_operators(llm)
    state = load_state(store, config, list(operators))
    pool = pool or make_pool(spec, config)
    try:
        await pool.start()
    except ValueError as exc:  # no worker for a target, and the like
        await pool.close()  # actors of targets started before the one that failed
        raise RunSetupError(str(exc)) from None
    loop = SearchLoop(spec=spec, config=config, state=state, pool=pool, operators=operators, store=store, llm=llm,
                      on_event=on_event)
    if not resume:
        loop.add_seeds()
    if on_start:
        on_start(loop)
    _handle_ctrl_c(loop)
    try:
        reason = await loop.run()
    finally:
        await pool.close()
        store.save_prompts(state.prompts)
    exported = export_run(state, spec, Path(out) / "export")
    if export_to is not None:
        exported += export_run(state, spec, Path(export_to))
    return RunOutcome(reason, state, loop, exported)


def _handle_ctrl_c(loop: SearchLoop) -> None:
    """First Ctrl-C: stop making candidates, finish those being evaluated. Second: stop now."""
    event_loop = asyncio.get_running_loop()
    presses = 0

    def on_sigint() -> None:
        nonlocal presses
        presses += 1
        if presses == 1:
            log.warning("stopping: finishing the evaluations under way (Ctrl-C again to stop at once)")
            loop.stop("stopped by Ctrl-C")
        else:
            for task in asyncio.all_tasks(event_loop):
                task.cancel()

    # not possible off the main thread (a test, a Ray worker): then Ctrl-C is theirs to handle
    with contextlib.suppress(NotImplementedError, RuntimeError):
        event_loop.add_signal_handler(signal.SIGINT, on_sigint)

"""Driving one run: what ``kernelevo run`` does, and a run started through the API.

:func:`run_search` takes a run of the database (a new one, or one to resume), holds its
lease while it drives it (a second driver is refused; a stop requested through the API is
seen within seconds), rebuilds the search from what is stored, runs the loop with the
operators, the LLM and the evaluator pool the run's configuration asks for, and leaves the
run finished, stopped or failed, with its elites exported as files.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.progress import Progress
from kernelevo.records.run import RunStatus, StopReason
from kernelevo.records.run_config import RunConfig
from kernelevo.search.pool import EvaluatorPool, LocalEvaluatorPool
from kernelevo.search.progress import snapshot
from kernelevo.search.scheduler import Scheduler
from kernelevo.search.state import SearchState, replay
from kernelevo.spec import Spec, SpecError
from kernelevo.spec.names import path_under
from kernelevo.storage.database import Database
from kernelevo.storage.export import export_run
from kernelevo.storage.recorder import RunRecorder, load_run
from kernelevo.storage.runs import (
    LeaseLost,
    acquire_lease,
    create_run,
    end_run,
    get_spec,
    lease_owner_name,
    renew_lease,
    save_spec,
    seeds_of,
    spec_of,
    start_run,
)
from kernelevo.utils.collector import fewer_collections
from kernelevo.variation.llm.client import missing_key_message
from kernelevo.variation.llm.models import ModelPool
from kernelevo.variation.operators import build_operators

if TYPE_CHECKING:
    from kernelevo.distributed.island import RemoteIslands

log = logging.getLogger(__name__)

HEARTBEAT_S = 1.0  # how often the driver renews its lease, looks for a stop request, writes held-back progress

OFFLINE_HINT = (
    "No LLM configured: searching with the template operator only (block sizes, warps, stages). "
    "Add one with --model PROVIDER/MODEL, e.g. --model openai/gpt-4o-mini (key in OPENAI_API_KEY) or "
    "--model openai/qwen2.5-coder --api-base http://localhost:8000/v1 for a local server."
)


INTERRUPTED = ("stopped at once (Ctrl-C twice): the evaluations under way were dropped, every finished one is "
               "kept; resume it to go on")


class RunSetupError(ValueError):
    """The run cannot start as configured; the message says how to fix it."""


@dataclass
class RunOutcome:
    run_id: int
    reason: str
    status: RunStatus
    state: SearchState
    loop: Scheduler
    exported: list[Path]
    progress: Progress
    kind: StopReason  # why it stopped, as a kind (``reason`` says it in a sentence)


def make_llm(config: RunConfig) -> ModelPool | None:
    """The run's models behind one client (None: offline). ``kernelevo run`` has already made each
    answer a test call (:func:`~kernelevo.variation.llm.models.preflight`); a missing key is caught here too."""
    models = config.llm_models()
    if not models:
        return None
    for model in models:
        problem = missing_key_message(model)
        if problem:
            raise RunSetupError(problem)
    return ModelPool(models, rng=random.Random(config.seed))


def make_pool(spec: Spec, config: RunConfig, *, run_id: int | None = None) -> EvaluatorPool:
    """Ray actors (attached to ``RAY_ADDRESS`` or a local Ray: the run's own, or the cluster's shared pool
    under the name ``run_id``), or evaluators in this process.

    The evaluators measure the archive's descriptors of each correct kernel, so the driver's
    time per result does not grow with parsing sources (benchmarks/driver_ceiling.py)."""
    names = [d.name for d in descriptor_set(config.descriptors)]
    config = config.model_copy(update={"evaluation": config.evaluation.model_copy(update={"descriptors": names})})
    if config.ray and config.pool == "shared":
        from kernelevo.distributed import shared_pool

        return shared_pool(spec, config, run_id=run_id)
    if config.ray:
        from kernelevo.distributed import ray_pool

        return ray_pool(spec, config)
    return LocalEvaluatorPool(spec, config.evaluation, workers=config.workers or 1)


def new_run(db: Database, spec: Spec, config: RunConfig, *, owner: str, out: str | Path | None = None,
            seeds: list[tuple[str, str]] | None = None) -> int:
    """A new run of ``spec`` in the database (queued until a driver takes it); its id."""
    with db.session() as session:
        spec_row = save_spec(session, spec, seeds=seeds)
        run = create_run(session, spec_id=spec_row.id, config=config.model_dump(mode="json"), owner=owner,
                         out_dir=str(out) if out else None)
        return run.id


async def start_search(db: Database, spec: Spec, config: RunConfig, *, out: str | Path | None = None,
                       owner: str = "library", **options: Any) -> RunOutcome:
    """A new run of ``spec``, driven at once (``options`` go to :func:`run_search`)."""
    return await run_search(db, new_run(db, spec, config, owner=owner, out=out), **options)


async def run_search(
    db: Database,
    run_id: int,
    *,
    pool: EvaluatorPool | None = None,
    on_start: Callable[[Scheduler], None] | None = None,
    on_event: Callable[[str], None] | None = None,
    export_to: str | Path | None = None,
    config_updates: dict[str, Any] | None = None,
) -> RunOutcome:
    """Drive run ``run_id`` until a budget is reached or it is stopped (see the module docstring).

    ``config_updates`` (a resumed run's new budget, say) are stored with the lease, in one transaction: a
    driver refused because another one holds the run (:class:`RunBusy`) changes nothing."""
    owner = lease_owner_name()
    with db.session() as session:
        run = acquire_lease(session, run_id, owner)  # RunBusy while another driver is alive
        spec_row = get_spec(session, run.spec_id)
        spec, seeds = spec_of(spec_row), seeds_of(spec_row)
        config = RunConfig.model_validate({**run.config, **(config_updates or {})})
        run.config = config.model_dump(mode="json")
        # the spec's name as one path component, whatever an old row holds (kernelevo.spec.names)
        previous_s, out = run.elapsed_s, Path(run.out_dir or path_under("runs", f"{spec.name}-{run_id}"))
        start_run(run, driver=f"pid {os.getpid()}", out_dir=str(out))
    pool_started = False
    try:
        llm = make_llm(config)
        if llm is None:
            log.warning(OFFLINE_HINT)
        operators = build_operators(llm)
        stored = load_run(db, run_id)
        state = replay(stored, descriptors=descriptor_set(config.descriptors), tie_tolerance=config.tie_tolerance,
                       operators=list(operators))
        pool = pool or make_pool(spec, config, run_id=run_id)
        try:
            await pool.start()
            pool_started = True
        except ValueError as exc:  # no worker for a target, a spec its judge cannot take, and the like
            await pool.close()  # actors of targets started before the one that failed
            if isinstance(exc, SpecError):
                raise  # a stop of its own kind (spec_error)
            raise RunSetupError(str(exc)) from None
        islands = await start_islands(db, run_id, spec, config)
        # with island actors the driver's CPU is what keeps the evaluators busy: the store's transactions are
        # made in a writer process beside it (kernelevo.storage.writer_process), where a core is left for it
        recorder = RunRecorder(db, run_id, owner=owner,
                               writer_process=islands is not None and islands.spare_core_here())
        loop = Scheduler(spec=spec, config=config, state=state, pool=pool, operators=operators, store=recorder,
                          llm=None if islands else llm, on_event=on_event, previous_elapsed_s=previous_s,
                          islands=islands)
        if not stored.candidates:
            seeding = time.monotonic()
            made, why_none = await asyncio.to_thread(compile_seeds, spec, config, has_seeds=bool(seeds))
            loop.seeding_s = time.monotonic() - seeding
            loop.add_seeds(seeds + made, why_none=why_none)
        if on_start:
            on_start(loop)
        _handle_ctrl_c(loop, pool)
        heartbeat = asyncio.create_task(_heartbeat(db, run_id, owner, loop, recorder))
        try:
            with fewer_collections():
                reason = await loop.run()
        finally:
            heartbeat.cancel()
            if pool_started:
                await pool.close()
            if islands is not None:
                await islands.close()
            recorder.save_prompts(state.prompts)
        progress = snapshot(loop)
        recorder.progress(progress, force=True)
    except asyncio.CancelledError:  # Ctrl-C twice (or once while it started): resumable, not failed
        _finish(db, run_id, owner, StopReason.INTERRUPTED, INTERRUPTED)
        raise
    except SpecError as exc:  # the judge's start: a reference that fails there, or a tolerance it refuses
        _finish(db, run_id, owner, StopReason.SPEC_ERROR, f"the judge could not take the spec: {exc}")
        raise
    except BaseException as exc:
        _finish(db, run_id, owner, StopReason.DRIVER_FAILED,
                f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        raise
    kind = loop.stop_kind or StopReason.STOPPED_BY_USER  # (the loop returns only once stopped)
    status = kind.status
    _finish(db, run_id, owner, kind, reason)
    exported = export_run(db, run_id, out / "export")
    if export_to is not None:
        exported += export_run(db, run_id, Path(export_to))
    return RunOutcome(run_id, reason, status, state, loop, exported, progress, kind)


async def start_islands(db: Database, run_id: int, spec: Spec, config: RunConfig) -> RemoteIslands | None:
    """On Ray with more than one island: an actor per island (kernelevo.distributed.island), each rebuilt
    from the run as stored; otherwise None: one emitter in this process makes every island's candidates."""
    if not config.ray or config.islands < 2:
        return None
    from kernelevo.distributed import connect
    from kernelevo.distributed.island import RemoteIslands

    connect(local_gpus=config.workers)
    islands = RemoteIslands(spec, config, db_url=db.url, run_id=run_id)
    try:
        await islands.start()
    except ValueError as exc:
        raise RunSetupError(str(exc)) from None
    return islands


def compile_seeds(spec: Spec, config: RunConfig, *, has_seeds: bool) -> tuple[list[tuple[str, str]], str]:
    """torch.compile's own Triton kernels for ``spec`` as seeds, where the run asks for them
    (``seed_from``) and this machine's GPU can compile them; otherwise none, with the reason logged and
    returned beside them ('' when there are seeds): a run left with no seed at all stops with it."""
    if config.seed_from == "spec" or (config.seed_from == "auto" and has_seeds):
        return [], "seeds from torch.compile not asked for (--seed-from spec)" if config.seed_from == "spec" else ""
    from kernelevo.evaluation.common.library_policy import effective_policy
    from kernelevo.variation.seeding.compile_seeds import seeds_from_compile
    from kernelevo.variation.seeding.inductor_capture import CaptureError
    from kernelevo.variation.seeding.inductor_seed import ConversionError

    started = time.monotonic()
    try:
        library = effective_policy(config.evaluation.library, spec.settings.library)
        seeds = seeds_from_compile(spec, device=config.evaluation.device, library=library)
    except (CaptureError, ConversionError) as exc:
        log.warning("No seed from torch.compile for %s: %s", spec.name, exc)
        return [], f"no seed from torch.compile: {exc}"
    except Exception as exc:  # a seed is a help, never a reason for the run to end
        log.warning("No seed from torch.compile for %s: seeding failed (%s: %s)", spec.name, type(exc).__name__, exc)
        return [], f"no seed from torch.compile: seeding failed ({type(exc).__name__}: {exc})"
    log.info("Seeded %s from torch.compile in %.1f s (%s)", spec.name, time.monotonic() - started,
             ", ".join(n for n, _ in seeds))
    return seeds, "" if seeds else "torch.compile gave no seed"


def _finish(db: Database, run_id: int, owner: str, kind: StopReason, reason: str) -> None:
    with db.session() as session:
        end_run(session, run_id, owner, kind, reason)


async def _heartbeat(db: Database, run_id: int, owner: str, loop: Scheduler, recorder: RunRecorder) -> None:
    """Renew the lease and write held-back progress; a stop requested through the API (or a lease lost)
    stops the loop."""
    while True:
        await asyncio.sleep(HEARTBEAT_S)
        try:
            recorder.flush()
            with db.session() as session:
                held, stop = renew_lease(session, run_id, owner)
        except LeaseLost:  # the recorder's fence found it first
            held, stop = False, True
        except Exception as exc:  # the database went away for a moment: try again
            log.warning("could not renew the run's lease: %s", exc)
            continue
        if not held:
            loop.stop("another driver took over this run's lease", StopReason.LEASE_LOST)
        elif stop:
            loop.stop("stopped on request (the API)", StopReason.STOPPED_BY_USER)


def _handle_ctrl_c(loop: Scheduler, pool: EvaluatorPool) -> None:
    """First Ctrl-C: stop making candidates, finish those being evaluated. Second: stop now -- the driver's
    task is cancelled (the loop keeps the results already in) and the evaluations under way are killed;
    :func:`run_search` leaves the run interrupted, to resume."""
    event_loop = asyncio.get_running_loop()
    driver = asyncio.current_task()
    presses = 0

    def on_sigint() -> None:
        nonlocal presses
        presses += 1
        if presses == 1:
            log.warning("stopping: finishing the evaluations under way (Ctrl-C again to stop at once)")
            loop.stop("stopped by Ctrl-C", StopReason.CTRL_C)
            return
        if driver is not None:
            driver.cancel()  # before the kills: no killed evaluation's result reaches the loop first
        pool.abort()

    # not possible off the main thread (a test, a Ray worker): then Ctrl-C is theirs to handle
    with contextlib.suppress(NotImplementedError, RuntimeError):
        event_loop.add_signal_handler(signal.SIGINT, on_sigint)
        event_loop.add_signal_handler(signal.SIGTERM, lambda: loop.stop("stopped (SIGTERM)", StopReason.SIGTERM))

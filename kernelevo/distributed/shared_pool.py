"""One evaluator pool per Ray cluster, shared by every run by weighted fair share.

The pool is a named, detached Ray actor (:data:`POOL_NAME` in :data:`POOL_NAMESPACE`): the
first run that asks for it creates it (``get_if_exists``: two runs starting together get the
same one), and it outlives every run, so its evaluator actors and their warm judges wait for
the next run instead of dying with the last one. It owns one evaluator actor per GPU, started
as a run's own pool starts them, and hands the GPU slots to the candidates of all registered
runs in the order of a :class:`~kernelevo.distributed.fair_share.FairQueue`.

Why a detached actor and not Ray Serve: what is shared here is a handful of stateful GPU
actors, each holding warm judges (reference outputs, baselines, started children) keyed by
spec and options, and the decision of which run's candidate goes to a free slot next. Serve
routes requests to replicas by load and scales them; it has no notion of per-caller weights
or of keeping a candidate's retry after a replica died, and its replicas would each need
every judge. An actor with a fair queue does exactly the scheduling asked for, with Ray's
own restart of dead evaluator actors, and needs nothing beyond ``ray[default]``.

Runs ``register`` (judges are prepared once per (spec, options digest), on every actor, and
reused by later runs of the same spec and options), ``evaluate`` candidates (the driver's
static checks have run already), and ``unregister`` (their queued candidates are answered
"run stopped" at once). A run whose driver died without unregistering is dropped after
:data:`SILENT_S` seconds without a call from it. An evaluator actor that dies is restarted
by Ray and prepares every judge the pool holds again before it takes another candidate; its
candidate is queued again once, first in its run's queue, and a second death records the
candidate as crashed (:class:`~kernelevo.distributed.pool.Deaths`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from kernelevo.distributed.actors import EvaluatorActor, options_key
from kernelevo.distributed.fair_share import WINDOW_S, FairQueue, Ticket
from kernelevo.distributed.pool import REJOIN_TRIES, REJOIN_WAIT_S, Deaths, start_actors, stopped_result
from kernelevo.evaluation import EvalOptions, EvalResult
from kernelevo.records.pool import PoolActor, PoolJudge, PoolRun, PoolSnapshot
from kernelevo.records.race import Race
from kernelevo.records.result import ErrorKind, Stage
from kernelevo.spec import Spec

log = logging.getLogger(__name__)

POOL_NAME = "kernelevo-evaluator-pool"
POOL_NAMESPACE = "kernelevo"
SILENT_S = 30.0  # a run not heard from for this long (its driver died) is dropped; clients call every few s
IDLE_JUDGES = 2  # judges of specs no registered run uses, kept warm for the next run of them


def run_stopped(run_id: str) -> EvalResult:
    return EvalResult(stage=Stage.COMPILE, error=ErrorKind.RUN_STOPPED,
                      message=f"run {run_id} stopped (it left the shared evaluator pool) before this candidate "
                              "was judged")


@dataclass
class _Actor:
    index: int
    handle: Any
    place: dict[str, str] = field(default_factory=dict)
    slots: int = 1
    serving: list[str] = field(default_factory=list)  # the run of each candidate it evaluates now
    alive: bool = True
    judges: set[tuple[str, str]] = field(default_factory=set)  # the judges prepared on it (lost when it dies)
    revived: asyncio.Task[None] | None = None  # waiting for Ray's restart of it, then preparing its judges again


@dataclass
class _Job:
    run_id: str
    source: str
    race: Race | None
    answer: asyncio.Future[EvalResult]
    attempt: int = 1


@dataclass
class _Judge:
    spec: Spec
    options: EvalOptions
    ready: asyncio.Task[str | None]  # why it cannot start, or None
    runs: set[str] = field(default_factory=set)
    last_used: float = field(default_factory=time.monotonic)
    prepare_s: float | None = None  # how long preparing it on every actor took (None until done)


@dataclass
class _Registered:
    judge: tuple[str, str]  # (spec.sha256, options digest)
    heard: float = field(default_factory=time.monotonic)


class SharedPoolActor:
    """The pool's Ray actor body (an async actor: every method runs on its event loop)."""

    def __init__(self, options: EvalOptions, *, actors: int | None = None, actor_class: type = EvaluatorActor,
                 max_restarts: int = 3, window_s: float = WINDOW_S) -> None:
        # the actors' own options size their slots; each run's options choose its judge
        self.options = options.model_copy(update={"static_checks": False})
        self.wanted, self.actor_class, self.max_restarts = actors, actor_class, max_restarts
        self.fair: FairQueue[_Job] = FairQueue(window_s=window_s)
        self.actors: list[_Actor] = []
        self.judges: dict[tuple[str, str], _Judge] = {}
        self.runs: dict[str, _Registered] = {}
        self.deaths = Deaths()
        self.prepares = 0  # prepare calls sent to evaluator actors, all judges together
        self.gpus = 0
        self._spans: deque[tuple[float, int, float]] = deque()  # (end, actor, seconds) of finished evaluations
        self._free: asyncio.Queue[_Actor] | None = None
        self._work: asyncio.Event | None = None
        self._started: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._born = time.monotonic()

    async def start(self) -> dict[str, int]:
        """Start the evaluator actors (once; later calls wait for the first); workers and capacity."""
        if self._started is None:
            self._started = asyncio.create_task(self._start())
        await asyncio.shield(self._started)
        return {"workers": len(self.actors), "capacity": sum(a.slots for a in self.actors), "gpus": self.gpus}

    async def _start(self) -> None:
        import ray

        self.gpus = int(ray.cluster_resources().get("GPU", 0))
        if self.gpus == 0:
            raise ValueError("the shared evaluator pool found no GPU in the Ray cluster")
        count = min(self.wanted or self.gpus, self.gpus)
        handles = start_actors(self.actor_class, self.options, count=count, max_restarts=self.max_restarts)
        places = await asyncio.gather(*(h.ready.remote() for h in handles))
        self._free, self._work = asyncio.Queue(), asyncio.Event()
        for index, (handle, place) in enumerate(zip(handles, places, strict=True)):
            actor = _Actor(index, handle, dict(place), slots=int(place.get("slots", 1)))
            self.actors.append(actor)
            for _ in range(actor.slots):
                self._free.put_nowait(actor)
        self._keep(self._dispatch())
        self._keep(self._drop_silent_runs())
        log.info("shared evaluator pool: %d evaluator actor(s): %s", count, places)

    async def register(self, run_id: str, spec: Spec, options: EvalOptions, weight: float = 1.0) -> str | None:
        """Take ``run_id``'s candidates from now on; why its judge cannot start, or None.

        The judge of (spec, options) is prepared on every actor by the first run that needs it;
        later runs wait for that one preparation, or find it done."""
        await self.start()
        options = options.model_copy(update={"static_checks": False})
        key = (spec.sha256, options_key(options))
        judge = self.judges.get(key)
        if judge is None:
            judge = self.judges[key] = _Judge(spec, options, asyncio.create_task(self._prepare(spec, options)))
        judge.runs.add(run_id)
        problem = await asyncio.shield(judge.ready)
        if problem is not None:
            judge.runs.discard(run_id)
            if self.judges.get(key) is judge:
                del self.judges[key]  # a later run of the spec tries again
            return problem
        self.fair.add_run(run_id, weight=weight)
        self.runs[run_id] = _Registered(key)
        self._release_idle_judges()
        return None

    async def _prepare(self, spec: Spec, options: EvalOptions) -> str | None:
        self.prepares += len(self.actors)
        started = time.monotonic()
        problems = await asyncio.gather(*(self._prepare_on(a, spec, options) for a in self.actors))
        judge = self.judges.get((spec.sha256, options_key(options)))
        if judge is not None:
            judge.prepare_s = time.monotonic() - started
        return next((p for p in problems if p), None)

    async def _prepare_on(self, actor: _Actor, spec: Spec, options: EvalOptions) -> str | None:
        """Prepare the judge on one actor; an actor dead now is left to :meth:`_revive` (it prepares
        every judge once Ray has restarted it) or, failing that, to its first candidate of the spec."""
        from ray.exceptions import RayActorError

        try:
            problem: str | None = await actor.handle.prepare.remote(spec, options)
        except RayActorError as exc:
            log.warning("evaluator actor %d is down (%s): it prepares the judge of %s when it is back",
                        actor.index, type(exc).__name__, spec.name)
            return None
        if problem is None:
            actor.judges.add((spec.sha256, options_key(options)))
        return problem

    async def evaluate(self, run_id: str, source: str, race: Race | None = None) -> EvalResult:
        """``source`` judged for ``run_id`` when the fair queue gives its run a slot."""
        registered = self.runs.get(run_id)
        if registered is None:
            return run_stopped(run_id)
        registered.heard = time.monotonic()
        job = _Job(run_id, source, race, asyncio.get_running_loop().create_future())
        self.fair.push(run_id, job)
        assert self._work is not None
        self._work.set()
        return await job.answer

    async def heartbeat(self, run_id: str) -> bool:
        """The run's driver is alive; False: the run is not registered (dropped, or never was)."""
        registered = self.runs.get(run_id)
        if registered is not None:
            registered.heard = time.monotonic()
        return registered is not None

    async def unregister(self, run_id: str) -> int:
        """Forget ``run_id`` now: its queued candidates are answered "run stopped"; how many there were."""
        registered = self.runs.pop(run_id, None)
        dropped = self.fair.remove_run(run_id)
        for job in dropped:
            if not job.answer.done():
                job.answer.set_result(run_stopped(run_id))
        if registered is not None and registered.judge in self.judges:
            judge = self.judges[registered.judge]
            judge.runs.discard(run_id)
            judge.last_used = time.monotonic()
            self._release_idle_judges()
        return len(dropped)

    async def _dispatch(self) -> None:
        """Forever: a free slot, then the next candidate by fair share, evaluated there."""
        assert self._free is not None and self._work is not None
        while True:
            actor = await self._free.get()
            while (popped := self.fair.pop()) is None:
                self._work.clear()
                await self._work.wait()
            job, ticket = popped
            self._keep(self._run(job, ticket, actor))

    async def _run(self, job: _Job, ticket: Ticket, actor: _Actor) -> None:
        from ray.exceptions import RayActorError

        assert self._free is not None and self._work is not None
        judge = self.judges[self.runs[job.run_id].judge] if job.run_id in self.runs else None
        if judge is None:  # unregistered between the pop and now
            self.fair.done(ticket, 0.0)
            self._free.put_nowait(actor)
            job.answer.set_result(run_stopped(job.run_id))
            return
        start = time.monotonic()
        actor.serving.append(job.run_id)
        try:
            result: EvalResult = await actor.handle.evaluate.remote(judge.spec, job.source, job.race, judge.options)
        except RayActorError as exc:
            self._finished(job, ticket, actor, start)
            self._died(actor)
            crashed = self.deaths.died(job.attempt, exc, f"a candidate of run {job.run_id}")
            if crashed is None and job.run_id in self.fair:
                job.attempt += 1
                self.fair.push(job.run_id, job, first=True)
                self._work.set()
                return
            job.answer.set_result(crashed or run_stopped(job.run_id))
            return
        except Exception as exc:  # anything else Ray raises: the candidate gets an error, the loop goes on
            log.exception("evaluating a candidate of run %s", job.run_id)
            result = stopped_result(f"the shared pool could not evaluate this candidate: {type(exc).__name__}: {exc}")
        self._finished(job, ticket, actor, start)
        self._free.put_nowait(actor)
        judge.last_used = time.monotonic()
        if not job.answer.done():
            job.answer.set_result(result)

    def _died(self, actor: _Actor) -> None:
        """An actor's call failed: it is down until Ray restarts it and it has prepared its judges again,
        then each of its slots that failed goes back to the free queue (once per failed call)."""
        actor.alive = False
        actor.judges.clear()  # a restarted actor is a new process: its judges died with the old one
        if actor.revived is None or actor.revived.done():
            actor.revived = asyncio.create_task(self._revive(actor))
        self._keep(self._rejoin(actor, actor.revived))

    async def _revive(self, actor: _Actor) -> None:
        """Wait for Ray to restart the actor, then prepare on it every judge the pool holds.

        Eagerly, not at its next candidate: the judge's start (references, baselines: 10 to 20 s on a
        GPU) would otherwise be charged to that candidate's run as evaluator time, several slots of one
        restarted actor would start the same judge together, and the snapshot would show a judge warm
        on an actor that no longer has it."""
        from ray.exceptions import RayActorError

        for _ in range(REJOIN_TRIES):
            try:
                await actor.handle.ready.remote()
                break
            except RayActorError:  # still restarting, or gone for good (then its next call says so)
                await asyncio.sleep(REJOIN_WAIT_S)
        else:
            return
        for key, judge in list(self.judges.items()):
            if judge.ready.done() and judge.ready.result() is None and key not in actor.judges:
                self.prepares += 1
                if await self._prepare_on(actor, judge.spec, judge.options) is not None:
                    log.warning("evaluator actor %d could not prepare the judge of %s again", actor.index,
                                judge.spec.name)
        actor.alive = True

    async def _rejoin(self, actor: _Actor, revived: asyncio.Task[None]) -> None:
        assert self._free is not None
        await asyncio.shield(revived)
        self._free.put_nowait(actor)

    def _finished(self, job: _Job, ticket: Ticket, actor: _Actor, start: float) -> None:
        seconds = time.monotonic() - start
        self.fair.done(ticket, seconds)
        actor.serving.remove(job.run_id)
        self._spans.append((time.monotonic(), actor.index, seconds))

    async def _drop_silent_runs(self) -> None:
        while True:
            await asyncio.sleep(SILENT_S / 4)
            now = time.monotonic()
            for run_id, registered in list(self.runs.items()):
                if now - registered.heard > SILENT_S:
                    log.warning("run %s has not called the shared pool for %.0f s: dropped", run_id, SILENT_S)
                    await self.unregister(run_id)

    def _release_idle_judges(self) -> None:
        """Close the judges of specs no run uses, beyond the :data:`IDLE_JUDGES` most recently used."""
        idle = sorted((j.last_used, key) for key, j in self.judges.items() if not j.runs and j.ready.done())
        for _, key in idle[:max(0, len(idle) - IDLE_JUDGES)]:
            judge = self.judges.pop(key)
            for actor in self.actors:
                actor.judges.discard(key)
                actor.handle.release.remote(judge.spec, judge.options)

    def _keep(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def snapshot(self) -> PoolSnapshot:
        """The pool now: its actors, the runs with their weights, shares and queues, the warm judges."""
        now = time.monotonic()
        window = min(self.fair.window_s, max(now - self._born, 1e-9))
        while self._spans and self._spans[0][0] < now - self.fair.window_s:
            self._spans.popleft()
        busy = [0.0] * len(self.actors)
        counts = [0] * len(self.actors)
        for _, index, seconds in self._spans:
            busy[index] += seconds
            counts[index] += 1
        names = {key: j.spec.name for key, j in self.judges.items()}
        actors = [PoolActor(index=a.index, host=a.place.get("host", ""), gpus=a.place.get("gpus", ""), slots=a.slots,
                            alive=a.alive, serving=list(a.serving), evaluations=counts[a.index],
                            judges=sorted(names[k] for k in a.judges if k in names),
                            utilisation=min(1.0, busy[a.index] / (a.slots * window))) for a in self.actors]
        runs = [PoolRun(run_id=str(rid), spec=self.judges[self.runs[str(rid)].judge].spec.name, weight=s.weight,
                        share=s.share, seconds=s.seconds, evaluations=s.evaluations, queued=s.queued,
                        in_flight=s.in_flight)
                for rid, s in self.fair.shares().items() if str(rid) in self.runs]
        judges = [PoolJudge(spec=j.spec.name, spec_sha256=j.spec.sha256, options=key[1], runs=sorted(j.runs),
                            prepared=j.ready.done() and j.ready.result() is None, prepare_s=j.prepare_s)
                  for key, j in self.judges.items()]
        slots = sum(a.slots for a in self.actors)
        return PoolSnapshot(exists=True, note=f"{len(self.actors)} evaluator actor(s) on {self.gpus} GPU(s)",
                            name=POOL_NAME, namespace=POOL_NAMESPACE, window_s=self.fair.window_s, gpus=self.gpus,
                            actors=actors, runs=runs, judges=judges, queued=self.fair.queued(),
                            utilisation=min(1.0, sum(busy) / (slots * window)) if slots else 0.0,
                            requeued=self.deaths.requeued, crashed=self.deaths.crashed)

"""The Ray evaluator pool: GPU actors per hardware target, kept busy, failures accounted for.

Each target (an accelerator type such as ``H100``, or ``any`` GPU) gets one actor per GPU,
requesting ``num_gpus=1`` and, for a named type, a sliver of Ray's
``accelerator_type:<TYPE>`` resource so it lands on such a node. A candidate is
evaluated on every target at once. Static checks run here, in the driver, so a candidate
they reject never occupies a GPU.

When an actor dies mid-evaluation (a node lost, an OOM kill), Ray restarts it and the
candidate is evaluated once more, on whichever actor of the target is free; a second
death records the candidate as crashed. Every candidate gets exactly one result per
target: never lost, never counted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

from kernelevo.distributed.actors import EvaluatorActor
from kernelevo.distributed.cluster import ACCELERATOR_PREFIX, ClusterInfo
from kernelevo.evaluation import EvalOptions, EvalResult
from kernelevo.evaluation.static.gate import static_rejection
from kernelevo.records.candidate import Candidate
from kernelevo.records.race import Race
from kernelevo.records.result import ErrorKind, Stage
from kernelevo.search.pool import Races
from kernelevo.spec import Spec
from kernelevo.spec.errors import SpecError

log = logging.getLogger(__name__)

ANY = "any"
MAX_ATTEMPTS = 2  # the first evaluation, and one more after the actor running it died
REJOIN_TRIES, REJOIN_WAIT_S = 60, 0.5  # how long a dead actor's slot waits for Ray to restart it


class NoMatchingWorkers(ValueError):
    """A target names hardware no node of the cluster has."""


@dataclass
class Target:
    name: str  # accelerator type, or "any"
    actors: list[Any] = field(default_factory=list)
    free: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    hardware: str | None = None  # the archive's key, learnt from the first result

    @property
    def label(self) -> str:
        return self.hardware or (self.name.lower() if self.name != ANY else "gpu")


def start_actors(actor_class: type, options: EvalOptions, *, count: int, target: str = ANY,
                 max_restarts: int = 3) -> list[Any]:
    """``count`` evaluator actors, one GPU each, on nodes with the ``target`` accelerator type (``any``: any GPU)."""
    import ray

    resources = {} if target == ANY else {ACCELERATOR_PREFIX + target: 0.001}
    remote: Any = ray.remote(actor_class)
    # num_cpus=0: the actor only waits on its judge and candidate processes; the GPU is what
    # it holds. (With Ray's default of one CPU each, a 2-core node would host only 2 actors.)
    # max_concurrency: the most candidates an evaluator on a GPU may take at once. Each actor says
    # in ready() how many it takes, sized from its own host's cores (fewer without a GPU).
    remote = remote.options(num_gpus=1, num_cpus=0, resources=resources, max_restarts=max_restarts,
                            max_task_retries=0, max_concurrency=1 + options.most_ahead())
    return [remote.remote(options) for _ in range(count)]


def stopped_result(message: str = "the evaluator was stopped") -> EvalResult:
    return EvalResult(stage=Stage.COMPILE, error=ErrorKind.EVALUATOR_ERROR, message=message)


@dataclass
class Deaths:
    """What happens to a candidate whose evaluator actor died under it: evaluated once more, then crashed."""

    requeued: int = 0  # evaluations run again after an actor died
    crashed: int = 0  # candidates whose second evaluation died too

    def died(self, attempt: int, exc: Exception, what: str) -> EvalResult | None:
        """None: evaluate it again (``attempt`` was not the last); else the result to record for it."""
        if attempt < MAX_ATTEMPTS:
            self.requeued += 1
            log.warning("evaluator actor died evaluating %s (%s); evaluating it again", what, type(exc).__name__)
            return None
        self.crashed += 1
        return EvalResult(
            stage=Stage.CORRECTNESS, error=ErrorKind.CRASHED,
            message=f"the evaluator worker died twice while evaluating this candidate ({type(exc).__name__})",
        )


class Rejoins:
    """Slots of dead actors, each put back in its free queue once Ray has the actor running again.

    (The retry must go to an actor that is up: a call sent in the moment before Ray marks the actor as
    restarting fails too; a retry found the dead actor so, now and then, and crashed.)"""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()  # held: not garbage-collected while waiting

    def add(self, free: asyncio.Queue[Any], actor: Any, slot: Any = None) -> None:
        """Put ``slot`` (default: the actor itself) back in ``free`` once ``actor`` answers again."""
        self._tasks.add(asyncio.create_task(self._rejoin(free, actor, actor if slot is None else slot)))

    async def _rejoin(self, free: asyncio.Queue[Any], actor: Any, slot: Any) -> None:
        from ray.exceptions import RayActorError

        try:
            for _ in range(REJOIN_TRIES):
                try:
                    await actor.ready.remote()
                    break
                except RayActorError:  # still restarting, or gone for good (then its next call says so)
                    await asyncio.sleep(REJOIN_WAIT_S)
            free.put_nowait(slot)
        finally:
            self._tasks.discard(asyncio.current_task())

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()


class RayEvaluatorPool:
    """Implements :class:`kernelevo.search.pool.EvaluatorPool` on Ray actors."""

    def __init__(self, spec: Spec, options: EvalOptions, *, cluster: ClusterInfo, targets: list[str] | None = None,
                 actors_per_target: int | None = None, actor_class: type = EvaluatorActor,
                 max_restarts: int = 3) -> None:
        self.spec, self.options, self.cluster = spec, options, cluster
        self.targets = [Target(t) for t in (targets or [ANY])]
        self.actors_per_target = actors_per_target
        self.actor_class = actor_class
        self.max_restarts = max_restarts
        self.deaths = Deaths()
        self.rejoins = Rejoins()
        self._aborted = False  # abort(): the actors were killed on purpose
        self.workers = 0
        self.capacity = 0  # candidates the actors of the smallest target take at once

    @property
    def requeued(self) -> int:
        return self.deaths.requeued

    @property
    def crashed(self) -> int:
        return self.deaths.crashed

    def _gpus_for(self, target: Target) -> int:
        if target.name == ANY:
            return self.cluster.gpus
        return self.cluster.accelerators.get(target.name, 0)

    async def start(self) -> None:
        for target in self.targets:
            available = self._gpus_for(target)
            if available == 0:
                offered = ", ".join(sorted(self.cluster.accelerators)) or "none labelled"
                raise NoMatchingWorkers(
                    f"no worker offers {'a GPU' if target.name == ANY else f'accelerator {target.name!r}'}: "
                    f"the cluster has {self.cluster.gpus} GPU(s), accelerator types: {offered}"
                )
            count = min(self.actors_per_target or available, available)
            # the driver runs the static checks (see evaluate): the actors need not run them again
            actor_options = self.options.model_copy(update={"static_checks": False})
            target.actors = start_actors(self.actor_class, actor_options, count=count, target=target.name,
                                         max_restarts=self.max_restarts)
            places = await asyncio.gather(*(actor.ready.remote() for actor in target.actors))
            # each actor's judge starts now (references, baselines), not in the run's first evaluation
            problems = await asyncio.gather(*(actor.prepare.remote(self.spec) for actor in target.actors))
            if any(problems):
                raise SpecError(next(p for p in problems if p))
            for actor, place in zip(target.actors, places, strict=True):
                for _ in range(int(place.get("slots", 1))):
                    target.free.put_nowait(actor)
            log.info("%d evaluator actor(s) for %s: %s", count, target.name, places)
        self.workers = min(len(t.actors) for t in self.targets)
        self.capacity = min(t.free.qsize() for t in self.targets)

    async def evaluate(self, candidate: Candidate, races: Races | None = None) -> list[tuple[str, EvalResult]]:
        static = static_rejection(candidate.source, self.spec, self.options)
        if static is not None:
            return [(t.label, static) for t in self.targets]
        races = races or {}
        return list(await asyncio.gather(*(self._on(target, candidate, races.get(target.label))
                                           for target in self.targets)))

    async def _on(self, target: Target, candidate: Candidate, race: Race | None) -> tuple[str, EvalResult]:
        from ray.exceptions import RayActorError

        for attempt in range(1, MAX_ATTEMPTS + 1):
            actor = await target.free.get()
            try:
                result: EvalResult = await actor.evaluate.remote(self.spec, candidate.source, race)
            except RayActorError as exc:
                if self._aborted:  # killed by abort(): nothing to retry, nothing to tell
                    return target.label, stopped_result()
                self.rejoins.add(target.free, actor)
                crashed = self.deaths.died(attempt, exc, f"candidate {candidate.id}")
                if crashed is None:
                    continue
                return target.label, crashed
            target.free.put_nowait(actor)
            if result.environment is not None:
                target.hardware = result.environment.hardware
            return target.label, result
        raise AssertionError("unreachable")

    def abort(self) -> None:
        """Kill every actor now (a search stopped at once): Ray restarts none of them."""
        import ray

        self._aborted = True
        for target in self.targets:
            for actor in target.actors:
                with contextlib.suppress(Exception):  # one already gone
                    ray.kill(actor, no_restart=True)

    async def close(self) -> None:
        import ray

        self.rejoins.cancel()
        for target in self.targets:
            for actor in target.actors:
                try:
                    await asyncio.wait_for(actor.close.remote(), timeout=30)
                except Exception as exc:  # a dead actor has nothing to close
                    log.debug("closing an actor: %r", exc)
                ray.kill(actor)

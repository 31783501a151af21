"""A run's side of the shared evaluator pool: the :class:`~kernelevo.search.pool.EvaluatorPool` its loop awaits.

:class:`SharedEvaluatorPool` finds the cluster's pool actor (creating it when no run has yet),
registers the run with its weight, runs the static checks here in the driver (a candidate
they reject never waits for a GPU, as with a run's own pool) and sends the rest to the pool.
Closing it unregisters the run: its queued candidates are answered "run stopped" and its
share goes to the other runs at once. The pool and its warm judges stay for the next run;
:func:`stop_shared_pool` ends them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import Any

from kernelevo.distributed.actors import EvaluatorActor
from kernelevo.distributed.pool import stopped_result
from kernelevo.distributed.shared_pool import POOL_NAME, POOL_NAMESPACE, SharedPoolActor
from kernelevo.evaluation import EvalOptions, EvalResult
from kernelevo.evaluation.static_gate import static_rejection
from kernelevo.records.candidate import Candidate
from kernelevo.records.pool import PoolSnapshot
from kernelevo.search.pool import Races
from kernelevo.spec import Spec
from kernelevo.spec.errors import SpecError

log = logging.getLogger(__name__)

HEARTBEAT_S = 5.0  # how often a run tells the pool its driver is alive (the pool drops one silent for 30 s)


def pool_actor(options: EvalOptions, *, actors: int | None = None, actor_class: type = EvaluatorActor,
               max_restarts: int = 3) -> Any:
    """The cluster's pool actor, created with these arguments if no run has created it yet (then they are
    ignored: the first run's ``options`` size the actors' slots, its ``actors`` their number)."""
    import ray

    remote: Any = ray.remote(SharedPoolActor)
    # num_cpus=0: it only waits on its evaluator actors. max_restarts=0: its queues and registrations live in
    # its memory; a restarted pool would know no run, so a dead pool is reported and the next run makes another.
    remote = remote.options(name=POOL_NAME, namespace=POOL_NAMESPACE, lifetime="detached", get_if_exists=True,
                            num_cpus=0, max_restarts=0, max_concurrency=1000)
    return remote.remote(options, actors=actors, actor_class=actor_class, max_restarts=max_restarts)


def find_pool() -> Any | None:
    """The cluster's pool actor, or None when none runs (Ray must be connected)."""
    import ray

    try:
        return ray.get_actor(POOL_NAME, namespace=POOL_NAMESPACE)
    except ValueError:
        return None


def read_snapshot(*, timeout_s: float = 10.0) -> PoolSnapshot:
    """The pool's snapshot, or an empty one saying why there is none (Ray must be connected)."""
    import ray

    handle = find_pool()
    if handle is None:
        return PoolSnapshot(note="no shared evaluator pool runs on this Ray cluster (a run with pool = \"shared\" "
                                 "starts it)")
    snapshot: PoolSnapshot = ray.get(handle.snapshot.remote(), timeout=timeout_s)
    return snapshot


def stop_shared_pool() -> bool:
    """Kill the pool and its evaluator actors (runs still using it get errors); whether one was running."""
    import ray

    handle = find_pool()
    if handle is None:
        return False
    ray.kill(handle, no_restart=True)
    return True


class SharedEvaluatorPool:
    """Implements :class:`kernelevo.search.pool.EvaluatorPool` on the cluster's shared pool."""

    def __init__(self, spec: Spec, options: EvalOptions, *, run_id: str | None = None, weight: float = 1.0,
                 actors: int | None = None, actor_class: type = EvaluatorActor, max_restarts: int = 3) -> None:
        if not weight > 0:
            raise ValueError(f"a run's pool weight must be above 0, not {weight!r}")
        self.spec, self.options, self.weight = spec, options, weight
        self.run_id = run_id or f"pid{os.getpid()}-{id(self):x}"
        self.actors, self.actor_class, self.max_restarts = actors, actor_class, max_restarts
        self.hardware = "gpu"  # the archive's key, learnt from the first result
        self.workers = self.capacity = 0
        self._handle: Any = None
        self._heartbeat: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._handle = pool_actor(self.options, actors=self.actors, actor_class=self.actor_class,
                                  max_restarts=self.max_restarts)
        info = await self._handle.start.remote()
        # the driver runs the static checks (see evaluate): the actors need not run them again
        options = self.options.model_copy(update={"static_checks": False})
        problem = await self._handle.register.remote(self.run_id, self.spec, options, self.weight)
        if problem:
            raise SpecError(problem)
        self.workers, self.capacity = int(info["workers"]), int(info["capacity"])
        self._heartbeat = asyncio.create_task(self._beat())
        log.info("run %s on the shared evaluator pool (weight %g): %d actor(s), %d slot(s)", self.run_id,
                 self.weight, self.workers, self.capacity)

    async def evaluate(self, candidate: Candidate, races: Races | None = None) -> list[tuple[str, EvalResult]]:
        from ray.exceptions import RayActorError

        static = static_rejection(candidate.source, self.spec, self.options)
        if static is not None:
            return [(self.hardware, static)]
        try:
            result: EvalResult = await self._handle.evaluate.remote(self.run_id, candidate.source,
                                                                     (races or {}).get(self.hardware))
        except RayActorError as exc:
            result = stopped_result(f"the shared evaluator pool is gone ({type(exc).__name__}): start the run again")
        if result.environment is not None:
            self.hardware = result.environment.hardware
        return [(self.hardware, result)]

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                if not await self._handle.heartbeat.remote(self.run_id):
                    log.warning("the shared evaluator pool no longer knows run %s", self.run_id)
            except Exception as exc:  # the pool is gone: evaluate says so for each candidate
                log.warning("the shared evaluator pool does not answer: %r", exc)

    def abort(self) -> None:
        """Leave the pool now: its queued candidates are answered "run stopped" (the evaluations under way
        finish on their actors, uncounted)."""
        if self._handle is not None:
            self._handle.unregister.remote(self.run_id)

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self._handle is not None:
            with contextlib.suppress(Exception):  # a pool already gone has nothing to forget
                await asyncio.wait_for(self._handle.unregister.remote(self.run_id), timeout=30)

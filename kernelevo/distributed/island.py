"""Islands as Ray actors: ``--islands N`` on Ray places N emitters anywhere in the cluster.

Who runs what:

- each *island actor* (:class:`IslandActor`, one CPU) runs an
  :class:`~kernelevo.search.island.IslandEmitter`: its own operators (the template operator's edits,
  the LLM operators' prompts), its own LLM client and rate limit, its own meta-prompt population and
  their evolution, its bandit and repair queue, and a local view of its island's elites to select
  parents from;
- the *driver* (the scheduler, through :class:`RemoteIslands`) asks islands for candidates in turn,
  numbers and records each one, sends it to the evaluator pool (one shared pool, as without islands),
  adds the results to the archives of record, keeps the budgets, migrates elites between the archives
  every ``migration_every`` evaluations, and tells each island what became of its candidates and which
  elites migrated into it.

Tells go to an island in batches, in order (:mod:`kernelevo.distributed.island_tells`). When an island actor dies
Ray restarts it (``max_restarts``); its ``__init__`` rebuilds it from storage (its island's evaluations
replayed, its stored elites, its prompts), and the driver tells it again the batches that failed and the
last :data:`~kernelevo.distributed.island_channel.RECENT` messages (what storage may not hold yet: the
store commits a tenth of a second late).
Telling is idempotent, so nothing is lost or doubled in the island's view. Asks under way when it died
fail; the scheduler asks again (the candidate they were making was never numbered nor recorded). The
candidates it had made are the driver's already, and are evaluated whatever became of the island.

Where the host has no core for the driver beside every island's actor (one host, no more cores than islands:
2 islands on 2 cores), island 0 runs in the driver's own process instead (``island_in_driver``): the same
emitter with its own view, operators and LLM client, asked and told directly, nothing pickled. While the driver's
loop has time to spare, the islands are asked in turn, as always. Once it is busy (:data:`BUSY`), each instant
ask goes to an island actor while it holds fewer than :data:`AHEAD`, else to the island in the driver: the actors
work on their cores without pause, and the driver makes candidates with the time its bookkeeping leaves. It is
rebuilt from storage as an actor is, when a driver resumes the run.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import socket
import time
from collections.abc import Callable, Coroutine
from typing import Any

from kernelevo.distributed.island_actor import InDriver, IslandActor, model_keys
from kernelevo.distributed.island_channel import IslandChannel, unpacked
from kernelevo.distributed.island_tells import RETRY_WAIT_S, IslandTells
from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, remember_source_hash
from kernelevo.records.elite import Elite
from kernelevo.records.run import StopReason
from kernelevo.records.run_config import RunConfig
from kernelevo.search.island import Asked, Duplicate, Migrant, Told
from kernelevo.search.producer import NOTHING_TO_VARY
from kernelevo.search.state import SearchState
from kernelevo.spec import Spec
from kernelevo.variation.llm.metaprompt import PromptArchive

log = logging.getLogger(__name__)

MAX_RESTARTS = 3  # an island actor restarted more often than this stays dead (the run goes on without it)
START_TIMEOUT_S = 120.0  # for every island to be placed and rebuilt (a cluster without a free CPU never places one)
CLOSE_WAIT_S = 10.0  # for the last tells to reach the islands when the run ends
ASK_BATCH = 64  # instant asks sent to an island in one call (a Ray call costs the driver about 0.3 ms)
# Batches of asks under way to one island: it makes the next while the driver takes the last. With 2, 8 islands
# at 2,048 evaluators left them waiting between batches: 4 gave 2-5% more results a second (interleaved A/B on
# a 16-core host, benchmarks/README.md, islands); the in-flight limit still bounds what is made ahead.
PUMPS = 4
# A pump that starts waits up to ASK_GATHER_S for ASK_RUN asks, and the instant asks made meanwhile join it
# (the others go round the islands). Each ask to the next island, sent as it came, split a turn's few asks 8
# ways at 8 islands: 2.4 asks a Ray call where 2 islands had 28, 9 times the calls for as many results
# (benchmarks/README.md, islands). A few milliseconds are nothing beside an evaluation; and at a few asks a
# second every ask still goes to the next island.
ASK_RUN = 16
ASK_GATHER_S = 0.005
# Instant asks an island actor holds (waiting, or in batches under way) before the next goes to the island in
# the driver's process, where there is one. With two batches the actor was busy 0.72 of its core, with four 0.81
# (2 islands, 2,048 simulated evaluators, the 2-core machine, one run each): the busy driver sends late.
AHEAD = 4 * ASK_BATCH
# The share of its thread's time the driver's loop spends on the CPU (over the last LOAD_WINDOW_S) past which
# the island in its process only takes what the actors cannot: below it, it takes its turn.
BUSY = 0.8
LOAD_WINDOW_S = 0.5


class RemoteIslands:
    """The scheduler's emitter when islands are actors: asks them in turn, tells each its outcomes."""

    def __init__(self, spec: Spec, config: RunConfig, *, db_url: str | None = None, run_id: int | None = None,
                 max_restarts: int = MAX_RESTARTS) -> None:
        self.spec, self.config, self.db_url, self.run_id = spec, config, db_url, run_id
        self.max_restarts = max_restarts
        self.channels: list[IslandChannel] = []
        self._turn = itertools.count()
        self._with_elites: set[int] = set()  # islands whose archives of record hold an elite (they never lose one)
        self._gathering: int | None = None  # the island whose new pump waits for asks to join its first batch
        self._watching: set[asyncio.Task[None]] = set()
        self.final_views: list[dict[str, list[int]]] = []  # each island's elites as it saw them at the end
        self.placed: list[dict[str, Any]] = []  # each island actor's ready(): island, host, pid, incarnation
        self._abandoned: list[tuple[int, Any, int]] = []  # (island, its answer's ref, delivered) of asks cut off
        self.tells = IslandTells(self.channels)  # outcomes on their way to the islands
        self.in_driver = False  # island 0 runs in this process (decided at start: island_in_driver)
        self.load = ThreadLoad()  # how busy the driver's loop is (asks go in turn until it is BUSY)
        from kernelevo.variation.operators import build_operators

        # the same operators as every island's (names only: the driver runs none of them)
        self._has_llm = bool(config.llm_models())
        self._has_instant = any(not op.uses_llm for op in build_operators(None).values())

    # -- lifecycle ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Place one actor per island, each rebuilt from storage (a resumed run's islands as stored)."""
        import ray

        remote: Any = ray.remote(IslandActor)
        # num_cpus=1: an island's operators spend CPU (the template operator's parsing, LLM contexts); Ray
        # spreads the islands over the cluster's free CPUs. Asks and tells are not retried by Ray: the
        # driver asks again and tells again (idempotent) itself.
        options: dict[str, Any] = {"num_cpus": 1, "max_restarts": self.max_restarts, "max_task_retries": 0}
        keys = model_keys(self.config)
        if keys:  # an island's own LLM client calls the models from wherever Ray placed it
            options["runtime_env"] = {"env_vars": keys}
        remote = remote.options(**options)
        self.in_driver = self._island_in_driver()
        if self.in_driver:  # rebuilt from storage here, as an actor would be
            body = IslandActor(self.spec, self.config, 0, self.db_url, self.run_id, in_driver=True)
            home = IslandChannel(InDriver(body), home=body.body)
            home.incarnation = body.body.incarnation
            self.channels.append(home)
        actors = [remote.remote(self.spec, self.config, i, self.db_url, self.run_id)
                  for i in range(len(self.channels), self.config.islands)]
        self.channels.extend(IslandChannel(a) for a in actors)  # (the list the tells hold)
        try:
            ready = await asyncio.wait_for(asyncio.gather(*(a.ready.remote() for a in actors)), START_TIMEOUT_S)
        except TimeoutError:
            self.close_now()
            raise ValueError(f"{self.config.islands} island actors (1 CPU each) were not placed within "
                             f"{START_TIMEOUT_S:g} s: the cluster has {ray.cluster_resources().get('CPU', 0):g} "
                             "CPUs; ask for fewer --islands") from None
        for channel, info in zip(self.channels[len(self.channels) - len(actors):], ready, strict=True):
            channel.incarnation = info["incarnation"]
        self.placed = ready  # each island actor's host and process, as placed (benchmarks read their CPU time)
        log.info("islands on Ray: %s%s", "0 in the driver's process, " if self.in_driver else "",
                 ", ".join(f"{r['island']} on {r['host']} (pid {r['pid']})" for r in ready))

    def _island_in_driver(self) -> bool:
        """Whether island 0 runs in this process (``island_in_driver``; by default where the cluster is this host
        alone and it has no core for the driver beside an actor per island). With an actor per island on 2 cores,
        2 islands made 1.29x one island's results a second (median of six, 2,048 simulated evaluators): the driver
        and two actors shared two cores, and each candidate crossed Ray twice (benchmarks/README.md)."""
        import ray

        if self.config.island_in_driver is not None:
            return self.config.island_in_driver
        one_host = sum(1 for node in ray.nodes() if node.get("Alive")) <= 1
        return one_host and _cores_here() <= self.config.islands

    def spare_core_here(self) -> bool:
        """Whether this host has a core beyond the driver's and those of the islands Ray placed here: only then
        does the store's writer process (:mod:`kernelevo.storage.writer_process`) run beside the driver rather
        than take an island's core. On 2 cores with 2 islands, the writer process spent 0.15 ms of CPU a result
        where the same transactions in the driver cost 0.075 more of its own (benchmarks/README.md, "the store's
        writer in the driver, seeds shared out")."""
        here = socket.gethostname()
        islands_here = sum(1 for island in self.placed if island.get("host") == here)
        return _cores_here() > islands_here + 1

    def bind(self, *, state: SearchState, record: Callable[[Candidate], None],
             fail: Callable[[OperatorFailure], None], stop: Callable[[str, StopReason], None],
             save_prompts: Callable[[], None], add_evolution: Callable[[Any], None]) -> None:
        """What answering an ask needs from the scheduler: the state of record and how it records."""
        self.state, self.record, self.fail, self.stop = state, record, fail, stop
        self.save_prompts, self.add_evolution = save_prompts, add_evolution

    def close_now(self) -> None:
        import ray

        for task in list(self._watching):
            task.cancel()
        self.tells.cancel()
        for channel in self.channels:
            if channel.home is None:
                ray.kill(channel.actor)  # no_restart: the run is over

    async def close(self) -> None:
        """Cut the islands' asks under way short, tell them what is still pending, keep their last views
        (:attr:`final_views`), and end them."""
        try:
            # first, before an LLM reply can land: the asks under way cancelled (each call cut short charged
            # its prompt), and what the islands did since their last answers (failures, prompt evolutions)
            for asked in await asyncio.wait_for(asyncio.gather(*(c.actor.drain.remote() for c in self.channels)),
                                                CLOSE_WAIT_S):
                self._recorded(asked)
            await self._collect_abandoned()
            deadline = time.monotonic() + CLOSE_WAIT_S
            # (a restarted island is told again meanwhile, and a tell that failed is sent again)
            while time.monotonic() < deadline and (self._watching or self.tells.pending()):
                self.tells.flush(now=True)
                if self._watching or self.tells.watching:
                    await asyncio.wait(self._watching | self.tells.watching,
                                       timeout=min(0.5, deadline - time.monotonic()))
                else:
                    await asyncio.sleep(0.05)
            self.final_views = await asyncio.wait_for(self.elite_ids(), CLOSE_WAIT_S)
        except Exception as exc:  # an island that cannot answer: the run's records are the driver's anyway
            log.warning("the islands' last views could not be read: %r", exc)
        self.close_now()

    # -- asking (the scheduler's emitter protocol) -----------------------------------------------------
    def has_instant(self) -> bool:
        return self._has_instant

    def drop_llm_operators(self) -> None:
        """Each island drops its own LLM operators when its models fail (offline_fallback)."""

    def can_ask(self, *, instant: bool = False) -> bool:
        return any(self._askable(i, instant) for i in range(len(self.channels)))

    def _askable(self, island: int, instant: bool) -> bool:
        if self.channels[island].dead or not self._has_elites(island):
            return False
        return (self._has_llm and not instant) or not self.channels[island].dry

    def _has_elites(self, island: int) -> bool:
        # (asked for every island at every ask: reading the archives each time grew as islands squared)
        if island not in self._with_elites and any(len(a) for (i, _), a in self.state.archives.items() if i == island):
            self._with_elites.add(island)
        return island in self._with_elites

    def ask(self, *, instant: bool = False) -> Coroutine[Any, Any, Candidate | str | None]:
        return self._ask(instant)

    async def _ask(self, instant: bool) -> Candidate | str | None:
        from ray.exceptions import RayActorError

        island = self._choose(instant)
        if island is None:
            return NOTHING_TO_VARY
        channel = self.channels[island]
        wait = channel.unavailable_until - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        if channel.home is not None:  # in this process: made now (an instant edit), or awaited (an LLM call)
            delivered = channel.delivered
            return self._answered(island, channel, await channel.home.ask(instant=instant), delivered)
        if self._has_llm:  # an LLM call takes seconds: each ask on its own, answered as soon as it is done
            delivered = channel.delivered
            asking = channel.actor.ask.remote(instant)
            try:
                answer: tuple[Asked, int] | None = (await asking, delivered)
            except RayActorError as exc:
                answer = None
                self._unavailable(island, channel, exc)
            except asyncio.CancelledError:  # the run stops: the island's answer is collected at close
                self._abandoned.append((island, asking, delivered))
                raise
        else:  # instant edits: the asks waiting for this island go together, one call for up to ASK_BATCH
            future: asyncio.Future[tuple[Asked, int] | None] = asyncio.get_running_loop().create_future()
            channel.requests.append((future, instant))
            if channel.pumps < PUMPS:
                channel.pumps += 1
                self._gathering = island
                task = asyncio.get_running_loop().create_task(self._pump(island, channel))
                self._watching.add(task)
                task.add_done_callback(self._watching.discard)
            answer = await future
        if answer is None:  # it died under the ask, or is restarting: the scheduler asks again
            return NOTHING_TO_VARY
        asked, delivered = answer
        self.tells.answered_by(channel, asked.incarnation)
        return self._answered(island, channel, asked, delivered)

    def _choose(self, instant: bool) -> int | None:
        """The island to ask: one whose first batch is gathering (:meth:`_joinable`); with an island in this
        process and the driver :data:`BUSY`, an island actor holding fewer than :data:`AHEAD` instant asks, else
        the island here; otherwise the next in turn that is not restarting, else the first back (the ask waits: a
        task under way keeps the run going). None: no island can be asked."""
        island = self._joinable(instant)
        if island is not None:
            return island
        n = len(self.channels)
        start = next(self._turn)
        askable = [i for i in ((start + k) % n for k in range(n)) if self._askable(i, instant)]
        if not askable:
            return None
        now = time.monotonic()
        if self.in_driver and not self._has_llm and self.load.share() >= BUSY:
            actors = [i for i in askable if self.channels[i].home is None
                      and self.channels[i].unavailable_until <= now and self.channels[i].asks_out() < AHEAD]
            if actors:
                return min(actors, key=lambda i: self.channels[i].asks_out())
            if self.channels[0].home is not None and 0 in askable:
                return 0
        return min(askable, key=lambda i: max(self.channels[i].unavailable_until - now, 0.0))

    def _joinable(self, instant: bool) -> int | None:
        """The island whose pump gathers its first batch, if an instant ask may join it (see ASK_RUN)."""
        island = self._gathering
        if island is None or self._has_llm:
            return None
        channel = self.channels[island]
        if (len(channel.requests) >= ASK_RUN or channel.unavailable_until > time.monotonic()
                or not self._askable(island, instant)):
            return None
        return island

    async def _collect_abandoned(self) -> None:
        """The answers of the LLM asks the run's stop stopped waiting for. One the island finished before it
        was cut short brings a candidate: recorded as made (a resume evaluates it), with its tokens, and what
        the island recorded with it; one cut short brings an error (its spending came with the drain)."""
        abandoned, self._abandoned = self._abandoned, []
        if not abandoned:
            return
        answers = await asyncio.wait_for(asyncio.gather(*(ref for _, ref, _ in abandoned), return_exceptions=True),
                                         CLOSE_WAIT_S)
        for (island, _, delivered), asked in zip(abandoned, answers, strict=True):
            if isinstance(asked, Asked):
                made = self._answered(island, self.channels[island], asked, delivered)
                if isinstance(made, Candidate):
                    log.info("island %d's candidate %d came after the run stopped: recorded, not evaluated",
                             island, made.id)

    async def _pump(self, island: int, channel: IslandChannel) -> None:
        """Send the asks waiting for ``island`` in batches until none waits."""
        from ray.exceptions import RayActorError

        try:
            if len(channel.requests) < ASK_RUN:
                await asyncio.sleep(ASK_GATHER_S)
            if self._gathering == island:
                self._gathering = None
            while channel.requests:
                batch, channel.requests = channel.requests[:ASK_BATCH], channel.requests[ASK_BATCH:]
                delivered = channel.delivered
                channel.asking += len(batch)
                try:
                    answers: list[Asked] = unpacked(
                        await channel.actor.ask_many.remote([instant for _, instant in batch]))
                except Exception as exc:  # it died, or is restarting; or a bug of the island's, logged
                    if isinstance(exc, RayActorError):
                        self._unavailable(island, channel, exc)
                    else:
                        log.error("island %d failed to answer: %r", island, exc)
                    for future, _ in batch:
                        if not future.done():
                            future.set_result(None)
                    continue
                finally:
                    channel.asking -= len(batch)
                for (future, _), asked in zip(batch, answers, strict=True):
                    if not future.done():
                        future.set_result((asked, delivered))
                    else:  # its produce task was cancelled (the run stops): what it recorded is kept
                        self._recorded(asked)
        finally:
            channel.pumps -= 1
            if self._gathering == island:  # (cut short while gathering: the run stops)
                self._gathering = None

    def _unavailable(self, island: int, channel: IslandChannel, exc: Exception) -> None:
        if channel.unavailable_until < time.monotonic():
            log.warning("island %d is unavailable (%s): restarting", island, type(exc).__name__)
        channel.unavailable_until = time.monotonic() + RETRY_WAIT_S

    def _recorded(self, asked: Asked) -> None:
        """What an island did besides its candidate, recorded: operator failures, meta-prompts, evolutions."""
        for failure in asked.failures:
            self.fail(failure)
        if asked.prompts:
            self._merge_prompts(asked.prompts)
        for evolution in asked.evolutions:
            self.state.usage = self.state.usage + evolution.usage
            self.add_evolution(evolution)

    def _answered(self, island: int, channel: IslandChannel, asked: Asked, delivered: int) -> Candidate | str | None:
        self._recorded(asked)
        if asked.llm_failed is not None:
            from kernelevo.search.scheduler import LLM_FAILED

            self.stop(f"{LLM_FAILED}: {asked.llm_failed}", StopReason.LLM_FAILED)
        candidate = asked.candidate
        if candidate is None:
            if asked.note == NOTHING_TO_VARY and channel.delivered == delivered and not channel.inserts_pending:
                channel.dry = True  # no new elite reached it meanwhile: wait for one
            # an island whose view has no elite yet (its tells on their way) has tried nothing either
            return NOTHING_TO_VARY if asked.note == NOTHING_TO_VARY or not self._has_view(island) else None
        if asked.source_hash:
            remember_source_hash(candidate.source, asked.source_hash)
        source_hash = candidate.source_hash
        if source_hash in self.state.seen_sources:  # made by another island (or this one, before)
            failure = OperatorFailure(operator=candidate.operator, kind="duplicate",
                                      message="an identical kernel was already made (by another island)",
                                      parent_ids=candidate.parent_ids, usage=candidate.usage)
            self.fail(failure)
            self.tells.enqueue(channel, Duplicate(failure, source_hash))
            return None
        numbered = candidate.model_copy(update={"id": self.state.next_id(), "island": island})
        self.record(numbered)
        if channel.home is None:  # told back by reference (the island in this process is told the candidate)
            channel.made[numbered.id] = source_hash
        for other in self.channels:  # told with the next tells: the other islands do not make it again
            if other is not channel:
                other.seen.append(source_hash)
        return numbered

    def _has_view(self, island: int) -> bool:
        return self.channels[island].delivered > 0

    def _merge_prompts(self, prompts: list[Any]) -> None:
        """An island's population joins the run's prompts (its ids are its own: see IslandPrompts)."""
        by_id = {p.id: p for p in self.state.prompts.prompts}
        for prompt in prompts:
            if prompt.id == 0 and 0 in by_id:  # the shared root: its fitness is the best any island gave it
                root = by_id[0]
                if prompt.fitness is not None and (root.fitness is None or prompt.fitness > root.fitness):
                    root.fitness, root.best_candidate_id = prompt.fitness, prompt.best_candidate_id
                continue
            by_id[prompt.id] = prompt
        self.state.prompts = PromptArchive(prompts=sorted(by_id.values(), key=lambda p: p.id))
        self.save_prompts()

    # -- telling -------------------------------------------------------------------------------------
    def told(self, candidate: Candidate, told: list[Evaluated]) -> None:
        """A candidate's outcomes, for the island that made it (told at the next :meth:`flush`)."""
        if not 0 <= candidate.island < len(self.channels):
            return
        message = Told(candidate, [(e.hardware, e.result, e.measures) for e in told])
        self.tells.enqueue(self.channels[candidate.island], message, inserted=any(e.took_cell for e in told))

    def migrated(self, hardware: str, island: int, elite: Elite) -> None:
        """``elite`` took a cell of ``island``'s archive of record."""
        candidate = self.state.candidates[elite.candidate_id]
        result = self.state.result_of(elite.candidate_id, hardware)
        self.tells.enqueue(self.channels[island], Migrant(candidate, hardware, result, elite), inserted=True)

    def flush(self, *, now: bool = False) -> None:
        """The scheduler's outcomes so far on their way (see :meth:`IslandTells.flush`)."""
        self.tells.flush(now=now)

    # -- what tests and benchmarks read ------------------------------------------------------------
    async def elite_ids(self) -> list[dict[str, list[int]]]:
        return list(await asyncio.gather(*(c.actor.elite_ids.remote() for c in self.channels)))

    def restarts(self) -> list[int]:
        return [c.restarts for c in self.channels]


class ThreadLoad:
    """The share of the wall time the calling thread (the driver's loop) spent on the CPU, over the last
    :data:`LOAD_WINDOW_S` or so (read every ask: a clock read each, measured again once a window has passed)."""

    def __init__(self) -> None:
        self._wall, self._cpu = time.monotonic(), time.thread_time()
        self._share = 0.0

    def share(self) -> float:
        wall = time.monotonic()
        if wall - self._wall >= LOAD_WINDOW_S:
            cpu = time.thread_time()
            self._share = (cpu - self._cpu) / (wall - self._wall)
            self._wall, self._cpu = wall, cpu
        return self._share


def _cores_here() -> int:
    """The cores this process may run on (``taskset`` respected; all of them on macOS)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


__all__ = ["RemoteIslands"]

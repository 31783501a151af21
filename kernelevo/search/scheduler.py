"""The scheduler (pyribs' role): K candidates in flight between an emitter and the evaluators.

In pyribs' roles a search is an archive that adds and returns an outcome
(:class:`~kernelevo.archive.elites.ElitesArchive`), emitters asked for candidates and told the
outcomes (:class:`~kernelevo.search.emitter.Emitter`), and a scheduler that composes them. This
scheduler is asynchronous and steady state. Two kinds of task run side by side on one event loop:

- *produce*: the emitter is asked for a candidate (:meth:`Emitter.ask`): it selects a parent (and
  inspirations) from the archive, chooses an operator (its bandit) and a meta-prompt, and runs the
  operator (an LLM call, or the template operator's instant edit); a turn of the scheduler starts a
  bounded number, since an instant edit holds the event loop;
- *evaluate*: a ready candidate goes to the evaluator pool; the scheduler tells its results a chunk a
  turn (:meth:`SearchState.tell`: the archive's add, then the tell of the emitter that asked), and
  hands evaluators that finished their next candidates between chunks (hundreds of results can land
  together, and telling them all first would leave those evaluators idle meanwhile).

A :class:`~kernelevo.search.concurrency.ConcurrencyLimiter` counts the candidates in flight between
them (being made, waiting, or being evaluated), and the scheduler keeps every evaluator busy while
candidates are ready, so evaluation never waits for an LLM and an LLM call never waits for an
evaluation. The scheduler keeps the budgets and the stop. Every candidate and result is written to the
database (:class:`~kernelevo.storage.recorder.RunRecorder`) within a tenth of a second of appearing (a
group commit), so a stop at any point loses at most that tenth of a second: ``--resume`` evaluates
what was made but not evaluated, then continues.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, cast

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, OperatorName, PromptEvolution
from kernelevo.records.elite import Elite
from kernelevo.records.result import ErrorKind, EvalResult
from kernelevo.records.run import StopReason
from kernelevo.records.run_config import RunConfig
from kernelevo.search.concurrency import ConcurrencyLimiter
from kernelevo.search.islands import Migrations
from kernelevo.search.pool import EvaluatorPool
from kernelevo.search.producer import NOTHING_TO_VARY
from kernelevo.search.progress import snapshot
from kernelevo.search.prompt_evolution import PromptEvolver
from kernelevo.search.state import SearchState
from kernelevo.search.stops import nothing_left
from kernelevo.search.tasks import Task, Tasks
from kernelevo.spec import Spec
from kernelevo.storage.recorder import RunRecorder
from kernelevo.variation.llm.models import ModelPool
from kernelevo.variation.operators import Operator

log = logging.getLogger(__name__)
# Results told in one turn of the loop. Between turns it hands finished evaluators their next candidates:
# telling takes about 0.16 ms a result and the operators' edits run between chunks, and telling a whole
# wave first kept evaluators waiting while candidates were ready (at 512 simulated evaluators, an
# evaluator's 95th-percentile wait was 500 ms, and about 200 ms with chunks; benchmarks/README.md).
TELL_CHUNK = 32
# Produce tasks started in one turn of the loop. An offline operator's edit runs in one synchronous step of
# about 0.6 ms, and the steps of the tasks started together all run before the loop's next turn: 512 at
# once held it for about a third of a second while finished evaluators waited for their next candidate
# (benchmarks/driver_ceiling.py). Each finished task brings another turn, so LLM calls still build up to
# as many as the run keeps in flight.
PRODUCE_BATCH = 32
Returned = tuple[Candidate, list[tuple[str, EvalResult]]]  # an evaluate task's candidate and its results

LLM_FAILED = "the LLM failed"  # a run stopped because no model works (and it did not ask to go on offline)


class Asks(Protocol):
    """What the scheduler asks for candidates: an :class:`~kernelevo.search.emitter.Emitter`, or islands."""

    def ask(self, *, instant: bool = False) -> Coroutine[Any, Any, Candidate | str | None]: ...
    def can_ask(self, *, instant: bool = False) -> bool: ...
    def has_instant(self) -> bool: ...
    def drop_llm_operators(self) -> None: ...


class Islands(Asks, Protocol):
    """Emitters elsewhere (island actors: :class:`kernelevo.distributed.island.RemoteIslands`), asked in
    place of the state's emitter and told each outcome and each migration."""

    def bind(self, *, state: SearchState, record: Callable[[Candidate], None],
             fail: Callable[[OperatorFailure], None], stop: Callable[[str, StopReason], None],
             save_prompts: Callable[[], None], add_evolution: Callable[[PromptEvolution], None]) -> None: ...
    def told(self, candidate: Candidate, told: list[Evaluated]) -> None: ...
    def migrated(self, hardware: str, island: int, elite: Elite) -> None: ...
    def flush(self) -> None: ...


class Scheduler:
    """Asks the emitter for candidates while fewer than the run's limit are in flight, evaluates them, and
    tells each result to the archive and the emitter that asked; stops on a budget or :meth:`stop`."""

    def __init__(self, *, spec: Spec, config: RunConfig, state: SearchState, pool: EvaluatorPool,
                 operators: dict[str, Operator], store: RunRecorder, llm: ModelPool | None = None,
                 on_event: Callable[[str], None] | None = None, previous_elapsed_s: float = 0.0,
                 islands: Islands | None = None) -> None:
        self.spec, self.config, self.state, self.pool = spec, config, state, pool
        self.store, self.llm = store, llm
        self.on_event = on_event or (lambda kind: None)
        self.rng = random.Random(config.seed + state.evaluated_count())
        self.started_evaluations = state.evaluated_count()  # a resumed run's rate counts this session's alone
        self.previous_elapsed_s = previous_elapsed_s  # the run's earlier sessions
        self.ready: list[Candidate] = []  # made, waiting for an evaluator
        self.in_flight = ConcurrencyLimiter(limit=config.candidates_in_flight(pool.workers, pool.capacity))
        self.stopped = ""  # why the loop stops; empty while it runs
        self.stopped_after_s: float | None = None  # when, in seconds of the run (what is under way finishes later)
        self.stop_kind: StopReason | None = None  # why, as a kind (None while it runs)
        self.by_budget = False  # it stops because a budget was reached: the seeds still waiting are judged
        self.started = time.monotonic()  # the minutes budget counts this session's wall time
        self.seeding_s = 0.0  # of which making the seeds took (torch.compile's captures)
        self.why_no_seed = ""  # why seeding made no seed (add_seeds), for the stop it leads to
        self.finished: float | None = None  # when run() returned
        # summed time an evaluator held its device (the judge's time) for these candidates: the busy
        # fraction. Not the time awaiting the pool: on a GPU an evaluator takes several at once.
        self.device_busy_s = 0.0
        self.idle_produces = 0  # produce calls in a row that made nothing new
        self.max_idle_produces = 200
        # Asked for every candidate. In one process: the state's emitter, told every outcome through state.tell.
        # With island actors: they are asked in turn, and each is told its own outcomes (the state's emitter
        # is then told them too: the display's operator table reads its bandit).
        self.islands = islands
        self.emitter: Asks = state.emitter
        if islands is not None:
            islands.bind(state=state, record=self._record, fail=self._fail, stop=self.stop,
                         save_prompts=lambda: store.save_prompts(state.prompts), add_evolution=store.add_evolution)
            self.emitter = islands
        else:
            state.emitter.start(spec=spec, config=config, state=state, operators=operators, rng=self.rng,
                                record=self._record, fail=self._fail,
                                save_prompts=lambda: store.save_prompts(state.prompts))
        self.migrations = Migrations(config, state, self.rng, save=store.save_migration,
                                     tell=islands.migrated if islands is not None else None)
        self.prompt_evolver = PromptEvolver(state, config.evolve_prompts_every, self.rng,
                                            language=spec.settings.language, fail=self._fail,
                                            evolved=self._prompt_evolved)

    # -- budgets ---------------------------------------------------------------------------------
    def elapsed_s(self) -> float:
        return (self.finished or time.monotonic()) - self.started

    def busy_fraction(self) -> float:
        """The share of the run's time the evaluators held their devices."""
        elapsed = self.elapsed_s()
        return self.device_busy_s / (elapsed * self.pool.workers) if elapsed > 0 else 0.0

    def budget_reached(self) -> tuple[StopReason, str] | None:
        """The budget reached, as a kind and a sentence; None while none is."""
        b, s = self.config.budget, self.state
        if b.evaluations is not None and s.evaluated_count() >= b.evaluations:
            return StopReason.BUDGET_EVALUATIONS, f"evaluation budget ({b.evaluations}) reached"
        if b.minutes is not None and self.elapsed_s() >= b.minutes * 60:
            return StopReason.BUDGET_TIME, f"time budget ({b.minutes:g} min) reached"
        if b.tokens is not None and s.usage.tokens >= b.tokens:
            return StopReason.BUDGET_TOKENS, f"token budget ({b.tokens}) reached"
        if b.dollars is not None and s.usage.cost_usd >= b.dollars:
            return StopReason.BUDGET_DOLLARS, f"dollar budget (${b.dollars:g}) reached"
        return None

    def stop(self, reason: str = "stopped by the user", kind: StopReason = StopReason.STOPPED_BY_USER) -> None:
        """Stop making candidates (those under way are finished); the first stop stands: its sentence, its
        kind, and the status the kind leaves the run in (finished for a budget or a search space used up,
        failed where nothing could go on, stopped for a person's or a signal's stop)."""
        if not self.stopped:
            self.stopped, self.stop_kind = reason, kind
            self.stopped_after_s = self.elapsed_s()

    # -- the loop --------------------------------------------------------------------------------
    async def run(self) -> str:
        """Search until a budget is reached or :meth:`stop` is called; returns why it stopped."""
        with self.store.batched():  # a tenth of a second's writes in one transaction (RunRecorder.batched)
            return await self._run()

    async def _run(self) -> str:
        self.ready = self.state.pending()  # made but never evaluated: first in line
        for candidate in self.ready:
            self.in_flight.admit(candidate.id)
        tasks = Tasks()
        untold: list[Returned] = []  # results not told the state yet
        try:
            await self._drive(tasks, untold)
        except asyncio.CancelledError:  # stopped at once (Ctrl-C twice): the results already in are kept
            self._collect(tasks.finished_now(), untold)
            while untold:
                self._tell_some(untold)
            self.finished = time.monotonic()
            self.store.progress(snapshot(self), force=True)
            raise
        await tasks.settle()
        self.finished = time.monotonic()
        return self.stopped

    async def _drive(self, tasks: Tasks, untold: list[Returned]) -> None:
        """Make and evaluate candidates until the run is stopped and its evaluations under way are told."""
        while True:
            self.store.check()  # a store that cannot write stops the run (it can be resumed)
            if not self.stopped:
                budget = self.budget_reached()
                if budget is not None:
                    self.stop(budget[1], budget[0])
                    self.by_budget = True
            if not self.stopped:
                self._start_producing(tasks)
            started = self._start_evaluating(tasks, len(untold))
            if untold:
                if started:  # the new evaluations reach their evaluators before the results are told
                    await asyncio.sleep(0)
                self._tell_some(untold)
                await asyncio.sleep(0)  # the operators refill the queue of ready candidates meanwhile
                self._collect(tasks.finished_now(), untold)
                continue  # evaluators that finished meanwhile get their next candidates before more is told
            if self.stopped:
                tasks.cancel_all_but("evaluate")
                if not tasks.running("evaluate") and not self._seeds_waiting():
                    break
            if not tasks:
                self.stop(*nothing_left(self.state, self.why_no_seed))
                continue
            self._collect(await tasks.next_finished(self._until_deadline_s()), untold)

    def _until_deadline_s(self) -> float | None:
        """Seconds until the time budget runs out (None without one): the loop wakes then to stop, where it
        would otherwise see the budget only when some task finished, a judge's time-out later at worst."""
        minutes = self.config.budget.minutes
        if minutes is None or self.stopped:
            return None
        return max(0.0, minutes * 60 - self.elapsed_s()) + 0.001

    def _start_producing(self, tasks: Tasks) -> None:
        # the pool's capacity grows as evaluators join (a Ray pool), and the limit with it
        self.in_flight.limit = self.config.candidates_in_flight(self.pool.workers, self.pool.capacity)
        wanted = min(self.in_flight.free(), PRODUCE_BATCH)
        for _ in range(wanted if wanted > 0 and self.emitter.can_ask() else 0):  # (it reads the elites)
            self.in_flight.admit(tasks.start(self.emitter.ask(), "produce"))
        if self._starving(tasks.running("evaluate")) and not tasks.running("instant"):
            # LLM calls (retrying, say) hold every slot while evaluators wait: an instant edit feeds them
            tasks.start(self.emitter.ask(instant=True), "instant")
        if self.prompt_evolver.due(self.llm) and not tasks.running("evolve"):
            assert self.llm is not None
            tasks.start(self.prompt_evolver.evolve(self.llm), "evolve")

    def _start_evaluating(self, tasks: Tasks, untold: int) -> bool:
        """Hand ready candidates to free evaluators; whether any was. A stopped run starts none: what is
        ready stays pending, and a resume evaluates it. But seeds are judged whatever budget is reached
        (making them may outlast a short budget): a run always knows where its seeds stand."""
        started = False
        while self.ready and tasks.running("evaluate") < self.pool.capacity:
            if self._seeds_waiting():
                position = next(i for i, c in enumerate(self.ready) if c.operator == OperatorName.SEED)
            elif self.stopped or self._evaluation_budget_full(tasks.running("evaluate") + untold):
                break
            else:
                position = 0
            candidate = self.ready.pop(position)
            self.in_flight.hand_over(candidate.id, tasks.start(self._evaluate(candidate), "evaluate"))
            started = True
        return started

    def _seeds_waiting(self) -> bool:
        """Seeds ready and not judged, in a run a budget stopped (a stop by the user leaves them pending)."""
        return self.by_budget and any(c.operator == OperatorName.SEED for c in self.ready)

    def _tell_some(self, untold: list[Returned]) -> None:
        """Tell the state the first :data:`TELL_CHUNK` results (and take them off the list)."""
        chunk, untold[:] = untold[:TELL_CHUNK], untold[TELL_CHUNK:]
        for candidate, results in chunk:
            try:
                self._tell(candidate, results)
            except Exception as exc:  # one result that cannot be recorded must not end the search
                log.error("telling candidate %d's result failed: %r", candidate.id, exc)
        if self.islands is not None:  # the islands' tells of this chunk, one batch each
            self.islands.flush()

    def _collect(self, done: list[tuple[Task, str]], untold: list[Returned]) -> None:
        """What finished tasks made: results to tell, candidates ready to evaluate."""
        for task, kind in done:
            self.in_flight.release(task)  # a produce or evaluate task leaves the flight when collected
            if task.cancelled():
                continue
            if task.exception() is not None:
                log.error("%s task failed: %r", kind, task.exception())
                continue
            made = task.result()
            if kind == "evaluate":
                untold.append(cast(Returned, made))
                continue
            self._check_models()
            if isinstance(made, Candidate):
                self.ready.append(made)
                self.in_flight.admit(made.id)
                self.idle_produces = 0
            elif kind in ("produce", "instant") and made != NOTHING_TO_VARY:
                self.idle_produces += 1
                if self.idle_produces >= self.max_idle_produces:
                    self.stop(f"the operators made nothing new in {self.idle_produces} tries in a row "
                              "(the template operator's space is exhausted; add an LLM with --model)",
                              StopReason.IDLE_OPERATORS)

    def _evaluation_budget_full(self, evaluating: int) -> bool:
        limit = self.config.budget.evaluations
        return limit is not None and self.state.evaluated_count() + evaluating >= limit

    def _starving(self, evaluating: int) -> bool:
        return (not self.ready and evaluating < self.pool.capacity
                and self.emitter.has_instant() and self.emitter.can_ask(instant=True))

    def _check_models(self) -> None:
        """No model left: stop the run, or go on with the operators that need none (offline_fallback)."""
        why = self.llm.exhausted if self.llm is not None else None
        if why is None:
            return
        if not self.config.offline_fallback:
            self.stop(f"{LLM_FAILED}: {why}", StopReason.LLM_FAILED)
            return
        log.warning("%s; going on with the template operator (offline_fallback)", why)
        self.emitter.drop_llm_operators()
        self.llm = None

    # -- seeds -----------------------------------------------------------------------------------
    def add_seeds(self, seeds: list[tuple[str, str]], *, why_none: str = "") -> None:
        """Queue the seed kernels, (name, source) each (only on a fresh run): each judged once, in island 0, and
        shared with the other islands as it is told (:func:`share_seed`). ``why_none``: why seeding made none,
        said when the run stops for want of anything to start from."""
        self.why_no_seed = why_none
        for name, source in seeds:
            self._record(Candidate(id=self.state.next_id(), source=source, operator=OperatorName.SEED, island=0,
                                   note=f"seed {name}"))

    def _record(self, candidate: Candidate) -> None:
        self.state.add_candidate(candidate)
        self.store.add_candidate(candidate)
        self.on_event("candidate")

    def _fail(self, failure: OperatorFailure) -> None:
        self.state.add_failure(failure)
        self.store.add_failure(failure)
        log.info("%s produced nothing: %s: %s", failure.operator, failure.kind, failure.message[:200])
        self.on_event("failure")

    # -- evaluating --------------------------------------------------------------------------------
    async def _evaluate(self, candidate: Candidate) -> Returned:
        """The candidate's results; a pool that fails (a bug of the evaluator's, not the candidate's) gives
        it a named result instead of losing it, so the run's count, its store and its stop reason stay true."""
        try:
            return candidate, await self.pool.evaluate(candidate, self.state.races(candidate.island))
        except Exception as exc:
            log.error("evaluating candidate %d failed in the evaluator itself: %r", candidate.id, exc)
            failed = EvalResult(error=ErrorKind.EVALUATOR_ERROR,
                                message=f"the evaluator failed, not the kernel: {type(exc).__name__}: {exc}")
            return candidate, [(hardware, failed) for hardware in self.state.hardware_types() or ["unknown"]]

    def _tell(self, candidate: Candidate, results: list[tuple[str, EvalResult]]) -> None:
        """Record a candidate's results: the archive, the store, the model bandit, progress."""
        self.device_busy_s += max((result.costs.judge_s for _, result in results), default=0.0)
        told = [self.state.tell(candidate, hardware, result) for hardware, result in results]
        self.store.add_evaluations(told)
        if self.islands is not None:
            self.islands.told(candidate, told)
        if self.llm is not None and candidate.usage.model:  # the bandit between models learns what each brings
            self.llm.credit(candidate.usage.model, improved=any(e.credited for e in told))
        for evaluated in told:
            log.debug("candidate %d (%s%s): %s", candidate.id, candidate.operator,
                      f", {candidate.note}" if candidate.note else "", evaluated.result.headline())
        self.migrations.after(candidate, told)
        self.store.progress(lambda: snapshot(self), force=any(e.credited for e in told))
        self.on_event("evaluation")

    # -- meta-prompt evolution -----------------------------------------------------------------------
    def _prompt_evolved(self, evolution: PromptEvolution) -> None:
        self.store.add_evolution(evolution)
        self.store.save_prompts(self.state.prompts)
        self.on_event("prompt")

"""One island as an emitter of its own: the body of an island actor (:mod:`kernelevo.distributed.island`).

An island holds an :class:`~kernelevo.search.emitter.Emitter` (its producer, operator bandit, repair
queue and its children's failures), its own operators and LLM client (with its own rate limit), its own
meta-prompt population, and a local *view* of its island's archive: the elites it selects parents from.
The archive of record, the budgets and the candidate ids stay with the scheduler in the driver, which

- asks it for a candidate (:meth:`IslandEmitter.ask`: an :class:`Asked`, whose candidate has no id yet:
  the driver numbers and records it);
- tells it each outcome and each elite that migrated into its island (:meth:`IslandEmitter.tell`, a list
  of :class:`Told` and :class:`Migrant` messages, in the order the driver's archive saw them).

Telling is idempotent (an evaluation already known, a migrant already held, is skipped), so the driver
may tell a message again after the island restarted. A restarted island rebuilds itself from storage
(:meth:`IslandEmitter.rebuild`: its island's stored evaluations replayed, in order, and the elites stored
as its island's), then the driver tells it again what it told lately.

Meta-prompt ids: every island adds prompts with ids of its own residue (``id % islands == island``) to one
shared root prompt (id 0), so that the run's prompts stay one table of unique ids.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.candidate import (
    Candidate,
    Evaluated,
    OperatorFailure,
    PromptEvolution,
    Usage,
    remember_source_hash,
)
from kernelevo.records.elite import Elite
from kernelevo.records.result import EvalResult
from kernelevo.records.run_config import RunConfig
from kernelevo.search.producer import NOTHING_TO_VARY
from kernelevo.search.prompt_evolution import PromptEvolver
from kernelevo.search.state import SearchState
from kernelevo.spec import Spec
from kernelevo.variation.llm.metaprompt import MetaPrompt, PromptArchive
from kernelevo.variation.llm.models import ModelPool
from kernelevo.variation.operators import Operator, build_operators

log = logging.getLogger(__name__)

CUT_WAIT_S = 5.0  # for the asks cancelled at the run's end to record what they had spent


class IslandPrompts(PromptArchive):
    """An island's meta-prompt population: the ids it adds are ``island`` modulo ``islands``."""

    island: int = 0
    islands: int = 1

    def add(self, sections: dict[str, str], *, parent_id: int, mutation: str) -> MetaPrompt | None:
        top = max(p.id for p in self.prompts)
        next_id = top + 1 + (self.island - top - 1) % self.islands  # the smallest id above top of our residue
        candidate = MetaPrompt(id=next_id, sections=sections, parent_id=parent_id, mutation=mutation)
        if any(p.digest == candidate.digest for p in self.prompts):
            return None
        self.prompts.append(candidate)
        return candidate

    def owns(self, prompt_id: int) -> bool:
        return prompt_id == 0 or prompt_id % self.islands == self.island


@dataclass
class Told:
    """A candidate of this island's, evaluated: (hardware, result, descriptors) per hardware type."""

    candidate: Candidate
    results: list[tuple[str, EvalResult, list[float] | None]]


@dataclass
class ToldOwn:
    """One of this island's own candidates, evaluated, named by the number the driver gave it and its source's
    hash: the island holds the rest (sent back whole, the tells' pickling was 15% of a driver's samples and their
    unpickling 7% of an island's; by reference, 7.5% and 2.8%: benchmarks/README.md, 2026-12-03). One it does not hold
    (it restarted since it made it) is answered as unknown, and the driver tells it again as a :class:`Told`."""

    candidate_id: int
    source_hash: str
    results: list[tuple[str, EvalResult, list[float] | None]]


@dataclass
class Migrant:
    """An elite of another island that took a cell of this island's archive of record."""

    candidate: Candidate
    hardware: str
    result: EvalResult | None
    elite: Elite


@dataclass
class Duplicate:
    """A candidate this island made was already made elsewhere (the driver checks the whole run): its
    operator made nothing new."""

    failure: OperatorFailure
    source_hash: str = ""  # the kernel's: the island forgets the candidate it made


@dataclass
class Seen:
    """Source hashes of kernels other islands made: this island does not make them again."""

    hashes: list[str]


Message = Told | ToldOwn | Migrant | Duplicate | Seen


@dataclass
class Asked:
    """What one ask brought: a candidate (numbered by the driver), or why none, and what the island did
    meanwhile that the driver records (operator failures, meta-prompts, evolutions)."""

    island: int
    incarnation: str  # new each time the island (re)starts: the driver tells a restarted island again
    candidate: Candidate | None = None
    source_hash: str = ""  # the candidate's: hashing the new string Ray makes was 10% of a driver's samples
    note: str = ""  # why no candidate (NOTHING_TO_VARY: every parent used up by the instant operator)
    failures: list[OperatorFailure] = field(default_factory=list)
    prompts: list[MetaPrompt] = field(default_factory=list)  # its population, when it changed
    evolutions: list[PromptEvolution] = field(default_factory=list)
    llm_failed: str | None = None  # every model failed for good and the run does not go on offline


class IslandEmitter:
    """One island's emitter, operators, LLM client, meta-prompts and local view of its elites."""

    def __init__(self, spec: Spec, config: RunConfig, island: int, *, llm: ModelPool | None = None,
                 operators: dict[str, Operator] | None = None) -> None:
        self.spec, self.config, self.island = spec, config, island
        self.incarnation = uuid.uuid4().hex[:12]
        self.llm = llm
        self.operators = operators if operators is not None else build_operators(llm)
        # each island its own stream of choices (the same seed would make the same picks on every island)
        self.rng = random.Random(config.seed * 1009 + island)
        self.state = SearchState(descriptors=descriptor_set(config.descriptors), tie_tolerance=config.tie_tolerance,
                                 operators=list(self.operators))
        self.state.prompts = IslandPrompts(prompts=PromptArchive.with_default().prompts, island=island,
                                           islands=config.islands)
        self.emitter = self.state.emitter
        self.emitter.start(spec=spec, config=config, state=self.state, operators=self.operators, rng=self.rng,
                           record=self._made, fail=self._failed, save_prompts=self._prompts_changed,
                           islands=[island])
        self._told: set[tuple[int, str]] = set()  # (candidate id, hardware) told: telling is idempotent
        self._unnumbered: dict[str, Candidate] = {}  # made here, by source hash, until told (ToldOwn) or refused
        self._failures: list[OperatorFailure] = []  # recorded by the driver with the next ask's answer
        self._evolutions: list[PromptEvolution] = []
        self._prompts_dirty = False
        # (a lambda: _failures is a new list after each ask's answer)
        self.prompt_evolver = PromptEvolver(self.state, config.evolve_prompts_every, self.rng,
                                            language=spec.settings.language,
                                            fail=lambda failure: self._failures.append(failure),
                                            evolved=self._prompt_evolved, label=f"island {island}: ")
        self._evolving: asyncio.Task[None] | None = None
        self._asking: set[asyncio.Task[Any]] = set()  # asks under way (the run's end cuts them short)
        self._llm_failed: str | None = None

    # -- rebuilt -----------------------------------------------------------------------------------
    def rebuild(self, candidates: list[Candidate], evaluations: list[tuple[Evaluated, list[float] | None]],
                elites: list[tuple[str, Elite]], prompts: PromptArchive | None) -> None:
        """This island as stored: its candidates (every source is known made), its evaluations told again
        in order, then the elites stored as its island's (migrants among them), and its meta-prompts."""
        by_id = {c.id: c for c in candidates}
        for candidate in candidates:  # every island's: none is made again
            self.state.seen_sources.add(candidate.source_hash)
        for evaluated, measures in evaluations:
            known = by_id.get(evaluated.candidate_id)
            if known is not None and known.island == self.island:
                self._tell_one(known, evaluated.hardware, evaluated.result, measures, replayed=True)
        results = {(e.candidate_id, e.hardware): e.result for e, _ in evaluations}
        for hardware, elite in elites:
            holder = by_id.get(elite.candidate_id)
            if holder is not None:
                self._migrant(Migrant(holder, hardware, results.get((elite.candidate_id, hardware)), elite))
        if prompts is not None:
            own = [p for p in prompts.prompts if self._prompts.owns(p.id)]
            if own:
                self._prompts.prompts = [p.model_copy() for p in own]
        self.prompt_evolver.caught_up()

    @property
    def _prompts(self) -> IslandPrompts:
        assert isinstance(self.state.prompts, IslandPrompts)
        return self.state.prompts

    # -- asked -------------------------------------------------------------------------------------
    async def ask(self, *, instant: bool = False) -> Asked:
        """Make one candidate (or say why none), with what the driver must record meanwhile."""
        task = asyncio.current_task()
        if task is not None:
            self._asking.add(task)
        try:
            return await self._ask(instant)
        finally:
            self._asking.discard(task)

    async def _ask(self, instant: bool) -> Asked:
        candidate: Candidate | None = None
        note = ""
        self._check_models()
        if self._llm_failed is not None:
            pass
        elif self.emitter.can_ask(instant=instant):
            made = await self.emitter.ask(instant=instant)
            if isinstance(made, Candidate):
                candidate = made
            elif isinstance(made, str):
                note = made
        elif any(len(a) for a in self.state.archives.values()):  # elites, each used up by the instant operator
            note = NOTHING_TO_VARY
        self._maybe_evolve()
        return self._answer(candidate, note)

    def _answer(self, candidate: Candidate | None, note: str) -> Asked:
        asked = Asked(island=self.island, incarnation=self.incarnation, candidate=candidate, note=note,
                      source_hash=candidate.source_hash if candidate is not None else "",
                      failures=self._failures, evolutions=self._evolutions, llm_failed=self._llm_failed)
        if self._prompts_dirty:
            asked.prompts = [p.model_copy() for p in self._prompts.prompts]
        self._failures, self._evolutions, self._prompts_dirty = [], [], False
        return asked

    def can_ask(self, *, instant: bool = False) -> bool:
        return self.emitter.can_ask(instant=instant)

    def drain(self) -> Asked:
        """What the driver has not recorded yet (failures, prompts, evolutions), with no candidate."""
        return self._answer(None, "")

    async def cut_short(self) -> Asked:
        """The run is over: the asks and the prompt evolution under way are cancelled (an LLM call cut short
        is recorded with its prompt's tokens), then :meth:`drain`."""
        under_way = [t for t in (*self._asking, self._evolving) if t is not None and not t.done()]
        for task in under_way:
            task.cancel()
        if under_way:
            await asyncio.wait(under_way, timeout=CUT_WAIT_S)
        return self.drain()

    def _made(self, candidate: Candidate) -> None:
        """The producer made a candidate: its source is known here at once; the driver numbers it."""
        self.state.seen_sources.add(candidate.source_hash)
        self._unnumbered[candidate.source_hash] = candidate
        self.state.usage = self.state.usage + candidate.usage
        if candidate.operator.startswith("llm"):
            self.state.llm_samples += 1
        self.emitter.made(candidate)

    def _failed(self, failure: OperatorFailure) -> None:
        self.state.usage = self.state.usage + failure.usage
        self.emitter.tell_failure(failure)
        self._failures.append(failure)

    def _prompts_changed(self) -> None:
        self._prompts_dirty = True

    def _check_models(self) -> None:
        why = self.llm.exhausted if self.llm is not None else None
        if why is None:
            return
        if not self.config.offline_fallback:
            self._llm_failed = why
            return
        log.warning("island %d: %s; going on with the template operator (offline_fallback)", self.island, why)
        self.emitter.drop_llm_operators()
        self.llm = None

    # -- meta-prompt evolution ---------------------------------------------------------------------
    def _maybe_evolve(self) -> None:
        """Every ``evolve_prompts_every`` of this island's LLM samples, one evolution of its own prompts."""
        if self._evolving is not None and not self._evolving.done():
            return
        if self.prompt_evolver.due(self.llm):
            assert self.llm is not None
            self._evolving = asyncio.get_running_loop().create_task(self.prompt_evolver.evolve(self.llm))

    def _prompt_evolved(self, evolution: PromptEvolution) -> None:
        self._evolutions.append(evolution)
        self._prompts_dirty = True

    # -- told --------------------------------------------------------------------------------------
    def tell(self, messages: list[Message]) -> tuple[str, list[int]]:
        """Outcomes and migrants, in the driver's order (each known one skipped). Returns the incarnation
        told, and the ids of the :class:`ToldOwn` candidates it does not hold (to be told again whole)."""
        unknown: list[int] = []
        for message in messages:
            if isinstance(message, ToldOwn):
                made = self._unnumbered.pop(message.source_hash, None)
                if made is None:
                    if all((message.candidate_id, hw) not in self._told for hw, _, _ in message.results):
                        unknown.append(message.candidate_id)
                    continue
                numbered = made.model_copy(update={"id": message.candidate_id})
                remember_source_hash(numbered.source, message.source_hash)  # (hashed when made, a second ago)
                for hardware, result, measures in message.results:
                    self._tell_one(numbered, hardware, result, measures)
            elif isinstance(message, Told):
                self._unnumbered.pop(message.candidate.source_hash, None)
                for hardware, result, measures in message.results:
                    self._tell_one(message.candidate, hardware, result, measures)
            elif isinstance(message, Migrant):
                self._migrant(message)
            elif isinstance(message, Seen):
                self.state.seen_sources.update(message.hashes)
            else:
                self._unnumbered.pop(message.source_hash, None)
                self.emitter.tell_failure(message.failure)
        return self.incarnation, unknown

    def _tell_one(self, candidate: Candidate, hardware: str, result: EvalResult, measures: list[float] | None,
                  *, replayed: bool = False) -> None:
        if (candidate.id, hardware) in self._told:
            return
        self._told.add((candidate.id, hardware))
        if candidate.id not in self.state.candidates:
            if replayed:  # as made: its usage, its LLM sample and its repair count here
                self.state.add_candidate(candidate)
            else:  # made here: counted when made (_made)
                self.state.candidates[candidate.id] = candidate
                for parent in candidate.parent_ids:
                    self.state.children[parent].append(candidate.id)
                self.state.seen_sources.add(candidate.source_hash)
        if candidate.prompt_id is not None and not any(p.id == candidate.prompt_id for p in self._prompts.prompts):
            candidate = candidate.model_copy(update={"prompt_id": None})  # a prompt this island no longer has
        evaluated = self.state.tell(candidate, hardware, result, measures=measures)
        if not replayed and self.llm is not None and candidate.usage.model:  # its own model bandit learns too
            self.llm.credit(candidate.usage.model, improved=evaluated.credited)

    def _migrant(self, migrant: Migrant) -> None:
        """Another island's elite in this island's view: a parent to select, with its source and result."""
        candidate, elite = migrant.candidate, migrant.elite
        if candidate.id not in self.state.candidates:
            self.state.candidates[candidate.id] = candidate  # not made here: no sample, no repair, no usage
            self.state.seen_sources.add(candidate.source_hash)
        if migrant.result is not None and self.state.result_of(candidate.id, migrant.hardware) is None:
            self.state.evaluations[candidate.id].append(Evaluated(
                candidate_id=candidate.id, hardware=migrant.hardware, result=migrant.result,
                objective=elite.objective, measures=list(elite.measures), island=candidate.island))
        archive = self.state.archive(self.island, migrant.hardware)
        if all(e.candidate_id != candidate.id for e in archive.elites()):
            archive.add(candidate.id, elite.objective, elite.measures, elite.rel_iqr)

    # -- what the tests and the display read ---------------------------------------------------------
    def elite_ids(self) -> dict[str, list[int]]:
        """Per hardware type, the candidate ids of this island's local view of its elites."""
        return {hw: sorted(e.candidate_id for e in self.state.elites(self.island, hw))
                for hw in self.state.hardware_types()}

    def usage(self) -> Usage:
        return self.state.usage


__all__ = ["Asked", "Duplicate", "IslandEmitter", "IslandPrompts", "Message", "Migrant", "Seen", "Told", "ToldOwn"]

"""Making the next candidate: an island, an operator, parents and inspirations, then a kernel not seen yet.

An emitter (:class:`~kernelevo.search.emitter.Emitter`) holds one; the scheduler
(:mod:`kernelevo.search.scheduler`) runs :meth:`Emitter.ask`, that is :meth:`Producer.produce`, as its
*produce* tasks. It reads the archives and candidates from the state, and the operator bandit, the
repair queue and the children's failures from its emitter.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kernelevo.evaluation.common.library_policy import effective_policy
from kernelevo.records.candidate import Candidate, OperatorFailure, OperatorName, remembered_source_hash
from kernelevo.records.elite import Elite
from kernelevo.records.run_config import RunConfig
from kernelevo.search.selection import SelectionMix, Selector
from kernelevo.search.used_up import UsedUp
from kernelevo.spec import Spec
from kernelevo.variation.llm.client import cut_short
from kernelevo.variation.llm.prompts import HardwareFacts
from kernelevo.variation.operators import Operator, Parent, VariationRequest

if TYPE_CHECKING:  # the state holds the emitter, which holds this producer
    from kernelevo.search.emitter import Emitter
    from kernelevo.search.state import SearchState

# what a produce returns that found every parent used up by the instant operator: it tried nothing, so it
# does not count towards the tries in a row that made nothing (new elites, on their way, may be fresh)
NOTHING_TO_VARY = "nothing to vary"
REDRAWS = 20  # more draws an instant operator gets when it lands on a kernel already made


@dataclass
class InstantCost:
    """What an emitter's instant operators (the template operator's edits) have cost it: each draw's CPU time
    in the thread that made it. Benchmarks read it to split a result's CPU into making the candidate and the
    rest (the search's bookkeeping, and with island actors what the split adds). LLM operators are not
    counted: their calls wait on the network while other tasks run in the same thread."""

    produced: int = 0  # produce calls that ran an instant operator (a candidate, a duplicate or a failure)
    cpu_s: float = 0.0


class Producer:
    """Chooses what to vary and how, and records what came of it (through ``record`` and ``fail``)."""

    def __init__(self, *, spec: Spec, config: RunConfig, state: SearchState, emitter: Emitter,
                 operators: dict[str, Operator], rng: random.Random, record: Callable[[Candidate], None],
                 fail: Callable[[OperatorFailure], None], save_prompts: Callable[[], None],
                 islands: Sequence[int] | None = None) -> None:
        self.spec, self.config, self.state, self.operators, self.rng = spec, config, state, operators, rng
        # the islands it makes candidates for: every island of the run in one process, one island's own
        # in an island actor (kernelevo.distributed.island)
        self.islands = list(islands) if islands is not None else list(range(config.islands))
        self.emitter = emitter
        self.record, self.fail, self.save_prompts = record, fail, save_prompts
        self.selector = Selector(SelectionMix(config.exploitation, config.exploration, config.random_pick))
        self.used_up = UsedUp()  # parents the instant operators have mined out
        self.instant_cost = InstantCost()
        self._island = 0

    def can_produce(self, *, instant: bool = False) -> bool:
        """An archive holds an elite that an operator can vary: any, for an LLM operator; for an instant
        one, an elite whose neighbourhood it has not used up (else new elites are waited for)."""
        if not any(len(archive) for archive in self.state.archives.values()):
            return False
        if not instant and any(op.uses_llm for op in self.operators.values()):
            return True
        return any(self.used_up.any_fresh(self.state.elites(island, hardware))
                   for island, hardware in self.state.archives)

    def has_instant(self) -> bool:
        return any(not op.uses_llm for op in self.operators.values())

    def drop_llm_operators(self) -> None:
        self.operators = {name: op for name, op in self.operators.items() if not op.uses_llm}

    async def produce(self, *, instant: bool = False) -> Candidate | str | None:
        """A new candidate (recorded); :data:`NOTHING_TO_VARY`; or None when nothing new was made."""
        started = time.thread_time()
        ran: list[bool] = []  # whether the operator that ran uses an LLM (empty: none ran)
        try:
            return await self._produce(instant, ran)
        finally:
            if ran == [False]:  # an instant operator ran (it never yields: the thread's CPU is this produce's)
                self.instant_cost.produced += 1
                self.instant_cost.cpu_s += time.thread_time() - started

    async def _produce(self, instant: bool, ran: list[bool]) -> Candidate | str | None:
        island, hardware = self._next_island(), self.rng.choice(self.state.hardware_types())
        elites = self.state.elites(island, hardware)
        if not elites:  # this island has none yet: take the first that has
            island, elites = next(((i, found) for i in self.islands
                                   if (found := self.state.elites(i, hardware))), (island, elites))
        if not elites:
            return None
        available = self._available_operators(island, hardware)
        if instant:
            available = [n for n in available if not self.operators[n].uses_llm]
        if not available:
            return None
        name = self.emitter.bandit.choose(self.rng, available)
        operator = self.operators[name]
        if not operator.uses_llm:  # parents it has not used up, on this island or the first that has some
            island, elites = self._fresh_elites(island, hardware, operator.arity)
            if not elites:
                return NOTHING_TO_VARY
        if name == OperatorName.LLM_REPAIR:
            broken = self.emitter.repairs.take(self.rng)
            parents = [Parent(broken, self.state.result_of(broken.id, hardware))]
        else:
            chosen = self.selector.parents(elites, operator.arity, self.rng)
            parents = [Parent(self.state.candidates[e.candidate_id], self.state.result_of(e.candidate_id, hardware))
                       for e in chosen]
        first = parents[0].candidate
        inspirations = [Parent(self.state.candidates[e.candidate_id], self.state.result_of(e.candidate_id, hardware))
                        for e in self.selector.inspirations(elites, _elite_of(elites, first.id), self.rng,
                                                            self.config.inspirations)]
        meta = self.state.prompts.choose(self.rng) if operator.uses_llm else None
        request = VariationRequest(
            spec_source=self.spec.source, parents=parents, hardware=HardwareFacts.from_result(parents[0].result),
            rng=self.rng, inspirations=inspirations, failures=self.emitter.failures_from(first.id), meta=meta,
            library=effective_policy(self.config.evaluation.library, self.spec.settings.library),
            bf16x6=self.spec.settings.bf16x6, partition=self._partition(first),
        )
        ran.append(operator.uses_llm)
        try:
            proposal = await operator.propose(request)
        except asyncio.CancelledError as cancelled:  # the run stops: an ask cut short still cost its prompt
            failure = cut_short(name, cancelled, [p.candidate.id for p in parents])
            if failure is not None:
                self.fail(failure)
            raise
        for _ in range(0 if operator.uses_llm else REDRAWS):
            if proposal.source is None or remembered_source_hash(proposal.source) not in self.state.seen_sources:
                break
            proposal = await operator.propose(request)
        parent_ids = [p.candidate.id for p in parents]
        new = proposal.source is not None and remembered_source_hash(proposal.source) not in self.state.seen_sources
        if not operator.uses_llm:
            self.used_up.record(first.id, made_new=new)
        if proposal.source is None:
            self.fail(OperatorFailure(operator=name, kind=proposal.failure_kind or "failed",
                                      message=proposal.failure, parent_ids=parent_ids, usage=proposal.usage))
            return None
        if not new:
            self.fail(OperatorFailure(operator=name, kind="duplicate", message="an identical kernel was already made",
                                      parent_ids=parent_ids, usage=proposal.usage))
            return None
        candidate = Candidate(id=self.state.next_id(), source=proposal.source, operator=proposal.operator or name,
                              parent_ids=parent_ids,
                              prompt_id=meta.id if meta else None, island=island, note=proposal.note,
                              usage=proposal.usage)
        self.record(candidate)
        if meta is not None:
            self.save_prompts()
        return candidate

    def _partition(self, parent: Candidate) -> tuple[int, int] | None:
        """This island's share of a seed's parameter moves, where it is one island actor of several: every
        island holds the seeds, and without shares 2 islands made the same kernel from a seed 614 times in
        28,672 results, 11 with shares (benchmarks/README.md, "the store's writer in the driver, seeds shared
        out"). An island's own elites stay its own."""
        if len(self.islands) != 1 or self.config.islands < 2 or parent.operator != OperatorName.SEED:
            return None
        return self.islands[0], self.config.islands

    def _next_island(self) -> int:
        self._island = (self._island + 1) % len(self.islands)
        return self.islands[self._island]

    def _available_operators(self, island: int, hardware: str) -> list[str]:
        elites = self.state.elites(island, hardware)
        available = []
        for name, op in self.operators.items():
            if op.arity > len(elites):
                continue
            if name == OperatorName.LLM_REPAIR and not self.emitter.repairs.targets():
                continue
            available.append(name)
        return available

    def _fresh_elites(self, island: int, hardware: str, arity: int) -> tuple[int, list[Elite]]:
        """Elites an instant operator has not used up: this island's, or the first island's that has some."""
        for i in [island, *self.islands]:
            fresh = self.used_up.fresh(self.state.elites(i, hardware))
            if len(fresh) >= arity:
                return i, fresh
        return island, []


def _elite_of(elites: list[Elite], candidate_id: int) -> Elite:
    return next((e for e in elites if e.candidate_id == candidate_id), elites[0])

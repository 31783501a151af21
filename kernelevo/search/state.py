"""A search's record in memory: candidates, evaluations, the archives of record, usage, and its emitter.

:meth:`SearchState.tell` is the scheduler's tell, in pyribs' roles: the archive adds a correct kernel
and returns its outcome (:class:`~kernelevo.records.elite.AddOutcome`), and the emitter that asked
for the candidate is told the evaluation with that outcome (:class:`~kernelevo.search.emitter.Emitter`:
its bandit, repair queue and children's failures). The scheduler calls it as results arrive;
:func:`replay` calls it again for every stored evaluation, in order, with the stored island migrations
between them where they were made, which rebuilds the same archives and the same emitter.
"""

from __future__ import annotations

import math
from collections import defaultdict, deque
from dataclasses import dataclass, field

from kernelevo.archive.descriptors import Descriptor
from kernelevo.archive.elites import ElitesArchive
from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, Usage
from kernelevo.records.elite import Elite, Migration
from kernelevo.records.race import Race
from kernelevo.records.result import EvalResult
from kernelevo.search.bandit import OperatorBandit
from kernelevo.search.emitter import Emitter
from kernelevo.storage.recorder import StoredRun
from kernelevo.variation.llm.metaprompt import PromptArchive


def objective_of(result: EvalResult) -> float | None:
    """Log speedup over eager of a correct kernel (interpreted runs: the same ratio of CPU times)."""
    if not result.ok or result.kernel is None or result.eager is None:
        return None
    return math.log(result.eager.median_ms / result.kernel.median_ms)


@dataclass
class SearchState:
    descriptors: list[Descriptor]
    tie_tolerance: float
    operators: list[str]
    prompts: PromptArchive = field(default_factory=PromptArchive.with_default)
    candidates: dict[int, Candidate] = field(default_factory=dict)
    evaluations: dict[int, list[Evaluated]] = field(default_factory=lambda: defaultdict(list))
    archives: dict[tuple[int, str], ElitesArchive] = field(default_factory=dict)
    failures: list[OperatorFailure] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    seen_sources: set[str] = field(default_factory=set)
    llm_samples: int = 0
    last: Evaluated | None = None  # the evaluation told most recently
    children: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))  # parent id -> child ids

    def __post_init__(self) -> None:
        self.emitter = Emitter(operators=self.operators)  # the one that asks for every candidate (no islands yet)
        self._next_id = 0
        self._evaluated = 0  # counted as told: the loop asks on every pass
        self._correct = 0

    # -- ids and bookkeeping ---------------------------------------------------------------------
    def next_id(self) -> int:
        return self._next_id

    def add_candidate(self, candidate: Candidate) -> None:
        self.candidates[candidate.id] = candidate
        self._next_id = max(self._next_id, candidate.id + 1)
        for parent in candidate.parent_ids:
            self.children[parent].append(candidate.id)
        self.seen_sources.add(candidate.source_hash)
        self.usage = self.usage + candidate.usage
        if candidate.operator.startswith("llm"):
            self.llm_samples += 1
        self.emitter_of(candidate).made(candidate)

    def add_failure(self, failure: OperatorFailure) -> None:
        self.failures.append(failure)
        self.usage = self.usage + failure.usage
        self.emitter.tell_failure(failure)

    def emitter_of(self, candidate: Candidate) -> Emitter:
        """The emitter that asked for ``candidate``, to be told its outcome (one for the whole search today)."""
        return self.emitter

    @property
    def bandit(self) -> OperatorBandit:
        """The emitter's operator bandit (what the display's operator table shows)."""
        return self.emitter.bandit

    def pending(self) -> list[Candidate]:
        """Candidates made but never evaluated (a run stopped in between)."""
        return [c for cid, c in sorted(self.candidates.items()) if cid not in self.evaluations]

    def archive(self, island: int, hardware: str) -> ElitesArchive:
        key = (island, hardware)
        if key not in self.archives:
            self.archives[key] = ElitesArchive(self.descriptors, tie_tolerance=self.tie_tolerance)
        return self.archives[key]

    def races(self, island: int) -> dict[str, Race]:
        """Per hardware type, the elites a candidate of ``island`` must beat (a slower one's timing stops early)."""
        return {hardware: archive.race() for (isl, hardware), archive in self.archives.items() if isl == island}

    # -- results ---------------------------------------------------------------------------------
    def measure(self, candidate: Candidate, result: EvalResult) -> list[float]:
        return [d(candidate.source, result) for d in self.descriptors]

    def tell(self, candidate: Candidate, hardware: str, result: EvalResult,
             measures: list[float] | None = None) -> Evaluated:
        """Record one evaluation: a correct kernel is offered to its island's archive, and the outcome is
        told to the emitter that asked for the candidate.

        ``measures`` are its descriptors when already known (a resumed run replays the
        stored ones instead of analysing every source again).
        """
        objective = objective_of(result)
        evaluated = Evaluated(candidate_id=candidate.id, hardware=hardware, result=result, objective=objective,
                              island=candidate.island)
        if objective is not None:
            if measures is None and result.measures is not None:  # measured where it was evaluated
                measures = [result.measures[d.name] for d in self.descriptors if d.name in result.measures]
                measures = measures if len(measures) == len(self.descriptors) else None
            measures = self.measure(candidate, result) if measures is None else measures
            rel_iqr = result.kernel.relative_iqr if result.kernel else 0.0
            outcome = self.archive(candidate.island, hardware).add(candidate.id, objective, tuple(measures), rel_iqr)
            evaluated.measures, evaluated.archive_status = measures, outcome.status
            evaluated.cell = outcome.cell
            if candidate.prompt_id is not None:
                self.prompts.record(candidate.prompt_id, objective, candidate.id)
        self.evaluations[candidate.id].append(evaluated)
        self.last = evaluated
        self._evaluated += 1
        self._correct += evaluated.correct
        self.emitter_of(candidate).tell(candidate, evaluated)
        return evaluated

    # -- queries for selection and display -------------------------------------------------------
    def elites(self, island: int, hardware: str) -> list[Elite]:
        return self.archive(island, hardware).elites() if (island, hardware) in self.archives else []

    def result_of(self, candidate_id: int, hardware: str) -> EvalResult | None:
        return next((e.result for e in self.evaluations.get(candidate_id, []) if e.hardware == hardware), None)

    def repair_targets(self, limit: int = 20) -> list[Candidate]:
        """Recent rejected candidates worth a repair, not yet repaired (the emitter's repair queue)."""
        return self.emitter.repairs.targets(limit)

    def failures_from(self, parent_id: int, limit: int = 3) -> list[str]:
        """Evaluator output of the parent's children that failed, the latest told last (the emitter keeps it)."""
        return self.emitter.failures_from(parent_id, limit)

    def best(self, hardware: str) -> tuple[Elite, Candidate] | None:
        # each archive's best, kept by pyribs as elites are added: no walk over every elite (the
        # progress snapshot asks after each result)
        bests = [e for (_, hw), archive in self.archives.items() if hw == hardware if (e := archive.best()) is not None]
        if not bests:
            return None
        top = max(bests, key=lambda e: e.objective)
        return top, self.candidates[top.candidate_id]

    def hardware_types(self) -> list[str]:
        return sorted({hw for (_, hw) in self.archives})

    def evaluated_count(self) -> int:
        return self._evaluated

    def correct_count(self) -> int:
        return self._correct


def replay(stored: StoredRun, *, descriptors: list[Descriptor], tie_tolerance: float,
           operators: list[str]) -> SearchState:
    """A state rebuilt from a stored run, in the order it was made (a fresh state for a new run)."""
    state = SearchState(descriptors=descriptors, tie_tolerance=tie_tolerance, operators=operators)
    if stored.prompts is not None:
        state.prompts = stored.prompts
    for candidate in stored.candidates:
        state.add_candidate(candidate)
    for failure in stored.failures:
        state.add_failure(failure)
    for evolution in stored.evolutions:
        state.usage = state.usage + evolution.usage
    migrations = deque(stored.migrations)
    for evaluated, measures in stored.evaluations:
        _migrate_due(state, migrations)
        known = state.candidates.get(evaluated.candidate_id)
        if known is not None:
            state.tell(known, evaluated.hardware, evaluated.result, measures=measures)
    _migrate_due(state, migrations)
    return state


def _migrate_due(state: SearchState, migrations: deque[Migration]) -> None:
    """The stored migrations made once as many evaluations were told as ``state`` has now, applied (and taken)."""
    while migrations and migrations[0].after_evaluations <= state.evaluated_count():
        due = migrations.popleft()
        elite = due.elite
        state.archive(due.island, due.hardware).add(elite.candidate_id, elite.objective, elite.measures, elite.rel_iqr)

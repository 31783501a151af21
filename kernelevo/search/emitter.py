"""An emitter (pyribs' role): asked for candidates, told their outcomes.

Asked (:meth:`Emitter.ask`), its producer (:class:`~kernelevo.search.producer.Producer`) picks an
island, an operator (the emitter's bandit), parents and inspirations (the producer's selection,
minus the parents the instant operators used up, or a kernel from the emitter's repair queue) and a
meta-prompt, and runs the operator. Told (:meth:`Emitter.tell`), it learns what the archive did with
a result: the bandit is rewarded for a gain beyond the noise, a repairable rejection joins the repair
queue, and the rejection's output is kept for the parents' next children's prompts.

Only the scheduler's tell reaches it (:meth:`kernelevo.search.state.SearchState.tell`, after the
archive's add), and replay tells it the stored run again, so a resumed run's emitter knows what it
knew. A search in one process has one emitter for all its islands; with ``--islands N`` on Ray each
island is an emitter of its own in an actor (:mod:`kernelevo.distributed.island`), wrapping this class.
"""

from __future__ import annotations

import random
from collections import defaultdict, deque
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure
from kernelevo.search.bandit import OperatorBandit
from kernelevo.search.producer import Producer
from kernelevo.search.repair_queue import RepairQueue

if TYPE_CHECKING:
    from kernelevo.records.run_config import RunConfig
    from kernelevo.search.state import SearchState
    from kernelevo.spec import Spec
    from kernelevo.variation.operators import Operator

FAILURES_KEPT = 8  # a parent's latest rejected children whose output is kept for its next prompts


class Emitter:
    """One emitter's memory (bandit, repair queue, its children's failures) and, once started, its producer."""

    def __init__(self, *, operators: list[str]) -> None:
        self.bandit = OperatorBandit(operators)
        self.repairs = RepairQueue()
        # parent id -> what its latest rejected children were told (failures_from), kept as told: a seed has
        # thousands of children to search
        self.failed_children: defaultdict[int, deque[str]] = defaultdict(lambda: deque(maxlen=FAILURES_KEPT))
        self._producer: Producer | None = None

    # -- asked -----------------------------------------------------------------------------------
    def start(self, *, spec: Spec, config: RunConfig, state: SearchState, operators: dict[str, Operator],
              rng: random.Random, record: Callable[[Candidate], None], fail: Callable[[OperatorFailure], None],
              save_prompts: Callable[[], None], islands: Sequence[int] | None = None) -> None:
        """Give the emitter what asking needs (a search session does; replaying and telling need none of it).
        ``islands``: those it makes candidates for (default: every island of the run)."""
        self._producer = Producer(spec=spec, config=config, state=state, emitter=self, operators=operators,
                                  rng=rng, record=record, fail=fail, save_prompts=save_prompts, islands=islands)

    @property
    def producer(self) -> Producer:
        if self._producer is None:
            raise RuntimeError("this emitter was not started: call Emitter.start(...) before asking it")
        return self._producer

    def ask(self, *, instant: bool = False) -> Coroutine[Any, Any, Candidate | str | None]:
        """The work of making one candidate (see :meth:`Producer.produce`), for the scheduler to run as a task."""
        return self.producer.produce(instant=instant)

    def can_ask(self, *, instant: bool = False) -> bool:
        return self.producer.can_produce(instant=instant)

    def has_instant(self) -> bool:
        return self.producer.has_instant()

    def drop_llm_operators(self) -> None:
        self.producer.drop_llm_operators()

    # -- told ------------------------------------------------------------------------------------
    def made(self, candidate: Candidate) -> None:
        """A candidate was made (by this emitter, or read back from storage)."""
        self.repairs.made(candidate)

    def tell(self, candidate: Candidate, evaluated: Evaluated) -> None:
        """What the evaluator and the archive made of one of this emitter's candidates."""
        result = evaluated.result
        if not evaluated.correct:
            line = (f"{candidate.note or candidate.operator}: {result.error}: "
                    f"{result.message.splitlines()[0] if result.message else ''}")
            for parent in candidate.parent_ids:
                self.failed_children[parent].append(line)
        self.repairs.told(candidate, result)
        if candidate.operator in self.bandit.stats:
            self.bandit.update(candidate.operator, evaluated.credited)

    def tell_failure(self, failure: OperatorFailure) -> None:
        """An operator of this emitter made nothing: its arm loses."""
        if failure.operator in self.bandit.stats:
            self.bandit.update(failure.operator, False)

    # -- what the producer reads -------------------------------------------------------------------
    def failures_from(self, parent_id: int, limit: int = 3) -> list[str]:
        """Evaluator output of the parent's children that failed, the latest told last: shown to the LLM."""
        return list(self.failed_children.get(parent_id, ()))[-limit:]

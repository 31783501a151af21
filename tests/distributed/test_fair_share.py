"""The weighted fair queue, over simulated completions on a made-up clock (no Ray, no sleeping)."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable

import pytest

from kernelevo.distributed.fair_share import FairQueue, UnknownRun


class Simulation:
    """``slots`` evaluators draining a FairQueue; each run's evaluations take ``seconds[run]``."""

    def __init__(self, slots: int, seconds: dict[str, float], weights: dict[str, float]) -> None:
        self.now = 0.0
        self.queue: FairQueue[int] = FairQueue(now=lambda: self.now)
        self.seconds, self.slots = seconds, slots
        self.running: list[tuple[float, int, object]] = []  # (end, serial, ticket)
        self.used: Counter[str] = Counter()  # evaluator-seconds finished, per run
        self.evaluations: Counter[str] = Counter()
        for run, weight in weights.items():
            self.add(run, weight)

    def add(self, run: str, weight: float, backlog: int = 10_000) -> None:
        self.queue.add_run(run, weight=weight)
        for i in range(backlog):
            self.queue.push(run, i)

    def fill(self) -> None:
        while len(self.running) < self.slots and (popped := self.queue.pop()) is not None:
            _, ticket = popped
            heapq.heappush(self.running, (self.now + self.seconds[str(ticket.run_id)], ticket.serial, ticket))

    def advance(self, until: float, on_done: Callable[[str], None] | None = None) -> None:
        self.fill()
        while self.running and self.running[0][0] <= until:
            end, _, ticket = heapq.heappop(self.running)
            self.now = end
            self.queue.done(ticket, self.seconds[ticket.run_id])  # type: ignore[attr-defined]
            self.used[ticket.run_id] += self.seconds[ticket.run_id]  # type: ignore[attr-defined]
            self.evaluations[ticket.run_id] += 1  # type: ignore[attr-defined]
            if on_done:
                on_done(ticket.run_id)  # type: ignore[attr-defined]
            self.fill()
        self.now = until

    def share(self, run: str) -> float:
        return self.used[run] / sum(self.used.values())


def test_equal_weights_share_evenly() -> None:
    sim = Simulation(slots=2, seconds={"a": 1.0, "b": 1.0}, weights={"a": 1, "b": 1})
    sim.advance(600)
    assert sim.share("a") == pytest.approx(0.5, abs=0.01)


def test_weights_three_to_one_give_three_quarters() -> None:
    sim = Simulation(slots=4, seconds={"a": 1.0, "b": 1.0}, weights={"a": 3, "b": 1})
    sim.advance(600)
    assert sim.share("a") == pytest.approx(0.75, abs=0.01)


def test_the_share_is_of_evaluator_time_not_of_evaluations() -> None:
    """A run whose kernels take 3x as long to judge gets a third of the evaluations, the same seconds."""
    sim = Simulation(slots=2, seconds={"slow": 3.0, "fast": 1.0}, weights={"slow": 1, "fast": 1})
    sim.advance(1200)
    assert sim.share("slow") == pytest.approx(0.5, abs=0.02)
    assert sim.evaluations["fast"] == pytest.approx(3 * sim.evaluations["slow"], rel=0.05)


def test_several_slots_freeing_at_once_are_spread_over_the_runs() -> None:
    """The estimate charged at dispatch: four slots free together go two and two, not four to one run."""
    queue: FairQueue[int] = FairQueue()
    for run in ("a", "b"):
        queue.add_run(run)
        for i in range(10):
            queue.push(run, i)
    first = [queue.pop() for _ in range(4)]
    assert Counter(t.run_id for _, t in first if t) == {"a": 2, "b": 2}  # type: ignore[misc]


def test_an_idle_run_does_not_hoard_credit() -> None:
    sim = Simulation(slots=2, seconds={"a": 1.0, "b": 1.0}, weights={"a": 1})
    sim.advance(1000)  # a alone for a long time: b, registered later, earned nothing meanwhile
    sim.used.clear()
    sim.add("b", 1)
    sim.advance(1060)
    assert sim.share("b") == pytest.approx(0.5, abs=0.05)  # not all of the next minute


def test_a_run_that_comes_back_from_idling_starts_level() -> None:
    """b had work early, then none for a long while (a got everything): when b's work returns it gets its
    share from then on, not the time it missed."""
    sim = Simulation(slots=2, seconds={"a": 1.0, "b": 1.0}, weights={"a": 1})
    sim.add("b", 1, backlog=10)
    sim.advance(1000)
    sim.used.clear()
    for i in range(10_000):
        sim.queue.push("b", i)
    sim.advance(1060)
    assert sim.share("b") == pytest.approx(0.5, abs=0.05)


def test_removing_a_run_frees_its_share_at_once_and_hands_back_its_items() -> None:
    sim = Simulation(slots=2, seconds={"a": 1.0, "b": 1.0}, weights={"a": 1, "b": 1})
    sim.advance(100)
    dropped = sim.queue.remove_run("b")
    assert len(dropped) == 10_000 - sim.evaluations["b"] - 1  # all but those finished and the one in flight
    assert "b" not in sim.queue
    sim.used.clear()
    sim.advance(200)  # b's evaluation in flight ends (the queue ignores it); every later slot goes to a
    assert sim.used["b"] <= 1 and sim.used["a"] == pytest.approx(200, abs=2)
    assert set(sim.queue.shares()) == {"a"}
    with pytest.raises(UnknownRun, match="not registered"):
        sim.queue.push("b", 1)


def test_shares_over_the_window() -> None:
    sim = Simulation(slots=4, seconds={"a": 0.5, "b": 0.5}, weights={"a": 3, "b": 1})
    sim.queue.window_s = 60
    sim.advance(300)
    shares = sim.queue.shares()
    assert shares["a"].share == pytest.approx(0.75, abs=0.02) and shares["a"].weight == 3
    assert shares["a"].seconds + shares["b"].seconds == pytest.approx(4 * 60, abs=2)  # only the last minute
    assert shares["a"].in_flight + shares["b"].in_flight == 4


def test_a_weight_must_be_positive() -> None:
    with pytest.raises(ValueError, match="above 0"):
        FairQueue().add_run("a", weight=0)

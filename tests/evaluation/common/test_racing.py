"""Racing: the stopping rule's error bound, the cell a Race finds, and the timing loop that uses it."""

from __future__ import annotations

import math
import random
import time

import torch

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.archive.elites import ElitesArchive
from kernelevo.evaluation.common.racing import RACE_MARGIN, clearly_slower, looks, median_lower_bound, threshold_ms
from kernelevo.evaluation.common.timing import time_callable
from kernelevo.search.state import SearchState


def test_the_race_finds_the_cell_pyribs_finds() -> None:
    rng = random.Random(0)
    for name in ("levels", "metadata"):
        archive = ElitesArchive(descriptor_set(name))
        race = archive.race()
        for _ in range(3000):  # inside, outside, on the integer values and on the cell boundaries
            measures = tuple(rng.choice([rng.uniform(d.low - 1, d.high + 1),
                                         float(rng.randint(int(d.low), int(d.high))),
                                         d.low + (d.high - d.low) * rng.randint(0, d.cells) / d.cells])
                             for d in archive.descriptors)
            assert race.cell(measures) == archive.cell_of(measures), measures


def test_the_lower_bound_is_above_the_true_median_rarely() -> None:
    """At every look, for skewed timing-like samples, the bound exceeds the true median in under 0.5% of runs."""
    rng = random.Random(1)
    true_median = 1.0  # lognormal(0, s) has median exp(0) = 1
    for n in sorted(looks(20))[:4]:
        above = sum(median_lower_bound([rng.lognormvariate(0, 0.1) for _ in range(n)]) > true_median  # type: ignore[operator]
                    for _ in range(4000))
        assert above / 4000 < 0.005, (n, above)


def test_the_rule_stops_a_clearly_slower_kernel_and_never_a_tie() -> None:
    rng = random.Random(2)
    slower = [rng.gauss(2.0, 0.02) for _ in range(20)]
    tie = [rng.gauss(1.0 + RACE_MARGIN / 2, 0.02) for _ in range(640)]
    assert clearly_slower(slower, 1.0 * (1 + RACE_MARGIN))
    assert not clearly_slower(tie, 1.0 * (1 + RACE_MARGIN))
    assert median_lower_bound([1.0] * 5) is None  # too few samples to bound anything


def test_a_race_threshold_comes_from_the_cells_elite_and_its_spread() -> None:
    archive = ElitesArchive(descriptor_set("levels"))
    names = [d.name for d in archive.descriptors]
    here, elsewhere = (1.0, 2.0, 1.0), (3.0, 0.0, 3.0)
    archive.add(candidate_id=7, objective=math.log(2.0), measures=here, rel_iqr=0.10)  # 2x faster than eager
    race = archive.race()
    assert race.incumbents == {archive.cell_of(here): (math.log(2.0), 0.10)}
    # eager at 4 ms: the elite's median is 2 ms, its spread (10%) is above the 5% margin
    assert math.isclose(threshold_ms(race, dict(zip(names, here, strict=True)), eager_ms=4.0), 2.0 * 1.10)
    assert threshold_ms(race, dict(zip(names, elsewhere, strict=True)), eager_ms=4.0) is None  # an empty cell
    assert threshold_ms(race, None, eager_ms=4.0) is None  # descriptors that could not be measured
    archive.add(candidate_id=8, objective=math.log(3.0), measures=elsewhere, rel_iqr=0.0)
    assert len(archive.race().incumbents) == 2  # the cached race is dropped when the archive changes


def test_the_search_state_hands_each_island_its_own_elites() -> None:
    state = SearchState(descriptors=descriptor_set("levels"), tie_tolerance=0.02, operators=["template"])
    state.archive(0, "NVIDIA H200").add(candidate_id=1, objective=0.5, measures=(1.0, 1.0, 1.0), rel_iqr=0.0)
    state.archive(1, "NVIDIA H200")
    assert set(state.races(0)) == {"NVIDIA H200"} and len(state.races(0)["NVIDIA H200"].incumbents) == 1
    assert state.races(1)["NVIDIA H200"].incumbents == {}
    assert state.races(2) == {}


def _sleeper(ms: float):
    def call() -> None:
        until = time.perf_counter() + ms / 1000
        while time.perf_counter() < until:
            pass
    return call


def test_the_timing_loop_stops_at_the_first_look_once_clearly_slower() -> None:
    cpu = torch.device("cpu")
    kwargs = {"device": cpu, "warmup": 1, "min_reps": 20, "min_measure_ms": 200.0, "max_reps": 400,
              "budget_ms": 5000.0, "target_rel_iqr": 1e-9}  # without the race, 200 ms of samples at the least
    raced = time_callable(_sleeper(2.0), [()], race_ms=1.0, **kwargs)
    assert raced.timing.raced and raced.timing.repetitions == 20
    full = time_callable(_sleeper(2.0), [()], race_ms=4.0, **kwargs)
    assert not full.timing.raced and full.timing.repetitions >= 100

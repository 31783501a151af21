"""Choosing parents (exploitation, exploration, random) and inspirations from the archive's elites."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kernelevo.records.elite import Elite
from kernelevo.search.selection import SelectionMix, Selector

EXPLOIT = SelectionMix(exploitation=1.0, exploration=0.0, random=0.0)
EXPLORE = SelectionMix(exploitation=0.0, exploration=1.0, random=0.0)
RANDOM = SelectionMix(exploitation=0.0, exploration=0.0, random=1.0)


def elites(n: int) -> list[Elite]:
    """``n`` elites in cells 0..n-1 with objectives in a shuffled order (cell 3 is the best)."""
    objectives = [0.1 * ((7 * i + 3) % n) for i in range(n)]
    return [Elite(candidate_id=100 + i, objective=o, measures=(float(i), 0.0, 0.0), cell=i, rel_iqr=0.01)
            for i, o in enumerate(objectives)]


def best(pool: list[Elite]) -> Elite:
    return max(pool, key=lambda e: e.objective)


def test_exploitation_with_a_full_tournament_always_picks_the_best() -> None:
    pool = elites(8)
    selector = Selector(SelectionMix(exploitation=1.0, exploration=0.0, random=0.0, tournament=len(pool)))
    rng = random.Random(0)
    for _ in range(50):
        chosen, kind = selector.parent(pool, rng)
        assert kind == "exploitation"
        assert chosen is best(pool)


def test_exploitation_picks_the_best_of_its_tournament() -> None:
    pool = elites(8)
    selector = Selector(SelectionMix(exploitation=1.0, exploration=0.0, random=0.0, tournament=2))
    counts = Counter(selector.parent(pool, random.Random(i))[0].cell for i in range(400))
    ranked = sorted(pool, key=lambda e: e.objective)
    assert ranked[0].cell not in counts  # the worst never wins a tournament of two
    assert counts[best(pool).cell] > counts[ranked[1].cell]
    # selection pressure: a tournament of two picks the best with chance 2/n
    assert 60 < counts[best(pool).cell] < 150


def test_a_tournament_larger_than_the_archive_still_picks_the_best() -> None:
    pool = elites(3)
    selector = Selector(SelectionMix(exploitation=1.0, exploration=0.0, random=0.0, tournament=10))
    assert selector.parent(pool, random.Random(0))[0] is best(pool)


def test_exploration_picks_every_cell_before_any_twice() -> None:
    pool = elites(6)
    selector = Selector(EXPLORE)
    rng = random.Random(1)
    rounds = [[selector.parent(pool, rng)[0].cell for _ in range(len(pool))] for _ in range(3)]
    for picks in rounds:
        assert sorted(picks) == list(range(len(pool)))
    assert selector.picks == Counter({cell: 3 for cell in range(len(pool))})


def test_exploration_catches_up_on_cells_new_to_the_archive() -> None:
    pool = elites(4)
    selector = Selector(EXPLORE)
    rng = random.Random(2)
    for _ in range(8):
        selector.parent(pool[:3], rng)
    newcomer, kind = selector.parent(pool, rng)
    assert (newcomer.cell, kind) == (3, "exploration")


def test_exploitation_picks_count_for_exploration() -> None:
    pool = elites(4)
    selector = Selector(SelectionMix(exploitation=1.0, exploration=0.0, random=0.0, tournament=4))
    selector.parent(pool, random.Random(0))
    selector.mix = EXPLORE
    picked = {selector.parent(pool, random.Random(i))[0].cell for i in range(3)}
    assert best(pool).cell not in picked


def test_random_picks_are_roughly_uniform() -> None:
    pool = elites(5)
    selector = Selector(RANDOM)
    rng = random.Random(3)
    picks = [selector.parent(pool, rng) for _ in range(1000)]
    assert {kind for _, kind in picks} == {"random"}
    counts = Counter(e.cell for e, _ in picks)
    assert set(counts) == set(range(5))
    assert all(150 < c < 250 for c in counts.values())


def test_the_mix_sets_the_share_of_each_kind() -> None:
    selector = Selector(SelectionMix(exploitation=0.5, exploration=0.3, random=0.2))
    rng = random.Random(4)
    kinds = Counter(selector.parent(elites(5), rng)[1] for _ in range(2000))
    assert 900 < kinds["exploitation"] < 1100
    assert 500 < kinds["exploration"] < 700
    assert 300 < kinds["random"] < 500


def test_an_empty_archive_raises() -> None:
    with pytest.raises(ValueError, match="empty"):
        Selector().parent([], random.Random(0))


def test_invalid_mixes_are_rejected() -> None:
    with pytest.raises(ValueError):
        SelectionMix(exploitation=0.0, exploration=0.0, random=0.0)
    with pytest.raises(ValueError):
        SelectionMix(exploitation=1.0, exploration=-0.1, random=0.0)


def test_inspirations_come_from_other_cells_best_first() -> None:
    pool = elites(8)
    parent = best(pool)
    for seed in range(20):
        chosen = Selector.inspirations(pool, parent, random.Random(seed), k=3)
        assert len(chosen) == 3
        assert parent.cell not in {e.cell for e in chosen}
        assert len({e.cell for e in chosen}) == 3
        others = [e for e in pool if e.cell != parent.cell]
        assert chosen[0] is best(others)


def test_inspirations_are_at_most_k_and_at_most_the_other_cells() -> None:
    pool = elites(3)
    assert len(Selector.inspirations(pool, pool[0], random.Random(0), k=5)) == 2
    assert len(Selector.inspirations(pool, pool[0], random.Random(0), k=1)) == 1
    assert Selector.inspirations(pool[:1], pool[0], random.Random(0), k=2) == []


def test_inspirations_skip_elites_sharing_the_parents_cell() -> None:
    pool = elites(3)
    twin = Elite(candidate_id=999, objective=5.0, measures=pool[0].measures, cell=pool[0].cell, rel_iqr=0.0)
    chosen = Selector.inspirations([*pool, twin], pool[0], random.Random(0), k=3)
    assert twin not in chosen
    assert {e.cell for e in chosen} == {1, 2}


def test_zero_inspirations_is_an_empty_list() -> None:
    pool = elites(4)
    assert Selector.inspirations(pool, pool[0], random.Random(0), k=0) == []


def test_a_crossover_never_pairs_a_kernel_with_itself() -> None:
    """With the best elite picked by exploitation every time, the second parent is still another one."""
    selector, rng = Selector(SelectionMix(1.0, 0.0, 0.0)), random.Random(0)
    elites = [Elite(candidate_id=i, objective=float(i), measures=(0.0,), cell=i, rel_iqr=0.01) for i in range(3)]
    for _ in range(50):
        first, second = selector.parents(elites, 2, rng)
        assert first.candidate_id != second.candidate_id
    [only] = selector.parents(elites[:1], 1, rng)
    assert selector.parents(elites[:1], 2, rng) == [only, only]  # one elite: the only pair there is

"""One island's emitter, without Ray: asked for candidates of its own island, told idempotently, rebuilt."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.distributed.simulated import made_up_measures, simulated_result
from kernelevo.evaluation import EvalOptions
from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure
from kernelevo.records.elite import Elite
from kernelevo.records.run_config import RunConfig
from kernelevo.search.island import Duplicate, IslandEmitter, IslandPrompts, Migrant, Seen, Told, ToldOwn
from kernelevo.search.islands import destination
from kernelevo.search.producer import NOTHING_TO_VARY
from kernelevo.spec import read_spec
from kernelevo.variation.llm.metaprompt import SECTIONS, PromptArchive

ROOT = Path(__file__).resolve().parents[2]
NAMES = [d.name for d in descriptor_set("levels")]


@pytest.fixture  # cheap: a module scope would keep the file on one worker
def matmul():
    return read_spec(str(ROOT / "examples" / "matmul_epilogue" / "spec.py"))


def told(candidate: Candidate) -> Told:
    result = simulated_result(candidate.source, 0.0)
    measures = made_up_measures(candidate.source, NAMES)
    return Told(candidate, [("simulated", result, [measures[n] for n in NAMES])])


def seeds(spec, island: int) -> list[Candidate]:
    return [Candidate(id=i, source=source, operator="seed", island=island)
            for i, (_, source) in enumerate(spec.seed_sources())]


def test_an_islands_prompts_take_ids_of_its_own_residue() -> None:
    prompts = [IslandPrompts(prompts=PromptArchive.with_default().prompts, island=i, islands=3) for i in range(3)]
    added = [[p.add({SECTIONS[0]: f"r{i}-{k}"}, parent_id=0, mutation="m") for k in range(2)] for i, p in
             enumerate(prompts)]
    assert [[a.id for a in row if a] for row in added] == [[3, 6], [1, 4], [2, 5]]
    assert prompts[1].owns(0) and prompts[1].owns(4) and not prompts[1].owns(3)


def test_random_migration_never_sends_an_island_to_itself() -> None:
    rng = random.Random(0)
    picks = [destination(1, 4, "random", rng) for _ in range(200)]
    assert set(picks) == {0, 2, 3}
    assert destination(3, 4, "ring", None) == 0 and destination(0, 2, "random", rng) == 1


def test_an_island_makes_candidates_for_itself_from_what_it_was_told_once(matmul) -> None:
    config = RunConfig(islands=3, evaluation=EvalOptions(device="cpu"))
    island = IslandEmitter(matmul, config, 2)
    nothing = asyncio.run(island.ask())
    assert nothing.candidate is None and nothing.note == ""  # told no elite yet: nothing to vary, and no claim
    first = seeds(matmul, 2)
    island.tell([told(c) for c in first])
    island.tell([told(c) for c in first])  # told again (after a restart, say): known, skipped
    assert island.state.evaluated_count() == len(first)
    asked = asyncio.run(island.ask())
    assert asked.candidate is not None and asked.candidate.island == 2 and asked.candidate.operator == "template"
    assert asked.candidate.parent_ids[0] in {c.id for c in first}
    # another island's elite, migrated here twice: one elite of this island's view, a parent to select
    other = Candidate(id=50, source=first[0].source + "\n# another island's", operator="template", island=0)
    result = simulated_result(other.source, 0.0)
    elite = Elite(50, 9.0, tuple(made_up_measures(other.source, NAMES)[n] for n in NAMES), 0, 0.0)
    island.tell([Migrant(other, "simulated", result, elite)] * 2)
    assert island.elite_ids()["simulated"].count(50) == 1
    assert island.state.result_of(50, "simulated") is not None
    island.tell([Seen(["made-by-island-0"])])  # another island's kernel: never made here again
    assert "made-by-island-0" in island.state.seen_sources


def test_an_island_told_its_own_candidate_by_reference_holds_it_numbered(matmul) -> None:
    config = RunConfig(islands=2, evaluation=EvalOptions(device="cpu"))
    island = IslandEmitter(matmul, config, 1)
    island.tell([told(c) for c in seeds(matmul, 1)])
    made = [asyncio.run(island.ask()).candidate for _ in range(3)]
    assert all(m is not None for m in made)
    kept, refused, forgotten = made
    assert kept is not None and refused is not None and forgotten is not None
    message = told(kept.model_copy(update={"id": 70}))
    by_reference = ToldOwn(70, kept.source_hash, message.results)
    before = island.state.evaluated_count()
    refused_failure = OperatorFailure(operator="template", kind="duplicate", message="made by island 0")
    assert island.tell([by_reference, Duplicate(refused_failure, refused.source_hash)]) == (island.incarnation, [])
    numbered = island.state.candidates[70]
    assert numbered.source == kept.source and numbered.parent_ids == kept.parent_ids and numbered.island == 1
    assert island.state.evaluated_count() == before + 1
    assert island.tell([by_reference]) == (island.incarnation, [])  # told again: known, skipped
    assert island.state.evaluated_count() == before + 1
    # what it does not hold (a restarted island's, or one it refused) comes back by its id, to be told whole
    elsewhere = ToldOwn(71, "0" * 16, message.results)
    refused_ref = ToldOwn(72, refused.source_hash, message.results)
    assert island.tell([elsewhere, refused_ref]) == (island.incarnation, [71, 72])
    assert island.state.evaluated_count() == before + 1
    assert list(island._unnumbered) == [forgotten.source_hash]


def test_a_rebuilt_island_sees_what_a_told_one_sees(matmul) -> None:
    config = RunConfig(islands=2, evaluation=EvalOptions(device="cpu"))
    live, rebuilt = IslandEmitter(matmul, config, 1), IslandEmitter(matmul, config, 1)
    mine = seeds(matmul, 1)
    theirs = Candidate(id=len(mine), source=mine[0].source + "\n# island 0's", operator="template", island=0)
    live.tell([told(c) for c in mine])
    messages = [told(c) for c in mine]
    evaluations = [(Evaluated(candidate_id=m.candidate.id, hardware=h, result=r), measures)
                   for m in messages for h, r, measures in m.results]
    migrant_measures = tuple(made_up_measures(theirs.source, NAMES)[n] for n in NAMES)
    elite = Elite(theirs.id, 5.0, migrant_measures, 0, 0.0)
    live.tell([Migrant(theirs, "simulated", simulated_result(theirs.source, 0.0), elite)])
    rebuilt.rebuild([*mine, theirs], evaluations, [("simulated", elite)], None)
    assert rebuilt.elite_ids() == live.elite_ids() and theirs.id in live.elite_ids()["simulated"]
    assert rebuilt.state.evaluated_count() == live.state.evaluated_count() == len(mine)
    assert asyncio.run(rebuilt.ask()).note != NOTHING_TO_VARY


def test_island_actors_share_a_seeds_moves_and_keep_their_own_elites_whole(matmul) -> None:
    """Every island holds the seeds: each varies its own share of a seed's parameter moves (no two make the same
    kernel from it); an island's own elite, and the islands of one process (which see each other's kernels at
    once), vary the whole neighbourhood."""
    config = RunConfig(islands=2, evaluation=EvalOptions(device="cpu"))
    seed, = seeds(matmul, 0)[:1]
    own = Candidate(id=9, source=seed.source + "\n# made here", operator="template", island=1)
    producers = [IslandEmitter(matmul, config, i).emitter.producer for i in range(2)]
    assert [p._partition(seed) for p in producers] == [(0, 2), (1, 2)]
    assert producers[1]._partition(own) is None
    alone = IslandEmitter(matmul, RunConfig(islands=1, evaluation=EvalOptions(device="cpu")), 0).emitter.producer
    assert alone._partition(seed) is None
    made = []
    for i in range(2):  # what each island makes from the seed alone: none makes the other's
        island = IslandEmitter(matmul, config, i)
        island.tell([told(c) for c in seeds(matmul, i)[:1]])  # (the seed as this island holds it)
        asks = [asyncio.run(island.ask(instant=True)).candidate for _ in range(40)]
        # (its parameter moves, "BLOCK_M 64 -> 128": the few restructurings of a parent are not shared out)
        made.append({c.source for c in asks if c is not None and " -> " in c.note})
    assert made[0] and made[1] and not made[0] & made[1]

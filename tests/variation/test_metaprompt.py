"""The meta-prompt archive: the default prompt, rendering, softmax choice, fitness records, dedup and parsing."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kernelevo.variation.llm.metaprompt import SECTIONS, MetaPrompt, PromptArchive, parse_sections

HEADINGS = ["## Philosophy", "## Strategies", "## Pitfalls", "## Analysis"]


def sections(tag: str) -> dict[str, str]:
    return {name: f"{tag} {name} text." for name in SECTIONS}


def archive_of(*fitnesses: float | None, exploration: float = 0.0) -> PromptArchive:
    return PromptArchive(prompts=[MetaPrompt(id=i, sections=sections(f"p{i}"), fitness=f)
                                  for i, f in enumerate(fitnesses)], exploration=exploration)


def shares(archive: PromptArchive, draws: int = 1000, seed: int = 0) -> Counter[int]:
    rng = random.Random(seed)
    return Counter(archive.choose(rng).id for _ in range(draws))


def test_the_default_archive_has_one_prompt_with_all_four_sections() -> None:
    archive = PromptArchive.with_default()
    assert len(archive.prompts) == 1
    prompt = archive.prompts[0]
    assert prompt.id == 0
    assert set(prompt.sections) == set(SECTIONS)
    assert all(text.strip() for text in prompt.sections.values())
    assert (prompt.fitness, prompt.uses, prompt.parent_id) == (None, 0, None)


def test_render_has_the_four_headings_in_order() -> None:
    text = PromptArchive.with_default().prompts[0].render()
    positions = [text.index(heading + "\n") for heading in HEADINGS]
    assert positions == sorted(positions)
    assert text.startswith("## Philosophy\n")


def test_render_skips_empty_sections() -> None:
    prompt = MetaPrompt(id=0, sections={**sections("x"), "pitfalls": ""})
    text = prompt.render()
    assert "## Pitfalls" not in text
    assert "## Analysis\nx analysis text." in text


def test_the_default_prompt_renders_and_parses_back() -> None:
    prompt = PromptArchive.with_default().prompts[0]
    assert parse_sections(prompt.render()) == {k: v.strip() for k, v in prompt.sections.items()}


def test_choose_without_exploration_prefers_the_fitter_prompt() -> None:
    counts = shares(archive_of(0.0, 1.0))
    assert counts[1] > 4 * counts[0]
    assert counts[0] > 0  # a softmax, not an argmax


def test_choose_with_full_exploration_is_uniform() -> None:
    counts = shares(archive_of(0.0, 3.0, exploration=1.0))
    assert 400 < counts[0] < 600


def test_prompts_without_fitness_count_as_the_worst_one() -> None:
    counts = shares(archive_of(None, 1.0, 0.0))
    assert counts[1] > 2 * counts[0]
    assert counts[1] > 2 * counts[2]


def share_of_first_with_uses(uses: int, draws: int = 1000) -> float:
    """How often the first of two equally fit prompts is chosen while it has been used ``uses`` times."""
    archive = archive_of(0.5, 0.5)
    rng = random.Random(1)
    picks = 0
    for _ in range(draws):
        archive.prompts[0].uses, archive.prompts[1].uses = uses, 0  # hold the counts: only the penalty varies
        picks += archive.choose(rng).id == 0
    return picks / draws


def test_usage_penalty_lowers_a_prompts_share_as_its_uses_grow() -> None:
    share = [share_of_first_with_uses(uses) for uses in (0, 100, 10_000)]
    assert 0.4 < share[0] < 0.6
    assert share[0] > share[1] > share[2]
    assert share[2] < 0.25


def test_usage_penalty_spreads_the_picks_of_equal_prompts() -> None:
    archive = archive_of(0.5, 0.5, 0.5)
    archive.usage_penalty = 2.0
    counts = shares(archive, draws=300)
    assert min(counts.values()) > 80  # the uses of each balance the others


def test_choose_increments_uses() -> None:
    archive = archive_of(0.0, 1.0)
    rng = random.Random(0)
    chosen = [archive.choose(rng).id for _ in range(50)]
    assert [p.uses for p in archive.prompts] == [chosen.count(0), chosen.count(1)]
    single = PromptArchive.with_default()
    single.choose(rng)
    single.choose(rng)
    assert single.prompts[0].uses == 2


def test_choose_is_deterministic_for_a_seeded_rng() -> None:
    assert shares(archive_of(0.0, 0.3, 0.6, exploration=0.2), seed=5) == \
        shares(archive_of(0.0, 0.3, 0.6, exploration=0.2), seed=5)


def test_record_keeps_the_best_objective_and_its_candidate() -> None:
    archive = PromptArchive.with_default()
    archive.record(0, 0.2, candidate_id=7)
    assert (archive.get(0).fitness, archive.get(0).best_candidate_id) == (0.2, 7)
    archive.record(0, 0.1, candidate_id=8)
    assert (archive.get(0).fitness, archive.get(0).best_candidate_id) == (0.2, 7)
    archive.record(0, 0.5, candidate_id=9)
    assert (archive.get(0).fitness, archive.get(0).best_candidate_id) == (0.5, 9)
    archive.record(0, -1.0, candidate_id=10)
    assert archive.get(0).best_candidate_id == 9


def test_record_of_a_negative_first_objective_is_kept() -> None:
    archive = PromptArchive.with_default()
    archive.record(0, -0.7, candidate_id=3)
    assert (archive.get(0).fitness, archive.get(0).best_candidate_id) == (-0.7, 3)


def test_add_assigns_increasing_ids_with_parent_and_mutation() -> None:
    archive = PromptArchive.with_default()
    first = archive.add(sections("a"), parent_id=0, mutation="improve")
    second = archive.add(sections("b"), parent_id=1, mutation="simplify")
    assert first is not None and second is not None
    assert (first.id, first.parent_id, first.mutation) == (1, 0, "improve")
    assert (second.id, second.parent_id, second.mutation) == (2, 1, "simplify")
    assert [p.id for p in archive.prompts] == [0, 1, 2]
    assert archive.get(2) is second
    assert (second.fitness, second.uses) == (None, 0)


def test_add_rejects_a_duplicate_up_to_case_and_white_space() -> None:
    archive = PromptArchive.with_default()
    original = archive.prompts[0].sections
    shouted = {k: "  " + "\n".join(v.upper().split(" ")) + "\n" for k, v in original.items()}
    assert archive.add(shouted, parent_id=0, mutation="improve") is None
    assert archive.add(dict(original), parent_id=0, mutation="improve") is None
    assert len(archive.prompts) == 1
    changed = {**original, "pitfalls": original["pitfalls"] + " Also check the grid."}
    assert archive.add(changed, parent_id=0, mutation="elaborate") is not None
    assert len(archive.prompts) == 2


def test_archive_round_trips_through_json() -> None:
    archive = archive_of(0.1, None, exploration=0.3)
    archive.prompts[0].uses = 4
    again = PromptArchive.model_validate_json(archive.model_dump_json())
    assert again == archive


def test_parse_sections_from_level_two_headings() -> None:
    reply = "\n".join(f"{h}\n{name} body\nmore {name}\n" for h, name in zip(HEADINGS, SECTIONS, strict=True))
    assert parse_sections(reply) == {name: f"{name} body\nmore {name}" for name in SECTIONS}


def test_parse_sections_accepts_other_heading_levels_and_text_around() -> None:
    reply = ("Here is the evolved prompt.\n\n```markdown\n"
             "# Philosophy\nBe simple.\n\n"
             "### Strategies (ranked)\n- fuse\n- tile\n\n"
             "## pitfalls\n- masks\n\n"
             "### ANALYSIS\nRead the roofline.\n```\n")
    assert parse_sections(reply) == {"philosophy": "Be simple.", "strategies": "- fuse\n- tile",
                                     "pitfalls": "- masks", "analysis": "Read the roofline."}


def test_parse_sections_names_the_missing_ones() -> None:
    reply = "## Philosophy\nBe simple.\n## Strategies\n- fuse\n"
    with pytest.raises(ValueError, match="pitfalls, analysis"):
        parse_sections(reply)


def test_parse_sections_treats_an_empty_section_as_missing() -> None:
    reply = "## Philosophy\nBe simple.\n## Strategies\n\n## Pitfalls\n- masks\n## Analysis\nRead it.\n"
    with pytest.raises(ValueError, match="strategies"):
        parse_sections(reply)


def test_parse_sections_ignores_headings_deeper_than_three() -> None:
    reply = "## Philosophy\nA\n#### Strategies\nB\n## Pitfalls\nC\n## Analysis\nD\n"
    with pytest.raises(ValueError, match="strategies"):
        parse_sections(reply)

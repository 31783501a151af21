"""Meta-prompt evolution: an LLM rewrites one of the prompts the LLM operators use.

Every ``evolve_prompts_every`` LLM samples the loop asks for one: a prompt is chosen, a
mutation drawn (:data:`~kernelevo.variation.llm.metaprompt.MUTATIONS`), and the LLM is shown the
prompt with the best kernel it led to. The new prompt joins the archive unless it repeats
one; a failed call or an unusable reply is an operator failure of ``prompt-evolution``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from kernelevo.records.candidate import OperatorFailure, PromptEvolution
from kernelevo.search.state import SearchState
from kernelevo.variation.llm.client import LLMError, cut_short
from kernelevo.variation.llm.metaprompt import MUTATIONS, MetaPrompt, parse_sections
from kernelevo.variation.llm.models import ModelPool
from kernelevo.variation.llm.prompts import HardwareFacts, evolve_prompt_messages

log = logging.getLogger(__name__)


class PromptEvolver:
    """When meta-prompts evolve, and what becomes of each evolution: one every ``evolve_prompts_every`` LLM
    samples of ``state`` (the scheduler's, in one process; each island actor's own), never without an LLM.
    ``evolved`` takes each evolution (to store it); a failure goes to ``fail``."""

    def __init__(self, state: SearchState, every: int, rng: random.Random, *, language: str,
                 fail: Callable[[OperatorFailure], None], evolved: Callable[[PromptEvolution], None],
                 label: str = "") -> None:
        self.state, self.every, self.rng, self.language = state, every, rng, language
        self.fail, self.evolved, self.label = fail, evolved, label
        self.started = 0  # evolutions started (caught_up: those the samples already taken called for)
        self.caught_up()

    def caught_up(self) -> None:
        """Count the samples already taken as evolved for (a new run's none; a rebuilt state's all)."""
        self.started = self.state.llm_samples // self.every

    def due(self, llm: ModelPool | None) -> bool:
        return llm is not None and self.state.llm_samples // self.every > self.started

    async def evolve(self, llm: ModelPool) -> None:
        """One evolution, started now (:meth:`due` is then false until ``every`` more samples)."""
        self.started = self.state.llm_samples // self.every
        outcome = await evolve_prompt(llm, self.state, self.rng, language=self.language, fail=self.fail)
        if isinstance(outcome, OperatorFailure):
            self.fail(outcome)
            return
        evolution, added = outcome
        self.evolved(evolution)
        log.info("%smeta-prompt %s from %d", self.label, f"{added.id} made by '{evolution.mutation}'" if added
                 else "was a duplicate, dropped", evolution.parent_id)


async def evolve_prompt(llm: ModelPool, state: SearchState, rng: random.Random, *, language: str,
                        fail: Callable[[OperatorFailure], None]
                        ) -> tuple[PromptEvolution, MetaPrompt | None] | OperatorFailure:
    """One evolution of ``state.prompts`` (the prompt added, or None for a duplicate), or why it failed; a call
    cut short (the run stops) is recorded through ``fail`` as it is cancelled."""
    prompts = state.prompts
    meta = prompts.choose(rng)
    mutation = rng.choice(list(MUTATIONS))
    best = None
    hardware = state.hardware_types()[0] if state.hardware_types() else ""
    if meta.best_candidate_id is not None:
        best = (state.candidates[meta.best_candidate_id].source, state.result_of(meta.best_candidate_id, hardware))
    facts = HardwareFacts.from_result(best[1] if best else None)
    try:
        reply = await llm.complete(evolve_prompt_messages(meta, mutation, best, facts, language=language))
    except asyncio.CancelledError as cancelled:
        failure = cut_short("prompt-evolution", cancelled)
        if failure is not None:
            fail(failure)
        raise
    except LLMError as exc:
        return OperatorFailure(operator="prompt-evolution", kind="llm_error", message=exc.message, usage=exc.usage)
    try:
        sections = parse_sections(reply.text)
    except ValueError as exc:
        return OperatorFailure(operator="prompt-evolution", kind="unusable_reply", message=str(exc),
                               usage=reply.usage)
    added = prompts.add(sections, parent_id=meta.id, mutation=mutation)
    state.usage = state.usage + reply.usage
    return PromptEvolution(parent_id=meta.id, mutation=mutation, prompt_id=added.id if added else None,
                           usage=reply.usage), added

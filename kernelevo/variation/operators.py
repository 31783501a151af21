"""Variation operators: one interface, a template operator and four LLM operators.

An operator takes a :class:`VariationRequest` (parents with their measured results,
inspirations, earlier failures, the meta-prompt, the hardware) and returns a
:class:`Proposal`: a new kernel source, or the named reason it has none. Operators never
raise into the search loop.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Protocol

from kernelevo.records.candidate import Candidate, OperatorName, Usage
from kernelevo.records.result import LIBRARY_FAMILIES, EvalResult
from kernelevo.variation.llm import prompts
from kernelevo.variation.llm.client import LLMError, LLMReply
from kernelevo.variation.llm.extract import UnusableReply, apply_edits, extract_module
from kernelevo.variation.llm.metaprompt import MetaPrompt
from kernelevo.variation.llm.prompts import HardwareFacts
from kernelevo.variation.moves import template
from kernelevo.variation.moves.restructure import restructure


@dataclass
class Parent:
    candidate: Candidate
    result: EvalResult | None

    def pair(self) -> tuple[str, EvalResult | None]:
        return self.candidate.source, self.result


@dataclass
class VariationRequest:
    spec_source: str
    parents: list[Parent]
    hardware: HardwareFacts
    rng: random.Random
    inspirations: list[Parent] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # evaluator output of earlier failed children
    meta: MetaPrompt | None = None
    library: tuple[str, ...] = LIBRARY_FAMILIES  # the run's library policy, stated in the LLM's rules
    bf16x6: bool = True  # the spec lets the moves run fp32 GEMMs as six bf16 products (SpecSettings.bf16x6)
    # (share, shares): the template operator's parameter moves of the first parent kept to this share of them,
    # where island actors each vary the same parent (a seed) and would otherwise make the same kernels
    partition: tuple[int, int] | None = None


@dataclass
class Proposal:
    source: str | None
    note: str = ""
    usage: Usage = field(default_factory=Usage)
    failure_kind: str | None = None  # "llm_error", "unusable_reply", "diff_failed", "no_change"
    failure: str = ""
    operator: str | None = None  # recorded as this operator instead (a diff answered with a whole module)

    @classmethod
    def failed(cls, kind: str, message: str, usage: Usage | None = None) -> Proposal:
        return cls(None, usage=usage or Usage(), failure_kind=kind, failure=message)


class Operator(ABC):
    """Makes one new kernel from one or more parents."""

    name: str
    uses_llm: bool = False
    arity: int = 1  # parents needed

    @abstractmethod
    async def propose(self, request: VariationRequest) -> Proposal: ...


class TemplateOperator(Operator):
    """Tunes literal parameters (block sizes, warps, stages); crosses parameter sets of two elites;
    now and then moves a Triton kernel's structure (pipelined loops, eviction hints:
    :mod:`kernelevo.variation.moves.restructure`), and always when no parameter is left to tune."""

    name = OperatorName.TEMPLATE

    def __init__(self, crossover_rate: float = 0.3, restructure_rate: float = 0.15) -> None:
        self.crossover_rate = crossover_rate
        self.restructure_rate = restructure_rate

    async def propose(self, request: VariationRequest) -> Proposal:
        parent = request.parents[0].candidate.source
        donors = [p.candidate.source for p in request.inspirations + request.parents[1:]]
        if donors and request.rng.random() < self.crossover_rate:
            for donor in request.rng.sample(donors, len(donors)):
                crossed = template.crossover(parent, donor, request.rng)
                if crossed is not None:
                    return Proposal(crossed[0], crossed[1])
        restructured = functools.partial(restructure, parent, request.rng, request.hardware.interpreted,
                                         bf16x6=request.bf16x6)
        moved = restructured() if request.rng.random() < self.restructure_rate else None
        mutated = moved or template.mutate(parent, request.rng, partition=request.partition) or restructured()
        if mutated is None:
            return Proposal.failed("no_change", "the kernel exposes no tunable literal (block sizes, warps, stages)")
        return Proposal(mutated[0], mutated[1])


class Completer(Protocol):
    """What LLM operators call: one model (LLMClient) or several (ModelPool)."""

    async def complete(self, messages: list[dict[str, str]]) -> LLMReply: ...


class _LLMOperator(Operator):
    uses_llm = True

    def __init__(self, client: Completer) -> None:
        self.client = client

    @abstractmethod
    def messages(self, request: VariationRequest) -> list[dict[str, str]]: ...

    def extract(self, reply: str, request: VariationRequest) -> tuple[str, str, str | None]:
        """(source, note, operator to record it as: None for this one)."""
        return extract_module(reply), self.name.removeprefix("llm-"), None

    async def propose(self, request: VariationRequest) -> Proposal:
        try:
            reply = await self.client.complete(self.messages(request))
        except LLMError as exc:
            return Proposal.failed("llm_error", f"{exc.kind}: {exc.message}", exc.usage)
        try:
            source, note, recorded_as = self.extract(reply.text, request)
        except UnusableReply as exc:
            return Proposal.failed(exc.kind, str(exc), reply.usage)
        if source.strip() == request.parents[0].candidate.source.strip():
            return Proposal.failed("no_change", "the model returned the parent unchanged", reply.usage)
        return Proposal(source, note, reply.usage, operator=recorded_as)


class RewriteOperator(_LLMOperator):
    name = OperatorName.LLM_REWRITE
    instruction = prompts.REWRITE

    def messages(self, request: VariationRequest) -> list[dict[str, str]]:
        return prompts.improve_messages(request.spec_source, request.parents[0].pair(),
                                        [p.pair() for p in request.inspirations], request.failures, request.meta,
                                        request.hardware, self.instruction, library=request.library)


class DiffOperator(RewriteOperator):
    name = OperatorName.LLM_DIFF
    instruction = prompts.DIFF

    def extract(self, reply: str, request: VariationRequest) -> tuple[str, str, str | None]:
        try:
            source, blocks = apply_edits(request.parents[0].candidate.source, reply)
        except UnusableReply as no_edits:
            if no_edits.kind != "unusable_reply":  # edits that did not apply: a real diff failure
                raise
            try:  # models often answer a diff request with the whole module: that is a rewrite
                return extract_module(reply), "whole module in answer to a diff request", RewriteOperator.name
            except UnusableReply:
                raise no_edits from None
        return source, f"{blocks} edit(s)", None


class CrossoverOperator(_LLMOperator):
    name = OperatorName.LLM_CROSSOVER
    arity = 2

    def messages(self, request: VariationRequest) -> list[dict[str, str]]:
        first, second = request.parents[0], request.parents[1]
        return prompts.crossover_messages(request.spec_source, first.pair(), second.pair(), request.meta,
                                          request.hardware, library=request.library)


class RepairOperator(_LLMOperator):
    """Fixes a rejected kernel from the evaluator's output (its parent is the broken kernel)."""

    name = OperatorName.LLM_REPAIR

    def messages(self, request: VariationRequest) -> list[dict[str, str]]:
        broken = request.parents[0]
        error = f"{broken.result.error}: {broken.result.message}" if broken.result else "unknown error"
        return prompts.repair_messages(request.spec_source, broken.candidate.source, error, request.meta,
                                       request.hardware, library=request.library)


def build_operators(client: Completer | None) -> dict[str, Operator]:
    """The template operator always; the LLM operators when a model is configured."""
    ops: dict[str, Operator] = {OperatorName.TEMPLATE: TemplateOperator()}
    if client is not None:
        for op in (RewriteOperator(client), DiffOperator(client), CrossoverOperator(client), RepairOperator(client)):
            ops[op.name] = op
    return ops

"""Meta-prompts that co-evolve with the kernels (KernelFoundry's prompt archive).

A meta-prompt is the part of the LLM's instructions that carries know-how: a philosophy,
optimization strategies, common pitfalls, and guidance on reading measurements. Prompts
live in a :class:`PromptArchive`; a prompt's fitness is the best objective of any kernel
produced with it. Each LLM call picks a prompt by a softmax over fitness minus a usage
penalty, with an exploration rate; every N samples an LLM evolves one prompt (improve,
specialize, generalize, simplify or elaborate) from that prompt's best kernel and its
results. Duplicates are dropped.
"""

from __future__ import annotations

import hashlib
import math
import random
import re

from pydantic import BaseModel, Field

SECTIONS = ("philosophy", "strategies", "pitfalls", "analysis")
MUTATIONS = {
    "improve": "Improve the prompt so that kernels written with it run faster, using what the measured results show.",
    "specialize": "Specialize the prompt for this operator and this GPU: name the techniques that fit them.",
    "generalize": "Generalize the prompt: keep what made the best kernel fast, drop what only fits this one case.",
    "simplify": "Simplify the prompt: fewer, sharper points; remove anything that did not help.",
    "elaborate": "Elaborate the prompt: add concrete techniques and checks a kernel engineer would use next.",
}

DEFAULT_SECTIONS = {
    "philosophy": (
        "Write the simplest kernel that reaches the hardware's limit. Memory-bound operators are won by moving "
        "each byte once with wide, coalesced accesses; compute-bound ones by keeping tensor cores fed from shared "
        "memory. Measure, then change one thing at a time."
    ),
    "strategies": (
        "- Fuse every elementwise step into the kernel that reads or writes the data.\n"
        "- Give each program enough work (block sizes of thousands of elements for elementwise ops) and enough "
        "programs to fill every SM several times over.\n"
        "- For reductions keep a row in registers when it fits; otherwise use a single-pass online algorithm.\n"
        "- For matmuls tile with tl.dot, accumulate in fp32, pipeline the K loop (num_stages), group the program "
        "order for L2 reuse, and fuse the epilogue.\n"
        "- Expose block sizes, num_warps and num_stages as literal launch arguments so they can be tuned."
    ),
    "pitfalls": (
        "- Masks on every load and store whose block can run past the end; other= values that are neutral for "
        "the reduction.\n"
        "- int32 overflow in offsets of tensors above 2**31 elements: cast the base to int64.\n"
        "- Do not compute in PyTorch in forward, do not catch exceptions, do not cache results: the evaluator "
        "rejects all of these.\n"
        "- Keep dtypes and shapes of the outputs exactly as the reference returns them."
    ),
    "analysis": (
        "Read the roofline fraction first: below 70% of a memory-bound floor means bytes are moved twice or "
        "accesses are narrow; read the registers and spills: spills mean the tile is too large. Compare with "
        "torch.compile's time, which is the bar to beat."
    ),
}


class MetaPrompt(BaseModel):
    id: int
    sections: dict[str, str]
    parent_id: int | None = None
    mutation: str | None = None  # how it was made from its parent
    fitness: float | None = None  # best objective of a kernel made with it
    best_candidate_id: int | None = None
    uses: int = 0

    @property
    def digest(self) -> str:
        text = "\n".join(" ".join(self.sections.get(s, "").split()).lower() for s in SECTIONS)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def render(self) -> str:
        return "\n\n".join(f"## {name.capitalize()}\n{self.sections[name].strip()}" for name in SECTIONS
                           if self.sections.get(name))


class PromptArchive(BaseModel):
    """All meta-prompts of a run, with their fitness and use counts."""

    prompts: list[MetaPrompt] = Field(default_factory=list)
    temperature: float = 0.5  # softmax temperature over fitness (log-speedup units)
    usage_penalty: float = 0.1  # subtracted per log(1 + uses)
    exploration: float = 0.2  # chance of a uniform pick

    @classmethod
    def with_default(cls) -> PromptArchive:
        return cls(prompts=[MetaPrompt(id=0, sections=dict(DEFAULT_SECTIONS))])

    def get(self, prompt_id: int) -> MetaPrompt:
        return next(p for p in self.prompts if p.id == prompt_id)

    def choose(self, rng: random.Random) -> MetaPrompt:
        """Softmax over fitness minus a usage penalty; a uniform pick with the exploration rate."""
        if rng.random() < self.exploration or len(self.prompts) == 1:
            chosen = rng.choice(self.prompts)
        else:
            fitnesses = [p.fitness for p in self.prompts if p.fitness is not None]
            floor = min(fitnesses) if fitnesses else 0.0
            scores = [((p.fitness if p.fitness is not None else floor) - self.usage_penalty * math.log1p(p.uses))
                      / self.temperature for p in self.prompts]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            chosen = rng.choices(self.prompts, weights=weights)[0]
        chosen.uses += 1
        return chosen

    def record(self, prompt_id: int, objective: float, candidate_id: int) -> None:
        """A kernel made with ``prompt_id`` reached ``objective``: the prompt's fitness is its best."""
        prompt = self.get(prompt_id)
        if prompt.fitness is None or objective > prompt.fitness:
            prompt.fitness, prompt.best_candidate_id = objective, candidate_id

    def add(self, sections: dict[str, str], *, parent_id: int, mutation: str) -> MetaPrompt | None:
        """A new prompt, or None when an equal one exists."""
        candidate = MetaPrompt(id=max(p.id for p in self.prompts) + 1, sections=sections, parent_id=parent_id,
                               mutation=mutation)
        if any(p.digest == candidate.digest for p in self.prompts):
            return None
        self.prompts.append(candidate)
        return candidate


def parse_sections(reply: str) -> dict[str, str]:
    """Sections from a reply written as markdown headings '## Philosophy' ... '## Analysis'."""
    found: dict[str, str] = {}
    parts = re.split(r"^#{1,3}\s*(philosophy|strategies|pitfalls|analysis)\b.*$", reply, flags=re.I | re.M)
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        text = body.strip().strip("`").strip()
        if text:
            found[name.lower()] = text
    missing = [s for s in SECTIONS if s not in found]
    if missing:
        raise ValueError(f"the evolved prompt lacks section(s): {', '.join(missing)}")
    return found

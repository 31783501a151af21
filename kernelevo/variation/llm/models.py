"""Several LLMs in one run: a preflight before it starts, a bandit between them, and models
that stop being used the moment they cannot work.

- :func:`preflight` makes one cheap call per model before anything is written, and turns
  a missing key, an endpoint that does not answer (named), an unknown model or a refused
  key into one line that says what to do (:class:`PreflightError`).
- :class:`ModelPool` has the interface the operators use (``complete``). Each call goes
  to a model chosen by Thompson sampling on its improvements (new cells and better
  elites) per dollar, or per token when a price is unknown; a model whose error retrying
  cannot fix (auth, bad request, unknown model, unreachable after its retries) is dropped
  with a warning. When none is left, :attr:`ModelPool.exhausted` says why, and the loop
  stops (or goes on offline if the run asked for that).
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field

from kernelevo.records.candidate import Usage
from kernelevo.records.run_config import LLMConfig
from kernelevo.variation.llm.client import LLMClient, LLMError, LLMReply, missing_key_message, spent_before_cancel

log = logging.getLogger(__name__)

# Errors after which a model is not tried again in this run: retrying cannot fix them.
PERMANENT = frozenset({"auth", "not_found", "bad_request", "connection", "no_key"})
PREFLIGHT_TIMEOUT_S = 30.0


class PreflightError(ValueError):
    """A model cannot work as configured; the message is one line that says what to do."""


@dataclass
class ModelStats:
    """One model's record in this run (also what the summary's per-model table shows)."""

    model: str
    api_base: str | None = None
    usage: Usage = field(default_factory=Usage)
    candidates: int = 0  # kernels it wrote that were evaluated
    improvements: int = 0  # of those: a new cell or a better elite
    failures: int = 0  # calls that failed for good (after retries)
    disabled: str | None = None  # why it is no longer used

    def cost_per_call(self, by_tokens: bool) -> float | None:
        if not self.usage.calls:
            return None
        spent = self.usage.tokens / 1000 if by_tokens else self.usage.cost_usd
        return spent / self.usage.calls


async def preflight(configs: list[LLMConfig]) -> None:
    """One tiny call per model; raise :class:`PreflightError` naming the first that cannot work."""
    for config in configs:
        problem = missing_key_message(config)
        if problem:
            raise PreflightError(problem)
    checks = [_ping(c) for c in configs]
    for config, outcome in zip(configs, await asyncio.gather(*checks, return_exceptions=True), strict=True):
        if isinstance(outcome, LLMError):
            raise PreflightError(f"the model {config.model} did not answer a test call: {outcome.message}")
        if isinstance(outcome, BaseException):
            raise PreflightError(f"the model {config.model} did not answer a test call: {outcome!r}")


async def _ping(config: LLMConfig) -> None:
    """The cheapest real call: one token, no retries of what cannot be fixed, one of what can."""
    probe = config.model_copy(update={"max_tokens": 1, "temperature": 0.0, "max_retries": 1, "backoff_s": 1.0,
                                      "timeout_s": min(config.timeout_s, PREFLIGHT_TIMEOUT_S)})
    await LLMClient(probe, quiet=True).complete([{"role": "user", "content": "Reply with OK."}])


class ModelPool:
    """The run's models behind one ``complete``; see the module docstring."""

    def __init__(self, configs: list[LLMConfig], *, rng: random.Random | None = None) -> None:
        if not configs:
            raise ValueError("a model pool needs at least one model")
        self.clients = {c.model if _unique(configs, c) else f"{c.model}@{c.api_base}": LLMClient(c) for c in configs}
        self.stats = {name: ModelStats(c.config.model, c.config.api_base) for name, c in self.clients.items()}
        self.rng = rng or random.Random(0)

    @property
    def enabled(self) -> list[str]:
        return [name for name, s in self.stats.items() if s.disabled is None]

    @property
    def exhausted(self) -> str | None:
        """Why no model is left, or None while one is."""
        if self.enabled:
            return None
        reasons = "; ".join(f"{name}: {s.disabled}" for name, s in self.stats.items())
        worked = any(s.usage.calls > s.failures for s in self.stats.values())
        return (f"{'every model stopped working' if worked else 'the LLM never worked'} ({reasons})")

    def choose(self) -> str:
        """Thompson sampling: P(improvement) drawn from each model's record, over its cost per call."""
        names = self.enabled
        if not names:
            raise LLMError("no_model", self.exhausted or "no model left")
        if len(names) == 1:
            return names[0]
        by_tokens = not all(self.stats[n].usage.cost_known and self.stats[n].usage.cost_usd > 0
                            for n in names if self.stats[n].usage.calls)
        known = [c for n in names if (c := self.stats[n].cost_per_call(by_tokens)) is not None]
        prior_cost = sum(known) / len(known) if known else 1.0

        def score(name: str) -> float:
            s = self.stats[name]
            chance = self.rng.betavariate(1 + s.improvements, 1 + max(0, s.candidates - s.improvements))
            cost = s.cost_per_call(by_tokens)
            return chance / max(cost if cost is not None else prior_cost, 1e-9)

        return max(names, key=score)

    async def complete(self, messages: list[dict[str, str]]) -> LLMReply:
        """A completion from the chosen model; a model that cannot work is dropped, and the error raised."""
        name = self.choose()
        stats = self.stats[name]
        try:
            reply = await self.clients[name].complete(messages)
        except asyncio.CancelledError as cancelled:  # cut short: the model's record keeps what it spent
            stats.usage = stats.usage + spent_before_cancel(cancelled)
            raise
        except LLMError as exc:
            stats.usage = stats.usage + exc.usage
            stats.failures += 1
            if exc.kind in PERMANENT and stats.disabled is None:
                stats.disabled = f"{exc.kind}: {exc.message}"
                left = ", ".join(self.enabled) or "none"
                log.warning("LLM %s no longer used in this run (%s); models left: %s", name, stats.disabled, left)
            raise
        stats.usage = stats.usage + reply.usage
        return reply

    def credit(self, model: str | None, *, improved: bool) -> None:
        """An evaluated kernel that ``model`` wrote; ``improved``: it made a new cell or a better elite."""
        name = next((n for n, s in self.stats.items() if model in (n, s.model)), None)
        if name is None:
            return
        self.stats[name].candidates += 1
        self.stats[name].improvements += improved

    def table(self) -> list[dict[str, object]]:
        """Per model: what it cost and what it brought (the run's summary)."""
        rows = []
        for name, s in self.stats.items():
            rows.append({"model": name, "calls": s.usage.calls, "failed": s.failures, "tokens": s.usage.tokens,
                         "cost_usd": round(s.usage.cost_usd, 6), "cost_known": s.usage.cost_known,
                         "kernels": s.candidates, "improvements": s.improvements, "disabled": s.disabled})
        return rows


def _unique(configs: list[LLMConfig], config: LLMConfig) -> bool:
    return sum(1 for c in configs if c.model == config.model) == 1

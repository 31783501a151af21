"""A run's configuration: one typed tree, from a TOML/JSON file and command-line flags.

A record, not the search's code: storage keeps it with each run and the API takes it in a
request, neither importing the search (nor the LLM client, nor the evaluator).
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kernelevo.records.options import EvalOptions


class LLMConfig(BaseModel):
    """Which model to call and how; secrets stay in the environment."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str  # a litellm model string: "openai/gpt-4o", "anthropic/claude-sonnet-4-5", "ollama/qwen2.5-coder"
    api_base: str | None = None
    api_key_env: str | None = None  # name of the environment variable holding the key, if not litellm's default
    temperature: float = Field(default=0.7, ge=0)
    max_tokens: int = Field(default=8192, gt=0)
    timeout_s: float = Field(default=180.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    backoff_s: float = Field(default=2.0, ge=0)
    # Dollars per million tokens, for models litellm has no price for (a local server: 0)
    input_usd_per_mtok: float | None = Field(default=None, ge=0)
    output_usd_per_mtok: float | None = Field(default=None, ge=0)


class Budget(BaseModel):
    """When a run stops: the first budget reached. ``None`` means unlimited."""

    model_config = ConfigDict(extra="forbid")

    evaluations: int | None = Field(default=200, ge=1)
    minutes: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    tokens: int | None = Field(default=None, ge=0)
    dollars: float | None = Field(default=None, ge=0, allow_inf_nan=False)

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"evals=100,minutes=30,tokens=2e6,dollars=5"`` (any subset, at least one); ValueError names the part."""
        names = {"evals": "evaluations", "evaluations": "evaluations", "minutes": "minutes", "tokens": "tokens",
                 "dollars": "dollars", "usd": "dollars"}
        usage = "use evals=N, minutes=M, tokens=T, dollars=D (any of them, comma-separated)"
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            raise ValueError(f"--budget {text!r}: {usage}")
        values: dict[str, Any] = {"evaluations": None}
        given: set[str] = set()
        for part in parts:
            key, _, raw = (p.strip() for p in part.partition("="))
            if key not in names:
                raise ValueError(f"--budget {part!r}: {key or 'that'} is not a budget; {usage}")
            if not raw:
                raise ValueError(f"--budget {part!r}: {key} needs a value, e.g. {key}=10")
            field = names[key]
            if field in given:
                raise ValueError(f"--budget {text!r}: {key} is given twice")
            given.add(field)
            whole = field in ("evaluations", "tokens")
            try:
                number = float(raw)
            except ValueError:
                raise ValueError(f"--budget {part!r}: {key} takes {'a whole number' if whole else 'a number'}, "
                                 f"not {raw!r}") from None
            if not math.isfinite(number):
                raise ValueError(f"--budget {part!r}: {key} takes a finite number (leave {key} out for no limit)")
            if whole and number != int(number):
                raise ValueError(f"--budget {part!r}: {key} takes a whole number")
            least = {"evaluations": "at least 1", "minutes": "above 0", "tokens": "0 or more", "dollars": "0 or more"}
            if (field == "evaluations" and number < 1) or (field == "minutes" and number <= 0) or number < 0:
                raise ValueError(f"--budget {part!r}: {key} must be {least[field]}")
            values[field] = int(number) if whole else number
        return cls(**values)


class RunConfig(BaseModel):
    """Everything a search needs besides the spec itself."""

    model_config = ConfigDict(extra="forbid")

    llm: LLMConfig | None = None  # one model (older runs and simple configs); see llm_models()
    models: list[LLMConfig] = Field(default_factory=list)  # several: a bandit chooses among them per call
    # When every model has failed for good: go on with the template operator (True) or stop the run (False).
    offline_fallback: bool = False
    budget: Budget = Field(default_factory=Budget)
    # K: candidates made or evaluated at once (default: what the evaluators take at once + workers + 2)
    in_flight: int | None = Field(default=None, ge=1)
    workers: int | None = Field(default=None, ge=1)  # evaluators per target (default: one per GPU; 1 without GPUs)
    ray: bool = True  # evaluate on Ray actors (RAY_ADDRESS, or a local instance); False: in this process
    targets: list[str] | None = None  # accelerator types to evaluate on (e.g. ["H100", "H200"]); None: any GPU
    # On Ray: "per-run" starts this run's own evaluator actors; "shared" sends its candidates to the cluster's
    # one shared pool (kernelevo.distributed.shared_pool), which serves every run by weighted fair share
    pool: Literal["per-run", "shared"] = "per-run"
    weight: float = Field(default=1.0, gt=0, allow_inf_nan=False)  # the run's share of a shared pool, relative
    descriptors: str = "levels"  # "levels", "metadata" or a comma-separated list of names
    # Relative time difference below which two kernels tie (the larger of this and the two timings'
    # relative IQRs). The same 79 candidates judged again in another run on an H200 kept their medians
    # within 0.995 to 1.002 (an autotuned kernel's choice between two configs: 0.957 to 1.045;
    # benchmarks/results/eval_profile-*-h200.json). 8% until 2026-11-24, from an older timing method's
    # spread (eval_examples-h200.json), kept out improvements of up to 8%: on 2026-11-24 a softmax seed
    # 2.9% faster than its cell's elite, and an RMSNorm one 3.7% faster, were ties and were lost.
    tie_tolerance: float = Field(default=0.02, ge=0)
    exploitation: float = Field(default=0.5, ge=0)
    exploration: float = Field(default=0.3, ge=0)
    random_pick: float = Field(default=0.2, ge=0)
    inspirations: int = Field(default=2, ge=0)
    islands: int = Field(default=1, ge=1)
    migration_every: int = Field(default=40, ge=1)  # evaluations between migrations of island bests
    migration: Literal["ring", "random"] = "ring"  # where an island's best goes: the next island, or one at random
    # On Ray, island 0 in the driver's own process rather than an actor (kernelevo.distributed.island). None: where
    # the cluster is the driver's host alone and it has no more cores than islands (no core left for the driver)
    island_in_driver: bool | None = None
    evolve_prompts_every: int = Field(default=8, ge=1)  # LLM samples between meta-prompt evolutions
    seed: int = 0
    # where the first kernels come from: "auto" takes torch.compile's own Triton kernels when the
    # spec has no seed; "compile" takes them beside the spec's seeds; "spec" only the spec's
    seed_from: Literal["auto", "compile", "spec"] = "auto"
    evaluation: EvalOptions = Field(default_factory=EvalOptions)

    @model_validator(mode="after")
    def _some_selection(self) -> RunConfig:
        if self.exploitation + self.exploration + self.random_pick <= 0:
            raise ValueError("exploitation, exploration and random_pick cannot all be 0")
        if self.pool == "shared" and not self.ray:
            raise ValueError("pool 'shared' is a pool of Ray actors: it needs ray (drop --no-ray, or use pool "
                             "'per-run')")
        if self.pool == "shared" and self.targets:
            raise ValueError("the shared pool evaluates on any GPU of the cluster: targets need pool 'per-run'")
        return self

    def llm_models(self) -> list[LLMConfig]:
        """The run's models: ``models``, else ``llm``, else none (the template operator only)."""
        return list(self.models) or ([self.llm] if self.llm is not None else [])

    def candidates_in_flight(self, workers: int, capacity: int) -> int:
        return self.in_flight or capacity + workers + 2

    @classmethod
    def load(cls, path: str | Path) -> RunConfig:
        path = Path(path)
        text = path.read_text()
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        return cls.model_validate(data)

"""Several models behind one client: the preflight, the bandit's choice, and dropping a model that
cannot work (against real HTTP servers on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest
from llm_server import Reply, ScriptedLLMServer

from kernelevo.records.run_config import LLMConfig
from kernelevo.variation.llm.client import LLMError
from kernelevo.variation.llm.models import ModelPool, PreflightError, preflight

MESSAGES = [{"role": "user", "content": "write a kernel"}]


def model(server: ScriptedLLMServer, name: str, price: float = 1.0) -> LLMConfig:
    return LLMConfig(model=f"openai/{name}", api_base=server.base_url, api_key_env="KERNELEVO_TEST_KEY",
                     max_retries=0, input_usd_per_mtok=price, output_usd_per_mtok=price)


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KERNELEVO_TEST_KEY", "sk-test")


def test_preflight_names_the_model_that_cannot_work(llm_server: ScriptedLLMServer) -> None:
    llm_server.responder = lambda r: Reply(status=401) if r["model"] == "second" else Reply(content="OK")
    with pytest.raises(PreflightError, match="openai/second") as info:
        asyncio.run(preflight([model(llm_server, "first"), model(llm_server, "second")]))
    assert "refused" in str(info.value) and "\n" not in str(info.value)
    assert all(r["max_tokens"] == 1 for r in llm_server.requests)  # the cheapest call there is


def test_a_model_with_an_unfixable_error_is_dropped_and_the_others_go_on(llm_server: ScriptedLLMServer) -> None:
    other = ScriptedLLMServer()
    try:
        llm_server.responder = lambda request: Reply(status=404)
        other.responder = lambda request: Reply(content="a kernel")
        pool = ModelPool([model(llm_server, "gone"), model(other, "good")], rng=random.Random(1))
        outcomes = []
        for _ in range(8):
            try:
                outcomes.append(asyncio.run(pool.complete(MESSAGES)).text)
            except LLMError as exc:
                outcomes.append(exc.kind)
        assert outcomes.count("not_found") == 1 and outcomes.count("a kernel") == 7
        assert len(llm_server.requests) == 1 and pool.enabled == ["openai/good"]
        assert pool.stats["openai/gone"].disabled and pool.exhausted is None
        other.responder = lambda request: Reply(status=401)
        with pytest.raises(LLMError):
            asyncio.run(pool.complete(MESSAGES))
        assert pool.exhausted is not None and "every model stopped working" in pool.exhausted
    finally:
        other.close()


def test_the_bandit_favours_improvements_per_dollar() -> None:
    pool = ModelPool([LLMConfig(model="openai/cheap-good"), LLMConfig(model="openai/dear-poor")],
                     rng=random.Random(0))
    from kernelevo.records.candidate import Usage

    pool.stats["openai/cheap-good"].usage = Usage(calls=20, prompt_tokens=20_000, cost_usd=0.02)
    pool.stats["openai/dear-poor"].usage = Usage(calls=20, prompt_tokens=20_000, cost_usd=0.40)
    for _ in range(20):
        pool.credit("openai/cheap-good", improved=True)
        pool.credit("openai/dear-poor", improved=False)
    picks = Counter(pool.choose() for _ in range(200))
    assert picks["openai/cheap-good"] > 190
    table = {row["model"]: row for row in pool.table()}
    assert table["openai/cheap-good"]["improvements"] == 20 and table["openai/dear-poor"]["kernels"] == 20

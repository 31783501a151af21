"""The LLM client through litellm against a real HTTP server: replies, retries, errors, accounting."""

from __future__ import annotations

import asyncio

import pytest
from llm_server import Reply, ScriptedLLMServer

from kernelevo.records.candidate import Usage
from kernelevo.records.run_config import LLMConfig
from kernelevo.variation.llm.client import LLMClient, LLMError, missing_key_message, spent_before_cancel

MESSAGES = [{"role": "user", "content": "write a kernel"}]


@pytest.fixture
def client(llm_server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch) -> LLMClient:
    monkeypatch.setenv("KERNELEVO_TEST_KEY", "sk-test")
    return LLMClient(LLMConfig(model="openai/gpt-4o-mini", api_base=llm_server.base_url,
                               api_key_env="KERNELEVO_TEST_KEY", timeout_s=1.5, max_retries=2, backoff_s=0))


def complete(client: LLMClient):
    return asyncio.run(client.complete(MESSAGES))


def test_reply_tokens_and_cost(client: LLMClient, llm_server: ScriptedLLMServer) -> None:
    llm_server.add(Reply(content="hello", prompt_tokens=1000, completion_tokens=200))
    reply = complete(client)
    assert reply.text == "hello"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.calls) == (1000, 200, 1)
    # gpt-4o-mini in litellm's cost map: $0.15 per 1M input tokens, $0.60 per 1M output tokens
    assert reply.usage.cost_known and reply.usage.cost_usd == pytest.approx(1000 * 0.15e-6 + 200 * 0.6e-6)
    assert llm_server.requests[0]["messages"] == MESSAGES
    assert llm_server.requests[0]["model"] == "gpt-4o-mini"
    assert client.total.tokens == 1200


def test_rate_limit_is_retried(client: LLMClient, llm_server: ScriptedLLMServer) -> None:
    llm_server.add(Reply(status=429, headers={"retry-after": "0"}), Reply(content="after the 429"))
    reply = complete(client)
    assert reply.text == "after the 429"
    assert len(llm_server.requests) == 2
    assert reply.usage.calls == 2  # a retried call counts its attempts, as a failed one does


def test_server_errors_are_retried_then_reported(client: LLMClient, llm_server: ScriptedLLMServer) -> None:
    llm_server.add(Reply(status=500), Reply(status=503), Reply(status=500))
    with pytest.raises(LLMError) as info:
        complete(client)
    assert info.value.kind == "server" and "after 2 retries" in info.value.message
    assert len(llm_server.requests) == 3


def test_timeout(client: LLMClient, llm_server: ScriptedLLMServer) -> None:
    llm_server.add(*(Reply(content="too late", delay_s=4) for _ in range(3)))
    with pytest.raises(LLMError) as info:
        complete(client)
    assert info.value.kind == "timeout" and "1.5 s" in info.value.message
    assert len(llm_server.requests) == 3


def test_wrong_key_is_not_retried(client: LLMClient, llm_server: ScriptedLLMServer) -> None:
    llm_server.add(Reply(status=401))
    with pytest.raises(LLMError) as info:
        complete(client)
    assert info.value.kind == "auth" and "key was refused" in info.value.message
    assert len(llm_server.requests) == 1


def test_unknown_model_costs_zero_and_says_so(llm_server: ScriptedLLMServer, monkeypatch) -> None:
    monkeypatch.setenv("KERNELEVO_TEST_KEY", "sk-test")
    client = LLMClient(LLMConfig(model="openai/kernelevo-local-model", api_base=llm_server.base_url,
                                 api_key_env="KERNELEVO_TEST_KEY"))
    llm_server.add(Reply(content="ok"))
    usage = complete(client).usage
    assert usage.cost_usd == 0 and not usage.cost_known and usage.tokens == 150


def test_a_call_cut_short_reports_its_prompts_tokens(client: LLMClient, llm_server: ScriptedLLMServer) -> None:
    """Cancelled while the server answers: the prompt was sent, so its tokens (counted here) and their price
    ride on the CancelledError and join the client's total; a cancel before any call spent nothing."""
    llm_server.add(Reply(content="too late", delay_s=3))
    messages = [{"role": "user", "content": "write a kernel " * 200}]

    async def cut_short() -> BaseException:
        task = asyncio.ensure_future(client.complete(messages))
        while not llm_server.requests:
            await asyncio.sleep(0.02)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError as cancelled:
            return cancelled
        raise AssertionError("the call was not cancelled")

    spent = spent_before_cancel(asyncio.run(cut_short()))
    import litellm

    prompt = litellm.token_counter(model="openai/gpt-4o-mini", messages=messages)
    assert prompt > 400 and (spent.calls, spent.prompt_tokens, spent.completion_tokens) == (1, prompt, 0)
    assert spent.cost_known and spent.cost_usd == pytest.approx(prompt * 0.15e-6)
    assert client.total.tokens == prompt
    assert spent_before_cancel(asyncio.CancelledError()) == Usage()


def test_missing_key_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert "OPENAI_API_KEY" in (missing_key_message(LLMConfig(model="openai/gpt-4o")) or "")
    assert missing_key_message(LLMConfig(model="openai/x", api_base="http://127.0.0.1:1/v1")) is None
    monkeypatch.delenv("MY_KEY", raising=False)
    assert "$MY_KEY" in (missing_key_message(LLMConfig(model="openai/x", api_key_env="MY_KEY")) or "")

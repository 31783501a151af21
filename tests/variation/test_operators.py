"""The operators against a real HTTP LLM server and the real evaluator (CPU interpreter)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from llm_server import Reply, ScriptedLLMServer

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.records.candidate import Candidate
from kernelevo.records.run_config import LLMConfig
from kernelevo.spec import read_spec
from kernelevo.variation.llm.client import LLMClient
from kernelevo.variation.llm.metaprompt import PromptArchive
from kernelevo.variation.llm.prompts import HardwareFacts
from kernelevo.variation.operators import (
    CrossoverOperator,
    DiffOperator,
    Parent,
    RepairOperator,
    RewriteOperator,
    TemplateOperator,
    VariationRequest,
)


@pytest.fixture  # cheap: a module scope would keep the file on one worker
def spec(examples_dir: Path):
    return read_spec(str(examples_dir / "gelu" / "spec.py"))


@pytest.fixture  # cheap: a module scope would keep the file on one worker
def seed(examples_dir: Path) -> str:
    return (examples_dir / "gelu" / "seed.py").read_text()


@pytest.fixture
def client(llm_server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch) -> LLMClient:
    monkeypatch.setenv("KERNELEVO_TEST_KEY", "sk-test")
    return LLMClient(LLMConfig(model="openai/gpt-4o-mini", api_base=llm_server.base_url,
                               api_key_env="KERNELEVO_TEST_KEY", max_retries=1, backoff_s=0))


def request(spec, *sources: str, result=None) -> VariationRequest:
    parents = [Parent(Candidate(id=i, source=s, operator="seed"), result) for i, s in enumerate(sources)]
    return VariationRequest(spec_source=spec.source, parents=parents, hardware=HardwareFacts.from_result(result),
                            rng=random.Random(0), meta=PromptArchive.with_default().prompts[0])


def user_text(server: ScriptedLLMServer, i: int = -1) -> str:
    return "\n".join(m["content"] for m in server.requests[i]["messages"])


def test_rewrite_sends_the_evidence_and_takes_the_code(spec, seed, client, llm_server) -> None:
    faster = seed.replace("BLOCK_SIZE=1024", "BLOCK_SIZE=4096")
    llm_server.add(Reply(content=f"Larger blocks amortize the index math.\n```python\n{faster}```\nDone."))
    proposal = asyncio.run(RewriteOperator(client).propose(request(spec, seed)))
    assert proposal.source == faster and proposal.failure_kind is None
    assert proposal.usage.tokens == 150 and proposal.usage.cost_known
    sent = user_text(llm_server)
    assert "class Model(nn.Module)" in sent and "gelu_kernel" in sent  # the spec and the parent
    assert "## Strategies" in sent and "Target hardware" in sent  # the meta-prompt and the hardware


def test_diff_edits_the_parent(spec, seed, client, llm_server) -> None:
    llm_server.add(Reply(content="<<<<<<< SEARCH\n        gelu_kernel[grid](x, out, n, BLOCK_SIZE=1024, num_warps=4)\n"
                                 "=======\n        gelu_kernel[grid](x, out, n, BLOCK_SIZE=2048, num_warps=8)\n"
                                 ">>>>>>> REPLACE"))
    proposal = asyncio.run(DiffOperator(client).propose(request(spec, seed)))
    assert proposal.source == seed.replace("BLOCK_SIZE=1024, num_warps=4", "BLOCK_SIZE=2048, num_warps=8")
    assert "SEARCH" in user_text(llm_server)


def test_a_diff_answered_with_a_whole_module_is_used_as_a_rewrite(spec, seed, client, llm_server) -> None:
    faster = seed.replace("num_warps=4", "num_warps=8")
    llm_server.add(Reply(content=f"Here is the whole kernel instead:\n```python\n{faster}```"))
    proposal = asyncio.run(DiffOperator(client).propose(request(spec, seed)))
    assert proposal.source == faster and proposal.operator == "llm-rewrite"
    assert "whole module" in proposal.note
    llm_server.add(Reply(content="<<<<<<< SEARCH\nno such line\n=======\nx\n>>>>>>> REPLACE"))
    failed = asyncio.run(DiffOperator(client).propose(request(spec, seed)))
    assert failed.source is None and failed.failure_kind == "diff_failed"  # an edit that does not apply stays one


def test_crossover_shows_both_parents(spec, seed, client, llm_server) -> None:
    other = seed.replace("num_warps=4", "num_warps=2")
    child = seed.replace("num_warps=4", "num_warps=8")
    llm_server.add(Reply(content=f"```python\n{child}```"))
    proposal = asyncio.run(CrossoverOperator(client).propose(request(spec, seed, other)))
    assert proposal.source == child
    assert "Kernel A" in user_text(llm_server) and "Kernel B" in user_text(llm_server)


@pytest.mark.parametrize(("reply", "kind"), [
    (Reply(content="I am sorry, I cannot help with that."), "unusable_reply"),
    (Reply(content="```python\nclass ModelNew(:\n```"), "unusable_reply"),
    (Reply(status=401), "llm_error"),
])
def test_bad_replies_are_named_failures(spec, seed, client, llm_server, reply: Reply, kind: str) -> None:
    llm_server.add(reply)
    proposal = asyncio.run(RewriteOperator(client).propose(request(spec, seed)))
    assert proposal.source is None and proposal.failure_kind == kind and proposal.failure


def test_unchanged_parent_is_no_change(spec, seed, client, llm_server) -> None:
    llm_server.add(Reply(content=f"```python\n{seed}```"))
    assert asyncio.run(RewriteOperator(client).propose(request(spec, seed))).failure_kind == "no_change"


def test_template_needs_no_llm(spec, seed) -> None:
    proposal = asyncio.run(TemplateOperator().propose(request(spec, seed)))
    assert proposal.source is not None and proposal.source != seed and "->" in proposal.note


@pytest.mark.slow
def test_repair_fixes_a_kernel_the_evaluator_rejected(spec, seed, client, llm_server) -> None:
    broken = seed.replace("tl.store(out_ptr + offsets", "tl.store(output_ptr + offsets")
    with Evaluator(spec, EvalOptions(device="cpu")) as evaluator:
        rejected = evaluator.evaluate(broken)
        assert not rejected.ok
        llm_server.add(Reply(content=f"The store used an undefined name.\n```python\n{seed}```"))
        proposal = asyncio.run(RepairOperator(client).propose(request(spec, broken, result=rejected)))
        assert proposal.source == seed
        assert "output_ptr" in user_text(llm_server) and str(rejected.error) in user_text(llm_server)
        assert evaluator.evaluate(proposal.source).ok


def test_the_template_operator_proposes_bf16x6_gemms_only_where_the_spec_allows(spec) -> None:
    """A library GEMM's parent, its structure moved every time (parent judged on a GPU): the bf16x6 move is among
    the kinds drawn, and never where the spec keeps its fp32 GEMMs exact (``"bf16x6": False``)."""
    from test_library_gemm import CANDIDATE

    operator = TemplateOperator(crossover_rate=0.0, restructure_rate=1.0)

    def notes(allowed: bool) -> list[str]:
        made = []
        for seed in range(40):
            ask = request(spec, CANDIDATE)
            ask.rng, ask.bf16x6 = random.Random(seed), allowed
            made.append(asyncio.run(operator.propose(ask)).note)
        return made

    assert any("bf16x6" in note for note in notes(True))
    assert not any("bf16x6" in note for note in notes(False))

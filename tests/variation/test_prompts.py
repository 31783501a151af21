"""The LLM's messages speak the spec's language: CUDA C++ for a CUDA spec, Triton otherwise."""

from __future__ import annotations

import pytest

from kernelevo.variation.llm.metaprompt import PromptArchive
from kernelevo.variation.llm.prompts import (
    REWRITE,
    HardwareFacts,
    crossover_messages,
    evolve_prompt_messages,
    improve_messages,
    repair_messages,
    spec_language,
)

SPEC = '''import torch
from torch import nn

{settings}

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(1024)]


def get_init_inputs():
    return []
'''
CUDA_SPEC = SPEC.format(settings='KERNELEVO = {"language": "cuda"}')
TRITON_SPEC = SPEC.format(settings="")
H100 = HardwareFacts(name="NVIDIA H100 80GB HBM3", sm_count=132, shared_per_sm_bytes=233472, l2_bytes=50 * 2**20,
                     bandwidth_gbs=3000.0, peak_tflops=989.0, interpreted=False)
KERNEL = "class ModelNew:\n    pass\n"


def all_messages(spec: str) -> list[list[dict[str, str]]]:
    meta = PromptArchive.with_default().prompts[0]
    return [improve_messages(spec, (KERNEL, None), [], [], meta, H100, REWRITE),
            crossover_messages(spec, (KERNEL, None), (KERNEL, None), meta, H100),
            repair_messages(spec, KERNEL, "compile: error", meta, H100)]


def system(messages: list[dict[str, str]]) -> str:
    return next(m["content"] for m in messages if m["role"] == "system")


def test_the_language_is_read_from_the_spec_settings() -> None:
    assert spec_language(CUDA_SPEC) == "cuda"
    assert spec_language(TRITON_SPEC) == "triton"
    assert spec_language("KERNELEVO = {'language': 'fortran'}\n") == "triton"  # a broken spec: the default


@pytest.mark.parametrize("messages", all_messages(CUDA_SPEC))
def test_a_cuda_spec_gets_the_cuda_candidate_format(messages: list[dict[str, str]]) -> None:
    text = system(messages)
    for phrase in ("CUDA C++", "__global__", "cupy.RawModule", "get_function", "load_inline", "cuda_sources",
                   "torch.cuda.current_stream().cuda_stream", "at::cuda::getCurrentCUDAStream()", "cuBLAS",
                   "cuDNN", "Thrust", "cupy.matmul", "PyTorch compute in forward", "#define"):
        assert phrase in text, phrase
    rules = text.split("## Philosophy")[0]  # the meta-prompt's know-how may use Triton's words: it is translated
    assert "@triton.jit" not in rules and "num_warps" not in rules and "tl.dot is wmma" in rules
    assert "132 SMs" in text and "3000 GB/s" in text  # the hardware facts stay


@pytest.mark.parametrize("messages", all_messages(TRITON_SPEC))
def test_a_triton_spec_does_not_speak_cuda(messages: list[dict[str, str]]) -> None:
    text = "\n".join(m["content"] for m in messages)
    assert "@triton.jit" in system(messages)
    for phrase in ("CUDA C++", "RawModule", "load_inline", "cuBLAS", "__global__"):
        assert phrase not in text, phrase
    assert "132 SMs" in text


def test_evolving_a_meta_prompt_names_the_language() -> None:
    meta = PromptArchive.with_default().prompts[0]
    cuda = evolve_prompt_messages(meta, "improve", None, H100, language="cuda")[1]["content"]
    triton = evolve_prompt_messages(meta, "improve", None, H100)[1]["content"]
    assert "writing CUDA C++ kernels" in cuda and "writing Triton kernels" in triton


def test_a_cuda_prompt_without_a_gpu_measurement_names_no_interpreter() -> None:
    cpu = HardwareFacts(name="cpu", sm_count=None, shared_per_sm_bytes=None, l2_bytes=None, bandwidth_gbs=None,
                        peak_tflops=None, interpreted=True)
    assert "interpreter" not in cpu.describe("cuda") and "H100" in cpu.describe("cuda")
    assert "Triton's CPU interpreter" in cpu.describe()


def test_the_rules_state_the_runs_library_policy() -> None:
    meta = PromptArchive.with_default().prompts[0]
    default = system(improve_messages(TRITON_SPEC, (KERNEL, None), [], [], meta, H100, REWRITE))
    assert "Library policy: a candidate may hand dense GEMM" in default and "identity convolution" in default
    narrow = system(crossover_messages(TRITON_SPEC, (KERNEL, None), (KERNEL, None), meta, H100, library=("conv",)))
    assert "convolution (F.conv1d" in narrow and "dense GEMM" not in narrow
    pure = system(repair_messages(TRITON_SPEC, KERNEL, "library_call: mm", meta, H100, library=()))
    assert "Library policy: pure: every op, GEMMs and convolutions included, must run in the candidate's own" in pure

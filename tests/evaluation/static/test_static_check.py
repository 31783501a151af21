"""Static checks: each exploit pattern gets its named reason; real kernels get none."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.evaluation import ErrorKind, check_source

HEADER = """
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.exp(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)

"""


def candidate(forward_body: str, prelude: str = "") -> str:
    body = "\n".join("        " + line for line in forward_body.strip().splitlines())
    return HEADER + prelude + f"""
class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.w = nn.Parameter(torch.randn(4).abs())

    def forward(self, x):
{body}
"""


GOOD = candidate("""
out = torch.empty_like(x)
n = x.numel()
copy_kernel[(triton.cdiv(n, 1024),)](x.contiguous().view(-1), out, n, BLOCK=1024, num_warps=4)
return out.view(x.shape)
""")


def kinds(source: str) -> set[ErrorKind]:
    return {f.kind for f in check_source(source)}


def test_a_plain_kernel_passes() -> None:
    assert check_source(GOOD) == []


def test_example_seeds_pass(examples_dir: Path) -> None:
    from kernelevo.spec.settings import parse_settings

    seeds = sorted(examples_dir.glob("*/seed*.py"))
    assert seeds, "no example seeds found"
    for seed in seeds:
        language = parse_settings((seed.parent / "spec.py").read_text()).language
        assert check_source(seed.read_text(), language=language) == [], seed


@pytest.mark.parametrize(("source", "expected"), [
    ("def f(:\n", ErrorKind.SYNTAX_ERROR),
    (HEADER, ErrorKind.MISSING_MODEL_NEW),
    ("import torch.nn as nn\nclass ModelNew(nn.Module):\n    pass\n", ErrorKind.NO_KERNEL),
    (candidate("return x", "import numpy as np\n"), ErrorKind.FORBIDDEN_IMPORT),
    (candidate("return x", "import os\n"), ErrorKind.FILE_OR_NETWORK),
    (candidate("return open('/etc/passwd').read()"), ErrorKind.FILE_OR_NETWORK),
    (candidate("return x", "import threading\n"), ErrorKind.THREADS),
    (candidate("return x", "from concurrent.futures import ThreadPoolExecutor\n"), ErrorKind.THREADS),
    (candidate("return x", "import ctypes\n"), ErrorKind.DYNAMIC_CODE),
    (candidate("exec('y = 1')\nreturn x"), ErrorKind.DYNAMIC_CODE),
    (candidate("return getattr(torch, 'gel' + 'u')(x)"), ErrorKind.DYNAMIC_CODE),
    (candidate("return x.__class__"), ErrorKind.DYNAMIC_CODE),
    (candidate("return x", "from torch import _C\n"), ErrorKind.DYNAMIC_CODE),
    (candidate("try:\n    return x\nexcept Exception:\n    return F.gelu(x)"), ErrorKind.TRY_EXCEPT_FALLBACK),
    (candidate("return F.gelu(x)"), ErrorKind.TORCH_COMPUTE),
    (candidate("return torch.softmax(x, -1)"), ErrorKind.TORCH_COMPUTE),
    (candidate("return x.sum(dim=1)"), ErrorKind.TORCH_COMPUTE),
    (candidate("return torch.ops.aten.gelu(x)"), ErrorKind.TORCH_COMPUTE),
    (candidate("return torch.compile(lambda y: y * 2)(x)"), ErrorKind.TORCH_COMPUTE),
    (candidate("return Model()(x)"), ErrorKind.CALLS_REFERENCE),
    (candidate("return x", "from reference import Model\n"), ErrorKind.CALLS_REFERENCE),
    (candidate("s = torch.cuda.Stream()\nreturn x"), ErrorKind.SIDE_STREAM),
    (candidate("with torch.cuda.stream(None):\n    return x"), ErrorKind.SIDE_STREAM),
    (candidate("return x", "torch.cuda.synchronize = lambda *a: None\n"), ErrorKind.MONKEY_PATCH),
    (candidate("return x", "F.gelu = lambda y, **k: y\n"), ErrorKind.MONKEY_PATCH),
    (candidate("return x", "nn.Module.__call__ = None\n"), ErrorKind.MONKEY_PATCH),
    (candidate("return x", "import time\n"), ErrorKind.MONKEY_PATCH),
    (candidate("return x", "def g():\n    global y\n"), ErrorKind.DYNAMIC_CODE),
])
def test_exploits_are_named(source: str, expected: ErrorKind) -> None:
    found = kinds(source)
    assert expected in found, (expected, check_source(source))


def test_findings_point_at_lines() -> None:
    source = candidate("return F.gelu(x)")
    finding = next(f for f in check_source(source) if f.kind == ErrorKind.TORCH_COMPUTE)
    assert source.splitlines()[finding.line - 1].strip() == "return F.gelu(x)"


def test_init_may_build_parameters_and_kernels_may_compute() -> None:
    # torch.randn(...).abs() in __init__ and tl.exp in a kernel are not host compute in forward.
    assert ErrorKind.TORCH_COMPUTE not in kinds(GOOD)


def test_allow_lists_extend_the_defaults() -> None:
    source = candidate("return x.sum()", "import numpy as np\n")
    assert check_source(source, allowed_imports=["numpy"], allowed_torch_ops=["sum"]) == []


def test_other_languages_are_not_supported() -> None:
    assert {f.kind for f in check_source(GOOD, language="hip")} == {ErrorKind.UNSUPPORTED_LANGUAGE}
    assert ErrorKind.NO_KERNEL in {f.kind for f in check_source(GOOD, language="cuda")}  # Triton is no CUDA kernel


@pytest.mark.parametrize("body", ["return x @ x", "return torch.mm(x, x)", "return F.linear(x, x)",
                                  "return x.matmul(x)", "return torch.nn.functional.conv2d(x, x)",
                                  "return F.scaled_dot_product_attention(x, x, x)", "return torch.lstm(x)",
                                  "return torch.rnn_tanh(x)"])
def test_library_calls_pass_under_the_default_policy_and_are_named_in_pure_mode(body: str) -> None:
    source = candidate(body)
    assert check_source(source) == []
    assert {f.kind for f in check_source(source, library=())} == {ErrorKind.LIBRARY_CALL}


def test_a_narrower_policy_names_the_family_it_leaves_out() -> None:
    source = candidate("y = torch.mm(x, x)\nreturn F.conv2d(y, x)")
    findings = check_source(source, library=("gemm",))
    assert [f.kind for f in findings] == [ErrorKind.LIBRARY_CALL]
    assert "conv2d() hands conv work" in findings[0].message
    assert check_source(source, library=("gemm", "conv")) == []


def test_the_policy_opens_no_other_torch_compute() -> None:
    assert ErrorKind.TORCH_COMPUTE in kinds(candidate("return torch.softmax(torch.mm(x, x), -1)"))
    assert ErrorKind.TORCH_COMPUTE in kinds(candidate("return torch.einsum('ij,jk->ik', x, x)"))

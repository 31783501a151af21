"""Checking specs in an isolated child: one clear line for every way a spec can be broken."""

from __future__ import annotations

import textwrap

import pytest

from kernelevo.spec import SpecError, check_spec, read_spec

GOOD = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n))

    def forward(self, x):
        return torch.relu(x) * self.w

batch, n = 64, 32

def get_inputs():
    return [torch.randn(batch, n)]

def get_init_inputs():
    return [n]

KERNELEVO = {"variants": {"small": {"batch": 2, "n": 8}}}
'''


def spec_from(source: str):
    return read_spec(textwrap.dedent(source))


def test_good_spec_is_described() -> None:
    report = check_spec(spec_from(GOOD), device="cpu", variants=["small", "default"])
    small = report.variant("small")
    assert small.inputs[0].shape == [2, 8] and small.outputs[0].dtype == "float32"
    assert small.param_bytes == 8 * 4
    assert small.min_bytes == 2 * 8 * 4 * 2 + 8 * 4  # input read, output written, weight read
    assert report.variant("default").inputs[0].shape == [64, 32]


def test_kernelbench_problem_loads_unchanged() -> None:
    # KernelBench level 1, "100_HingeLoss.py"-style: no settings, globals used by get_inputs.
    source = '''
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        """
        A model that computes Hinge Loss for binary classification tasks.
        """
        def __init__(self):
            super(Model, self).__init__()

        def forward(self, predictions, targets):
            return torch.mean(torch.clamp(1 - predictions * targets, min=0))

    batch_size = 128
    input_shape = (1,)
    dim = 1

    def get_inputs():
        return [torch.randn(batch_size, *input_shape), torch.randint(0, 2, (batch_size, 1)).float() * 2 - 1]

    def get_init_inputs():
        return []
    '''
    report = check_spec(spec_from(source), device="cpu")
    assert [t.shape for t in report.variant("default").inputs] == [[128, 1], [128, 1]]
    assert report.variant("default").outputs[0].shape == []


MODEL = (
    "import torch\nimport torch.nn as nn\nclass Model(nn.Module):\n    def forward(self, x):\n        return x * 2\n"
)
INPUTS = "def get_inputs():\n    return [torch.randn(4)]\ndef get_init_inputs():\n    return []\n"


@pytest.mark.parametrize(("source", "message"), [
    ("import torch\n" + INPUTS, "spec defines no Model"),
    (MODEL + "def get_inputs():\n    return [torch.randn(4)]\n", "get_init_inputs"),
    (MODEL + "raise ValueError('no GPU here')\n" + INPUTS, "ValueError: no GPU here at import"),
    (MODEL + "def get_inputs():\n    return 'x'\ndef get_init_inputs():\n    return []\n", "returned str"),
    (MODEL + "def get_inputs():\n    return ['a']\ndef get_init_inputs():\n    return []\n", "inputs must be tensors"),
    (MODEL + "def get_inputs():\n    return [3]\ndef get_init_inputs():\n    return []\n", "returned no tensor"),
    (MODEL + "def get_inputs():\n    return [torch.randn(4) / 0 + undefined]\ndef get_init_inputs():\n    return []\n",
     "get_inputs() raised NameError"),
    ("import torch\nimport torch.nn as nn\nclass Model(nn.Module):\n    def forward(self, x):\n"
     "        return {'y': x}\n" + INPUTS, "returned dict"),
    ("import torch\nimport torch.nn as nn\nclass Model(nn.Module):\n    def forward(self, x):\n"
     "        return torch.nn.functional.dropout(x, 0.5, training=True)\n"
     "def get_inputs():\n    return [torch.randn(1000)]\ndef get_init_inputs():\n    return []\n",
     "nondeterministic"),  # 1000 elements: two dropout masks never agree (4 did once in 16 runs)
    (MODEL + INPUTS + "KERNELEVO = {'variants': {'small': {'nope': 1}}}\n", "overrides nope"),
    ("import torch\nclass Model:\n    pass\n" + INPUTS, "subclass of torch.nn.Module"),
])
def test_broken_specs_get_one_line(source: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        check_spec(read_spec(source), device="cpu")
    text = str(info.value)
    assert message in text, text
    assert "\n" not in text and "Traceback" not in text


def test_error_names_the_line(tmp_path) -> None:
    path = tmp_path / "bad.py"
    path.write_text(MODEL + "x = 1\ny = x / 0\n" + INPUTS)
    with pytest.raises(SpecError, match=r"bad.py:7: raised ZeroDivisionError"):
        check_spec(read_spec(str(path)), device="cpu")


def test_hanging_spec_is_stopped() -> None:
    source = MODEL + "while True:\n    pass\n" + INPUTS
    with pytest.raises(SpecError, match="did not start"):
        check_spec(read_spec(source), device="cpu", timeout_s=3)


def _drifting_spec(step: float) -> str:
    # each call adds ``step`` more than the last: rounding noise when tiny, a real change when not
    return ("import torch\nimport torch.nn as nn\nclass Model(nn.Module):\n"
            "    calls = 0\n"
            "    def forward(self, x):\n"
            "        Model.calls += 1\n"
            f"        return x + Model.calls * {step!r}\n"
            "def get_inputs():\n    return [torch.randn(64)]\ndef get_init_inputs():\n    return []\n")


def test_a_reference_that_repeats_to_within_rounding_is_accepted() -> None:
    report = check_spec(read_spec(_drifting_spec(1e-8)), device="cpu")
    assert report.variants


def test_a_reference_that_drifts_by_a_share_of_the_tolerance_is_nondeterministic() -> None:
    with pytest.raises(SpecError, match="nondeterministic"):
        check_spec(read_spec(_drifting_spec(1e-5)), device="cpu")

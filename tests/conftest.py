"""Shared test set-up: GPU tests skip cleanly on machines without CUDA."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(Path(__file__).resolve().parent))  # test helpers (llm_server, sandbox_handlers)

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")


def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _cuda():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture
def llm_server():
    """A real OpenAI-compatible server on 127.0.0.1 with scripted replies (see tests/llm_server.py)."""
    from llm_server import ScriptedLLMServer

    server = ScriptedLLMServer()
    yield server
    server.close()

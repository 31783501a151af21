"""Static checks of the Dockerfiles (no Docker engine runs here: see docker/README.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILES = sorted((ROOT / "docker").glob("Dockerfile.*"))


def instructions(path: Path) -> list[tuple[str, str]]:
    text = re.sub(r"\\\n\s*", " ", path.read_text())
    return [(line.split()[0].upper(), line.split(None, 1)[1] if " " in line else "")
            for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_both_images_exist() -> None:
    assert {p.name for p in DOCKERFILES} == {"Dockerfile.head", "Dockerfile.gpu"}


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.name)
def test_copied_files_exist(path: Path) -> None:
    for op, args in instructions(path):
        if op == "COPY":
            *sources, _ = args.split()
            for source in sources:
                assert (ROOT / source).exists(), f"{path.name} copies {source}, which is not in the repository"


@pytest.mark.parametrize("path", DOCKERFILES, ids=lambda p: p.name)
def test_installs_like_the_makefile(path: Path) -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "-c constraints.txt" in makefile
    runs = " ".join(args for op, args in instructions(path) if op == "RUN")
    # the project itself, with extras or without: `.` or ".[cuda13]"
    assert re.search(r"pip install [^&]*-c constraints\.txt \"?\.(\[[\w,]+\])?\"?", runs), \
        f"{path.name} does not install with constraints"


def test_gpu_base_image_has_the_pinned_torch() -> None:
    pinned = next(line.split("==")[1] for line in (ROOT / "constraints.txt").read_text().splitlines()
                  if line.startswith("torch=="))
    base = next(args for op, args in instructions(ROOT / "docker" / "Dockerfile.gpu") if op == "FROM")
    assert base.startswith(f"pytorch/pytorch:{pinned}-cuda"), base

"""Spec names: one slug, checked where a person gives one, made from a file's stem, and paths that stay put."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kernelevo.spec import SpecError, read_spec
from kernelevo.spec.names import NAME_RULE, check_name, is_name, path_under, slugify, stem_name

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["/etc/passwd", "../../../../tmp/x", "..", ".", "", "a/b", "a\\b", "x\ny", "x\r", 'x"""', "x'", " x",
           "x y", "-rf", ".hidden", "a" * 65, "ünïcode", "x\u2028y", "nul\x00", "C:\\x", "~root"]


def test_existing_names_stay_valid() -> None:
    names = [p.name for p in (ROOT / "examples").iterdir() if p.is_dir()]
    names += [p.stem for p in (ROOT / "benchmarks" / "suite").glob("*.py")]
    assert {"gelu", "softmax_cuda", "gemm_bias_gelu"} <= set(names)
    assert all(is_name(n) for n in names), [n for n in names if not is_name(n)]
    assert read_spec(ROOT / "examples" / "gelu" / "spec.py").name == "gelu"


@pytest.mark.parametrize("bad", HOSTILE)
def test_hostile_names_are_refused_with_the_rule(bad: str) -> None:
    assert not is_name(bad)
    with pytest.raises(SpecError, match="is not allowed") as raised:
        check_name(bad)
    assert NAME_RULE in str(raised.value)
    assert is_name(slugify(bad)) and is_name(stem_name(bad))


def test_a_kernelbench_file_keeps_its_name_and_other_stems_become_slugs(tmp_path: Path) -> None:
    source = (ROOT / "examples" / "gelu" / "spec.py").read_text()
    for stem, name in [("1_Square_matrix_multiplication_", "1_Square_matrix_multiplication_"),
                       ("my spec (v2)", "my_spec_v2"), ("__init__", "init")]:
        path = tmp_path / f"{stem}.py"
        path.write_text(source)
        assert read_spec(path).name == name
    with pytest.raises(SpecError, match="not allowed"):
        read_spec(tmp_path / "__init__.py", name="../x")
    assert slugify("a/b") != slugify("a b")  # what was replaced is told apart by a hash


def test_paths_from_names_stay_under_their_root(tmp_path: Path) -> None:
    root = tmp_path / "export"
    for hostile in HOSTILE:
        path = path_under(root, "h100", hostile)
        assert path.parent == root / "h100" and path.resolve().is_relative_to(root.resolve())
    assert path_under(root, "cpu-interpreter", "gelu") == root / "cpu-interpreter" / "gelu"
    (root / "h100").mkdir(parents=True)
    os.symlink("/tmp", root / "h100" / "away")  # a link under the root that leads out is refused, not followed
    with pytest.raises(SpecError, match="outside"):
        path_under(root, "h100", "away")

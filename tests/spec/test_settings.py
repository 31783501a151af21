"""Reading KERNELEVO settings without running the spec."""

from __future__ import annotations

import pytest

from kernelevo.spec import DEFAULT_VARIANT, SpecError, parse_settings, read_spec


def test_absent_settings_are_defaults() -> None:
    settings = parse_settings("x = 1\n")
    assert settings.variants == {} and settings.language == "triton"
    assert settings.tolerance("float32") == (1e-4, 1e-4)
    assert settings.tolerance("float16") == (1e-2, 1e-2)


def test_literal_settings_are_read() -> None:
    settings = parse_settings(
        'KERNELEVO = {"dtype": "bfloat16", "atol": 0.05, "variants": {"small": {"n": 4}}, "seeds": ["s.py"]}\n'
    )
    assert settings.dtype == "bfloat16"
    assert settings.tolerance("bfloat16") == (0.05, 1e-2)
    assert settings.variant_names() == [DEFAULT_VARIANT, "small"]
    assert settings.cpu_variant_names() == ["small"]


def test_settings_are_never_executed() -> None:
    with pytest.raises(SpecError, match="literal dict"):
        parse_settings('KERNELEVO = {"dtype": __import__("os").system("echo hacked")}\n')


@pytest.mark.parametrize(("source", "message"), [
    ('KERNELEVO = {"dtype": "float8"}', "dtype 'float8' is not one of"),
    ('KERNELEVO = {"colour": 1}', "colour"),
    ('KERNELEVO = {"variants": {"default": {}}}', "'default' is the module as written"),
    ('KERNELEVO = {"variants": {"small": 3}}', "variants.small]: Input should be a valid dictionary"),
    ('KERNELEVO = {"cpu_variants": ["tiny"]}', "unknown variant"),
    ("KERNELEVO = [1]", "must be a dict"),
    ("def broken(:\n", "syntax error"),
])
def test_bad_settings_get_one_line(source: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_settings(source)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_read_spec_from_text_and_path(tmp_path) -> None:
    path = tmp_path / "relu.py"
    path.write_text("import torch\nKERNELEVO = {'seeds': ['k.py']}\n")
    (tmp_path / "k.py").write_text("kernel source\n")
    spec = read_spec(str(path))
    assert spec.name == "relu" and spec.path == path.resolve()
    assert spec.seed_sources() == [("k", "kernel source\n")]
    text = read_spec(path.read_text())
    assert text.path is None and text.sha256 == spec.sha256
    with pytest.raises(SpecError, match="given as text"):
        text.seed_sources()


def test_missing_spec_file() -> None:
    with pytest.raises(SpecError, match="not found"):
        read_spec("does/not/exist.py")


def test_variants_by_device() -> None:
    spec = read_spec('KERNELEVO = {"variants": {"small": {}, "odd": {}}}\nx = 1\n')
    assert spec.timing_variant(gpu=True) == "default"
    assert spec.timing_variant(gpu=False) == "small"
    assert spec.correctness_variants(gpu=True) == ["small", "odd", "default"]
    assert spec.correctness_variants(gpu=False) == ["odd", "small"]

"""Code marked ``# kernelevo: keep``: which lines the operators and the descriptors leave alone."""

from __future__ import annotations

from kernelevo.utils.kept import is_kept, kept_lines

SOURCE = '''
BLOCK = 1024  # kernelevo: keep
WARPS = 4
TEXT = "# kernelevo: keep is only a comment where it is one"


def timed(x, block=256):
    return x


def fallback(x,
             block=512):  # kernelevo: keep (sizes the timing never runs)
    y = x + 1
    return y


def after(x):
    return x
'''


def test_a_marked_line_and_a_marked_functions_lines_are_kept() -> None:
    lines = SOURCE.splitlines()
    kept = {lines[n - 1].strip() for n in kept_lines(SOURCE)}
    assert "BLOCK = 1024  # kernelevo: keep" in kept
    assert {"def fallback(x,", "y = x + 1", "return y"} <= kept  # the signature spans two lines
    assert not {"WARPS = 4", "def timed(x, block=256):", "return x", "def after(x):"} & kept
    assert not any(line.startswith("TEXT") for line in kept)  # the mark inside a string is not a comment


def test_is_kept_asks_of_a_function() -> None:
    import ast

    functions = {f.name: f for f in ast.walk(ast.parse(SOURCE)) if isinstance(f, ast.FunctionDef)}
    assert is_kept(SOURCE, functions["fallback"]) and not is_kept(SOURCE, functions["timed"])


def test_a_source_with_no_mark_or_that_does_not_parse_keeps_nothing() -> None:
    assert kept_lines("x = 1\n") == frozenset()
    assert kept_lines("def f(:  # kernelevo: keep\n") == frozenset()  # no operator reads a source that does not parse
    assert kept_lines('s = """unterminated  # kernelevo: keep\n') == frozenset()

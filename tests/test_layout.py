"""The test tree's own layout: pytest imports test modules by their base name (rootdir-relative,
no packages), so two test files with one name in different folders break collection of both."""

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).parent


def test_no_two_test_modules_share_a_name() -> None:
    folders: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        # A package (with __init__.py) imports its modules under a dotted name; no clash there.
        if not (path.parent / "__init__.py").exists():
            folders[path.name].append(str(path.parent.relative_to(TESTS)))
    clashes = {name: where for name, where in folders.items() if len(where) > 1}
    assert not clashes, f"test modules sharing a name (pytest cannot collect both): {clashes}"

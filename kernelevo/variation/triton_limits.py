"""Triton mutants that cannot run, found before anyone compiles them.

A matmul's tiles are staged through shared memory: Triton's software pipeline keeps
``num_stages`` copies of an ``BLOCK_M x BLOCK_K`` and a ``BLOCK_K x BLOCK_N`` tile. Where that
exceeds what one block may have, Triton fails at compile time with "out of resource: shared
memory". The count uses 2-byte elements, the smallest a ``tl.dot`` takes, so a mutant is only
dropped when it cannot fit whatever its dtype.
"""

from __future__ import annotations

import ast
import re

from kernelevo.variation.template_triton import HostReader, int_value, is_int_literal

SHARED_LIMIT = 232_448  # bytes per block on sm_90 (H100, H200): Triton's own "Hardware limit"
DEFAULT_STAGES = 3  # Triton's num_stages where a launch or config names none
TILE = re.compile(r"^(?:BLOCK|TILE|BLK|B)_?(?:SIZE_?)?([MNK])$")


def problems(source: str) -> list[str]:
    """Why ``source`` cannot run, one line per launch or config that cannot; empty when it may."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # not ours to judge: the evaluator names a syntax error
    reader = HostReader(tree)
    reader.read_assignments()
    found = []
    for node in reader.host():
        if not isinstance(node, ast.Call):
            continue
        values: dict[str, int] = {}
        if isinstance(node.func, ast.Subscript):  # a launch: literals, or the names they read
            for kw in node.keywords:
                resolved = reader.resolve(kw.value, node) if kw.arg else None
                if resolved is not None:
                    values[str(kw.arg)] = int_value(resolved[0])
        elif ast.unparse(node.func).endswith("Config"):
            values = {kw.arg: int_value(kw.value) for kw in node.keywords if kw.arg and is_int_literal(kw.value)}
            if node.args and isinstance(node.args[0], ast.Dict):
                values |= {k.value: int_value(v) for k, v in zip(node.args[0].keys, node.args[0].values, strict=True)
                           if isinstance(k, ast.Constant) and isinstance(k.value, str) and is_int_literal(v)}
        problem = _shared_memory(values)
        if problem:
            found.append(f"line {node.lineno}: {problem}")
    return found


def _shared_memory(values: dict[str, int]) -> str | None:
    tiles = {match.group(1): value for name, value in values.items() if (match := TILE.match(name))}
    if set(tiles) != {"M", "N", "K"}:
        return None
    stages = values.get("num_stages", DEFAULT_STAGES)
    need = stages * (tiles["M"] * tiles["K"] + tiles["K"] * tiles["N"]) * 2
    if need <= SHARED_LIMIT:
        return None
    return (f"{stages} stages of {tiles['M']}x{tiles['K']} and {tiles['K']}x{tiles['N']} tiles need at least "
            f"{need // 1024} KiB of shared memory; a block may have {SHARED_LIMIT // 1024} KiB")

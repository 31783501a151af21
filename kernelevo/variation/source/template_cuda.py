"""The template operator's view of a CUDA C++ candidate: what it may tune, and what moves along.

Tunable values, wherever the candidate writes them as integer literals:

- ``define``: ``#define NAME 256`` in the CUDA text, and ``-DNAME=256`` in compiler options;
- ``constexpr``: ``constexpr int NAME = 256;`` / ``const int NAME = 256;`` (names in upper case,
  or ``kName``);
- ``constant``: an upper-case Python constant (``THREADS = 256``);
- ``template``: a template argument at a launch (``kernel<128, 4><<<...>>>``) or in CuPy's
  ``get_function("kernel<128>")`` / ``name_expressions``;
- ``block``: a block dimension at a launch: ``<<<grid, 256>>>``, ``dim3 block(16, 16)``, an
  integer variable given as the block, CuPy's ``kern(grid, (256,), args)`` / ``block=``;
- ``unroll``: ``#pragma unroll 4``.

Literals that must agree move as one tunable (the others become its links):

- every definition of one name: ``THREADS = 256`` in Python, ``-DTHREADS=256`` and
  ``#define THREADS 256``;
- one launch configuration: a block dimension, ``__launch_bounds__`` and template arguments of
  equal value, together with named constants of that value that are used as a block
  dimension or named like one (``BLOCK``, ``THREADS``, ``TILE``, ``TPB``);
- what is derived from a block size ``B`` in the same candidate: the ceiling divisions that
  size the grid (``(n + B - 1) / B``, ``(n + 255) // 256``), and ``__shared__`` array
  dimensions of ``B``, ``B + 1`` (padding) or ``B / 32`` (one slot per warp).

A constant that sizes an MMA fragment or names the warp size or a mask is never tuned.
Mutants that break the hardware's limits are left out (:mod:`kernelevo.variation.source.cuda_limits`).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from kernelevo.utils.cuda_source import find_cuda
from kernelevo.utils.cuda_text import blank_comments, global_functions
from kernelevo.variation.source.cuda_launches import c_launches, py_launches, single_assignments, template_strings
from kernelevo.variation.source.source_text import SourceText
from kernelevo.variation.source.tunable import Link, Tunable

_DEFINE = re.compile(r"#[ \t]*define[ \t]+(\w+)[ \t]+\(?[ \t]*(\d+)[uUlL]*[ \t]*\)?[ \t]*(?=\n|\\n|$)", re.M)
_CONST = re.compile(r"\b(?:static\s+)?(?:constexpr|const)\s+(?:static\s+)?(?:unsigned\s+|signed\s+)?"
                    r"(?:int|unsigned|long|size_t|int64_t|int32_t|uint32_t|auto|short)\s+(\w+)\s*=\s*(\d+)[uUlL]*\s*;")
_UNROLL = re.compile(r"#[ \t]*pragma[ \t]+unroll[ \t]*\(?[ \t]*(\d+)")
_BOUNDS = re.compile(r"__launch_bounds__\s*\(\s*(\d+)")
_OPTION = re.compile(r"-D\s*(\w+)\s*=\s*(\d+)")
_CEIL = re.compile(r"\+\s*(\d+)\s*(-\s*1\s*)?\)\s*/\s*(\d+)\b")  # (n + 255) / 256 and (n + 256 - 1) / 256
_SHARED = re.compile(r"__shared__[^;]*;")
_DECLARATOR = re.compile(r"\b\w+\s*((?:\[[^\]]*\]\s*)+)")
# a constant that is a count of threads by its use: the block's stride over a row, or its offset in the grid
_THREAD_STRIDE = re.compile(r"\bfor\s*\([^;]*threadIdx\.x[^;]*;[^;]*;\s*\w+\s*\+=\s*(\w+)\s*\)|"
                            r"\bblockIdx\.x\s*\*\s*(?:\(\w+\)\s*)?(\w+)\s*\+\s*threadIdx\.x")
_LITERAL = re.compile(r"(\d+)[uUlL]*")
_CUDA_MARKERS = ("__global__", "#define", "#include", "<<<", "constexpr", "__device__", "#pragma")
BLOCK_LIKE = re.compile(r"BLOCK|THREAD|TPB|TILE")
FIXED = re.compile(r"WARP_?SIZE|MASK|WMMA|MMA_|^MMA")


@dataclass(frozen=True)
class Site:
    """One integer literal of the source: [start, end) in characters, and what it is."""

    start: int
    end: int
    value: int
    role: str  # define, constexpr, constant, template, block, bounds, unroll, grid, shared
    name: str = ""  # the constant's name; "kernel#i" for a template argument
    add: int = 0  # a grid literal ``B - 1`` relative to its block size B


def tunable_name(name: str) -> bool:
    upper = name.isupper() and len(name) > 1
    return (upper or bool(re.fullmatch(r"k[A-Z]\w*", name))) and not FIXED.search(name)


class _Text(SourceText):
    """The source's text, and its integer literals as template sites."""

    def node_site(self, node: ast.expr, role: str, name: str = "", add: int = 0) -> Site:
        assert isinstance(node, ast.Constant) and isinstance(node.value, int) and node.end_col_offset is not None
        end = self.offset(node.end_lineno or node.lineno, node.end_col_offset)
        return Site(self.offset(node.lineno, node.col_offset), end, node.value, role, name, add)


@dataclass
class _Reading:
    sites: list[Site]
    block_names: set[str]  # constants written as block dimensions or launch bounds
    fixed_names: set[str]  # constants that size MMA fragments


def _segments(tree: ast.AST, text: _Text, cuda: str) -> Iterable[tuple[int, str]]:
    """(offset, text with comments blanked) of each string literal that holds CUDA C++."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.end_lineno is not None \
                and any(m in node.value for m in _CUDA_MARKERS) and node.value in cuda:
            assert node.end_col_offset is not None
            start = text.offset(node.lineno, node.col_offset)
            end = text.offset(node.end_lineno, node.end_col_offset)
            yield start, blank_comments(text.source[start:end])


def _literal_site(at: int, expr: str, role: str, name: str = "") -> Site | None:
    match = _LITERAL.fullmatch(expr.strip())
    if not match or int(match.group(1)) <= 0:
        return None
    start = at + len(expr) - len(expr.lstrip())
    return Site(start, start + len(match.group(1)), int(match.group(1)), role, name)


def _c_sites(at: int, code: str, template_params: dict[str, list[str]], found: _Reading) -> None:
    sites = found.sites
    for pattern, role in ((_DEFINE, "define"), (_CONST, "constexpr")):
        sites += [Site(at + m.start(2), at + m.end(2), int(m.group(2)), role, m.group(1))
                  for m in pattern.finditer(code) if tunable_name(m.group(1)) and int(m.group(2)) > 0]
    sites += [Site(at + m.start(1), at + m.end(1), int(m.group(1)), "unroll", "unroll")
              for m in _UNROLL.finditer(code) if int(m.group(1)) > 0]
    sites += [Site(at + m.start(1), at + m.end(1), int(m.group(1)), "bounds") for m in _BOUNDS.finditer(code)]
    found.block_names |= set(re.findall(r"__launch_bounds__\s*\(\s*(\w+)\s*[,)]", code))
    found.fixed_names |= {n for frag in re.findall(r"fragment\s*<([^;]*?)>\s*\w", code)
                          for n in re.findall(r"\b\w+\b", frag)}
    for launch in c_launches(code):
        names = template_params.get(launch.kernel, [])
        for i, (offset, arg) in enumerate(launch.template):
            site = _literal_site(at + offset, arg, "template", names[i] if i < len(names) else f"{launch.kernel}#{i}")
            sites += [site] if site else []
        sites += [s for offset, dim in launch.block if (s := _literal_site(at + offset, dim, "block"))]
        found.block_names |= launch.block_names
    for m in _CEIL.finditer(code):
        b, addend = int(m.group(3)), int(m.group(1))
        if addend == (b if m.group(2) else b - 1):
            sites.append(Site(at + m.start(1), at + m.end(1), addend, "grid", add=addend - b))
            sites.append(Site(at + m.start(3), at + m.end(3), b, "grid"))
    found.block_names |= {name for m in _THREAD_STRIDE.finditer(code) for name in m.groups() if name}
    for statement in _SHARED.finditer(code):
        for declarator in _DECLARATOR.finditer(statement.group()):
            for dim in re.finditer(r"\[([^\]]*)\]", declarator.group(1)):
                offset = at + statement.start() + declarator.start(1) + dim.start(1)
                sites += [site] if (site := _literal_site(offset, dim.group(1), "shared")) else []


def _python_sites(tree: ast.AST, text: _Text, template_params: dict[str, list[str]], found: _Reading) -> None:
    bound = single_assignments(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            for name, value in _constants(node.targets[0], node.value):
                found.sites.append(text.node_site(value, "constant", name))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("-D"):
            at = text.offset(node.lineno, node.col_offset)
            raw = text.source[at:text.offset(node.lineno, node.end_col_offset or 0)]
            found.sites += [Site(at + m.start(2), at + m.end(2), int(m.group(2)), "define", m.group(1))
                            for m in _OPTION.finditer(raw) if tunable_name(m.group(1))]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv) and _positive_int(node.right):
            found.sites += _python_ceil(node, text)
    for launch in py_launches(tree):
        for dim in launch.block:
            if isinstance(dim, ast.Name) and tunable_name(dim.id):
                found.block_names.add(dim.id)
            elif isinstance(dim, ast.Name) and _positive_int(bound.get(dim.id)):
                found.sites.append(text.node_site(bound[dim.id], "block"))
            elif _positive_int(dim):
                found.sites.append(text.node_site(dim, "block"))
    for node in template_strings(tree):
        at = text.offset(node.lineno, node.col_offset)
        raw = text.source[at:text.offset(node.end_lineno or node.lineno, node.end_col_offset or 0)]
        for m in re.finditer(r"(\w+)\s*<([^<>]*)>", raw):
            names = template_params.get(m.group(1), [])
            for i, arg in enumerate(m.group(2).split(",")):
                offset = at + m.start(2) + sum(len(a) + 1 for a in m.group(2).split(",")[:i])
                site = _literal_site(offset, arg, "template", names[i] if i < len(names) else f"{m.group(1)}#{i}")
                found.sites += [site] if site else []


def _constants(target: ast.expr, value: ast.expr) -> list[tuple[str, ast.expr]]:
    """Upper-case names bound to positive integers: ``BLOCK = 256`` and ``BM, BN = 64, 32``."""
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
        return [c for t, v in zip(target.elts, value.elts, strict=True) for c in _constants(t, v)]
    if isinstance(target, ast.Name) and tunable_name(target.id) and _positive_int(value):
        return [(target.id, value)]
    return []


def _positive_int(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0


def _python_ceil(node: ast.BinOp, text: _Text) -> list[Site]:
    """``(n + 255) // 256``, ``(n + 256 - 1) // 256`` and ``-(-n // 256)``: the grid of a block size."""
    b = node.right
    assert isinstance(b, ast.Constant) and isinstance(b.value, int)
    left = node.left
    if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add) and _positive_int(left.right) \
            and isinstance(left.right, ast.Constant) and left.right.value == b.value - 1:
        return [text.node_site(left.right, "grid", add=-1), text.node_site(b, "grid")]
    if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Sub) and isinstance(left.left, ast.BinOp) \
            and isinstance(left.left.op, ast.Add) and isinstance(left.right, ast.Constant) and left.right.value == 1 \
            and isinstance(left.left.right, ast.Constant) and left.left.right.value == b.value:
        return [text.node_site(left.left.right, "grid"), text.node_site(b, "grid")]
    if isinstance(left, ast.UnaryOp) and isinstance(left.op, ast.USub):
        return [text.node_site(b, "grid")]
    return []


def read_sites(source: str) -> _Reading:
    """Every literal of ``source`` the CUDA template operator knows a meaning for."""
    tree, text, cuda = ast.parse(source), _Text(source), find_cuda(source)
    template_params = {f.name: re.findall(r"(\w+)\s*(?:=[^,]*)?(?:,|$)", f.template)
                       for f in global_functions(cuda.text) if f.template}
    found = _Reading([], set(), set())
    for at, code in _segments(tree, text, cuda.text):
        _c_sites(at, code, template_params, found)
    _python_sites(tree, text, template_params, found)
    unique: dict[tuple[int, int], Site] = {}
    for s in found.sites:  # one literal read twice (a constexpr given as the block) keeps its first meaning
        unique.setdefault((s.start, s.end), s)
    found.sites = sorted(unique.values(), key=lambda s: s.start)
    return found


# -- linking ------------------------------------------------------------------------------------
_NAMED = ("define", "constexpr", "constant")


def _groups(reading: _Reading) -> list[list[Site]]:
    """Sites that must agree, merged: by name, by launch configuration, then what derives from blocks."""
    groups: dict[tuple[str, ...], list[Site]] = {}
    for s in reading.sites:
        if s.role in _NAMED and s.name not in reading.fixed_names:
            groups.setdefault(("named", s.name, str(s.value)), []).append(s)
        elif s.role == "template":
            groups.setdefault(("template", s.name, str(s.value)), []).append(s)
        elif s.role in ("block", "bounds"):
            groups.setdefault(("block", str(s.value)), []).append(s)
        elif s.role == "unroll":
            groups[("unroll", str(s.start))] = [s]
    block_role: dict[int, list[Site]] = {}  # block size -> its merged group
    for value in sorted({int(k[-1]) for k in groups if k[0] in ("block", "named")}):
        named = [k for k in groups if k[0] == "named" and k[2] == str(value)]
        anchors = [k for k in groups if k == ("block", str(value))] + [k for k in named if k[1] in reading.block_names]
        if not anchors:
            continue
        members = anchors + [k for k in named if BLOCK_LIKE.search(k[1]) and k not in anchors] + \
            [k for k in groups if k[0] == "template" and k[2] == str(value)]
        merged = [s for k in members for s in groups.pop(k)]
        groups[("block-role", str(value))] = block_role[value] = merged
    for s in reading.sites:
        if s.role == "grid" and s.value - s.add in block_role:
            block_role[s.value - s.add].append(s)
        elif s.role == "shared" and s.value in block_role:
            block_role[s.value].append(s)
        elif s.role == "shared" and s.value - 1 in block_role:  # tile[B][B + 1]: padding
            block_role[s.value - 1].append(replace(s, add=1))
        elif s.role == "shared" and s.value >= 2 and s.value * 32 in block_role:  # one slot per warp
            block_role[s.value * 32].append(replace(s, role="per-warp"))
    # a lone __launch_bounds__ is a promise about launches it cannot see: not tuned on its own
    return [g for g in groups.values() if any(s.role not in ("bounds", "grid", "shared") for s in g)]


def _tunable(group: list[Site], text: _Text) -> Tunable:
    order = ("define", "constexpr", "constant", "template", "block", "unroll")
    primary = min((s for s in group if s.role in order), key=lambda s: (order.index(s.role), s.start))
    context = "define" if primary.role == "define" else primary.role
    name = primary.name or primary.role
    links = []
    for s in sorted(group, key=lambda s: s.start):
        if s is primary:
            continue
        line, col = text.position(s.start)
        _, end_col = text.position(s.end)
        links.append(Link(line, col, end_col, den=32 if s.role == "per-warp" else 1, add=s.add))
    line, col = text.position(primary.start)
    _, end_col = text.position(primary.end)
    return Tunable(name, primary.value, line, col, end_col, context, links=tuple(links))


@functools.lru_cache(maxsize=1024)  # asked again for each draw; parents are an archive's elites (hundreds)
def find_tunables(source: str) -> tuple[Tunable, ...]:
    """The tunables of a CUDA candidate in source order, linked literals attached to each."""
    reading, text = read_sites(source), _Text(source)
    found = sorted((_tunable(g, text) for g in _groups(reading)), key=lambda t: (t.line, t.col))
    seen: dict[str, int] = {}
    numbered = []
    for t in found:
        key = f"{t.context}:{t.name}"
        numbered.append(replace(t, ordinal=seen.get(key, 0)))
        seen[key] = seen.get(key, 0) + 1
    return tuple(numbered)

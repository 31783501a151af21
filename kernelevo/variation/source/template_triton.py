"""The tunable literals of a Triton kernel's host code, as people and LLMs write them.

Read from the AST, outside ``@triton.jit`` bodies (constants there are the algorithm):

- integer keyword arguments at a launch, ``kernel[grid](..., BLOCK_SIZE=1024, num_warps=4)``;
- the value a launch keyword reads through a name: ``BLOCK=block`` with ``block = 1024`` in the
  same function (or its default, ``def forward(self, x, block=1024)``), at module level,
  or on ``self`` (``self.block = 1024``); tuple assignments (``NCH, BLOCK = 256, 1024``) too;
- upper-case integer constants of host code or the module (``SPLITS = 4``), used or not;
- ``triton.Config({...}, num_warps=..., num_stages=...)`` and ``triton.heuristics`` lambdas
  that return a literal (``{"BLOCK": lambda args: 1024}``);
- a ``tl.constexpr`` parameter's default that no launch overrides;
- in a kernel that loops over its tiles whatever its grid (persistent: ``for tile in
  tl.range(pid, num_tiles, NUM_SMS)``), its tiles and tile grouping declared in its body
  (``BLOCK_M: tl.constexpr = 128``, ``GROUP_M: tl.constexpr = 8``), as inductor writes its
  templates. A kernel launched once per tile has a grid made from its tiles, which
  would not move with them.

Lines marked ``# kernelevo: keep`` (and functions whose ``def`` is) are left alone
(:mod:`kernelevo.utils.kept`).

A literal that must agree with a launch's meta-parameter moves with it: ``1024`` in
``triton.cdiv(n, 1024)`` or ``n // 1024`` (and the ``1023`` of ``(n + 1023) // 1024``) in the
function that launches with ``BLOCK=1024``. Where one function has several meta-parameters of
that value, they cannot be told apart, so they move together as one. A block of 1 at a launch
whose grid has no such literal (``kernel[(n_rows, 1, 1)](..., XBLOCK=1)``) stays 1.
"""

from __future__ import annotations

import ast
import functools
import re

from kernelevo.utils.kept import kept_lines
from kernelevo.utils.pyast import KERNEL_TILE, decorator_names, is_constexpr, loops_over_programs
from kernelevo.variation.source.tunable import Link, Tunable

NOT_LINKED = ("num_warps", "num_stages")  # never in a grid: a cdiv by 4 is not the warp count
BLOCK_NAME = re.compile(r"^[XYZ]BLOCK$|^BLOCK")  # a grid axis's block: inductor's XBLOCK, people's BLOCK_SIZE
# inductor names each axis twice: its size (``xnumel``, ``r0_numel``) and its block (``XBLOCK``, ``R0_BLOCK``)
AXIS_SIZE = re.compile(r"(?:^|_)([xyz]|r\d*)_?numel$")
AXIS_BLOCK = re.compile(r"^([XYZ]|R\d*)_?BLOCK$")


def is_tunable_name(name: str) -> bool:
    return name in NOT_LINKED or (name.isupper() and len(name) > 1) or name.startswith("BLOCK")


def is_int_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0


def int_value(node: ast.AST) -> int:
    assert isinstance(node, ast.Constant) and type(node.value) is int
    return node.value


@functools.lru_cache(maxsize=1024)  # asked again for each draw; parents are an archive's elites (hundreds)
def find_tunables(source: str) -> tuple[Tunable, ...]:
    kept = kept_lines(source)
    return tuple(t for t in HostReader(ast.parse(source)).tunables() if t.line not in kept)


def _size_axis(size: ast.expr) -> str | None:
    """The inductor axis a size names (``triton_red_fused_sum_0_xnumel``: ``x``, ``r0_numel``: ``r0``), if any."""
    match = AXIS_SIZE.search(ast.unparse(size))
    return match.group(1) if match else None


def kernel_tiles(kernel: ast.FunctionDef) -> dict[str, ast.Constant]:
    """The tiles a kernel declares in its body (``BLOCK_M: tl.constexpr = 128``), by name."""
    return {stmt.target.id: stmt.value for stmt in kernel.body
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
            and isinstance(stmt.value, ast.Constant) and is_int_literal(stmt.value)
            and "constexpr" in ast.unparse(stmt.annotation) and KERNEL_TILE.match(stmt.target.id)}


class HostReader:
    def __init__(self, tree: ast.Module) -> None:
        self.jit: list[ast.FunctionDef] = []
        self.host_nodes: list[ast.AST] = []  # outside @triton.jit bodies, in source order
        self.scope: dict[int, ast.AST | None] = {}  # host node -> its innermost function (None: module)
        self.outer: dict[int, ast.AST] = {}  # function -> the function it is defined in
        self._index(tree)
        self.found: dict[int, tuple[ast.Constant, str, str]] = {}  # literal -> (node, name, context)
        self.names: dict[tuple[int, str], tuple[ast.Constant, str]] = {}  # (scope, name) -> literal, context
        self.launches: list[ast.Call] = []
        self.launch_values: dict[int, list[ast.Constant]] = {}  # id(launch) -> literals its keywords read
        self.defaults: dict[str, list[tuple[str, ast.Constant]]] = {}  # kernel -> its constexpr defaults
        self._partners_by_scope: dict[int, list[tuple[ast.Constant, int, str | None]]] | None = None

    def _index(self, tree: ast.Module) -> None:
        """One pass over the tree: host nodes in source order, each with its function (a mutant is
        read on every draw of the template operator: walking once per function cost 30 ms a source)."""
        stack: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
        while stack:
            node, owner = stack.pop()
            self.host_nodes.append(node)
            children: list[tuple[ast.AST, ast.AST | None]] = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.scope[id(node)] = node  # its arguments and defaults belong to it
                if owner is not None:
                    self.outer[id(node)] = owner
                jit = isinstance(node, ast.FunctionDef) and "jit" in decorator_names(node)
                if jit:
                    assert isinstance(node, ast.FunctionDef)
                    self.jit.append(node)
                for name, value in ast.iter_fields(node):
                    if jit and name == "body":
                        continue  # device code: constants there are the algorithm, not its parameters
                    for child in value if isinstance(value, list) else [value]:
                        if isinstance(child, ast.AST):
                            children.append((child, node))
            else:
                self.scope[id(node)] = owner
                children = [(child, owner) for child in ast.iter_child_nodes(node)]
            stack.extend(reversed(children))

    def _scope_id(self, node: ast.AST) -> int:
        owner = self.scope.get(id(node))
        return id(owner) if owner is not None else 0

    def add(self, node: ast.expr, name: str, context: str) -> None:
        assert isinstance(node, ast.Constant)
        self.found.setdefault(id(node), (node, name, context))

    # -- where literals are --------------------------------------------------------------------
    def read_assignments(self) -> None:
        for node in self.host_nodes:
            pairs: list[tuple[ast.expr, ast.expr | None]] = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                        and len(target.elts) == len(node.value.elts):
                    pairs = list(zip(target.elts, node.value.elts, strict=True))
                else:
                    pairs = [(target, node.value)]
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                pairs = [(node.target, node.value)]
            for target, value in pairs:
                if not is_int_literal(value):
                    continue
                assert isinstance(value, ast.Constant)
                if isinstance(target, ast.Name):
                    self.names.setdefault((self._scope_id(node), target.id), (value, "constant"))
                    if is_tunable_name(target.id):
                        self.add(value, target.id, "constant")
                elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    self.names.setdefault((0, f"self.{target.attr}"), (value, "constant"))
                    if is_tunable_name(target.attr):
                        self.add(value, target.attr, "constant")
        for node in self.host_nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not any(node is f for f in self.jit):
                args = node.args.posonlyargs + node.args.args
                for arg, default in zip(args[len(args) - len(node.args.defaults):], node.args.defaults,
                                        strict=True):
                    if is_int_literal(default):
                        assert isinstance(default, ast.Constant)
                        self.names.setdefault((id(node), arg.arg), (default, "default"))
                        if is_tunable_name(arg.arg):
                            self.add(default, arg.arg, "default")

    def resolve(self, value: ast.expr, at: ast.AST) -> tuple[ast.Constant, str, str] | None:
        """The literal a launch keyword's value is (or reads through a name), its name and context."""
        if is_int_literal(value):
            assert isinstance(value, ast.Constant)
            return value, "", "launch"
        if isinstance(value, ast.Name):
            owner = self.scope.get(id(at))
            while True:  # the enclosing functions, innermost first, then the module
                key = (id(owner) if owner is not None else 0, value.id)
                if key in self.names:
                    literal, context = self.names[key]
                    return literal, value.id, context
                if owner is None:
                    return None
                owner = self.outer.get(id(owner))
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
            found = self.names.get((0, f"self.{value.attr}"))
            if found is not None:
                return found[0], value.attr, found[1]
        return None

    def _calls(self) -> None:
        for node in self.host_nodes:
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Subscript):  # kernel[grid](...)
                self.launches.append(node)
                read = self.launch_values.setdefault(id(node), [])
                passed = {kw.arg for kw in node.keywords}
                kernel = ast.unparse(node.func.value)
                read += [literal for name, literal in self.defaults.get(kernel, []) if name not in passed]
                for kw in node.keywords:
                    if kw.arg is None:
                        continue
                    resolved = self.resolve(kw.value, node)
                    if resolved is None:
                        continue
                    literal, name, context = resolved
                    if context == "launch" and not is_tunable_name(kw.arg):
                        continue
                    self.add(literal, name or kw.arg, context)
                    if kw.arg not in NOT_LINKED:
                        read.append(literal)
                continue
            callee = ast.unparse(node.func)
            if callee.endswith("Config"):
                for kw in node.keywords:
                    if kw.arg and is_tunable_name(kw.arg) and is_int_literal(kw.value):
                        self.add(kw.value, kw.arg, "config")
                if node.args and isinstance(node.args[0], ast.Dict):
                    for k, v in zip(node.args[0].keys, node.args[0].values, strict=True):
                        if isinstance(k, ast.Constant) and isinstance(k.value, str) and is_int_literal(v):
                            self.add(v, k.value, "config")
            elif callee.endswith("heuristics") and node.args and isinstance(node.args[0], ast.Dict):
                for k, v in zip(node.args[0].keys, node.args[0].values, strict=True):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Lambda) \
                            and is_int_literal(v.body):
                        self.add(v.body, k.value, "heuristic")

    def _read_constexpr_defaults(self) -> None:
        """Each kernel's ``tl.constexpr`` parameters with an integer default, by the kernel's name."""
        for function in self.jit:
            args = function.args.posonlyargs + function.args.args
            for arg, default in zip(args[len(args) - len(function.args.defaults):], function.args.defaults,
                                    strict=True):
                if is_constexpr(arg) and is_int_literal(default):
                    assert isinstance(default, ast.Constant)
                    self.defaults.setdefault(function.name, []).append((arg.arg, default))

    def _persistent_tiles(self) -> None:
        """The tiles declared in the body of a kernel whose loop over tiles does not depend on its grid."""
        for kernel in self.jit:
            if loops_over_programs(kernel):
                for name, literal in kernel_tiles(kernel).items():
                    self.add(literal, name, "kernel_tile")

    def _constexpr_defaults(self) -> None:
        """The defaults no launch overrides are tunable (one that is always passed changes nothing)."""
        passed = {kw.arg for call in self.launches for kw in call.keywords if kw.arg}
        for literals in self.defaults.values():
            for name, default in literals:
                if name not in passed:
                    self.add(default, name, "constexpr_default")

    # -- what moves together -------------------------------------------------------------------
    def _partners(self, scope: int) -> list[tuple[ast.Constant, int, str | None]]:
        """Literals in a function's cdiv and floor divisions: (literal, what to add to the block size, the
        inductor axis whose size it divides, if it names one)."""
        if self._partners_by_scope is None:
            self._partners_by_scope = {}
            for node in self.host_nodes:
                found = self._partners_by_scope.setdefault(self._scope_id(node), [])
                if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("cdiv") and len(node.args) == 2 \
                        and is_int_literal(node.args[1]):
                    found.append((node.args[1], 0, _size_axis(node.args[0])))  # type: ignore[arg-type]
                elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv) and is_int_literal(node.right):
                    assert isinstance(node.right, ast.Constant)
                    left = node.left
                    if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add) and is_int_literal(left.right):
                        assert isinstance(left.right, ast.Constant)
                        axis = _size_axis(left.left)  # (n + 127) // 128
                        found.append((node.right, 0, axis))
                        if int_value(left.right) == int_value(node.right) - 1:
                            found.append((left.right, -1, axis))
                    else:
                        found.append((node.right, 0, _size_axis(left)))
        return self._partners_by_scope.get(scope, [])

    def _links(self) -> dict[int, list[tuple[ast.Constant, int]]]:
        """For each literal that leads a group, the literals that move with it (and their offset)."""
        groups: dict[tuple[int, int], list[ast.Constant]] = {}  # (scope, value) -> keyword literals
        for call in self.launches:
            for literal in self.launch_values.get(id(call), []):
                group = groups.setdefault((self._scope_id(call), int_value(literal)), [])
                if all(literal is not other for other in group):
                    group.append(literal)
        leader: dict[int, ast.Constant] = {}  # literal -> its group's leader
        links: dict[int, list[tuple[ast.Constant, int]]] = {}
        for (scope, value), literals in groups.items():
            dividing = [(p, add, axis) for p, add, axis in self._partners(scope)
                        if int_value(p) + (1 if add else 0) == value and id(p) not in self.found]
            if not dividing:
                continue
            partners = [(p, add) for p, add, _ in dividing]
            # a grid that divides inductor's xnumel by 128 moves XBLOCK=128, not the R0_BLOCK=128 beside it
            axes = {axis for _, _, axis in dividing}
            if None not in axes:
                literals = [n for n in literals if self._block_axis(n) in axes | {None}]
                if not literals:
                    continue
            literals.sort(key=lambda n: (n.lineno, n.col_offset))
            head = leader.get(id(literals[0]), literals[0])
            for literal in literals[1:]:
                if id(literal) not in leader and literal is not head:
                    leader[id(literal)] = head
                    links.setdefault(id(head), []).append((literal, 0))
            have = {id(n) for n, _ in links.get(id(head), [])}
            links.setdefault(id(head), []).extend((p, add) for p, add in partners if id(p) not in have)
        for follower in leader:
            self.found.pop(follower, None)
        return links

    def _block_axis(self, literal: ast.Constant) -> str | None:
        """The inductor axis a literal's keyword is the block of (``R0_BLOCK``: ``r0``), if it names one."""
        name = self.found.get(id(literal), (None, "", ""))[1]
        match = AXIS_BLOCK.match(name)
        return match.group(1).lower() if match else None

    def _drop_blocks_of_one_no_grid_follows(self, links: dict[int, list[tuple[ast.Constant, int]]]) -> None:
        """A block of 1 that a launch reads, with no grid literal moving with it: its grid counts programs
        without a division (inductor's ``(xnumel, 1, 1)``, one row a program), which a new block would not
        follow. Every such mutant of the no-seed suite's cumsum sweep failed (rows read out of bounds)."""
        launched = {id(literal) for literals in self.launch_values.values() for literal in literals}
        for key, (literal, name, _) in list(self.found.items()):
            if key in launched and int_value(literal) == 1 and BLOCK_NAME.match(name) and not links.get(key):
                del self.found[key]

    def tunables(self) -> list[Tunable]:
        self.read_assignments()
        self._read_constexpr_defaults()
        self._calls()
        self._constexpr_defaults()
        self._persistent_tiles()
        links = self._links()
        self._drop_blocks_of_one_no_grid_follows(links)
        found = sorted(self.found.values(), key=lambda item: (item[0].lineno, item[0].col_offset))
        seen: dict[str, int] = {}
        out = []
        for node, name, context in found:
            ordinal = seen.get(f"{context}:{name}", 0)
            seen[f"{context}:{name}"] = ordinal + 1
            assert node.end_col_offset is not None
            linked = tuple(Link(p.lineno, p.col_offset, p.end_col_offset or p.col_offset, add=add)
                           for p, add in links.get(id(node), []))
            out.append(Tunable(name, int_value(node), node.lineno, node.col_offset, node.end_col_offset, context,
                               ordinal, linked))
        return out

"""Pooling: max or average over windows of the trailing 1, 2 or 3 dims, each output tile from one read of its inputs.

Matches a reference whose traced graph is one of these over one input, and nothing else:

- the values (not the indices, which it may also compute and not return) of
  ``aten.max_pool2d_with_indices`` / ``aten.max_pool3d_with_indices``, any window, stride, padding and
  dilation, ``ceil_mode`` off; a 1-D max pool traces to the 2-D one between ``unsqueeze(-2)`` and
  ``squeeze(-2)``, which the candidate makes as views;
- ``aten.avg_pool2d`` / ``aten.avg_pool3d`` with no padding, ``ceil_mode`` off and no divisor override.

A window size or stride that follows ``get_init_inputs()`` is read from the model's init values.

Why it is faster (bytes moved): a pool must read its input once and write its output once. A program
per output element, or per run of them (inductor's), reads each input as many times as windows cover
it, through L1 or L2 at best (a 4 x 4 window: 16 reads). Here:

- ``tiles``: a program per 2-D tile of outputs; its window offsets are shifted loads of one input region
  (the tile's inputs and its halo), the first bringing it into L1 and the others hitting there, so
  DRAM sees the input about once (plus the halo of each tile's edges);
- ``rows`` (a 1-D pool): a program per run of a row's outputs. A 1-D window reads few bytes per output,
  so the SMs' issue rate, not the DRAM, limits it (inductor's kernel: 8 masked loads, an index division
  and NaN-aware compares per output at 87% of the issue rate and half the DRAM's); away from the row's
  ends the loads are unmasked at constant offsets and a max is one instruction;
- ``vectors`` (a 1-D pool of stride 1, on CUDA): 4 consecutive outputs a thread. The inputs their windows span
  are a few aligned 16-byte loads, and inline PTX takes each output's taps from those registers: a window of 8
  dilated by 3 makes 7 vector loads per 4 outputs, where ``rows`` makes 32 scalar ones (its taps' offsets are
  unaligned), and the 4 outputs are one aligned 16-byte store (a row's blocks start where the output is
  aligned, whatever the row's length). Elsewhere (the interpreter, another stride, a row not a multiple of 16)
  it runs ``rows``;
- ``gather`` (a 2-D or 3-D pool over rows of at most ``GATHER_MAX_W`` elements): a program per block of whole
  output rows. A window's maximum is the maximum over its W taps of the maximum over its (D, H) taps, so each
  (D, H) tap is one contiguous load of whole input rows folded into one accumulator, and each W tap a gather of
  its columns: a few vector loads per output where ``tiles`` and inductor issue a masked load per window
  element (maxpool3d, 27 of them: the SMs' issue rate held those at 69% of the read floor);
- ``blocked`` (windows that tile the input: stride = window, no padding or dilation, an average pool
  over 11 x 11 blocks): each program loads its windows as one 4-D tile, every input element by one
  lane once, and reduces the window's axes in registers.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernelevo.variation.seeding.families.family import FamilyError, FamilySeed, candidate, only_calls, single_output
from kernelevo.variation.seeding.families.pool_kernels import KERNELS
from kernelevo.variation.seeding.op_graph import OpGraph, OpNode

_MAX = ("aten.max_pool2d_with_indices.default", "aten.max_pool3d_with_indices.default")
_AVG = ("aten.avg_pool2d.default", "aten.avg_pool3d.default")
GATHER_MAX_W = 1024  # the widest input row the gather variant holds (a program's rows stay in registers)


@dataclass(frozen=True)
class PoolPlan:
    op: str  # "max" | "avg"
    x: int  # the input's position in forward's arguments
    unsqueeze: int | None  # the dim a 1-D pool's input is unsqueezed at (and its output squeezed), or None
    # per spatial dim, first to last: a literal or the get_init_inputs() value it follows ("init[0]")
    kernel: tuple[str, ...]
    stride: tuple[str, ...]
    padding: tuple[str, ...]
    dilation: tuple[str, ...]
    out_shape: tuple[int, ...]  # the pool's output at the traced sizes (before a 1-D pool's squeeze)
    in_w: int  # the input's last dim at the traced sizes

    @property
    def blocked(self) -> bool:
        """Whether the windows tile the input: each input element in at most one window."""
        return self.stride == self.kernel and set(self.padding) == {"0"} and set(self.dilation) == {"1"}


class PoolFamily:
    name = "pool"

    def match(self, graph: OpGraph) -> PoolPlan | None:
        out = single_output(graph)
        if out is None:
            return None
        found = _pool(graph, out)
        return found[0] if found is not None and only_calls(graph, found[1]) else None

    def seeds(self, plan: PoolPlan, graph: OpGraph) -> list[FamilySeed]:
        if any(v == "" for v in (*plan.kernel, *plan.stride, *plan.padding, *plan.dilation)):
            raise FamilyError("a pooling window's size differs between variants and follows no get_init_inputs() value")
        variants = ["tiles", "blocked"] if plan.blocked else ["tiles"]
        if plan.unsqueeze is not None:
            variants.append("rows")
            if plan.stride[-1] == "1" or plan.stride[-1].startswith("init"):  # a literal stride of 1, or maybe 1
                variants.append("vectors")
        elif _pow2(plan.in_w) <= GATHER_MAX_W:
            variants.append("gather")
        return [FamilySeed(v, _source(plan, graph, v)) for v in variants]


# -- matching --------------------------------------------------------------------------------
def _ints(graph: OpGraph, node: OpNode, i: int, nd: int, default: list[int] | None) -> tuple[str, ...] | None:
    """Argument ``i`` of ``node`` as ``nd`` values (a literal, or the init value it follows), or None."""
    value = node.args[i] if i < len(node.args) else None
    if value is None or value == []:
        if default is None:
            return None
        return tuple(str(v) for v in default)
    items = [value] * nd if isinstance(value, int) else value
    if not isinstance(items, list) or len(items) not in (1, nd) or not all(isinstance(v, int) for v in items):
        return None
    items = items * nd if len(items) == 1 else items
    keys = [f"{node.name}:{i}.{j}" for j in range(nd)] if isinstance(value, list) else [f"{node.name}:{i}"] * nd
    return tuple(graph.follows.get(k, str(v)) for k, v in zip(keys, items, strict=True))


def _pool(graph: OpGraph, out: OpNode) -> tuple[PoolPlan, set[str]] | None:
    matched = {out.name}
    node, squeeze = out, None
    if out.target == "aten.squeeze.dim":
        squeeze = out.args[1]
        node = graph.arg(out, 0) or out
        matched.add(node.name)
    if node.target == "getitem":
        if node.args[1] != 0:
            return None
        node = graph.arg(node, 0) or node
        matched.add(node.name)
        if node.target not in _MAX:
            return None
        op = "max"
        matched |= _indices(graph, node)
    elif node.target in _AVG:
        op = "avg"
    else:
        return None
    x = graph.arg(node, 0)
    unsqueeze = None
    if x is not None and x.target == "aten.unsqueeze.default":
        unsqueeze = x.args[1]
        matched.add(x.name)
        x = graph.arg(x, 0)
    if squeeze is not None and (unsqueeze is None or squeeze != unsqueeze or squeeze != -2):
        return None
    if x is None or x.kind != "input" or x.shape is None or x.dtype not in ("float32", "float16", "bfloat16"):
        return None
    plan = _params(graph, node, op, x, unsqueeze if isinstance(unsqueeze, int) else None)
    return (plan, matched) if plan is not None else None


def _indices(graph: OpGraph, node: OpNode) -> set[str]:
    """The max pool's indices (its second result) and squeezes of them: computed, never returned."""
    found = set()
    for user in graph.users(node.name):
        if user.target == "getitem" and user.args[1] == 1:
            found.add(user.name)
            found |= {u.name for u in graph.users(user.name) if u.target == "aten.squeeze.dim"}
    return found


def _params(graph: OpGraph, node: OpNode, op: str, x: OpNode, unsqueeze: int | None) -> PoolPlan | None:
    nd = 3 if node.target.startswith(("aten.max_pool3d", "aten.avg_pool3d")) else 2
    rank = len(x.shape or []) + (1 if unsqueeze is not None else 0)
    if rank < nd + 1 or node.kwargs:
        return None
    kernel = _ints(graph, node, 1, nd, None)
    if kernel is None:
        return None
    stride = _ints(graph, node, 2, nd, None) or kernel
    padding = _ints(graph, node, 3, nd, [0] * nd)
    if op == "max":  # ceil_mode off
        dilation = _ints(graph, node, 4, nd, [1] * nd)
        plain = node.args[5:6] in ([], [False])
    else:  # no padding, so every window is whole (count_include_pad changes nothing); no ceil_mode, no divisor
        dilation = ("1",) * nd
        plain = padding == ("0",) * nd and node.args[4:5] in ([], [False]) and node.args[6:7] in ([], [None])
    if padding is None or dilation is None or not plain:
        return None
    item = next((u for u in graph.users(node.name) if u.target == "getitem" and u.args[1] == 0), node)
    shape = item.shape
    if shape is None:
        return None
    return PoolPlan(op, x.index or 0, unsqueeze, kernel, stride, padding, dilation, tuple(shape),
                    x.shape[-1] if x.shape else 0)


# -- writing ---------------------------------------------------------------------------------
def _pow2(n: int) -> int:
    return 1 << max(0, (max(1, n) - 1).bit_length())


def _three(values: tuple[str, ...], fill: str) -> str:
    return ", ".join((fill,) * (3 - len(values)) + values)


def _source(plan: PoolPlan, graph: OpGraph, variant: str) -> str:
    nd = len(plan.kernel)
    op = 0 if plan.op == "max" else 1
    init = [f"self.window = ({_three(plan.kernel, '1')})", f"self.stride = ({_three(plan.stride, '1')})",
            f"self.padding = ({_three(plan.padding, '0')})", f"self.dilation = ({_three(plan.dilation, '1')})"]
    view = f".unsqueeze({plan.unsqueeze})" if plan.unsqueeze is not None else ""
    lines = [f"x = inputs[{plan.x}].contiguous(){view}",
             "(kd, kh, kw), (sd, sh, sw) = self.window, self.stride",
             "(pd, ph, pw), (dd, dh, dw) = self.padding, self.dilation",
             f"d, h, w = (1,) * {3 - nd} + tuple(x.shape[-{nd}:])",
             "od, oh, ow = ((i + 2 * p - dl * (k - 1) - 1) // s + 1 for i, p, dl, k, s in "
             "zip((d, h, w), (pd, ph, pw), (dd, dh, dw), (kd, kh, kw), (sd, sh, sw), strict=True))",
             f"planes = math.prod(x.shape[:-{nd}])",
             f"y = torch.empty(tuple(x.shape[:-{nd}]) + (od, oh, ow)[-{nd}:], device=x.device, dtype=x.dtype)"]
    ow_, oh_ = plan.out_shape[-1], plan.out_shape[-2]
    if variant == "tiles":
        block_w = min(128, _pow2(ow_))
        block_h = max(1, min(_pow2(oh_), 1024 // block_w))
        lines += [f"block_h, block_w = {block_h}, {block_w}",
                  "grid = (planes * od, triton.cdiv(oh, block_h), triton.cdiv(ow, block_w))",
                  f"_kev_pool_tiles[grid](x, y, d, h, w, od, oh, ow, op={op}, KD=kd, KH=kh, KW=kw, SD=sd, SH=sh, "
                  "SW=sw, PD=pd, PH=ph, PW=pw, DD=dd, DH=dh, DW=dw, BLOCK_H=block_h, BLOCK_W=block_w, num_warps=4)"]
    elif variant == "rows":  # a 1-D pool: (kd, kh) = (1, 1), od = oh = 1
        # 2 outputs a thread, blocks of 256 to 1,024: a search's best on an H200 (0.361 to 0.391 ms; 4 a thread
        # 0.53 to 0.57 ms, 1 a thread 0.50 to 0.64, blocks of 128 and less slower still)
        lines += ["block = 256",
                  "grid = (planes * triton.cdiv(ow, block),)",
                  f"_kev_pool_rows[grid](x, y, w, ow, op={op}, KW=kw, SW=sw, PW=pw, DW=dw, BLOCK=block, "
                  "num_warps=4)"]
    elif variant == "vectors":  # a 1-D pool: (kd, kh) = (1, 1), od = oh = 1
        # blocks of 512 outputs, 4 warps, 40 registers a thread: the sweep's best on an H200 (0.2890 ms, 0.2978
        # uncapped) and the search's from it (maxpool1d 0.2864 ms; 0.2953 with aligned stores alone, 0.2981 before),
        # benchmarks/results/pool1d_vector_sweep-maxnreg-h200.json, suite_search-s56{a,b}-h200.json
        lines += ["block, warps, align = 512, 4, 4",
                  "vectors = (3 + dw * (kw - 1) + 3) // 4 + 1  # 4 windows from the furthest lead (3) before them",
                  "if (x.is_cuda and sw == 1 and w % 16 == 0 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0 "
                  "and vectors <= 8 and x.dtype in (torch.float32, torch.float16, torch.bfloat16) "
                  "and block >= 128 * warps and align % 4 == 0 and align <= block):",
                  f"    taps = [_kev_pool_taps_asm({op}, kw, dw, lead) for lead in range(4)]",
                  "    # 4 outputs a thread: capped at 40 registers (ptxas gave 47 at 7 vectors, for the masked path, "
                  "compiled ahead with Triton 3.9), more warps are in flight; 44 at 8 vectors is the same margin, "
                  "not measured",
                  "    regs = max(40, 12 + 4 * vectors) if block == 128 * warps else None",
                  f"    _kev_pool_vectors[(planes * triton.cdiv(ow + align - 1, block),)](x, y, w, ow, op={op}, KW=kw, "
                  "PW=pw, DW=dw, VECTORS=vectors, TAPS0=taps[0], TAPS1=taps[1], TAPS2=taps[2], TAPS3=taps[3], "
                  "ALIGN=align, BLOCK=block, num_warps=warps, maxnreg=regs)",
                  "else:  # inline PTX runs on CUDA only, 4 aligned elements a thread: otherwise the rows kernel",
                  f"    _kev_pool_rows[(planes * triton.cdiv(ow, block),)](x, y, w, ow, op={op}, KW=kw, SW=sw, PW=pw, "
                  "DW=dw, BLOCK=block, num_warps=4)"]
    elif variant == "gather":
        # rows of about 1,024 elements a program, a warp per row at most (so that a gather stays within a warp):
        # maxpool3d's best on an H200 (16 rows of 64, 8 warps: 0.163 ms; 8 rows, 4 warps 0.171; 4 rows, 8 warps
        # 0.402), benchmarks/results/pool_gather_sweep-h200.json
        block_h = max(1, min(_pow2(oh_), GATHER_MAX_W // _pow2(plan.in_w)))
        lines += [f"block_h = {block_h}",
                  "block_w, block_ow = triton.next_power_of_2(w), triton.next_power_of_2(ow)",
                  "grid = (planes * od, triton.cdiv(oh, block_h))",
                  f"_kev_pool_gather[grid](x, y, d, h, w, od, oh, ow, op={op}, KD=kd, KH=kh, KW=kw, SD=sd, SH=sh, "
                  "SW=sw, PD=pd, PH=ph, PW=pw, DD=dd, DH=dh, DW=dw, BLOCK_H=block_h, BLOCK_W=block_w, "
                  f"BLOCK_OW=block_ow, num_warps={min(8, block_h)})"]
    else:
        lines += ["block_h, block_w = 2, 8",
                  "grid = (planes * od, triton.cdiv(oh, block_h), triton.cdiv(ow, block_w))",
                  f"_kev_pool_blocked[grid](x, y, d, h, w, od, oh, ow, op={op}, KD=kd, KH=kh, KW=kw, "
                  "KHP=triton.next_power_of_2(kh), KWP=triton.next_power_of_2(kw), BLOCK_H=block_h, "
                  "BLOCK_W=block_w, num_warps=4)"]
    lines.append(f"return y.squeeze({plan.unsqueeze})" if plan.unsqueeze is not None else "return y")
    doc = (f"The pooling family's {variant} kernel ({plan.op} pool, kernelevo.variation.seeding.families.pool): "
           f"{_DOCS[variant]}.")
    return candidate(doc, KERNELS, graph, init, lines)


_DOCS = {"tiles": "a program per tile of outputs, its windows' shifted loads of one input region hitting L1",
         "rows": "a program per run of a row's outputs, unmasked loads at constant offsets away from the row's ends",
         "gather": "a program per block of whole rows, each (D, H) tap one load of the rows, each W tap a gather",
         "vectors": "4 outputs a thread from aligned vector loads of the inputs their windows span, each tap picked "
                    "from registers by inline PTX",
         "blocked": "windows that tile the input, a program's windows loaded as one tile, each element once"}


__all__ = ["PoolFamily", "PoolPlan"]

"""The library policy: which vendor-library work a candidate may hand to torch, and the recorder that sees it.

By default a candidate may leave the ops inductor itself leaves to libraries to torch:
dense GEMM (``mm``, ``addmm``, ``bmm``, ``baddbmm``, ``linear``, ``matmul``, ``@``),
convolution (every kind), scaled dot-product attention and recurrent layers (LSTM,
GRU, RNN). Every other op must run in the candidate's own kernels. A spec's ``library``
setting, or a run's option, narrows the families (``[]`` is pure mode).

What a library call may do is bounded by the reference: each call is reduced to the
*work* it does (a GEMM of M x N x K, a convolution of given shapes, an LSTM of given
sizes; an attention is its two GEMMs), and the candidate's work per forward call must
be part of the reference's. So an identity convolution that adds a bias, a GEMM with a
ones vector that sums rows, or a diagonal GEMM that scales, is work the reference gives
no library: rejected as ``library_misuse``. A candidate may do less in libraries (the
rest in its own kernels), never other work.

The recorder runs in the candidate's child (and over the reference in the judge): a
:class:`LibraryRecorder` (a torch function mode) catches the library functions
themselves, so their own decomposition (an LSTM on the CPU is a dozen aten ops) is not
taken for PyTorch compute, and the child's op recorder hands it the aten GEMMs and
convolutions that other functions reach (``einsum`` is a ``bmm``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from kernelevo.evaluation.common.precision import precision_settings, settings_drift
from kernelevo.records.result import LIBRARY_FAMILIES as FAMILIES
from kernelevo.records.result import ErrorKind, LibraryCall

# torch functions (and tensor methods) that hand a family's work to a library
_GEMM_FUNCTIONS: tuple[Callable[..., Any], ...] = (
    torch.mm, torch.addmm, torch.bmm, torch.baddbmm, torch.matmul, torch.mv, torch.addmv, F.linear,
    torch.Tensor.mm, torch.Tensor.addmm, torch.Tensor.bmm, torch.Tensor.baddbmm, torch.Tensor.matmul,
    torch.Tensor.mv, torch.Tensor.__matmul__, torch.Tensor.__rmatmul__,
)
_CONV_FUNCTIONS: tuple[Callable[..., Any], ...] = (
    F.conv1d, F.conv2d, F.conv3d, F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d, torch.convolution,
)
_FUNCTIONS: dict[Any, str] = {
    **dict.fromkeys(_GEMM_FUNCTIONS, "gemm"),
    **dict.fromkeys(_CONV_FUNCTIONS, "conv"),
    F.scaled_dot_product_attention: "attention",
    **dict.fromkeys((torch.lstm, torch.gru, torch.rnn_tanh, torch.rnn_relu), "rnn"),
}
# aten ops (as a dispatch mode sees them) that are a family's library kernels
ATEN_OPS: dict[str, str] = {
    **dict.fromkeys(("mm", "addmm", "bmm", "baddbmm", "mv", "addmv", "dot"), "gemm"),
    **dict.fromkeys(("convolution", "_convolution", "cudnn_convolution", "cudnn_convolution_transpose",
                     "mkldnn_convolution"), "conv"),
    **dict.fromkeys(("_scaled_dot_product_flash_attention", "_scaled_dot_product_efficient_attention",
                     "_scaled_dot_product_cudnn_attention", "_scaled_dot_product_flash_attention_for_cpu",
                     "_flash_attention_forward", "_efficient_attention_forward"), "attention"),
    **dict.fromkeys(("_cudnn_rnn", "mkldnn_rnn_layer"), "rnn"),
}


# -- what a call does ---------------------------------------------------------------------------
def _shape(x: Any) -> list[int]:
    return list(x.shape) if isinstance(x, torch.Tensor) else []


def _dtype(*xs: Any) -> str:
    return next((str(x.dtype).removeprefix("torch.") for x in xs if isinstance(x, torch.Tensor)), "?")


def gemm_work(m: int, n: int, k: int, dtype: str) -> str:
    """One GEMM's work: M x N outputs of K products each; a transposed product is the same work."""
    a, b = sorted((m, n))
    return f"gemm {a}x{b}x{k} {dtype}"


def _matmul_mnk(a: Any, b: Any) -> tuple[int, int, int]:
    """(rows, columns, inner) of ``a @ b`` as torch.matmul broadcasts it, batch folded into the rows."""
    sa, sb = _shape(a), _shape(b)
    if not sa or not sb:
        return 0, 0, 0
    k = sa[-1]
    rows = sa[-2] if len(sa) > 1 else 1
    cols = sb[-1] if len(sb) > 1 else 1
    batch = torch.broadcast_shapes(torch.Size(sa[:-2]), torch.Size(sb[:-2])) if len(sa) > 2 or len(sb) > 2 else ()
    return rows * math.prod(batch), cols, k


def _arg(args: Sequence[Any], kwargs: dict[str, Any], at: int, name: str, default: Any = None) -> Any:
    return args[at] if len(args) > at else kwargs.get(name, default)


def _gemm_call(name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[str, list[str]]:
    if name in ("linear",):
        x, w = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
        m, n, k = math.prod(_shape(x)[:-1]), _shape(w)[0], _shape(w)[-1]
        dtype = _dtype(x)
    elif name in ("addmm", "baddbmm", "addmv"):  # (bias, a, b)
        a, b = _arg(args, kwargs, 1, "mat1" if name == "addmm" else "batch1" if name == "baddbmm" else "mat"), \
            _arg(args, kwargs, 2, "mat2" if name == "addmm" else "batch2" if name == "baddbmm" else "vec")
        m, n, k = _matmul_mnk(a, b)
        dtype = _dtype(a)
    else:  # mm, bmm, matmul, mv, dot, __matmul__ (a, b); __rmatmul__ is b.__rmatmul__(a)
        a, b = args[0] if args else kwargs.get("input"), args[1] if len(args) > 1 else kwargs.get("other")
        if name == "__rmatmul__":
            a, b = b, a
        m, n, k = _matmul_mnk(a, b)
        dtype = _dtype(a)
    return f"{name} {m}x{n}x{k} {dtype}", [gemm_work(m, n, k, dtype)]


def _ints(value: Any, dims: int) -> list[int]:
    if isinstance(value, int):
        return [value] * dims
    return [int(v) for v in value]


def _conv_call(name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[str, list[str]]:
    x, w = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    dims = max(len(_shape(w)) - 2, 1)
    if name in ("convolution", "_convolution"):  # aten: x, w, bias, stride, padding, dilation, transposed, ...
        stride, padding, dilation = (_ints(_arg(args, kwargs, i, n, 1 if n != "padding" else 0), dims)
                                     for i, n in ((3, "stride"), (4, "padding"), (5, "dilation")))
        transposed = bool(_arg(args, kwargs, 6, "transposed", False))
        out_pad = _ints(_arg(args, kwargs, 7, "output_padding", 0), dims)
        groups = int(_arg(args, kwargs, 8, "groups", 1))
    elif name.startswith("conv_transpose"):  # (x, w, bias, stride, padding, output_padding, groups, dilation)
        stride = _ints(_arg(args, kwargs, 3, "stride", 1), dims)
        padding = _ints(_arg(args, kwargs, 4, "padding", 0), dims)
        out_pad = _ints(_arg(args, kwargs, 5, "output_padding", 0), dims)
        groups = int(_arg(args, kwargs, 6, "groups", 1))
        dilation = _ints(_arg(args, kwargs, 7, "dilation", 1), dims)
        transposed = True
    else:  # conv1d/2d/3d: (x, w, bias, stride, padding, dilation, groups); padding may be 'same' or 'valid'
        stride = _ints(_arg(args, kwargs, 3, "stride", 1), dims)
        pad = _arg(args, kwargs, 4, "padding", 0)
        dilation = _ints(_arg(args, kwargs, 5, "dilation", 1), dims)
        if pad == "valid":
            pad = 0
        elif pad == "same":  # the padding 'same' amounts to, for the odd kernels it is used with
            pad = [d * (k - 1) // 2 for d, k in zip(dilation, _shape(w)[2:], strict=False)]
        padding = _ints(pad, dims)
        groups = int(_arg(args, kwargs, 6, "groups", 1))
        out_pad, transposed = [0] * dims, False
    text = (f"x{_shape(x)} w{_shape(w)} stride {stride} padding {padding} dilation {dilation} groups {groups}"
            + (f" transposed output_padding {out_pad}" if transposed else "") + f" {_dtype(x)}")
    kind = f"conv{dims}d" + ("_transpose" if transposed else "")
    return f"{kind} {text}", [f"{kind} {text}"]


def _attention_call(name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[str, list[str]]:
    """An attention's work is its two GEMMs: Q K^T (L x S of E) and P V (L x Ev of S), over batch and heads."""
    q, k, v = (_arg(args, kwargs, i, n) for i, n in ((0, "query"), (1, "key"), (2, "value")))
    sq, sk, sv = _shape(q), _shape(k), _shape(v)
    rows = math.prod(sq[:-1])
    s, e, ev = sk[-2], sq[-1], sv[-1]
    causal = bool(kwargs.get("is_causal", args[5] if name == "scaled_dot_product_attention" and len(args) > 5 else
                             False))
    dtype = _dtype(q)
    text = f"q{sq} k{sk} v{sv}{' causal' if causal else ''} {dtype}"
    return f"attention {text}", [gemm_work(rows, s, e, dtype), gemm_work(rows, ev, s, dtype)]


def _rnn_call(name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[str, list[str]]:
    # torch.lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first);
    # the aten kernels under it (_cudnn_rnn, mkldnn_rnn_layer) are only seen outside such a call
    x = args[0] if args else None
    hx = args[1] if len(args) > 1 else None
    first = hx[0] if isinstance(hx, list | tuple) and hx else hx
    hidden = _shape(first)[-1] if first is not None else 0
    layers = args[4] if len(args) > 4 and isinstance(args[4], int) else 0
    bidirectional = bool(args[7]) if len(args) > 7 else False
    text = f"x{_shape(x)} hidden {hidden} layers {layers}{' bidirectional' if bidirectional else ''} {_dtype(x)}"
    return f"{name} {text}", [f"{name} {text}"]


_DESCRIBE = {"gemm": _gemm_call, "conv": _conv_call, "attention": _attention_call, "rnn": _rnn_call}


def describe_call(family: str, name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[str, list[str]]:
    """(a line for people, the work units it does) of one library call."""
    try:
        return _DESCRIBE[family](name, args, kwargs)
    except Exception as exc:  # arguments a call would itself reject: still a call of that family
        return f"{name} (arguments not read: {type(exc).__name__})", [f"{family}:{name}:unread"]


# -- recording --------------------------------------------------------------------------------
@dataclass
class _Pausable:
    """Something counting ops that a library call must not feed (the child's op recorder)."""

    paused: int = 0


class LibraryRecorder(TorchFunctionMode):
    """Records every library call made while active, by (family, op, signature), with the work each does.

    ``ops``: the op recorder to pause inside a library call (what the call does inside is the
    library's). ``timed``: bracket each call with CUDA events, for :meth:`library_ms`. ``precision``:
    torch's precision settings as the judge set them (:mod:`kernelevo.evaluation.common.precision`);
    a call made under others is named in :attr:`drift`, even if the candidate restores them after."""

    def __init__(self, ops: Any = None, *, timed: bool = False, precision: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.ops = ops if ops is not None else _Pausable()
        self.calls: Counter[tuple[str, str, str]] = Counter()
        self._work: dict[tuple[str, str, str], list[str]] = {}
        self.timed = timed
        self._events: list[tuple[Any, Any]] = []
        self.precision = precision
        self.drift: list[str] = []

    def __torch_function__(self, func: Any, types: Any, args: Sequence[Any] = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        family = _FUNCTIONS.get(func)
        if family is None or self.ops.paused:
            return func(*args, **kwargs)
        self.record(family, getattr(func, "__name__", str(func)), args, kwargs)
        with self.paused(), self._timed():
            return func(*args, **kwargs)

    def record(self, family: str, name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> None:
        signature, work = describe_call(family, name, args, kwargs)
        if self.precision is not None and not self.drift:
            self.drift = [f"{change} at {name}" for change in settings_drift(self.precision, precision_settings())]
        key = (family, name, signature)
        self.calls[key] += 1
        self._work[key] = work

    def aten_call(self, op: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
        """For an aten op the op recorder saw outside any library function: None if it is no library
        kernel, else (recorded) the context to run it in."""
        family = ATEN_OPS.get(op)
        if family is None:
            return None
        self.record(family, op, args, kwargs)
        return self._timed()

    @contextmanager
    def paused(self) -> Iterator[None]:
        self.ops.paused += 1
        try:
            yield
        finally:
            self.ops.paused -= 1

    @contextmanager
    def _timed(self) -> Iterator[None]:
        if not self.timed:
            yield
            return
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        try:
            yield
        finally:
            end.record()
            self._events.append((start, end))

    def library_ms(self) -> float:
        """The GPU time (ms) of the calls timed since the last :meth:`clear`; synchronizes."""
        if not self._events:
            return 0.0
        self._events[-1][1].synchronize()
        return sum(start.elapsed_time(end) for start, end in self._events)

    def clear(self) -> None:
        self.calls.clear()
        self._work.clear()
        self._events.clear()

    def records(self) -> list[LibraryCall]:
        return [LibraryCall(family=family, op=op, signature=signature, count=count, work=self._work[key])
                for key, count in self.calls.items() for family, op, signature in (key,)]


def work_of(calls: Iterable[LibraryCall]) -> Counter[str]:
    """The work units of ``calls``, each as often as its calls did it."""
    work: Counter[str] = Counter()
    for call in calls:
        for unit in call.work:
            work[unit] += call.count
    return work


# -- judging ----------------------------------------------------------------------------------
# Inductor pads an fp32 GEMM whose sizes are not aligned (its pad_mm pass: 21 x 15 x 15 is run as 24 x 16 x 16 on
# zeros), as it benchmarks faster: on a spec's small, odd variants its own seed then did "work the reference gives no
# library". A GEMM counts as the reference's where each size that differs is the reference's, unaligned, rounded up
# to at most the next multiple of PAD_ALIGN. A kernel cannot use that band to do other work at the timed sizes of a
# spec, whose GEMMs are aligned there: no band at all.
PAD_ALIGN = 8
_GEMM_UNIT = re.compile(r"gemm (\d+)x(\d+)x(\d+) (\S+)")


def _pads(size: int, of: int) -> bool:
    return size == of or (of % PAD_ALIGN != 0 and of < size <= -(-of // PAD_ALIGN) * PAD_ALIGN)


def _padded_gemm(unit: str, of: str) -> bool:
    """Whether GEMM work ``unit`` is GEMM work ``of`` with unaligned sizes padded (its M and N in either order)."""
    mine, theirs = _GEMM_UNIT.fullmatch(unit), _GEMM_UNIT.fullmatch(of)
    if mine is None or theirs is None or mine[4] != theirs[4] or not _pads(int(mine[3]), int(theirs[3])):
        return False
    (a, b), (c, d) = (int(mine[1]), int(mine[2])), (int(theirs[1]), int(theirs[2]))
    return (_pads(a, c) and _pads(b, d)) or (_pads(a, d) and _pads(b, c))


def misuse(candidate: Counter[str], reference: Counter[str]) -> list[str]:
    """The candidate's library work (units per forward call) beyond the reference's: empty when it is part of it
    (a GEMM of the reference's padded to aligned sizes included, each of the reference's at most once)."""
    beyond, left = candidate - reference, reference - candidate
    for unit in sorted(beyond):
        while beyond[unit]:
            of = next((r for r in sorted(left) if left[r] and _padded_gemm(unit, r)), None)
            if of is None:
                break
            beyond[unit] -= 1
            left[of] -= 1
    return [f"{unit}{f' x{n}' if n > 1 else ''}" for unit, n in sorted((+beyond).items())]


def outside_policy(calls: Iterable[LibraryCall], families: Sequence[str]) -> list[LibraryCall]:
    return [c for c in calls if c.family not in families]


def library_rejection(calls: Sequence[LibraryCall], reference: Sequence[LibraryCall],
                      families: Sequence[str]) -> tuple[ErrorKind, str] | None:
    """Why one forward's library ``calls`` are refused (the reason and its words), or None: a family the policy
    (``families``) leaves out is ``library_call``; work beyond the ``reference``'s calls is ``library_misuse``."""
    barred = outside_policy(calls, families)
    if barred:
        policy = ", ".join(families) or "pure: none"
        return (ErrorKind.LIBRARY_CALL,
                f"forward handed {', '.join(c.signature for c in barred[:3])} to a vendor library, which this "
                f"run's library policy ({policy}) does not allow: the kernels must do it")
    beyond = misuse(work_of(calls), work_of(reference))
    if beyond:
        theirs = "; ".join(c.signature + (f" x{c.count}" if c.count > 1 else "") for c in reference) or "none"
        return (ErrorKind.LIBRARY_MISUSE,
                f"forward's library calls do work the reference gives no library: {'; '.join(beyond[:3])} "
                f"(the reference's library calls: {theirs}). Library calls may do the reference's GEMMs, "
                "convolutions, attention and recurrent layers, never its other ops")
    return None


__all__ = ["ATEN_OPS", "FAMILIES", "LibraryRecorder", "describe_call",
           "gemm_work", "library_rejection", "misuse", "outside_policy", "work_of"]

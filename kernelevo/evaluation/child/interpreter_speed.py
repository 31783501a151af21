"""Triton's interpreter reduces and scans with a custom combine function in logarithmic steps, not per element.

Triton 3.9's interpreter has fast paths for the standard combines (sum, max, min, argmax, cumsum, cumprod)
and runs any other combine function (a NaN-propagating max, Welford's mean and variance, a loss's
(value, count) pair) once per element, in Python: a 4,096-wide block reduced with one costs about 4,000
interpreted calls, and a family seed's split reduction of a 600-element row took 80 s to judge on the CPU.

Here the same combine function is called on whole halves of the block instead:

- a reduction combines adjacent pairs (elements 0 and 1, 2 and 3, ...) until one is left, as a GPU's tree does;
- a scan is Hillis and Steele's: at distance d = 1, 2, 4, ... each element takes the combine of the one d
  before it and itself (on whole blocks rolled by d, as the interpreter's block types must keep their
  power-of-two shapes).

Both keep every operand's order (the left one is always the earlier) and need only associativity, which
Triton already asks of a combine function (the compiled kernel reduces in a tree too). Floating-point
results may differ from the interpreter's sequential order in the last bits, as the GPU's do. A combine
function that fails on blocks (Python control flow on a value, say) runs the interpreter's own per-element
path instead, so nothing that ran before stops running.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_installed = False


def install() -> None:
    """Patch the interpreter's generic reduce and scan (idempotent); only in a child that interprets."""
    global _installed
    if _installed:
        return
    from triton.runtime import interpreter

    slow_reduce = interpreter.ReduceOps.generic_reduce
    slow_scan = interpreter.ScanOps.generic_scan

    def generic_reduce(self: Any, input: Any) -> Any:
        try:
            return _tree_reduce(self, input)
        except Exception:  # a combine that needs scalars: the interpreter's own path
            return slow_reduce(self, input)

    def generic_scan(self: Any, input: Any) -> Any:
        try:
            return _doubling_scan(self, input)
        except Exception:
            return slow_scan(self, input)

    interpreter.ReduceOps.generic_reduce = generic_reduce
    interpreter.ScanOps.generic_scan = generic_scan
    _installed = True


class BranchOnBlock(Exception):
    """A combine function branched on a block's value: only the per-element path can run it."""


def _scalar_truth(value: Any) -> bool:
    data = value.handle.data
    if data.size != 1:
        raise BranchOnBlock
    return bool(data)


def _combine(op: Any, left: list[np.ndarray], right: list[np.ndarray], dtypes: list[Any]) -> list[np.ndarray]:
    """``op.combine_fn`` on two lists of equally shaped blocks; each result cast back to its operand's type."""
    import triton.language as tl

    args = [op.to_tensor(a, dt) for a, dt in zip(left, dtypes, strict=True)]
    args += [op.to_tensor(b, dt) for b, dt in zip(right, dtypes, strict=True)]
    # The interpreter takes any block with more than one element as True; a combine that branches on a
    # value would silently compute the wrong thing on blocks. Such a branch raises here instead.
    lenient = tl.core.tensor.__bool__
    tl.core.tensor.__bool__ = _scalar_truth
    try:
        out = op.combine_fn.fn(*args)
    finally:
        tl.core.tensor.__bool__ = lenient
    outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != len(left):
        raise ValueError("the combine function returned another number of values")
    results = []
    for value, like in zip(outs, left, strict=True):
        data = value.handle.data if isinstance(value, tl.core.tensor) else np.asarray(value)
        results.append(np.broadcast_to(np.asarray(data), like.shape).astype(like.dtype))
    return results


def _tree_reduce(op: Any, input: Any) -> list[Any]:
    original_axis = op.axis
    input, axis = op.unravel(input, op.axis)
    dtypes = [arg.dtype for arg in input]
    input_shape = input[0].handle.data.shape
    # the reduced axis first: each step combines slices of the rest
    arrays = [np.moveaxis(arg.handle.data, axis, 0) for arg in input]
    # The interpreter's blocks have power-of-two shapes, so each step halves the axis exactly (any other
    # length fails in to_tensor, and the caller falls back to the per-element path).
    while arrays[0].shape[0] > 1:
        arrays = _combine(op, [a[0::2] for a in arrays], [a[1::2] for a in arrays], dtypes)
    ret = []
    for i, array in enumerate(arrays):
        data = array[0].astype(input[i].handle.data.dtype)
        if op.keep_dims:
            if original_axis is not None:
                data = np.expand_dims(data, axis)
            else:
                for _ in range(len(input_shape)):
                    data = np.expand_dims(data, 0)
        elif original_axis is None:
            data = data.item()
        ret.append(op.to_tensor(data, input[i].dtype))
    return ret


def _doubling_scan(op: Any, input: Any) -> list[Any]:
    dtypes = [arg.dtype for arg in input]
    arrays = [np.moveaxis(arg.handle.data, op.axis, 0).copy() for arg in input]
    n, distance = arrays[0].shape[0], 1
    while distance < n:
        # Whole blocks (the interpreter's blocks have power-of-two shapes): element i meets element i - d,
        # rolled round; the first d results combine wrapped-round elements and are dropped.
        rolled = [np.roll(a, distance, axis=0) for a in arrays]
        with np.errstate(all="ignore"):  # the dropped results may overflow or divide by zero: no warnings
            combined = _combine(op, rolled, arrays, dtypes)
        for array, part in zip(arrays, combined, strict=True):
            array[distance:] = part[distance:]
        distance *= 2
    return [op.to_tensor(np.ascontiguousarray(np.moveaxis(a, 0, op.axis)), dt)
            for a, dt in zip(arrays, dtypes, strict=True)]

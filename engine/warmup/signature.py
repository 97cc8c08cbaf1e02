"""A kernel's argument types as a short text and back: how the plan (engine/warmup/plan.json) names the overloads it
asks a worker process to compile.

Why not numba's own names: ``str()`` of a numba type (``readonly array(int32, 1d, C)``) cannot be read back, and
a pickle is neither readable in a diff nor stable across numba versions. The text here is a small expression over
the few kinds of types the kernels take::

    A(int8, 2)             a C-contiguous 2d int8 array        A(int32, 1, ro=1)   the same, read-only
    A(int64, 1, 'A')       any layout                          int64, uint32, float64, boolean
    L(0), L(True)          a constant (numba's Literal types)  U(int64, 3), T(int64, A(int8, 1))   tuples

:func:`text` raises on a kind it does not know, so a kernel that starts taking one fails the plan's recording
(``python -m engine.warmup.record``) loudly rather than being left out of it.
"""
from __future__ import annotations

import ast

from numba.core import types

_SCALARS = {name: getattr(types, name) for name in (
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "boolean")}
_NAMES = {t: name for name, t in _SCALARS.items()}


def text(t: types.Type) -> str:
    """The text of one numba type."""
    if isinstance(t, types.Array):
        extra = "" if t.layout == "C" else f", {t.layout!r}"
        extra += "" if t.mutable else ", ro=1"
        return f"A({text(t.dtype)}, {t.ndim}{extra})"
    if isinstance(t, types.Literal) and isinstance(t.literal_value, (bool, int)):
        return f"L({t.literal_value!r})"
    if isinstance(t, types.UniTuple):
        return f"U({text(t.dtype)}, {t.count})"
    if isinstance(t, types.Tuple):
        return "T(" + ", ".join(text(x) for x in t.types) + ")"
    if t in _NAMES:
        return _NAMES[t]
    raise TypeError(f"engine.warmup.signature: no text for the numba type {t} ({type(t).__name__})")


def signature_text(args) -> str:
    """The text of a tuple of argument types: ``(A(int8, 2), int64)``."""
    return "(" + ", ".join(text(t) for t in args) + ")"


def _array(dtype, ndim, layout="C", ro=0):
    return types.Array(dtype, ndim, layout, readonly=bool(ro))


def _literal(value):
    return types.literal(value)


def _tuple(*items):
    return types.Tuple(items)


def _unituple(dtype, count):
    return types.UniTuple(dtype, count)


_BUILD = {**_SCALARS, "A": _array, "L": _literal, "T": _tuple, "U": _unituple}


def _evaluate(node):
    """Evaluate the small expression language above from its syntax tree (no eval: the names are ours only)."""
    if isinstance(node, ast.Name) and node.id in _BUILD:
        return _BUILD[node.id]
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, str)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value
    if isinstance(node, ast.Tuple):
        return tuple(_evaluate(x) for x in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in "ALTU":
        return _BUILD[node.func.id](*(_evaluate(a) for a in node.args),
                                    **{k.arg: _evaluate(k.value) for k in node.keywords})
    raise ValueError(f"engine.warmup.signature: cannot read {ast.unparse(node)!r}")


def parse(signature: str) -> tuple:
    """The tuple of numba types :func:`signature_text` wrote."""
    tree = ast.parse(signature, mode="eval").body
    value = _evaluate(tree)
    return value if isinstance(value, tuple) else (value,)

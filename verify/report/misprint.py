"""Which part of an erratum is wrong, and the smallest piece of it that differs.

A claim's printed and corrected forms are recorded part by part (``Forms(delay=..., g_meaning=
...)``).  Showing the first part whose text differs misleads: two parts can read differently and
be equal (``d h if c > h, else c d`` is ``d min(c, h)``), and a part can differ only where the
suite generalised the paper.  The misprint is chosen here, from the record alone:

1. pairs (parts of one name on both sides) that are *not equal*: sympy objects are compared at
   random points that respect their symbols' assumptions (structurally where they do not
   evaluate, matrices), prose by its words;
2. a printed part that cannot even be formed (matrices that do not conform) comes first, then a
   part named by a failed measurement of the printed side, then the rest in the record's order;
3. the chosen pair is narrowed to the smallest subexpression where the two sides differ, with one
   level of context around a difference of a symbol or a sign (``r_0^{...}``, not ``-l``).

Where no part differs (the misprint is a sentence, the forms being right), the paper's words that
a failed measurement quotes are shown against the corrected statement.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from verify.report import maths

#: points at which two forms are compared, and the relative tolerance of "equal"
POINTS, RTOL = 4, 1e-9
#: a narrowed difference shorter than this (characters as read) is shown with its parent
CONTEXT = 8


@dataclass(frozen=True)
class Misprint:
    """The wrong part of an erratum: its recorded name ('' for the whole form),
    the printed and corrected pieces (LaTeX, or prose when ``prose``), how many other parts
    differ too."""

    part: str
    printed: str
    corrected: str
    prose: bool = False
    others: int = 0


def _values(symbols, rng, sign: int) -> dict:
    """Random values that respect each symbol's assumptions; an unrestricted one takes ``sign``."""
    out = {}
    for s in symbols:
        if s.is_integer:
            out[s] = rng.randint(2, 9) if s.is_positive or s.is_nonnegative else rng.randint(-9, 9)
        elif s.is_positive or s.is_nonnegative:
            out[s] = rng.uniform(0.2, 3.0)
        else:
            out[s] = sign * rng.uniform(0.2, 3.0)
    return out


def equal(a, b) -> bool:
    """Whether two recorded sympy objects are the same function (at :data:`POINTS` random
    points; structurally where they do not evaluate to numbers, e.g. matrix expressions)."""
    import sympy as sp
    if a == b:
        return True
    if not (isinstance(a, sp.Expr) and isinstance(b, sp.Expr)) or a.is_Matrix or b.is_Matrix:
        return False
    rng = random.Random(0)
    symbols = sorted(a.free_symbols | b.free_symbols, key=str)
    for k in range(POINTS):
        at = _values(symbols, rng, (-1) ** k)
        try:
            x, y = complex(a.evalf(subs=at)), complex(b.evalf(subs=at))
        except (TypeError, ValueError, ZeroDivisionError):
            return False
        if abs(x - y) > RTOL * max(1.0, abs(x), abs(y)):
            return False
    return True


def conforms(obj) -> bool:
    """Whether every matrix product and sum in ``obj`` has shapes that fit (sizes compared as
    symbols: ``N_in + 1`` columns never meet ``N_in`` rows)."""
    import sympy as sp
    if not isinstance(obj, sp.Basic):
        return True
    for node in sp.preorder_traversal(obj):
        factors = [a for a in node.args if getattr(a, "is_Matrix", False)]
        pairs = list(zip(factors, factors[1:]))
        if isinstance(node, sp.MatMul):
            meets = [(x.cols, y.rows) for x, y in pairs]
        elif isinstance(node, sp.MatAdd):
            meets = [m for x, y in pairs for m in ((x.rows, y.rows), (x.cols, y.cols))]
        else:
            continue
        if any(sp.expand(a - b) != 0 for a, b in meets):
            return False
    return True


def _leftovers(a, b):
    """The arguments of ``a`` and ``b`` (same head) that differ: positionally, or as multisets
    for a sum or product of scalars (whose order sympy chooses)."""
    import sympy as sp
    A, B = list(a.args), list(b.args)
    if isinstance(a, (sp.Add, sp.Mul, sp.MatAdd)):
        for x in list(A):
            if x in B:
                A.remove(x)
                B.remove(x)
        return A, B
    if len(A) != len(B):
        return None
    pairs = [(x, y) for x, y in zip(A, B) if x != y]
    return [x for x, _ in pairs], [y for _, y in pairs]


def narrow(a, b, paper: str) -> tuple[str, str]:
    """The smallest pair of subexpressions where ``a`` and ``b`` differ, as LaTeX in the paper's
    notation, with its parent where the difference alone is too small to read."""
    import sympy as sp
    path = [(a, b)]
    while True:
        x, y = path[-1]
        if not (isinstance(x, sp.Basic) and isinstance(y, sp.Basic)) or x.func != y.func or not x.args:
            break
        left = _leftovers(x, y)
        if not left or len(left[0]) != 1 or len(left[1]) != 1:
            break
        path.append((left[0][0], left[1][0]))
    x, y = path[-1]
    if len(path) > 1 and (isinstance(path[-2][0], sp.Pow) or
                          min(len(maths.unicode(maths.latex(v, paper))) for v in (x, y)) < CONTEXT):
        x, y = path[-2]  # a base's exponent, a sign or a symbol: shown within its parent
    return maths.latex(x, paper), maths.latex(y, paper)


def _words(text: str) -> str:
    return " ".join(str(text).split())


def _differ(p: dict, c: dict) -> bool:
    if p.get("srepr", p.get("text")) == c.get("srepr", c.get("text")):
        return False  # recorded alike: no need to read them back
    a, b = maths.value(p), maths.value(c)
    if a is None or b is None:
        return _words(p.get("text", p.get("latex", ""))) != _words(c.get("text", c.get("latex", "")))
    return not equal(a, b)


def _failed_names(rec: dict) -> list[str]:
    return [m["name"] for m in rec.get("measurements") or []
            if m.get("role") == "printed" and not m.get("passed")]


def _rank(pair, failed: list[str]) -> int:
    printed, _ = pair
    obj = maths.value(printed)
    named = bool(printed["name"]) and any(printed["name"] in n for n in failed)
    return 0 if obj is not None and not conforms(obj) else 1 if named else 2


def quoted(rec: dict) -> str:
    """The paper's words that a failed measurement of the printed side quotes ('' if none)."""
    for m in rec.get("measurements") or []:
        if m.get("role") == "printed" and not m.get("passed"):
            if found := re.search(r"[\"“]([^\"”]+)[\"”]", str(m.get("source", ""))):
                return found[1]
    return ""


def misprint(rec: dict) -> Misprint:
    """The wrong part of an erratum's record (module docstring)."""
    paper = rec["paper"]
    corrected = {p["name"]: p for p in rec.get("corrected") or []}
    pairs = [(p, corrected[p["name"]]) for p in rec.get("printed") or []
             if p["name"] in corrected and _differ(p, corrected[p["name"]])]
    if not pairs:
        words = quoted(rec) or maths.prose(rec.get("statement", ""))
        return Misprint("", words, maths.prose(rec.get("corrected_statement", "")), prose=True)
    failed = _failed_names(rec)
    printed, fixed = min(pairs, key=lambda pair: _rank(pair, failed))
    a, b = maths.value(printed), maths.value(fixed)
    if a is None or b is None:
        return Misprint(printed["name"], printed.get("text", ""), fixed.get("text", ""), prose=True,
                        others=len(pairs) - 1)
    shown = narrow(a, b, paper)
    return Misprint(printed["name"], shown[0], shown[1], others=len(pairs) - 1)

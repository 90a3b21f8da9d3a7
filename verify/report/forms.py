"""Forms and colours of the reports, without any drawing backend (the PDF, the HTML and
``python -m verify show`` all import this module; only :mod:`.pdf` loads matplotlib).

* :func:`form_parts` turns a claim's printed or corrected form (a sympy object, or the named
  parts of a :class:`theory.registry.Forms`) into the record's JSON: one entry per part with
  its ``latex`` and a machine-readable ``srepr`` (``sympy.srepr``: ``sympy.sympify`` of it gives
  the object back), or ``text`` for a plain setting stored beside the formulas.  The record keeps
  these, so a report of an old record shows that record's forms, never today's registry.
* :func:`part_pieces` is a part in the paper's notation (:mod:`.maths`) as a finding's pieces,
  :func:`part_text` as clean Unicode text; :data:`COLOURS` the verdict colours.
"""
from __future__ import annotations

from collections.abc import Mapping

from verify.report import maths

COLOURS = {"holds": "#4caf50", "defined": "#90a4ae", "holds-if": "#fbc02d", "erratum": "#fb8c00",
           "fails": "#e53935", "not-reproduced": "#8e24aa", "inconclusive": "#9e9e9e",
           "supported": "#81c784", "untested": "#d7ccc8"}


def _named(form, prefix: str = "") -> list[tuple[str, object]]:
    """The (name, value) leaves of a form, nested parts named ``outer.inner``; read without
    marking them as read by a check."""
    if form is None:
        return []
    try:  # theory.registry.Forms keeps its parts in a slot; reading it is not a check's read
        items = list(object.__getattribute__(form, "_named").items())
    except AttributeError:
        if not isinstance(form, Mapping):
            return [(prefix, form)]
        items = list(form.items())
    # a part keyed by a function (sympy's ``limit``) is named by the function's name, not its repr
    names = [getattr(name, "__name__", name) for name, _ in items]
    return [leaf for name, (_, value) in zip(names, items)
            for leaf in _named(value, f"{prefix}.{name}" if prefix else str(name))]


def form_parts(form) -> list[dict]:
    """The record entries of a form: ``{"name", "latex", "srepr"}`` per sympy part, ``{"name",
    "text"}`` per plain value (a string or number stored beside the formulas); helper functions
    stored with them are code, not a form, and are left out."""
    import sympy as sp
    out = []
    for name, value in _named(form):
        if isinstance(value, (sp.Basic, sp.MatrixBase)):
            out.append({"name": name, "latex": sp.latex(value), "srepr": sp.srepr(value)})
        elif value is not None and not callable(value):
            out.append({"name": name, "text": str(value)})
    return out


def name_pieces(name: str, paper: str) -> list[tuple[str, str]]:
    """A part's name as the paper calls it, as pieces: maths from the paper's table, else text."""
    label = maths.part_label(name, paper)
    return [("math", label.strip("$"))] if label.startswith("$") else [("text", label)]


def part_pieces(part: dict, paper: str) -> list[tuple[str, str]]:
    """One part of a recorded form as pieces (``("text", words)`` or ``("math", LaTeX)``): its
    name as the paper calls it, then the formula in the paper's notation, or the prose."""
    tex = maths.part_latex(part, paper)
    body = [("math", tex)] if tex else [("text", part.get("text", ""))]
    return name_pieces(part["name"], paper) + [("text", ": ")] + body if part.get("name") else body


def part_text(part: dict, paper: str) -> str:
    """One part of a recorded form as clean text: ``name: formula``."""
    return maths.plain(part_pieces(part, paper))

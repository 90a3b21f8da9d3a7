"""Maths of the record in the paper's notation, for every report.

A recorded form part keeps its sympy object as ``srepr`` (docs/reports.md); the reports print it
through the paper's symbol table (:mod:`theory.notation`), so ``f_dead`` reads ``f_dead`` only
where the paper has no symbol and ``a`` reads ``\\omega_\\alpha`` where the paper writes that.
One LaTeX string per formula then reaches three renderers:

* :func:`unicode`: clean Unicode text (terminal, Markdown, ``show``), sub- and superscripts as
  Unicode characters where they exist;
* the HTML's MathML (:mod:`.html`, latex2mathml);
* :func:`mathtext`: the subset of LaTeX that matplotlib typesets in the PDFs.

A plain-text part that is a Python rendering of sympy objects (``(k**2 + r)/k``, ``(-1, oo)``:
how old records stored tuples) is read back as maths, never shown as a repr.
"""
from __future__ import annotations

import re
from functools import lru_cache

from theory import notation
from verify.report.text import clean

#: superscript and subscript characters of the Unicode text
SUPER = dict(zip("0123456789+-−=()niTᵀ*′", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀᵀ*′"))
SUB = dict(zip("0123456789+-−=()aehijklmnoprstuvxβγρφχ*",
               "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ*"))


@lru_cache(maxsize=1)
def _namespace() -> dict:
    import sympy as sp
    from sympy.core.symbol import Str
    from sympy.functions.elementary.piecewise import ExprCondPair
    return {**vars(sp), "Str": Str, "ExprCondPair": ExprCondPair, "__builtins__": {}}


@lru_cache(maxsize=4096)
def _sympify(source: str):
    """A recorded ``srepr`` (or a Python rendering of sympy objects) as its sympy object; None
    when it is not one (prose).  An ``srepr`` names sympy's classes with their arguments, so it
    is evaluated among them (many times faster than sympy's parser, which reads any string)."""
    import sympy as sp
    try:
        return eval(source, _namespace())  # the record's own srepr: sympy names only
    except Exception:  # noqa: BLE001 - not an srepr: sympy's parser, which reads Python renderings
        pass
    try:
        return sp.sympify(source, locals={"Str": _namespace()["Str"]})
    except (sp.SympifyError, SyntaxError, TypeError, ValueError, AttributeError, NameError):
        return None


#: prose that is nevertheless sympy-readable ("alive", "Figure") stays prose: only text with an
#: operator, a digit or infinity is read as maths
_MATHY = re.compile(r"^[\w\s.,()*/+\-^]*[*/+\-()\d][\w\s.,()*/+\-^]*$")


def value(part: dict):
    """The sympy object of a recorded part, or None for a part that is prose."""
    if "srepr" in part:
        return _sympify(part["srepr"])
    text = str(part.get("text", "")).strip()
    return _sympify(text) if _MATHY.match(text) else None


def latex(obj, paper: str) -> str:
    """A sympy object as LaTeX in ``paper``'s notation."""
    import sympy as sp
    if isinstance(obj, tuple):
        obj = sp.Tuple(*obj)
    elif isinstance(obj, sp.Basic):
        # an identity with its size (I_h, I_d): a swap of sizes is a misprint to be seen
        obj = obj.replace(lambda e: isinstance(e, sp.Identity), lambda e: sp.MatrixSymbol(
            f"I_{{{sp.latex(e.rows)}}}", e.rows, e.cols))
        # exp of a sum or product as exp(...), not a superscript too small to read
        obj = obj.replace(lambda e: isinstance(e, sp.exp) and not e.args[0].is_Atom,
                          lambda e: sp.Function("exp")(*e.args))
    return translate(sp.latex(obj).replace(r"\operatorname{exp}", r"\exp"), paper)


@lru_cache(maxsize=None)
def _symbols(paper: str) -> tuple[re.Pattern | None, dict[str, str]]:
    """How sympy prints each symbol of the paper's table, and a pattern that finds a printed
    symbol standing alone: not inside a longer name, a command, an accent's argument or a
    subscript (where letters belong to a symbol's own name: ``\\eta_{a}``)."""
    import sympy as sp
    shown = {sp.latex(sp.Symbol(name)): tex for name, tex in notation.symbols(paper).items()}
    if not shown:
        return None, {}
    names = "|".join(re.escape(k) for k in sorted(shown, key=len, reverse=True))
    return re.compile(r"(?:(?<=\\\\)|(?<![A-Za-z\\]))(?<!_\{)(?<!_)(?<!\\bar\{)(?<!\\tilde\{)(?<!\\hat\{)"
                      r"(?<!\\dot\{)(?<!\\mathrm\{)(?<!\\operatorname\{)(" + names
                      + r")(?![A-Za-z_])"), shown


def translate(tex: str, paper: str) -> str:
    """LaTeX that sympy printed, each symbol of the paper's table in the paper's notation (a
    symbol with a superscript of its own is braced before another: ``{W^{2}}^{T}``)."""
    pattern, shown = _symbols(paper)
    if pattern is None:
        return tex

    def paper_symbol(m: re.Match) -> str:
        new = shown[m[1]]
        return f"{{{new}}}" if "^" in new and tex[m.end():m.end() + 1] == "^" else new
    return pattern.sub(paper_symbol, tex)


def part_latex(part: dict, paper: str) -> str:
    """A recorded part as LaTeX in the paper's notation; '' for a prose part.  The recorded LaTeX
    is translated as printed; a plain-text part that is a Python rendering of sympy objects is
    read back and printed."""
    if "latex" in part:
        return translate(part["latex"], paper)
    return _text_latex(str(part.get("text", "")), paper)


@lru_cache(maxsize=1024)
def _text_latex(text: str, paper: str) -> str:
    obj = value({"text": text})
    return "" if obj is None else latex(obj, paper)


def part_label(name: str, paper: str) -> str:
    """A part's name as the paper calls it: LaTeX from the paper's table (wrapped in ``$``), or
    the suite's name with nested names joined by commas and infinity written out (``-oo.I`` ->
    ``−∞, I``)."""
    if named := notation.part_name(paper, name):
        return f"${named}$"
    bits = [re.sub(r"^([+-]?)oo$", lambda m: m[1].replace("-", "−") + "∞", b)
            for b in re.split(r"\.(?! )", name)]
    return ", ".join(bits)


def plain(pieces) -> str:
    """Pieces (``("text", words)`` / ``("math", LaTeX)``) as Unicode text."""
    return "".join(unicode(s) if kind == "math" else s for kind, s in pieces)


def unicode(tex: str) -> str:
    """LaTeX as Unicode text: :func:`verify.report.text.clean`, then scripts as Unicode sub- and
    superscript characters where every character has one, else in parentheses after ``^``
    (a subscript without Unicode characters is kept as a plain suffix, never ``_(``)."""
    text = _grouped_scripts(clean(_plain_scripts(tex)))
    text = re.sub(r"\^(\w|′)", lambda m: _script(m[1], SUPER, "^"), text)
    text = re.sub(r"_(\w)", lambda m: _script(m[1], SUB, ""), text)
    text = re.sub(r"(^|[(\[=,] ?)- ", r"\1−", text)  # a sign, not a dash: "−exp(...)", "(−l)"
    return text.replace(" ,", ",").replace("( ", "(").replace(" )", ")")


def _grouped_scripts(text: str) -> str:
    """``x^(...)`` and ``x_(...)`` (clean()'s scripts, parentheses nested to any depth) through
    :func:`_script`."""
    out, k = [], 0
    while k < len(text):
        if text[k] in "^_" and text[k + 1:k + 2] == "(":
            depth, end = 0, k + 1
            for end in range(k + 1, len(text)):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
            inner = _grouped_scripts(text[k + 2:end])
            out.append(_script(inner, SUPER, "^") if text[k] == "^" else _script(inner, SUB, ""))
            k = end + 1
        else:
            out.append(text[k])
            k += 1
    return "".join(out)


def _plain_scripts(tex: str) -> str:
    """``\\mathrm{dead}`` in a subscript stays a word, not a group clean() parenthesises."""
    return re.sub(r"_\{\\mathrm\{(\w+)\}\}", r"_\1", tex)


def _script(inner: str, table: dict, mark: str) -> str:
    inner = inner.strip()
    if inner and all(ch in table or ch == " " for ch in inner):
        return "".join(table.get(ch, "") for ch in inner)
    if re.fullmatch(r"\w+", inner):
        return f"{mark or '_'}{inner}"
    return f"^({inner})" if mark else f"_[{inner}]"


_DIGITS_UP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

#: mathtext (matplotlib) lacks these LaTeX forms: rewritten to ones it has
_MATHTEXT = ((r"\left.", ""), (r"\right.", ""), (r"\operatorname", r"\mathrm"), (r"\text", r"\mathrm"),
             (r"\:", r"\ "), (r"\;", r"\ "), (r"\!", ""), (r"\limits", ""), (r"\displaystyle", ""),
             (r"\intercal", r"\top"), ("&", r"\ "), (r"\quad", r"\ \ "), (r"\emptyset", r"\varnothing"),
             (r"\lvert", "|"), (r"\rvert", "|"))


def mathtext(tex: str) -> str:
    """LaTeX as matplotlib mathtext (wrapped in ``$``): cases become "a if c; b otherwise"."""
    s = re.sub(r"\\begin\{cases\}(.*?)\\end\{cases\}",
               lambda m: r"\{\," + re.sub(r"\\\\", r";\\ ", m[1]), tex)
    s = re.sub(r"\\begin\{[pb]?matrix\}(.*?)\\end\{[pb]?matrix\}",
               lambda m: re.sub(r"\\\\", r";\\ ", m[1]).replace("&", r",\ "), s)
    for old, new in _MATHTEXT:
        s = s.replace(old, new)
    s = re.sub(r"\\mathrm\{for\}", r"\\mathrm{if}", s)
    return f"${s.strip()}$"


def prose(text: str) -> str:
    """Plain-text maths in the suite's prose (a condition, a corrected statement written with
    ASCII names) as Unicode: Greek names, arrows, comparisons, infinity, transposes."""
    from verify.report.text import GREEK
    out = clean(text) if re.search(r"[\\$]|[_^]\{", str(text)) else str(text)
    greek = dict(GREEK, eps="ε")
    out = re.sub(r"(?<![A-Za-z])(" + "|".join(sorted(greek, key=len, reverse=True)) + r")(?![A-Za-z])",
                 lambda m: greek[m[1]], out)
    out = re.sub(r"\^(\d+)\b", lambda m: m[1].translate(_DIGITS_UP), out)
    for old, new in (("->", "→"), ("<=", "≤"), (">=", "≥"), ("!=", "≠"), ("+-", "±"),
                     ("**", "^"), ("^T", "ᵀ"), ("sqrt", "√")):
        out = out.replace(old, new)
    out = re.sub(r"(?<![A-Za-z])oo\b", "∞", out)
    return _grouped_scripts(out)

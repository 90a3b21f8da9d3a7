"""Plain text of the run record, shared by the PDFs, the HTML report, the terminal and
``python -m verify show``.

Statements are stored as LaTeX source; :func:`clean` turns them into readable Unicode text (no
``$``, no backslashes) so a page never shows raw source.  Measurements are formatted from their
JSON records with :func:`verify.measurement.fmt` (numbers to three significant figures, arrays as
short lists), so every report quotes a value and its criterion the same way.
"""
from __future__ import annotations

import re

from verify.measurement import fmt, measurement_line

GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ",
    "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
    "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}
SYMBOLS = {
    "sum": "Σ", "prod": "Π", "int": "∫", "infty": "∞", "in": "∈", "notin": "∉", "ge": "≥",
    "geq": "≥", "le": "≤", "leq": "≤", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~",
    "propto": "∝", "cdot": "·", "times": "×", "odot": "⊙", "otimes": "⊗", "circ": "∘",
    "to": "→", "rightarrow": "→", "Rightarrow": "⇒", "leftarrow": "←", "mapsto": "↦",
    "partial": "∂", "nabla": "∇", "pm": "±", "mp": "∓", "top": "ᵀ", "intercal": "ᵀ",
    "forall": "∀", "exists": "∃", "ll": "≪", "gg": "≫", "equiv": "≡", "perp": "⊥",
    "langle": "⟨", "rangle": "⟩", "|": "‖", "ldots": "…", "cdots": "⋯", "dots": "…",
    "log": "log", "exp": "exp", "ln": "ln", "sin": "sin", "cos": "cos", "tanh": "tanh",
    "max": "max", "min": "min", "arg": "arg", "det": "det", "Tr": "Tr", "tr": "tr",
    "lim": "lim", "sqrt": "√", "mid": "|", "setminus": "∖", "cup": "∪", "cap": "∩",
    "subset": "⊂", "subseteq": "⊆", "emptyset": "∅", "star": "*", "prime": "′",
    "sinh": "sinh", "cosh": "cosh", "oplus": "⊕", "iff": "⇔", "textasciicircum": "^",
    "sign": "sign", "limits": "", "nolimits": "", "displaystyle": "", "quad": " ", "qquad": " ",
}
#: blackboard letters (\mathbb R) as their Unicode characters
BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "E": "𝔼", "P": "ℙ"}
ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304", "overline": "\u0304",
           "dot": "\u0307", "ddot": "\u0308", "vec": "\u20d7", "widehat": "\u0302",
           "widetilde": "\u0303"}


def _group_end(s: str, start: int) -> int:
    """Index just past the brace group opening at ``s[start] == '{'``."""
    depth = 0
    for k in range(start, len(s)):
        depth += {"{": 1, "}": -1}.get(s[k], 0)
        if depth == 0:
            return k + 1
    return len(s)


def _commands(s: str) -> str:
    """Rewrite ``\\frac{a}{b}``, ``\\sqrt{a}`` and accents, innermost groups included."""
    out, k = [], 0
    while k < len(s):
        m = re.match(r"\\(d?t?frac|sqrt|" + "|".join(ACCENTS) + r"|mathrm|mathbf|mathbb|mathcal|"
                     r"mathtt|mathit|text|textrm|operatorname|boldsymbol)\s*\{", s[k:])
        if not m:
            out.append(s[k])
            k += 1
            continue
        name, open1 = m[1], k + m.end() - 1
        end1 = _group_end(s, open1)
        first = _commands(s[open1 + 1:end1 - 1])
        if name.endswith("frac") and end1 < len(s) and s[end1] == "{":
            end2 = _group_end(s, end1)
            out.append(f"{_paren(first)}/{_paren(_commands(s[end1 + 1:end2 - 1]))}")
            k = end2
            continue
        bare = re.match(r"\s*(\\[A-Za-z]+|[A-Za-z0-9])", s[end1:]) if name.endswith("frac") else None
        if bare:  # \frac{a}2: a one-token denominator without braces
            out.append(f"{_paren(first)}/{bare[1]}")
            k = end1 + bare.end()
            continue
        if name == "sqrt":
            out.append(f"√{_paren(first)}")
        elif name == "mathbb":
            out.append("".join(BLACKBOARD.get(ch, ch) for ch in first))
        elif name in ACCENTS:
            out.append(_accent(first, name))
        else:
            out.append(first)
        k = end1
    return "".join(out)


def clean(latex: str) -> str:
    """LaTeX source (a statement, a condition) as readable Unicode text."""
    s = str(latex or "")
    s = s.replace("$", "").replace(r"\left", "").replace(r"\right", "")
    s = re.sub(r"\\(begin|end)\{\w+\}", "", s).replace("\\\\", "; ").replace("&", ",")
    # a fraction's arguments written bare (\frac12, \frac1{12}, \frac\delta2) get their braces
    bare = r"(\\[A-Za-z]+|[A-Za-z0-9]|\{)"
    s = re.sub(r"\\([dt]?frac)\s*(\\[A-Za-z]+|[A-Za-z0-9])\s*" + bare,
               lambda m: f"\\{m[1]}{{{m[2]}}}" + ("{" if m[3] == "{" else f"{{{m[3]}}}"), s)
    s = re.sub(r"\\mathbb\s*([A-Za-z])", lambda m: BLACKBOARD.get(m[1], m[1]), s)
    s = re.sub(r"\\(mathrm|mathbf|mathcal|mathit|boldsymbol)\s+([A-Za-z])", r"\2", s)
    s = _commands(s)
    s = re.sub(r"\\(" + "|".join(ACCENTS) + r")\s*(\\[A-Za-z]+|[A-Za-z])",
               lambda m: _accent(GREEK.get(m[2].lstrip("\\"), m[2]), m[1]), s)
    s = re.sub(r"\\([A-Za-z]+)", lambda m: GREEK.get(m[1], SYMBOLS.get(m[1], m[1])), s)
    s = re.sub(r"\\([,;:! ])", " ", s).replace(r"\|", "‖").replace("\\{", "\x01").replace("\\}", "\x02")
    s = _scripts(s)
    # grouping braces go; a set's braces (\{ \}) stay
    s = s.replace("{", "").replace("}", "").replace("\\", "").replace("\x01", "{").replace("\x02", "}")
    return re.sub(r"[ \t]+", " ", s).strip()


def _scripts(s: str) -> str:
    """``x^{...}`` and ``x_{...}`` as ``x^(...)`` / ``x_(...)`` (a single symbol bare), groups
    nested to any depth kept whole."""
    out, k = [], 0
    while k < len(s):
        if s[k] in "^_" and s[k + 1:k + 2] == "{":
            end = _group_end(s, k + 1)
            inner = _scripts(s[k + 2:end - 1]).replace("{", "").replace("}", "")
            out.append(s[k] + _paren(inner))
            k = end
        else:
            out.append(s[k])
            k += 1
    return "".join(out)


def _paren(text: str) -> str:
    text = text.strip()
    return text if re.fullmatch(r"[\w.′]+|\\?[A-Za-z]+", text) else f"({text})"


def _accent(text: str, accent: str) -> str:
    text = text.strip()
    return text + ACCENTS[accent] if len(text) == 1 else f"{accent}({text})"


def source_text(source: str) -> str:
    """A measurement's source as shown: the paper's words it quotes as clean text."""
    return clean(source) if ("\\" in source or "$" in source) else source


def measured(m: dict) -> str:
    """One measurement record as every report shows it (the source's LaTeX as clean text)."""
    line = measurement_line(m, with_source=False)
    if m.get("source"):
        line += f" ({source_text(m['source'])})"
    return line


def deviation_line(d: dict) -> str:
    harmless = f", shown harmless by '{d['shown_harmless_by']}'" if d.get("shown_harmless_by") else ""
    return f"{d['setting']}: ran {fmt(d.get('ran'))}, paper {fmt(d.get('paper'))}{harmless}"


def run_title(setup: dict) -> str:
    """A run's name, scale and whether it is faithful."""
    name = f"{setup['name']}: " if setup.get("name") else ""
    return f"{name}{setup.get('scale', '?')} run, {'faithful' if setup.get('faithful') else 'not faithful'}"


def setup_summary(setup: dict) -> str:
    """One run in one line: its name, scale, faithful or not, how many deviations and unknowns."""
    missing = [d for d in setup.get("deviations") or [] if not d.get("shown_harmless_by")]
    unknown = len(setup.get("unknown") or [])
    return (run_title(setup) + (f"; {len(missing)} deviations" if missing else "")
            + (f" ({unknown} settings unknown)" if unknown else ""))


def setup_lines(setup: dict | None) -> list[str]:
    """One run of an empirical claim: scale, faithful or not, unknown settings, each deviation,
    the cost."""
    if not setup:
        return []
    lines = [run_title(setup) + (f"; runner {setup['runner']}" if setup.get("runner") else "")]
    if setup.get("unknown"):
        lines.append("unknown (the paper does not give them): " + ", ".join(setup["unknown"]))
    devs = setup.get("deviations") or []
    lines += [f"deviation: {deviation_line(d)}" for d in devs] or ["deviations: none"]
    lines += [f"sensitivity: {measured(m)}" for m in setup.get("sensitivity") or []]
    if setup.get("cost"):
        lines.append(f"faithful run costs: {setup['cost']}")
    return lines


def statement_parts(rec: dict) -> list[tuple[str, str, list]]:
    """(label, clean text, form parts) of what a claim states, as recorded, for the views that
    show a claim in full: as printed, corrected, the condition, counterexample and notes."""
    out = [("As printed", clean(rec.get("statement", "")), rec.get("printed", []))]
    if rec.get("corrected") or rec.get("corrected_statement"):
        out.append(("Corrected", clean(rec.get("corrected_statement", "")), rec.get("corrected", [])))
    return out + [(label, text(rec[key]), []) for label, key, text in (
        ("Condition", "condition", clean), ("Counterexample", "counterexample", str),
        ("Clauses", "clauses", clauses_text), ("Notes", "notes", str)) if rec.get(key)]


def mark(m: dict) -> str:
    """A measurement's outcome as a mark: passed, depends on the reading, failed."""
    return "✓ " if m.get("passed") else "? " if m.get("undecided") else "✗ "


def clauses_text(clauses: dict) -> str:
    """An empirical claim's clauses, each with the measurement that decides it or why it is not
    testable."""
    return "; ".join(f"\"{c}\" -> {'decided by ' if not by.startswith('not testable') else ''}{by}"
                     for c, by in clauses.items())


def commit_text(commit, dirty: bool = False, short: int = 10) -> str:
    """A commit as every report states it: its first ``short`` characters, ``+changes`` when the
    tracked files differed from it."""
    return str(commit or "unknown")[:short] + ("+changes" if dirty else "")


def paper_scale_line(ps: dict, wall: bool = True) -> str:
    """A claim's paper-scale record in one line: verdict, faithful or not, device, start, the wall
    time (with ``wall``) and the commit."""
    return (f"{ps['verdict']} ({'faithful' if ps.get('faithful') else 'not faithful'}) on "
            f"{ps['device']}, {ps.get('started')}, " + (f"{fmt(ps.get('wall_s'))} s, " if wall else "")
            + f"commit {commit_text(ps.get('commit'), ps.get('dirty'))}")


def provenance_line(doc: dict) -> str:
    """The provenance of a record, as every page footer states it."""
    runs = doc.get("runs") or []
    merged = f"; merged from {len(runs)} runs" if len(runs) > 1 else ""
    return (f"record {doc.get('generated', '?')}, commit {commit_text(doc.get('commit'), doc.get('dirty'))}, "
            f"profile {doc.get('profile', '?')}, scale {doc.get('scale', '?')}, "
            f"last run: {selection_text(doc.get('selection'), doc.get('interrupted', False))}{merged}")


def run_line(run: dict | None) -> str:
    if not run:
        return "run unknown"
    stopped = " (interrupted)" if run.get("interrupted") else ""
    return (f"measured {run.get('generated', '?')}{stopped}, commit "
            f"{commit_text(run.get('commit'), run.get('dirty'))}, profile {run.get('profile', '?')}, "
            f"scale {run.get('scale', '?')}")


def selection_text(selection: dict | None, interrupted: bool = False) -> str:
    parts = [f"{key} {', '.join(map(str, value)) if isinstance(value, list) else value}"
             for key, value in (selection or {}).items() if value]
    chosen = "; ".join(parts) if parts else "all claims"
    return f"interrupted, judged only part of {chosen}" if interrupted else chosen

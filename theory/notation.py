"""The papers' own notation for the suite's symbols: one table per paper, read by every report.

The registry's sympy objects use ASCII names a program can type (``f_dead``, ``a``, ``b``,
``W1_aug``); a reader of the paper knows them as ``\\bar g``, ``\\omega_\\alpha``,
``\\|\\beta_*\\|``, ``\\tilde W^1``.  A report that prints a form translates each symbol through
its paper's :data:`SYMBOLS` table (LaTeX as the paper prints it), so a finding reads in the
paper's notation; a symbol missing from the table keeps the suite's name.  :data:`PARTS` names
a form's parts (``Forms(delay=...)``) by what the paper calls them, and :data:`SHARED` lists the
claims whose errata are one misprint in the paper (reported as one finding).  A paper may keep its
own tables in its own folder, ``theory/<paper>/notation.py`` (``SYMBOLS``, ``PARTS``, ``SHARED``
for that paper alone), so adding a paper edits no file outside it (docs/adding-a-paper.md).

This module is theory: it knows nothing of numerics, verify or the record.
"""
from __future__ import annotations

import functools
import importlib
from pathlib import Path

#: paper key -> {suite symbol name -> the paper's LaTeX for it}
SYMBOLS: dict[str, dict[str, str]] = {
    # 000 (and its short version 001): Eqs. (1)-(21), App B, F.
    "bias": {
        "W1": "W^{1}", "W2": "W^{2}", "W1_aug": r"\tilde{W}^{1}", "W1_bar": r"\bar{W}^{1}",
        "W2_bar": r"\bar{W}^{2}", "x_aug": r"\tilde{x}", "V_aug": r"\tilde{V}", "Sx": r"\Sigma^{x}",
        "Syx": r"\Sigma^{yx}", "Sx_aug": r"\tilde{\Sigma}^{x}", "Syx_aug": r"\tilde{\Sigma}^{yx}",
        "a": r"\omega_{\alpha}", "a0": "a_{0}", "s": r"s_{\alpha}", "d": r"d_{\alpha}",
        "g": r"\bar{g}", "sbar": r"\bar{s}", "n": r"\min(n, m)", "epsilon": r"\epsilon",
        "f_dead": r"f_{\mathrm{dead}}", "ybar_norm": r"\|\bar{y}\|", "dsigma": r"\sigma'",
        "N_in": r"N_{\mathrm{in}}", "N_hid": r"N_{\mathrm{hid}}", "N_out": r"N_{\mathrm{out}}",
        "ones": r"\mathbf{1}",
    },
    "bias_workshop": {
        "W1": "W^{1}", "W2": "W^{2}", "a0": "a_{0}", "s": r"s_{\alpha}", "d": r"d_{\alpha}",
        "ybar_norm": r"\|\bar{y}\|", "N_in": r"N_{\mathrm{in}}", "N_hid": r"N_{\mathrm{hid}}",
        "N_out": r"N_{\mathrm{out}}",
    },
    # 002: Sec 3 footnote 3, Sec 4 (L133), App A-B.
    "rich_quick": {
        "b": r"\|\beta_{*}\|", "r": r"\|\beta\|", "r0": r"\|\beta_{0}\|", "r2": r"\|\beta\|^{2}",
        "b0_dot_beta": r"\beta_{0}^{\top}\beta", "a0": "a_{0}", "omega0": r"\omega_{0}",
        "eta_a": r"\eta_{a}", "eta_w": r"\eta_{w}", "c_mu": r"c_{\mu}", "c_phi": r"c_{\phi}",
        "mu0": r"\mu_{0}", "nu0": r"\nu_{0}", "n0": r"n_{0}", "v0": r"v_{0}", "w1": "w_{1}",
        "w2": "w_{2}", "d_i": "d_{i}",
    },
    # 003: Sec 2-4, App A-G.
    "haste_slowly": {
        "S": r"S_{\alpha}", "D": r"D_{\alpha}", "B_0": r"\pi_{0}", "a0": "a_{0}", "epsilon": r"\epsilon",
    },
    # 004: Sec 4-6, App A-D (reconstructed statements: the seed's maths is masked).
    "lazy_rich": {
        "N_i": r"N_{i}", "N_o": r"N_{o}", "s": r"\tilde{s}", "s_0": r"s(0)", "s_net": "s",
        "sigma_1^2": r"\sigma_{1}^{2}", "sigma_2^2": r"\sigma_{2}^{2}", "alpha_1": r"\alpha_{1}",
        "alpha_2": r"\alpha_{2}",
        # Thm C.4's corrected limits: the projectors onto the top singular vectors
        "U~U~^T": r"\tilde{U}\tilde{U}^{\top}", "V~V~^T": r"\tilde{V}\tilde{V}^{\top}",
    },
}


def _words(text: str) -> str:
    """The paper's words inside a LaTeX label: one ``\\text`` per word, so every renderer keeps
    the spaces (mathtext drops them inside one ``\\text``/``\\mathrm``, MathML keeps a ``\\ ``
    there as a backslash)."""
    return r"\ ".join(rf"\text{{{w}}}" for w in text.split())


#: paper key -> {a form part's name -> what the paper calls it (LaTeX, or words)}; a nested part is
#: named by its full dotted name (``-oo.I``), a limit by the paper's ``\delta \to -\infty``
PARTS: dict[str, dict[str, str]] = {
    "bias": {"delay": r"\hat{t}_{relu} - \hat{t}_{linear}", "g_meaning": r"\bar{g}",
             "with_bias": r"\hat{y}_{i}", "augmented": r"\hat{y}_{i}", "svd": r"\hat{y}_{i}",
             # Eq. (2) (L187): the ReLU network's argument of sigma, and the linear network
             "relu_preactivation": r"\hat{y}_{i}^{\text{ReLU}} = W^{2}\sigma(\cdot)",
             "linear": r"\hat{y}_{i}^{\text{lin}}",
             # App B: Eq. (17)'s GD steps, Eq. (18)'s flow, Eq. (20)'s flow in SVD coordinates
             "step_W1": r"\Delta W^{1}", "step_W2": r"\Delta W^{2}",
             "flow_W1": r"\tau\, dW^{1}/dt", "flow_W2": r"\tau\, dW^{2}/dt",
             "flow_W1_bar": r"\tau\, d\bar{W}^{1}/dt",
             "flow_W2_bar": r"\tau\, d\bar{W}^{2}/dt"},
    "rich_quick": {"rank bound (88)": r"\mathrm{rank}\, M", "sum of ranks (90)":
                   r"\sum_{i} \mathrm{rank}(\beta_{i}^{\top}\beta_{i})",
                   "rank of the sum": r"\mathrm{rank} \sum_{i} \beta_{i}^{\top}\beta_{i}",
                   # Thm 3.1 (L104); Eq. (25)'s mu(t); Eq. (34)'s a (the ODE forms of Eqs. (2),
                   # (14), (19)-(22), (29) key their right-hand sides by the same variables)
                   "psi": r"\psi_{\delta}", "mu": r"\mu", "a": "a",
                   # Eq. (24)'s mu-dot, Eq. (26)'s nu-dot and Eq. (31)'s v-dot
                   "mu_rate": r"\dot\mu", "rate": r"\dot\nu", "v_rate": r"\dot v",
                   "eq71": r"\text{Eq.}\,(71)", "Eq. (78)": r"\text{Eq.}\,(78)",
                   "a_norm2": r"\|a_{i}\|^{2}", "w_norm2": r"\|w_{i}\|^{2}",  # Eqs. (83)-(84)
                   # Eq. (96): M -> delta I_c as delta -> -infinity, coefficient by coefficient
                   "-oo.I": r"\delta \to {-\infty},\ " + _words("coefficient of") + r"\ I_{c}",
                   "-oo.P": r"\delta \to {-\infty},\ " + _words("coefficient of")
                            + r"\ \frac{\beta^{\top}\beta}{\|\beta\|^{2}}",
                   # Eq. (102): M -> delta I as delta -> -infinity, delta -> infinity
                   "-oo": r"\delta \to {-\infty}", "+oo": r"\delta \to \infty",
                   # Eq. (101): the Gram matrix under each square root of M
                   "(101).left_gram": r"\sqrt{\eta_{a} \eta_{w} (\cdot) + \frac{\delta^{2}}{4}}"
                                      r" \otimes I\ \text{in}\ (101)",
                   "(101).right_gram": r"I \otimes \sqrt{\eta_{a} \eta_{w} (\cdot) + "
                                       r"\frac{\delta^{2}}{4}}\ \text{in}\ (101)",
                   # Eq. (122), by Sherman-Morrison
                   "M^-1 (122).identity": r"M^{-1}\ (122),\ " + _words("coefficient of") + r"\ I_{d}",
                   "M^-1 (122).outer": r"M^{-1}\ (122),\ " + _words("coefficient of")
                                       + r"\ \beta\beta^{\top}",
                   # App C.2 (L923): "the functional expressivity to represent ..." as h -> oo
                   "expressivity": _words("functional expressivity") + r"\ (h \to \infty)",
                   # App D (L943): "Neural network training and NTK calculation for Figure 5" (a
                   # lone "for" would read "if": mathtext() sets sympy's cases with \mathrm{if})
                   "figure": _words("training and NTK calculation")},
    # App C, Eqs. (17), (23): "the input variance" d of a pathway
    "haste_slowly": {"d": "d"},
    "lazy_rich": {"glorot_dk": r"\partial_{k} E[\lambda]\ \mathrm{(Glorot)}",
                  # Thm A.3 (l.248): "[M] is a square matrix with fours across the diagonal" (the
                  # symbol is the catalogue's: the seed's maths is masked)
                  "m_diagonal": r"M_{i i}",
                  # Thm C.4 (l.96, App C.2.3): "the representations converge to an identity matrix",
                  # the lambda -> +infinity limit of the output Gram
                  "limit": r"W_{2} W_{2}^{T} / \lambda\ \text{as}\ \lambda \to {+\infty}"},
}

#: paper key -> groups of claim IDs whose errata are one misprint of the paper (one finding)
SHARED: dict[str, tuple[tuple[str, ...], ...]] = {
    # Eq. (1)'s leading minus, stated once as the definition and once as the equation
    "bias": (("BL-Def-EffRank", "BL-Eq(1)"),
             # g-bar "the rate of dead neurons" (L251): one meaning, misread in Eq. (14), which
             # shows it (the definition's form only renames the dead fraction)
             ("BL-Eq(14)", "BL-Def-G")),
}


@functools.cache
def _own(paper: str, table: str):
    """``table`` of the paper's own ``theory/<paper>/notation.py`` (None where it has none)."""
    # looked for as a file first: importing a paper's package to learn that it has no table
    # would load all its encodings (2 s for rich_quick in every report process)
    if not (Path(__file__).parent / paper / "notation.py").is_file():
        return None
    return getattr(importlib.import_module(f"theory.{paper}.notation"), table, None)


def symbols(paper: str) -> dict[str, str]:
    """The paper's LaTeX for each suite symbol of ``paper`` ({} for a paper without a table)."""
    return {**SYMBOLS.get(paper, {}), **(_own(paper, "SYMBOLS") or {})}


def part_name(paper: str, name: str) -> str:
    """What the paper calls a form part named ``name`` (LaTeX), '' when the table has none."""
    return {**PARTS.get(paper, {}), **(_own(paper, "PARTS") or {})}.get(name, "")


def shared(paper: str, claim: str) -> tuple[str, ...]:
    """The claims of ``paper`` whose erratum is the same misprint as ``claim``'s (itself
    included); ``(claim,)`` when it shares none."""
    groups = (*SHARED.get(paper, ()), *(_own(paper, "SHARED") or ()))
    return next((g for g in groups if claim in g), (claim,))

"""Identities the workshop paper needs but does not state: BA-D1, BA-D2, BA-D3.

Catalogue 001 §1 (derived; the statements are the long paper's Prop. 1, Eqs. 13-14).
"""
from __future__ import annotations

import sympy as sp

from theory import mode_law as ml
from theory.bias import bias_mode, hitting
from theory.registry import register

SPECTRUM = register(
    id="BA-D1", paper="bias_workshop", where="catalogue 001 BA-D1 (= long paper Prop. 1)",
    kind="identity", title="bias-augmented spectrum",
    statement=r"X = I_P, \tilde x = [c; x]: spec(\tilde\Sigma^x) = {c^2 + 1/P, 1/P (x P-1), 0}, "
              r"\tilde v_0 \propto [1; (1/(cP))1], s_0 = \sqrt{c^2+1/P}||\bar y|| the top singular "
              r"value; s_0 = 1.4790 (4-item tree), 1.4524 (8-item tree) at c = 1",
    printed=bias_mode.proposition, expected="holds-if", condition=bias_mode.CONDITION,
    notes="The consequence for the workshop's Fig 1B: the mean mode of the bias-free one-hot "
          "task (s = ||ybar||/sqrt P, d = 1/P) is sped up by sqrt(1 + c^2 P).")

H, sigma2 = sp.symbols("H sigma2", positive=True)
EFFECTIVE_A0 = register(
    id="BA-D2", paper="bias_workshop", where="catalogue 001 BA-D2 (derived heuristic)",
    kind="constant", title="effective a_0 of a small random initialisation",
    statement=r"i.i.d. N(0, \sigma^2) weights of width H: in the small-weight regime p = W^1v, q = "
              r"W^{2T}u obey \tau\dot p = sq, \tau\dot q = sp, so a(t) \approx \frac14||p_0 + "
              r"q_0||^2 e^{2st/\tau}: effective a_0 \approx H\sigma^2/2",
    printed=H * sigma2 / 2, expected="holds")

DELAY_IDENTITIES = register(
    id="BA-D3", paper="bias_workshop", where="catalogue 001 BA-D3 (= long paper Eqs. 13, 14, 26, 27)",
    kind="identity", title="hitting time and mode-wise delay",
    statement=r"\hat t(\rho) = \frac{\tau}{2s}\ln\frac{\rho(s - da_0)}{a_0(s - d\rho)}; a_0 \to "
              r"\bar g a_0 (\bar g alive fraction) delays mode \alpha by \frac{\tau}{2s}\ln\frac{s - "
              r"da_0\bar g}{\bar g(s - da_0)}, independent of \rho, \approx \frac{\tau}{2s}\ln(1/"
              r"\bar g): a per-mode time shift, not a change of time constant",
    printed={"hitting_time": ml.hitting_time_mhs, "delay": hitting.delay_corrected},
    expected="holds")

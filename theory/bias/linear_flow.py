"""Gradient flow of the two-layer linear network, App B: BL-Eq(16-18), BL-Eq(19-20), BL-Eq(21).

L544-L568.  Per-step updates ``Delta W`` (Eq. 17) and flow right-hand sides ``tau dW/dt`` (Eqs.
18, 20) are written exactly as printed and, beside them, with the transposes and brackets that
``-eps dL/dW`` of ``L = 1/2 sum_i ||y_i - W2 W1 x_i||^2`` requires.
"""
from __future__ import annotations

from theory import mode_law as ml
from theory.bias import matrices as m
from theory.registry import register

_err = m.Syx - m.W2 * m.W1 * m.Sx
_err_bar = m.S - m.W2_bar * m.W1_bar * m.D

#: Eq. (16): the un-augmented correlations; Eqs. (17), (18) as printed (L548-L556).
app_b_printed = {
    "Syx": m.Y * m.X.T / m.P,
    "Sx": m.X * m.X.T / m.P,
    "step_W1": m.eps * m.P * m.W2 * m.Syx - m.W2 * m.W1 * m.Sx,
    "step_W2": m.eps * m.P * _err * m.W1,
    "flow_W1": m.W2 * m.Syx - m.W2 * m.W1 * m.Sx,
    "flow_W2": _err * m.W1,
    "tau": 1 / (m.P * m.eps),
}
app_b_corrected = {
    **app_b_printed,
    "step_W1": m.eps * m.P * m.W2.T * _err,
    "step_W2": m.eps * m.P * _err * m.W1.T,
    "flow_W1": m.W2.T * _err,
    "flow_W2": _err * m.W1.T,
}

APP_B = register(
    id="BL-Eq(16-18)", paper="bias", where="App B, Eqs. (16)-(18), L548-L558", kind="identity",
    title="linear-network updates and gradient flow",
    statement=r"\Sigma^{yx} = YX^T/P = USV^T, \Sigma^x = XX^T/P = VDV^T; \Delta W^1 = \epsilon P "
              r"W^2\Sigma^{yx} - W^2W^1\Sigma^x, \Delta W^2 = \epsilon P(\Sigma^{yx} - W^2W^1"
              r"\Sigma^x)W^1; \tau\dot W^1 = W^2\Sigma^{yx} - W^2W^1\Sigma^x, \tau\dot W^2 = "
              r"(\Sigma^{yx} - W^2W^1\Sigma^x)W^1, \tau = 1/(P\epsilon)",
    printed=app_b_printed, corrected=app_b_corrected,
    corrected_statement=r"\Delta W^1 = \epsilon P W^{2T}(\Sigma^{yx} - W^2W^1\Sigma^x), \Delta W^2 "
                        r"= \epsilon P(\Sigma^{yx} - W^2W^1\Sigma^x)W^{1T}; \tau\dot W^1 = W^{2T}"
                        r"(\Sigma^{yx} - W^2W^1\Sigma^x), \tau\dot W^2 = (\Sigma^{yx} - W^2W^1"
                        r"\Sigma^x)W^{1T}, \tau = 1/(P\epsilon)",
    expected="erratum")

#: Eqs. (19)-(20): W2 = U W2_bar R^T, W1 = R W1_bar V^T (L560-L564).
change_of_variables = {"W2": m.U * m.W2_bar * m.R.T, "W1": m.R * m.W1_bar * m.V.T}
reduced_printed = {"flow_W1_bar": m.W2_bar * m.S - m.W2_bar * m.W1_bar * m.D,
                   "flow_W2_bar": _err_bar * m.W1_bar}
reduced_corrected = {"flow_W1_bar": m.W2_bar.T * _err_bar,
                     "flow_W2_bar": _err_bar * m.W1_bar.T}

REDUCED = register(
    id="BL-Eq(19-20)", paper="bias", where="App B, Eqs. (19)-(20), L560-L566", kind="identity",
    title="decoupled flow in SVD coordinates",
    statement=r"W^2 = U\bar W^2 R^T, W^1 = R\bar W^1 V^T \Rightarrow \tau\dot{\bar W}^1 = \bar W^2 "
              r"S - \bar W^2\bar W^1 D, \tau\dot{\bar W}^2 = (S - \bar W^2\bar W^1 D)\bar W^1",
    printed={**change_of_variables, **reduced_printed},
    corrected={**change_of_variables, **reduced_corrected},
    corrected_statement=r"\tau\dot{\bar W}^1 = \bar W^{2T}(S - \bar W^2\bar W^1 D), \tau\dot{\bar "
                        r"W}^2 = (S - \bar W^2\bar W^1 D)\bar W^{1T}; the printed forms agree only "
                        r"when \bar W^1, \bar W^2 are square and diagonal",
    expected="erratum")

#: Eq. (21) as printed (L568): tau d omega/dt = 2 omega (s - omega); corrected with d.
omega = ml.a
mode_ode_printed = 2 * omega * (ml.s - omega) / ml.tau
mode_ode_corrected = ml.rhs

MODE_ODE = register(
    id="BL-Eq(21)", paper="bias", where="App B, Eq. (21), L566-L568", kind="ode-solution",
    title="scalar mode ODE for balanced weights",
    statement=r"\omega^1_\alpha = \omega^2_\alpha, \omega_\alpha = \omega^2_\alpha\omega^1_\alpha: "
              r"\tau\frac{d}{dt}\omega_\alpha = 2\omega_\alpha(s_\alpha - \omega_\alpha)",
    printed=mode_ode_printed, corrected=mode_ode_corrected,
    corrected_statement=r"\tau\dot\omega_\alpha = 2\omega_\alpha(s_\alpha - d_\alpha\omega_\alpha) "
                        r"(the printed form is the whitened case d_\alpha = 1; Eq. (22) with d_\alpha "
                        r"solves only the corrected ODE)",
    expected="erratum")

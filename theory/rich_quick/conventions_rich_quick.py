"""Global conventions of "Get rich quick" (catalogue Sec 0): loss and clock, the rate-weighted
NTK, kernel distance, the conserved quantity and its regime names, and the "WLOG eta_a eta_w = 1".

The loss/clock itself lives in ``theory.conventions.convention('rich_quick')`` (flow: 1/2-sum
loss, ``d theta/dt = -eta_theta grad L``, t = lr * steps).  App D's experiments train on a "mean
square loss" of unstated normalisation (catalogue E35/GRQ-Conv-GF); runs that reproduce them pass
:data:`EXPERIMENT_LOSS` explicitly to ``flow_time``.
"""
import sympy as sp

from theory.conventions import convention
from theory.registry import register
from theory.rich_quick.single_neuron_symbols import a, eta_a, eta_w, w1, w2

#: App D.1 "mean square loss": read as the plain mean (no 1/2); stated in theory.conventions.
EXPERIMENT_LOSS = convention("rich_quick").experiments

f_i, y_i, n, i = sp.symbols("f_i y_i n i")

#: The one reading of "WLOG eta_a eta_w = 1" (App A.2.1 L324) under which the unit-rate
#: parameter-space forms of App A.2.3-A.2.6 (Eqs. 26-35) hold; recorded once, named as the
#: condition of each of them.
RATES_READING = ("the WLOG 'eta_a eta_w = 1' (App A.2.1 L324) read as unit rates eta_a = eta_w = 1, "
                 "i.e. the form written in the rescaled variables a' = sqrt(eta_w) a, w' = sqrt(eta_a)"
                 " w, beta_*' = sqrt(eta_a eta_w) beta_* (mu' = sqrt(eta_a eta_w) mu as L324 "
                 "defines); read literally in a, w with only the product eta_a eta_w = 1 "
                 "(eta_a != eta_w) the printed form fails")

register(
    id="GRQ-Conv-GF", paper="rich_quick", where="Sec 1 Notation, L34; App A L282-286",
    kind="definition", title="1/2-sum loss, gradient flow with layer rates, t = lr*steps",
    statement=r"L(\theta) = \frac12 \sum_{i=1}^n (f(x_i;\theta) - y_i)^2, "
              r"\dot\theta_i = -\eta_{\theta_i}\nabla_{\theta_i} L",
    printed=sp.Rational(1, 2) * sp.Sum((f_i - y_i) ** 2, (i, 1, n)),
    expected="defined",
    notes="No 1/n, unit time constant; GD with step lr approximates the flow at t = lr*steps "
          "(checked).  Experiments (App D) say 'mean square loss': EXPERIMENT_LOSS.")

register(
    id="GRQ-Def-NTK", paper="rich_quick", where="Sec 1 Notation, L34", kind="definition",
    title="NTK weighted by layer-wise learning rates",
    statement=r"\Theta(x,x') = \sum_i \eta_{\theta_i}\partial_{\theta_i} f(x)\partial_{\theta_i} f(x'),"
              r" \partial_t f(x) = -\sum_i \Theta(x,x_i)(f(x_i)-y_i)",
    printed=None, expected="defined",
    notes="Checked by autograd on the single neuron against Eq. (1) and the flow of f.")

register(
    id="GRQ-Def-KD", paper="rich_quick", where="Sec 1 Notation, L34; D.1 L966", kind="definition",
    title="Kernel distance S(t1,t2)",
    statement=r"S(t_1,t_2) = 1 - \langle K_{t_1},K_{t_2}\rangle/(\|K_{t_1}\|_F\|K_{t_2}\|_F)",
    printed=None, expected="defined",
    notes="S in [0,1] for PSD kernels; with whitened X it is computable from M alone.")

register(
    id="GRQ-Def-delta", paper="rich_quick", where="Sec 3 L58-65; App A.1 L294",
    kind="definition", title="delta = eta_w a^2 - eta_a ||w||^2; upstream/balanced/downstream",
    statement=r"\delta = \eta_w a^2 - \eta_a\|w\|^2; upstream \delta>0, balanced \delta=0, "
              r"downstream \delta<0; Fig. 1: \delta = \tau^2(\alpha^2-\alpha^{-2})",
    printed=eta_w * a ** 2 - eta_a * (w1 ** 2 + w2 ** 2), expected="defined",
    notes="Fig. 1 geometry: |a| = tau*alpha, ||w|| = tau/alpha gives delta = tau^2(alpha^2 - "
          "alpha^-2) at unit rates.")

register(
    id="GRQ-Conv-WLOG", paper="rich_quick", where="App A.2.1 L324; App A.3 L448",
    kind="identity", title="WLOG eta_a*eta_w = 1",
    statement=r"\eta_a,\eta_w enter the (\mu,\phi) and \beta dynamics only through \eta_a\eta_w "
              r"and \delta; \mu'=\sqrt{\eta_a\eta_w}\mu, \beta_*'=\sqrt{\eta_a\eta_w}\beta_* "
              r"absorb the product, so WLOG \eta_a\eta_w = 1",
    printed=sp.Eq(sp.Symbol("eta_a") * sp.Symbol("eta_w"), 1),
    expected="holds",
    notes="Catalogue GRQ-Conv-WLOG / E2.  Decided on its own statement (the (mu, phi) and beta "
          "dynamics); the parameter-space forms derived after it (Eqs. 26-35) hold in the rescaled "
          "variables a' = sqrt(eta_w) a, w' = sqrt(eta_a) w only, which their own claims record "
          "(holds-if, condition RATES_READING).")

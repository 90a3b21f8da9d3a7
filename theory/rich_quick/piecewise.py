"""Piecewise linear networks, GRQ Sec. 5 (Eqs. 8-9) and App. C (Def. C.1, Prop. C.2,
Eqs. 124-127).

Two-layer bias-free network ``f(x) = a^T sigma(W x)``, ``sigma(z) = max(z, gamma z)``,
``gamma in [0, 1)``; loss ``1/2 sum_j (f(x_j) - y_j)^2``; per-neuron rates ``eta_a``, ``eta_w``.
Per neuron ``i``: ``beta_i = a_i w_i``, ``delta_i = eta_w a_i^2 - eta_a ||w_i||^2``,
``xi_i = sum_j c_ij x_j rho_j`` with ``c_ij = sigma'(w_i^T x_j)``, ``mu_i = a_i ||w_i||``.
"""
import sympy as sp

from theory.registry import register

eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
#: neurons per hidden layer
h = sp.Symbol("h")
delta = sp.Symbol("delta", real=True)
mu = sp.Symbol("mu", real=True)
#: ||beta_i||^2
r2 = sp.Symbol("r2", nonnegative=True)
kappa_mu = sp.sqrt(delta ** 2 + 4 * eta_a * eta_w * mu ** 2)
kappa_r = sp.sqrt(delta ** 2 + 4 * eta_a * eta_w * r2)

#: Eq. (8)/(125): M_i = coefficient_I * I + coefficient_ww * w w^T (in parameters)
M_PARAMS = {"I": eta_w * sp.Symbol("a") ** 2, "ww": eta_a}
#: Eq. (9)/(127): mu' = radial * bhat^T xi, bhat' = angular * (I - bhat bhat^T) xi
EQ9 = {"radial": -kappa_mu, "angular": -(kappa_mu + delta) / (2 * mu)}

register(
    id="GRQ-Claim-Regions", paper="rich_quick", where="Sec 5, L141; App C.1", kind="bound",
    title="activation regions: convex, linear inside, continuous, O(h^{dl}) many, 2-colourable",
    statement="a PL net with l hidden layers of h neurons has potentially O(h^{dl}) convex "
              "activation regions; the map is linear in each and continuous across boundaries; "
              "the regions form a 2-colourable convex partition",
    printed={"one hidden layer, d = 2, with biases": h ** 2},
    expected="holds",
    notes="Tested count bound: one hidden layer of h neurons in d = 2 (a line arrangement) has "
          "at most 1 + h + h(h-1)/2 regions.")

register(
    id="GRQ-Eq(8)", paper="rich_quick", where="Sec 5, Eq. (8), L145", kind="identity",
    title="per-neuron preconditioned dynamics of beta_i and the PL NTK",
    statement=r"$\dot\beta_i = -(\eta_w a_i^2 I + \eta_a w_iw_i^\top)\xi_i$, "
              r"$\xi_i = \sum_j c_{ij}x_j\rho_j$; $K_{jk} = \sum_i c_{ij}x_j^\top M_ix_kc_{ik}$; "
              r"$\delta_i$ conserved",
    printed=M_PARAMS, expected="holds")

register(
    id="GRQ-Eq(9)", paper="rich_quick", where="Sec 5, Eq. (9), L149", kind="identity",
    title="signed spherical coordinates of each neuron",
    statement=r"$\dot\mu_i = -\sqrt{\delta_i^2+4\eta_a\eta_w\mu_i^2}\,\hat\beta_i^\top\xi_i$, "
              r"$\dot{\hat\beta}_i = -\frac{\sqrt{\delta_i^2+4\eta_a\eta_w\mu_i^2}+\delta_i}{2\mu_i}"
              r"(I-\hat\beta_i\hat\beta_i^\top)\xi_i$",
    printed=EQ9, expected="holds")

register(
    id="GRQ-Eq(124)-(127)", paper="rich_quick", where="App C.2, Eqs. (124)-(127), L921-939",
    kind="identity", title="two-layer PL dynamics in parameters, beta_i and (mu_i, bhat_i)",
    statement=r"(124) $\dot a_i = -\eta_a w_i^\top\xi_i$, $\dot w_i = -\eta_w a_i\xi_i$; (125) = (8); "
              r"(126) $M_i = \frac{\kappa_i+\delta_i}2 I + \frac{\kappa_i-\delta_i}2\frac{\beta_i"
              r"\beta_i^\top}{\|\beta_i\|^2}$; (127) = (9); L923: as $h\to\infty$ the network can "
              r"represent any continuous nonlinear function through the origin",
    printed={"M_i (126)": {"I": (kappa_r + delta) / 2, "bb": (kappa_r - delta) / 2},
             "expressivity": "any continuous f: R^d -> R with f(0) = 0"},
    corrected={"expressivity": "positively 1-homogeneous continuous f whose odd part "
                               "(f(x) - f(-x))/2 is linear"},
    corrected_statement="sigma(z) = ((1+gamma) z + (1-gamma)|z|)/2, so a bias-free two-layer PL "
                        "network is positively 1-homogeneous with a linear odd part; the wide limit "
                        "reaches those functions only, not every continuous function through the "
                        "origin (not x1^2, not even the homogeneous r cos(3 theta))",
    expected="erratum")

register(
    id="GRQ-Claim-PL-regimes", paper="rich_quick", where="Sec 5, L151-165", kind="empirical",
    title="downstream lazy / balanced two-phase / upstream fast rich in ReLU nets",
    statement='Irrespective of ξ_i , $\\hat{\\beta}_i(t) = \\hat{\\beta}_i(0)$, which implies the overall partition map doesn’t change (Fig. 5, bottom), nor the activation patterns C , nor M_i . Only μ_i changes to fit the data, while the NTK remains constant. [...] This setting is unique, because it is rich due to a changing activation pattern, but the dynamics do not move far in parameter space. Furthermore, unlike in the balanced scenario where scale adjusts the speed of radial dynamics, here it regulates the speed of directional dynamics, with vanishing initializations prompting an extremely fast alignment phase, as observed in Fig. 1.',
    clauses={'the overall partition map doesn’t change (Fig. 5, bottom), nor the activation patterns C': 'Sec. 5: downstream share of directions whose pattern changed', 'nor M_i . Only μ_i changes to fit the data': "not testable: not measured by the suite's run (shown in the figure only; no quantity of it is recorded)", 'while the NTK remains constant': 'Sec. 5: downstream kernel distance', 'it is rich due to a changing activation pattern, but the dynamics do not move far in parameter space': 'upstream minus balanced final parameter distance', 'vanishing initializations prompting an extremely fast alignment phase, as observed in Fig. 1': 'upstream minus balanced time the Hamming distance passes', 'here it regulates the speed of directional dynamics': "not testable: a reading of the dynamics' equations (L169), not an outcome of a run"},
    printed={"downstream M_i": "|delta_i| bhat bhat^T", "balanced M_i":
             "sqrt(eta_a eta_w)|mu_i|(I + bhat bhat^T)", "upstream M_i": "delta_i I"},
    expected="inconclusive")

register(
    id="GRQ-Claim-C-intro", paper="rich_quick", where="App C intro, L894-896", kind="definition",
    title="scope of App. C",
    statement="mirror-flow analysis of non-trivial PL networks is very difficult or provably "
              "impossible [Azulay; Vardi & Shamir]; App. C studies the input-output map dynamics",
    expected="defined")

register(
    id="GRQ-DefC.1", paper="rich_quick", where="App C.1, Def. C.1, Eq. (123), L902-906",
    kind="definition", title="activation pattern and region",
    statement=r"$\mathcal R(\mathcal A;\theta) = \{x: a_iz_i(x;\theta) > 0\ \forall i\}$; f is linear "
              r"on each region with predictor $\beta_{\mathcal R} = \nabla_xf$, continuous across "
              r"boundaries; neighbouring predictors differ by a vector normal to the boundary",
    expected="defined")

register(
    id="GRQ-PropC.2", paper="rich_quick", where="App C.1, Prop. C.2, L908-910", kind="identity",
    title="the activation partition is 2-colourable by parity",
    statement="if f has no redundant neurons, the partition can be 2-coloured (parity of the "
              "number of active neurons) so that neighbouring regions differ",
    expected="holds",
    notes="Redundant (duplicated) neurons flip together and break the parity colouring; they "
          "are excluded by the proposition's hypothesis and used as the negative control.")

register(
    id="GRQ-Fig9", paper="rich_quick", where="App C.1, Fig. 9, L919", kind="definition",
    title="surface of a 3-layer ReLU net at init, with and without biases",
    statement="3-layer ReLU R^2 -> R, 20 units per layer: convex polytopes with biases, convex "
              "cones from the origin without; parity colouring",
    expected="defined")

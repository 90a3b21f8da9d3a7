"""The printed formulas of the bias papers (BL-, BA-) evaluated against references: matrix
formulas with symbolic dimensions (``theory.bias.matrices``) instantiated and walked with numpy,
and the symbolic facts of the exact claims.

Every function takes the formula under test (a sympy object the check reads through the claim,
``REGISTRY[id].printed...``) as an argument, so ``tests/`` can hand it a perturbed form and show
that the check rejects it.  A printed formula whose shapes do not conform raises
:class:`NonConformable` in :func:`evaluate`.
"""
from __future__ import annotations

from dataclasses import asdict
from functools import lru_cache

import numpy as np
import sympy as sp
import torch

from numerics.bias.instances import (autograd_rates, flow_loss_rates, gd_step_weights,
                                     instance_loss, network_instance)
from numerics.bias.linear_flows import balanced_mode_product, linear_flow_plateau, scalar_mode
from numerics.bias.linear_runs import gated_a0_ratio
from numerics.bias.theory_linear_gd import half_rise_step, logistic_rate
from numerics.closed_forms import hitting_time, mode_strength
from numerics.datasets import correlations, hierarchy, modes
from numerics.linalg import random_orthogonal
from numerics.metrics import rel_err
from numerics.models import TwoLayerEnsemble
from theory import conventions
from theory import mode_law as ml
from theory.bias import bias_mode as bm
from theory.bias import hitting as h
from theory.bias import matrices as m
from theory.bias import relu_flow as rf
from theory.bias.effective_rank import evaluate_effective_rank
from theory.bias.exp_claims import w_vec
from theory.bias_workshop import derived as dv
from verify.checks.symbolic import is_zero
from verify.measurement import exact, measure, paper, reading
from verify.properties import search

class NonConformable(ValueError):
    """A matrix formula whose factors do not conform at the given dimensions."""


# ---------------------------------------------------------------------------------------------
# evaluating matrix formulas

@lru_cache(maxsize=256)
def _instantiate(expr, dims: tuple):
    """``expr`` at concrete dimensions; sympy's own shape validation decides conformity."""
    try:
        return expr.subs(dict(dims))
    except sp.matrices.exceptions.ShapeError as exc:
        raise NonConformable(f"{expr} does not conform at {dict(dims)}: {exc}") from None


def dims_of(**shapes) -> dict:
    """Dimension symbols -> sizes, from keyword sizes n_in, n_hid, n_out, p."""
    names = {"n_in": m.N_in, "n_hid": m.N_hid, "n_out": m.N_out, "p": m.P}
    return {names[k]: int(v) for k, v in shapes.items()}


def _numeric(expr, values):
    """Walk a matrix expression with numpy; shapes must match exactly (no broadcasting)."""
    if isinstance(expr, (sp.MatrixSymbol, sp.Symbol)):
        if expr.name not in values:
            raise ValueError(f"values lacks {expr.name!r} needed by the formula")
        return np.asarray(values[expr.name], dtype=float)
    if expr.is_Number:
        return float(expr)
    args = [_numeric(a, values) for a in expr.args]
    if isinstance(expr, sp.Transpose):
        return args[0].T
    if isinstance(expr, (sp.MatAdd, sp.Add)):
        if len({np.shape(a) for a in args}) > 1:
            raise NonConformable(f"sum of shapes {[np.shape(a) for a in args]} in {expr}")
        return sum(args[1:], args[0])
    if isinstance(expr, (sp.MatMul, sp.Mul)):
        out = args[0]
        for a in args[1:]:
            if np.ndim(out) == 2 and np.ndim(a) == 2:
                if out.shape[1] != a.shape[0]:
                    raise NonConformable(f"product of {out.shape} and {a.shape} in {expr}")
                out = out @ a
            else:
                out = out * a
        return out
    if isinstance(expr, sp.HadamardProduct):
        if len({np.shape(a) for a in args}) > 1:
            raise NonConformable(f"Hadamard product of shapes {[np.shape(a) for a in args]}")
        return np.prod(args, axis=0)
    if isinstance(expr, (sp.HadamardPower, sp.Pow)):
        return args[0] ** args[1]
    raise TypeError(f"cannot evaluate {type(expr).__name__} in {expr}")


def evaluate(expr, dims: dict, values: dict) -> np.ndarray:
    """``expr`` at concrete dimensions with matrices/scalars from ``values`` (name -> value);
    raises :class:`NonConformable` where the printed shapes do not fit."""
    concrete = _instantiate(expr, tuple(sorted(dims.items(), key=lambda kv: kv[0].name)))
    return np.asarray(_numeric(concrete, values), dtype=float)


def form_error(expr, dims, values, reference) -> float:
    """Relative error of a formula against a reference array; inf when it does not conform."""
    try:
        return rel_err(evaluate(expr, dims, values), reference)
    except NonConformable:
        return float("inf")


def _rates(n_in, n_hid, n_out, p, c, seed, lr, **init):
    """A random ReLU network's values (with epsilon = lr), its autograd rates, its dimensions."""
    values, model = network_instance(n_in, n_hid, n_out, p, c, seed, **init)
    values["epsilon"] = lr
    return (values, autograd_rates(model, values["X"], values["Y"], lr),
            dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out, p=p))


def relu_rate_errors(forms: dict, n_in, n_hid, n_out, p, c, seed, lr=0.3) -> dict:
    """BL-Eq(8)-(10): each exact rate form (W2, W1, b) against autograd; name -> rel err."""
    values, ref, dims = _rates(n_in, n_hid, n_out, p, c, seed, lr)
    return {k: form_error(forms[k], dims, values, ref[k]) for k in ("W2", "W1", "b")}


def bias_rate_factor(forms: dict, n_in, n_hid, n_out, p, c, seed, lr=0.3) -> float:
    """BL-Eq(8)-(10) under Sec 5.1's augmented input (z = W1 x + c b): the factor by which the
    autograd bias rate exceeds the printed one (least squares over the units), minus c, relative
    to c: 0 when the printed bias rate lacks exactly the factor c."""
    values, ref, dims = _rates(n_in, n_hid, n_out, p, c, seed, lr)
    ref, printed = ref["b"].ravel(), evaluate(forms["b"], dims, values).ravel()
    norm = float(printed @ printed)
    if norm == 0.0:
        # every unit dead: both rates vanish, so ref = c x printed holds; a nonzero ref refutes it
        return 0.0 if not np.any(ref) else float("inf")
    return abs(float(ref @ printed / norm) - c) / abs(c)


def linear_rate_errors(forms: dict, n_in, n_hid, n_out, p, seed, lr=0.05) -> dict:
    """BL-Eq(16-18): Eq. 17's per-step updates and Eq. 18's flow times 1/tau (tau = the form's
    own ``tau`` at ``lr``) against ``-lr dL/dW`` by autograd of the bias-free linear network."""
    rng = np.random.default_rng(seed)
    W1 = rng.standard_normal((n_hid, n_in)) * 0.5
    W2 = rng.standard_normal((n_out, n_hid)) * 0.5
    X, Y = rng.standard_normal((n_in, p)), rng.standard_normal((n_out, p))
    model = TwoLayerEnsemble(torch.tensor(W1[None]), torch.tensor(W2[None]), "linear")
    ref = autograd_rates(model, X, Y, lr)
    dims = dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out, p=p)
    values = dict(W1=W1, W2=W2, X=X, Y=Y, epsilon=lr, P=p)
    values["Syx"] = evaluate(forms["Syx"], dims, values)
    values["Sx"] = evaluate(forms["Sx"], dims, values)
    tau = float(evaluate(forms["tau"], dims, values))
    out = {"Syx": rel_err(values["Syx"], Y @ X.T / p), "Sx": rel_err(values["Sx"], X @ X.T / p)}
    for w in ("W1", "W2"):
        out[f"step_{w}"] = form_error(forms[f"step_{w}"], dims, values, ref[w])
        try:
            out[f"flow_{w}"] = rel_err(evaluate(forms[f"flow_{w}"], dims, values) / tau, ref[w])
        except NonConformable:
            out[f"flow_{w}"] = float("inf")
    return out


def reduced_flow_errors(forms: dict, n_in, n_hid, n_out, seed, diagonal=False) -> dict:
    """BL-Eq(19-20): the forms for tau dW_bar/dt against the transformed full flow.

    Reference: ``-d/dW`` of ``l(W1, W2) = -tr(W2 W1 Syx^T) + 1/2 tr(W2 W1 Sx W1^T W2^T)`` (the
    flow loss per sample, autograd: :func:`numerics.bias.instances.flow_loss_rates`) at
    ``W = (U W2_bar R^T, R W1_bar V^T)`` with ``Syx = U S V^T``, ``Sx = V D V^T``, mapped back by
    ``R^T (.) V`` and ``U^T (.) R``.  ``diagonal``: W_bar square diagonal (needs
    n_in = n_hid = n_out), where the paper says the printed forms are harmless.
    """
    rng = np.random.default_rng(seed)
    U, V, R = (random_orthogonal(n, rng) for n in (n_out, n_in, n_hid))
    S = np.zeros((n_out, n_in))
    r = min(n_in, n_out)
    S[np.arange(r), np.arange(r)] = rng.uniform(0.3, 2.0, r)
    D = np.diag(rng.uniform(0.3, 2.0, n_in))
    if diagonal:
        W1b, W2b = np.diag(rng.uniform(0.1, 1, n_in)), np.diag(rng.uniform(0.1, 1, n_in))
    else:
        W1b, W2b = rng.standard_normal((n_hid, n_in)), rng.standard_normal((n_out, n_hid))
    values = dict(U=U, V=V, R=R, S=S, D=D, W1_bar=W1b, W2_bar=W2b)
    dims = dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out)
    rate1, rate2 = flow_loss_rates(evaluate(forms["W1"], dims, values),
                                   evaluate(forms["W2"], dims, values), U @ S @ V.T, V @ D @ V.T)
    ref = {"flow_W1_bar": R.T @ rate1 @ V, "flow_W2_bar": U.T @ rate2 @ R}
    return {k: form_error(forms[k], dims, values, ref[k]) for k in ref}


# ---------------------------------------------------------------------------------------------
# scalar mode ODE and kinks (symbolic)

def mode_ode_matches(rhs_expr) -> bool:
    """BL-Eq(21): ``rhs_expr`` (d omega/dt in ml.a, ml.s, ml.d, ml.tau) equals the balanced
    reduction of the corrected Eq. 20, ``tau w1' = w2 (s - d w1 w2)``, ``tau w2' = w1 (...)``, at
    w1 = w2 (omega = w1 w2), and Eq. 22 solves it."""
    w1, w2 = ml.w1, ml.w2
    dw1, dw2 = ml.layer_rhs
    product_rate = sp.expand(dw2 * w1 + w2 * dw1)
    w = sp.Symbol("w", positive=True)
    balanced = product_rate.subs({w1: w, w2: w})
    derived = balanced.subs(w, sp.sqrt(ml.a))
    return is_zero(derived - rhs_expr) and is_zero(
        sp.diff(ml.trajectory, ml.t) - rhs_expr.subs(ml.a, ml.trajectory))


def kink_rate_matches(kink: dict, n: int, c_value=1) -> bool:
    """BL-Eq(12): ``kink['k_dot']`` is the total time derivative of ``kink['k']`` for a weight
    row of length ``n`` (b and w_k functions of t), at bias strength ``c_value``."""
    t = sp.Symbol("t")
    b_t = sp.Function("b")(t)
    w_t = [sp.Function(f"w{j}")(t) for j in range(1, n + 1)]
    sub = {rf.n: n, m.c: c_value}

    def concrete(expr):
        expr = expr.subs(sub).doit()
        expr = expr.subs({rf.w[j + 1]: w_t[j] for j in range(n)})
        expr = expr.subs({rf.w_dot[j + 1]: sp.diff(w_t[j], t) for j in range(n)})
        return expr.subs({rf.b_dot: sp.diff(b_t, t)}).subs(rf.b_j, b_t)

    return is_zero(sp.diff(concrete(kink["k"]), t) - concrete(kink["k_dot"]))


# ---------------------------------------------------------------------------------------------
# the bias mode (Prop. 1)

def eigen_statements(proposition: dict, P: int) -> dict:
    """Prop. 1's eigen-claims for symbolic c at sample count P: spectrum, top eigenvector,
    the (P-1)-dim 1/P eigenspace and the null vector."""
    c = bm.c
    Sx = bm.sigma_x(P)
    spectrum = {sp.simplify(k.subs(bm.P_sym, P)): int(v.subs(bm.P_sym, P)) if hasattr(v, "subs")
                else v for k, v in proposition["eigenvalues"].items()}
    found = {sp.simplify(k): v for k, v in Sx.eigenvals().items()}
    same_spectrum = len(found) == len(spectrum) and all(
        any(is_zero(k - k2) and v == v2 for k2, v2 in found.items()) for k, v in spectrum.items())
    v0 = proposition["top_eigenvector"](P)
    top = c ** 2 + sp.Rational(1, P)
    q = sp.Matrix([1, -1] + [0] * (P - 2))
    bulk = sp.Matrix.vstack(sp.zeros(1, 1), q)
    return {
        "spectrum": same_spectrum,
        "top eigenvector": all(is_zero(e) for e in Sx * v0 - top * v0),
        "1/P eigenspace": all(is_zero(e) for e in Sx * bulk - bulk / P),
        "null vector": all(is_zero(e) for e in Sx * bm.null_vector(P)),
    }


def image_identity(proposition: dict, P: int, n_out: int) -> bool:
    """Eq. (5): Sigma~yx v~0/||v~0|| = factor * ybar for a fully symbolic Y (n_out x P), c > 0
    and c < 0 (the printed factor is even in c; the image flips sign with c)."""
    Y = sp.Matrix(n_out, P, lambda i, j: sp.Symbol(f"y{i}_{j}", real=True))
    ok = True
    for c_value in (sp.Symbol("cp", positive=True), -sp.Symbol("cp", positive=True)):
        v0 = proposition["top_eigenvector"](P, c_value)
        image = bm.sigma_yx(Y, c_value) * v0 / sp.sqrt((v0.T * v0)[0])
        factor = proposition["image_factor"].subs({bm.c: c_value, bm.P_sym: P})
        ok &= all(is_zero(e) for e in image - sp.sign(c_value) * factor * bm.mean_label(Y))
    return bool(ok)


def s0_and_sigma1(s0_expr, Y, c) -> tuple[float, float]:
    """Prop. 1 for one-hot inputs X = I_P with bias c: s0 of the formula and the top singular
    value sigma_1 of Sigma~yx (numpy SVD)."""
    Y = np.asarray(Y, float)
    P = Y.shape[1]
    s0 = float(s0_expr.subs({bm.c: c, bm.P_sym: P, bm.ybar_norm: np.linalg.norm(Y.mean(1))}))
    return s0, np.linalg.svd(correlations(np.eye(P), Y, c)[0], compute_uv=False)[0]


def top_singular_gap(s0_expr, Y, c) -> float:
    """|s0(formula) - sigma_1(Sigma~yx)| / sigma_1 for one-hot inputs, numerically."""
    s0, sigma1 = s0_and_sigma1(s0_expr, Y, c)
    return abs(s0 - sigma1) / sigma1


def bias_direction_error(Y, c) -> float:
    """BL-Def-BiasMode, one-hot inputs: the larger of [1; 1/(cP) 1]'s relative eigen-residual in
    Sigma~x and 1 - cos of its Sigma~yx image with ybar."""
    P = Y.shape[1]
    syx, sx = correlations(np.eye(P), Y, c)
    v0 = np.r_[1.0, np.full(P, 1 / (c * P))]
    v0 /= np.linalg.norm(v0)
    image = syx @ v0
    ybar = Y.mean(1)
    cos = abs(image @ ybar) / (np.linalg.norm(image) * np.linalg.norm(ybar))
    eig_res = np.linalg.norm(sx @ v0 - (c ** 2 + 1 / P) * v0)
    return max(1 - cos, eig_res / (c ** 2 + 1 / P))


def commutator_norm(commutator, Y, c) -> float:
    """The commutator form (``Syx_aug^T Syx_aug Sx_aug - ...``) at one-hot inputs, relative to
    ||Sigma~yx||^2 ||Sigma~x||: zero iff the two statistics share their right vectors."""
    Y = np.asarray(Y, float)
    syx, sx = correlations(np.eye(Y.shape[1]), Y, c)
    dims = {m.N_out: Y.shape[0], m.N_in: Y.shape[1]}
    value = evaluate(commutator, dims, {"Syx_aug": syx, "Sx_aug": sx})
    return float(np.linalg.norm(value) / (np.linalg.norm(syx.T @ syx) * np.linalg.norm(sx)))


# ---------------------------------------------------------------------------------------------
# the dead-unit delay (Eq. 14)

def _log_argument(delay_expr):
    """``exp(2 s delay / tau)``: the argument of the delay's log, simplified."""
    return sp.simplify(sp.powsimp(sp.exp(sp.expand(2 * h.s / h.tau * delay_expr)), force=True))


def delay_facts(delay_expr) -> dict:
    """Symbolic facts of a delay formula (symbols of theory.bias.hitting): it equals Eq. (27)
    minus Eq. (26); it is rho-free; it equals the corrected closed form; it vanishes at g = 1."""
    argument = _log_argument(delay_expr)
    return {
        "= Eq.(27) - Eq.(26)": is_zero(argument - _log_argument(h.t_relu - h.t_linear)),
        "rho-free": is_zero(sp.diff(argument, h.rho)),
        "= corrected form": is_zero(argument - _log_argument(h.delay_corrected)),
        "zero at g = 1": is_zero(argument.subs(h.g, 1) - 1),
    }


def a0_shift(rho, s, d, a0, tau, g) -> float:
    """BL-Eq(14): the delay (units of tau) of a mode's crossing of rho when a0 is scaled by g."""
    return float(hitting_time(rho, s, d, g * a0, tau) - hitting_time(rho, s, d, a0, tau))


def first_crossing_error(a_of, p) -> float:
    """BL-Def-Hit at ``p``: rel err of the definition's a(t^) (``a_of(t, s, d, a0, tau)``) at the
    closed-form t^, 1 where a(t) does not rise or crosses rho twice, 0 off a0 < rho < s/d."""
    if not p.a0 < p.rho < p.s / p.d:
        return 0.0
    t_hat = float(hitting_time(p.rho, p.s, p.d, p.a0, p.tau))
    grid = np.linspace(0, 3 * t_hat + 10 * p.tau / p.s, 400)
    a = mode_strength(grid, p.s, p.d, p.a0, p.tau)
    err = abs(float(a_of(t_hat, p.s, p.d, p.a0, p.tau)) - p.rho) / p.rho
    ordered = (np.all(np.diff(a) >= -1e-12 * a[:-1])
               and np.all(a[grid > t_hat * (1 + 1e-9)] > p.rho * (1 - 1e-9))
               and np.all(a[grid < t_hat * (1 - 1e-9)] < p.rho * (1 + 1e-9)))
    return err if ordered else 1.0      # an error of 1 is far above any rounding


def delay_value(delay_expr, s, d, a0, rho, tau, g) -> float:
    f = sp.lambdify((h.s, h.d, h.a0, h.rho, h.tau, h.g), delay_expr, "mpmath")
    try:
        value = complex(f(s, d, a0, rho, tau, g))
    except (ZeroDivisionError, ValueError):
        return float("nan")
    return value.real if abs(value.imag) < 1e-300 else float("nan")


# ---------------------------------------------------------------------------------------------
# Eq. (1) extremes and Eq. (11) early bias rates

def effective_rank_extremes(expr, n: int = 4) -> tuple[float, float]:
    """An effective-rank formula at a flat spectrum of n and at rank one (BL-Eq(1))."""
    return (float(evaluate_effective_rank(expr, [1] * n)),
            float(evaluate_effective_rank(expr, [1] + [0] * (n - 1))))


def early_bias_rates(forms, Y, seed, *, readout: str, eps=1e-5, n_hid=12):
    """BL-Eq(11) on one-hot inputs: (exact bias rate of Eq. 10, the printed ``forms['b']``
    evaluated, mask of units active on some input, exact W1 rate of Eq. 9 (X = I_P), the printed
    ``forms['W1']`` evaluated).  ``readout``: 'one step' (W2 = ``forms['W2_substituted']``, the
    paper's substitution eps Y H^T, W2(0) = 0) or 'random' (W2(0) ~ N(0, 2e-4), the paper's
    init, t = 0)."""
    Y = np.asarray(Y, float)
    n_out, p = Y.shape
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n_hid, p)) * 0.5 + rng.standard_normal((n_hid, 1)) * 0.5
    H, ds = np.maximum(Z, 0), (Z > 0).astype(float)
    values = dict(H=H, Y=Y, dsigma=ds, ones=np.ones((p, 1)), epsilon=eps, X=np.eye(p))
    dims = dims_of(n_in=p, n_hid=n_hid, n_out=n_out, p=p)
    if readout == "one step":
        W2 = evaluate(forms["W2_substituted"], dims, values)
    elif readout == "random":
        W2 = rng.standard_normal((n_out, n_hid)) * np.sqrt(2e-4)
    else:
        raise ValueError(f"readout={readout!r} must be 'one step' or 'random'")
    back = (W2.T @ (Y - W2 @ H)) * ds
    rate = eps * back.sum(1, keepdims=True)
    return (rate, evaluate(forms["b"], dims, values), ds.any(1), eps * back,
            evaluate(forms["W1"], dims, values))


def svd_chain_errors(forms, c, n_in=3, n_hid=6, n_out=2, seed=0) -> dict:
    """BL-Eq(6): rel err of each named form of the chain against W2 W~1 x~ for an aligned network
    (W2 W~1 = U A V~^T by construction), bias strength ``c``; inf where shapes do not conform."""
    rng = np.random.default_rng(seed)
    U, V = random_orthogonal(n_out, rng), random_orthogonal(n_in + 1, rng)
    R = random_orthogonal(n_hid, rng)
    r = min(n_out, n_in + 1)
    a = rng.uniform(0.2, 2.0, r)
    A = np.zeros((n_out, n_in + 1))
    A[np.arange(r), np.arange(r)] = a
    W2 = U[:, :r] @ np.diag(np.sqrt(a)) @ R[:, :r].T        # aligned: W2 W~1 = U A V^T
    W1_aug = R[:, :r] @ np.diag(np.sqrt(a)) @ V[:, :r].T
    x = rng.standard_normal((n_in, 1))
    x_aug = np.vstack([[[c]], x])
    values = dict(U=U, V_aug=V, A=A, W2=W2, W1_aug=W1_aug, W1=W1_aug[:, 1:],
                  b=W1_aug[:, :1], x=x, x_aug=x_aug, c=c)
    ref = W2 @ W1_aug @ x_aug
    dims = dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out)
    return {name: form_error(forms[name], dims, values, ref) for name in forms.keys()}


# ---------------------------------------------------------------------------------------------
# trained linear networks (numerics.bias.linear_runs): the clock (BA-S3), the effective a0
# (BA-D2, BA-X1) and the delay of gated-off units (BL-Eq(14))

def _per_mode(trained, statistic):
    """``statistic(a(t), plateau s/d, mode)`` per (mode, seed) of a trained ensemble, first three
    modes (modes 2 and 3 are degenerate, s = 0.25, so three suffice)."""
    run = trained.run
    return np.array([[statistic(run.modes[:, k, a], trained.s[a] / trained.d[a], a)
                      for k in range(run.modes.shape[1])] for a in range(3)])


def _half_rises(trained):
    """Half-rise steps per (mode, seed) of a trained ensemble."""
    return _per_mode(trained, lambda a, plateau, _: half_rise_step(trained.run.steps, a, plateau))


def fitted_time_constants(trained, tau_expr):
    """BA-S3: each mode's logistic rate r (per step) of a trained ensemble, as tau = 2 s / r (the
    exact law has r = 2 s / tau).  Returns (fitted tau per (mode, seed) in steps, ``tau_expr`` at
    the run's (P, eps), the conventions' tau, half-rise steps per (mode, seed))."""
    fitted = _per_mode(trained, lambda a, plateau, mode: 2 * trained.s[mode] / logistic_rate(
        trained.run.steps, a, plateau))
    printed = float(tau_expr.subs({m.P: trained.samples, m.eps: trained.lr}))
    return (fitted, printed, conventions.tau(trained.lr, trained.samples, "bias_workshop"),
            _half_rises(trained))


def effective_a0_fits(trained, a0_expr, sigma2: float):
    """BA-D2: fitted a0 per (mode, seed) from the logistic intercept of a trained ensemble (time
    t/tau through ``theory.conventions.flow_time``), the per-seed linear-regime prediction
    1/4 ||W1 v + W2^T u||^2, and ``a0_expr`` at (H, sigma^2)."""
    t = conventions.flow_time(trained.run.steps, trained.lr, trained.samples, "bias_workshop")

    def intercept_a0(a, plateau, _):
        sel = (a > 0.1 * plateau) & (a < 0.9 * plateau)
        icpt = np.polyfit(t[sel], np.log(plateau / a[sel] - 1), 1)[1]
        return plateau / (np.exp(icpt) + 1)
    U, V = trained.U[:, :3], trained.V[:, :3]
    preds = 0.25 * np.sum((trained.W1 @ V + np.swapaxes(trained.W2, 1, 2) @ U) ** 2, axis=1).T
    return (_per_mode(trained, intercept_a0), preds,
            float(a0_expr.subs({dv.H: trained.W1.shape[1], dv.sigma2: sigma2})))


def kink_vanishes(kink_form, bias_term) -> bool:
    """BL-Def-Kink: at x = k w/||w|| (k the form, in the symbols of ``theory.bias.exp_claims``)
    the pre-activation w.x + ``bias_term`` simplifies to 0."""
    norm = sp.sqrt((w_vec.T * w_vec)[0])
    x = kink_form * w_vec / norm
    return is_zero((w_vec.T * x)[0] + bias_term)


def off_diagonal_ratio(forms, flow) -> float:
    """BA-Eq(2) along a flow: the printed product ``W2 W1`` against the printed diagonal form
    ``U A V^T`` with A the diagonal of U^T (W2 W1) V, max over time of ||product - form|| over
    max ||form|| (0 when the product stays diagonal in the SVD basis)."""
    U, V = flow["U"], flow["V"]
    n_out, n_in, n_hid = U.shape[0], V.shape[0], flow["W1"].shape[1]
    dims = {m.N_out: n_out, m.N_in: n_in, m.N_hid: n_hid}
    off, diag = [], []
    for W1, W2 in zip(flow["W1"], flow["W2"]):
        product = evaluate(forms.product, dims, {"W1": W1, "W2": W2})
        A = np.zeros((n_out, n_in))
        k = np.arange(min(n_out, n_in))
        A[k, k] = (U.T @ product @ V)[k, k]
        form = evaluate(forms.diagonal_form, dims, {"U": U, "A": A, "V": V})
        off.append(np.linalg.norm(product - form))
        diag.append(np.linalg.norm(form))
    return float(max(off) / max(diag))


def delay_evidence(delay, numerator, denominator, params):
    """BL-Eq(14) as printed and corrected (the meaning of g-bar), as (printed, corrected)
    measurements: the algebra of the printed N/D, its sign over ``params`` (hypothesis), F.4's
    gating step, and the delay with no dead units and with more of them under each reading."""
    facts = delay_facts(delay)
    factor_ok = is_zero(sp.factor(numerator - denominator)
                        - h.a0 * h.s * (1 - h.g) * (h.s - h.d * h.rho))

    def positive_for_alive_fraction(p):
        value = delay_value(delay, **asdict(p))
        # delay >= (tau/2s) ln(1/g) > 0: the a0 terms only lengthen it
        return p.tau / (2 * p.s) * np.log(1 / p.g) / value if value > 0 else np.inf
    pos = search(positive_for_alive_fraction, ("<=", 1 + 1e-9), p=params)
    # F.4's gating step a0 -> a0 sum_j g_j r_j^2: its mean is the fraction of units NOT dead
    gating = {f: gated_a0_ratio(64, f, seed=0) for f in (0.25, 0.5)}
    p = dict(s=1.0, d=1.0, a0=1e-3, rho=0.1, tau=1.0)
    as_dead_rate = {f: delay_value(delay, g=f, **p) for f in (1e-9, 0.25, 0.5)}
    as_alive = {f: delay_value(delay, g=1 - f, **p) for f in (0.0, 0.25, 0.5)}
    dead_words = paper("L251", "dead neurons always increase the hitting time")
    by_sympy = exact("sympy simplify")
    printed = [measure("g = dead rate: delay with no dead units (g = 1e-9), s = d = tau = 1, "
                       "a0 = 1e-3, rho = 0.1", abs(as_dead_rate[1e-9]), "<=", 1e-6,
                       source=reading("no dead units must give no delay (to rounding)")),
               measure("g = dead rate: delay at dead rate 0.5 minus at 0.25",
                       as_dead_rate[0.5] - as_dead_rate[0.25], ">", 0, source=dead_words)]
    corrected = [*(measure(f"printed N/D: {what}", ok, "==", True, source=by_sympy)
                   for what, ok in facts.items()),
                 measure("N - D - a0 s (1 - g)(s - d rho) simplifies to 0 (positive iff g < 1 on "
                         "s > d rho)", factor_ok, "==", True, source=by_sympy),
                 measure("(tau/2s) ln(1/g) / delay for 0 < a0 <= rho < s/d, g in (0, 1) (inf if "
                         "delay <= 0), worst", pos, source=reading("float64 logs of O(1) "
                                                                   "arguments")),
                 measure("gating a0 -> a0 sum g_j r_j^2 (64 units, 2000 unit r): mean - alive "
                         "fraction, dead fractions 0.25, 0.5",
                         [abs(v - (1 - f)) for f, v in gating.items()], "<=", 0.01,
                         source=reading("Monte-Carlo mean of 2000 draws, spread ~0.002")),
                 measure("g = alive fraction: delay with no dead units", as_alive[0.0], "==", 0.0,
                         source=exact("log(1) = 0")),
                 measure("g = alive fraction: delay at dead rate 0.5 minus at 0.25",
                         as_alive[0.5] - as_alive[0.25], ">", 0, source=dead_words)]
    return printed, corrected


def gated_delays(base, gated) -> dict:
    """F.4's gated linear model, trained: half-rise delays (fractions, 3 modes, seeds) of
    networks with a fraction of hidden units gated off (``gated``: fraction -> run) against the
    same seeds ungated (``base``), their seed means, and the predictions (tau/2s) ln(1/g) with g
    the alive fraction and with g the dead rate; time in steps."""
    dead = np.array(sorted(gated))
    shifts = np.array([_half_rises(gated[f]) - _half_rises(base) for f in dead])
    s, tau = base.s[:3], conventions.tau(base.lr, base.samples, "bias")
    return {"dead": dead, "shifts": shifts, "mean": shifts.mean(axis=2), "s": s, "tau": tau,
            "alive prediction": tau / (2 * s[None, :]) * np.log(1 / (1 - dead[:, None])),
            "dead prediction": tau / (2 * s[None, :]) * np.log(1 / dead[:, None])}


def gated_delay_evidence(delays):
    """(printed, corrected) measurements of the trained delays against each reading of g-bar."""
    mean = delays["mean"]
    # per-seed a0 ratios scatter (~sqrt(2/H_alive)), the mean of their log sits above the log of
    # their mean (Jensen), and modes 2, 3 are degenerate (their projections mix)
    scatter = reading("seed scatter of a0 ratios, Jensen gap of the log, degenerate modes")
    return ([measure("|mean delay / (tau/2s) ln(1/f) - 1|, g = f the dead rate, f = 0.25, 0.5, "
                     "0.75 x 3 modes", np.abs(mean / delays["dead prediction"] - 1), "<=", 0.2,
                     source=scatter)],
            [measure("|mean delay / (tau/2s) ln(1/(1-f)) - 1|, g = 1 - f the alive fraction",
                     np.abs(mean / delays["alive prediction"] - 1), "<=", 0.2, source=scatter),
             measure("increase of the mean delay from one dead fraction to the next",
                     np.diff(mean, axis=0), ">", 0,
                     source=paper("L251", "dead neurons always increase the hitting time"))])


def most_negative_early_rate(forms, Y, seed) -> float:
    """BL-Eq(11) under W2 = eps Y H^T: the most negative exact bias rate on active units or W1
    rate, relative to the largest rate (0 when all are >= 0)."""
    exact_rate, _, alive, w1_rate, _ = early_bias_rates(forms, Y, seed, readout="one step")
    scale = max(np.abs(exact_rate).max(), np.abs(w1_rate).max(), 1e-300)
    return min(0.0, exact_rate[alive].min(initial=0.0), w1_rate.min()) / scale


def early_rate_error(forms, Y, seed) -> float:
    """BL-Eq(11): the printed eps^2 terms against the exact bias and W1 rates, the larger
    relative error (0 for a rate that vanishes with every unit dead)."""
    exact_b, printed_b, _, exact_w1, printed_w1 = early_bias_rates(forms, Y, seed,
                                                                   readout="one step")
    return max(rel_err(printed, exact) if np.any(exact) else 0.0
               for printed, exact in ((printed_b, exact_b), (printed_w1, exact_w1)))


def negative_rate_fractions(forms, Y, seeds) -> list[float]:
    """BL-Eq(11) at the paper's init (random W2(0), t = 0): per seed, the fraction of active
    units whose exact bias rate is negative."""
    rates = (early_bias_rates(forms, Y, seed, readout="random") for seed in seeds)
    return [float(np.mean(rate[alive] < 0)) for rate, _, alive, _, _ in rates]


def init_approximation(forms, c=1.0):
    """BL-Eq(8)-(10)'s '~ at init' forms (W2 H ~ 0) against autograd at init scales 1e-3..1e-1
    (3 in, 8 hidden, 2 out, 5 samples, bias strength ``c``): their max rel err over W2, W1, b
    relative to ||W2 H|| / ||Y|| (the dropped term), worst."""
    def relative_error(scale):
        values, ref, dims = _rates(3, 8, 2, 5, c, 0, 0.3, scale=scale)
        err = max(form_error(forms[k + "_init"], dims, values, ref[k]) for k in ("W2", "W1", "b"))
        return err / float(np.linalg.norm(values["W2"] @ values["H"]) / np.linalg.norm(values["Y"]))
    at_c = "" if c == 1.0 else f", c = {c:g}"
    return measure("'~ at init' forms vs exact rates, err / (||W2 H|| / ||Y||), init scales "
                   f"1e-3..1e-1{at_c}", max(relative_error(s) for s in (1e-3, 1e-2, 1e-1)), "<=", 10,
                   source=reading("the dropped term is of order ||W2 H|| / ||Y||"))


def scalar_mode_ode_error(rhs, *, s, d, tau, w0) -> float:
    """BL-Eq(21): a scalar mode ODE ``rhs`` (in ml.a, ml.s, ml.d, ml.tau) integrated from w0^2
    against omega = w1 w2 of the balanced per-layer ODEs, max relative error over 12 rates."""
    grid = np.linspace(0, 12 * tau / (2 * s), 50)
    omega = balanced_mode_product(s, d, tau, w0, grid)
    f = sp.lambdify((ml.a, ml.s, ml.d, ml.tau), rhs)
    return float(np.max(np.abs(scalar_mode(lambda a: f(a, s, d, tau), w0 ** 2, grid) - omega)
                        / omega))


def setting_errors(setting, lr: float, c: float):
    """BL-Setting, 4-item tree: rel errs of the printed Eq. (3) against ``correlations`` and of
    tau at eps = lr against ``conventions.tau``; whether X, Y, Sigma~yx, Sigma~x have its shapes."""
    X, Y = hierarchy(2)
    P, d4, (syx, sx) = X.shape[1], dims_of(n_in=4, p=4, n_out=7), correlations(X, Y, c)
    aug = {"Y": Y, "X_aug": np.vstack([np.full((1, P), c), X]), "P": P}
    printed_tau = float(setting["tau"].subs({m.P: P, m.eps: lr}))
    return (max(rel_err(evaluate(setting["Syx_aug"], d4, aug), syx),
                rel_err(evaluate(setting["Sx_aug"], d4, aug), sx)),
            abs(printed_tau - conventions.tau(lr, P, "bias")) / printed_tau,
            (X.shape, Y.shape, syx.shape, sx.shape) == ((4, 4), (7, 4), (7, 5), (5, 5)))


def loss_error(loss_form, n_in=3, n_hid=5, n_out=2, p=6, seed=1) -> float:
    """The printed 1/2-sum loss evaluated on a random network against the harness's loss
    (:func:`numerics.bias.instances.instance_loss`), relative error."""
    values, model = network_instance(n_in, n_hid, n_out, p, 1.0, seed)
    y_hat = model(torch.tensor(values["X"]))[0].numpy()
    printed = evaluate(loss_form, dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out, p=p),
                       {**values, "Y_hat": y_hat}).item()
    harness = instance_loss(model, values["X"], values["Y"])
    return abs(printed - harness) / harness


def augmentation_error(preactivation_form, shape, c, seed) -> float:
    """BL-Def-Aug: worst relative error of the printed W~1 x~ against W1 x + c b and the
    harness's pre-activation, and of dL/db against c dL/d(cb) by autograd."""
    n_in, n_hid, n_out, p = shape
    values, model = network_instance(n_in, n_hid, n_out, p, c, seed)
    pre = evaluate(preactivation_form, dims_of(n_in=n_in, n_hid=n_hid, n_out=n_out, p=p), values)
    direct = values["W1"] @ values["x"] + c * values["b"]
    harness = model.preactivation(torch.tensor(values["X"]))[0, :, :1].numpy()
    # gradient wrt the bias column = c x gradient wrt the effective bias beta = c b
    rates = autograd_rates(model, values["X"], values["Y"], 1.0)
    beta_rate = ((values["W2"].T @ (values["Y"] - values["W2"] @ values["H"]))
                 * values["dsigma"]).sum(1, keepdims=True)
    return max(rel_err(pre, direct), rel_err(harness, direct), rel_err(rates["b"], c * beta_rate))


def bias_mode_half_time(s0_form, Y, c) -> float:
    """BL-Claim-cIndep: the time (t/tau) the bias mode of one-hot inputs with bias c takes from
    a0 = 1e-3 of its plateau to half of it, with s0 the form's value and d0 = c^2 + 1/P."""
    s0, d0 = s0_and_sigma1(s0_form, Y, c)[0], c ** 2 + 1 / np.shape(Y)[1]
    return float(hitting_time(0.5 * s0 / d0, s0, d0, 1e-3 * s0 / d0))


def first_plateau_error(outputs, Y) -> float:
    """BL-Claim-ybar: max_i ||yhat_i - ybar|| / ||ybar|| of outputs (N_out x P) on the plateau."""
    Y = np.asarray(Y, float)
    ybar = Y.mean(1, keepdims=True)
    return float(np.max(np.linalg.norm(outputs - ybar, axis=0)) / np.linalg.norm(ybar))


def mean_label_plateau_errors(Y, cs) -> list[float]:
    """BL-Claim-ybar: :func:`first_plateau_error` of the linear flow from a0 = 1e-8, per c."""
    return [first_plateau_error(linear_flow_plateau(Y, c)[2], Y) for c in cs]


def model_checks(models):
    """BA-S1 on a random network (3 in, 6 hidden, 2 out, 5 samples, c = 1): relative errors of
    the printed linear and ReLU forms against the harness, of ReLU against linear gradients with
    every pre-activation positive, and whether a dead unit gets exactly zero gradient."""
    values, relu = network_instance(3, 6, 2, 5, 1.0, seed=3)
    dims = dims_of(n_in=3, n_hid=6, n_out=2, p=5)
    X = torch.tensor(values["X"])
    linear = TwoLayerEnsemble(relu.W1.clone(), relu.W2.clone(), "linear", bias_strength=1.0)
    pre = evaluate(models["relu_preactivation"], dims, values)
    err_lin = rel_err(evaluate(models["linear"], dims, values), linear(X)[0, :, :1].numpy())
    err_relu = rel_err(values["W2"] @ np.maximum(pre, 0), relu(X)[0, :, :1].numpy())
    def rates(W1, activation):
        model = TwoLayerEnsemble(W1.clone(), relu.W2.clone(), activation, 1.0)
        return autograd_rates(model, values["X"], values["Y"], 1.0)
    # always-on regime: b large and positive -> ReLU = linear in function and gradient
    on_W1 = relu.W1.clone()
    on_W1[..., 0] = 50.0
    g_relu, g_linear = rates(on_W1, "relu"), rates(on_W1, "linear")
    err_on = max(rel_err(g_relu[k], g_linear[k]) for k in g_relu)
    # a dead unit (b very negative) gets exactly zero gradient
    dead_W1 = relu.W1.clone()
    dead_W1[0, 0, 0] = -50.0
    g_dead = rates(dead_W1, "relu")
    dead_zero = (all(np.all(g_dead[k][0] == 0) for k in ("W1", "b"))
                 and np.all(g_dead["W2"][:, 0] == 0))
    return err_lin, err_relu, err_on, bool(dead_zero)


def gd_step_error(lr: float, n: int) -> float:
    """BA-S2: one GD step of the harness on the 1/2-sum loss
    (:func:`numerics.bias.instances.gd_step_weights`) against one Euler step of
    tau W' = W2^T (Syx - W2 W1 Sx) etc. with ``theory.conventions.tau`` (relative error)."""
    values, model = network_instance(3, 6, 2, n, 1.0, seed=4, activation="linear")
    W1a, W2 = model.W1[0].numpy().copy(), model.W2[0].numpy().copy()
    Xa = values["X_aug"]
    err = values["Y"] @ Xa.T / n - W2 @ W1a @ (Xa @ Xa.T / n)
    t_step = 1.0 / conventions.tau(lr, n, "bias_workshop")
    euler = (W1a + t_step * W2.T @ err, W2 + t_step * err @ W1a.T)
    W1_next, W2_next = gd_step_weights(model, values["X"], values["Y"], lr)
    return max(rel_err(W1_next - W1a, euler[0] - W1a), rel_err(W2_next - W2, euler[1] - W2))


def tree_correlation_errors(forms):
    """BA-Eq(1), 4- and 8-item trees: rel errs of the printed Syx, Sx against ``correlations``
    and of the printed U S V^T, V D V^T against Syx, Sx (bias row or not; full SVD of Syx, D the
    diagonal of V^T Sx V, so V D V^T = Sx only where V diagonalizes Sx); off-diagonal of
    V^T Sx V over its max diagonal on the modes with s > 0."""
    errs, offdiag = [], []
    usv, vdv = forms["svd"]
    for depth in (2, 3):
        X, Y = hierarchy(depth)
        N = X.shape[1]
        dims, vals = dims_of(n_in=N, n_out=Y.shape[0], p=N), dict(X=X, Y=Y, P=N)
        errs += [rel_err(evaluate(forms[k], dims, vals), v)
                 for k, v in zip(("Syx", "Sx"), correlations(X, Y))]
        for c in (None, 1.0):
            syx, sx = correlations(X, Y, c)
            U, s, Vt = np.linalg.svd(syx)
            S = np.zeros(syx.shape)
            S[np.arange(s.size), np.arange(s.size)] = s
            svd = dict(U=U, S=S, V=Vt.T, D=np.diag(np.diag(Vt @ sx @ Vt.T)))
            svd_dims = dims_of(n_in=syx.shape[1], n_out=syx.shape[0])
            errs += [rel_err(evaluate(usv, svd_dims, svd), syx),
                     rel_err(evaluate(vdv, svd_dims, svd), sx)]
            _, _, _, d, off = modes(syx, sx)
            offdiag.append(off / np.abs(d).max())
    return errs, offdiag


def tree_spectra(s0_form):
    """BA-D1 on the 4- and 8-item trees with c = 1: s0 of the form and the top singular value of
    Sigma~yx, by depth; and the 4-item tree's mean-mode speed-up sigma_1 / (||ybar|| / sqrt P)."""
    s0, sigma1 = {}, {}
    for k in (2, 3):
        s0[k], sigma1[k] = s0_and_sigma1(s0_form, hierarchy(k)[1], 1)
    Y = hierarchy(2)[1]
    return s0, sigma1, sigma1[2] / (np.linalg.norm(Y.mean(1)) / 2)

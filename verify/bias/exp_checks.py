"""Statistics of the toy simulations shared by the empirical tests of both bias papers (the
workshop paper's Figs 1-3 and 5 are the long paper's Figs 2, 6 and 9).  Each function reads
the cached runs of ``numerics.bias.experiments`` and returns plain numbers; the tests decide."""
from __future__ import annotations

import numpy as np

from numerics.bias import alignment as al
from numerics.bias import stats
from numerics.bias.experiments import pair
from numerics.bias.mode_fit import fit_a0
from numerics.bias.representations import distance_matrix, rsa, variance_explained
from numerics.bias.tasks import LINEAR_FEATURE, XOR_FEATURE
from numerics.metrics import effective_rank

SHIFTS = np.linspace(0, 3, 61)
DESIGNS = {"s": LINEAR_FEATURE, "c": XOR_FEATURE, "[s c]": np.c_[LINEAR_FEATURE, XOR_FEATURE]}
PARALLEL_DOTTED = 1.0   # parallel-task loss with only the linear task (and the means) solved


def hierarchy_alignment(runs):
    """ReLU vs linear on the hierarchy: closed-form fits, raw and shift-aligned gaps."""
    lin, relu = runs["linear"], runs["relu"]
    t, L0 = lin.t, float(lin.loss[0].mean())
    kb, kn = lin.select(1.0), lin.select(0.0)
    out = dict(L0=L0, t=t, kb=kb, kn=kn)
    out["fit_relu_bias"] = fit_a0(t, relu.loss[:, kb].mean(1), lin.X, lin.Y, 1.0)
    out["fit_lin_bias"] = fit_a0(t, lin.loss[:, kb].mean(1), lin.X, lin.Y, 1.0)
    out["fit_relu_none"] = fit_a0(t, relu.loss[:, kn].mean(1), lin.X, lin.Y, None)
    for key, k in (("bias", kb), ("none", kn)):
        out[f"raw_{key}"] = al.max_gap(relu.loss[:, k], lin.loss[:, k], t) / L0
        out[f"shift_{key}"] = al.best_warp(relu.loss[:, k], lin.loss[:, k], t, "shift",
                                           SHIFTS)[0] / L0
    out["diverges"], out["p"] = stats.less(out["raw_bias"], out["raw_none"])
    return out


def representation_alignment(runs, plateau_loss):
    """Time-averaged RSA and linear-CKA-free separation index at the first plateau (the first
    record where the linear-bias loss is within 10% of ``plateau_loss``)."""
    lin, relu = runs["linear"], runs["relu"]
    kb, kn = lin.select(1.0), lin.select(0.0)
    Hl, Hr = lin.hidden()[1:], relu.hidden()[1:]
    out = {"rsa_bias": np.nanmean(rsa(Hl[:, kb], Hr[:, kb]), 0),
           "rsa_none": np.nanmean(rsa(Hl[:, kn], Hr[:, kn]), 0)}
    i1 = int(np.argmax(lin.loss[:, kb].mean(1) <= plateau_loss * 1.1))
    for key, k in (("bias", kb), ("none", kn)):
        H = relu.hidden()[i1, k]
        D = distance_matrix(H)
        iu = np.triu_indices(D.shape[-1], 1)
        out[f"sep_{key}"] = D[:, iu[0], iu[1]].mean(-1) / np.linalg.norm(H.mean(-1), axis=-1)
    out["t_plateau"] = lin.t[i1]
    return out


def xor_early_alignment(runs):
    """Up to t_lin (linear-bias loss within 5% of its optimum 1): shift-aligned and raw gaps."""
    lin, relu = runs["linear"], runs["relu"]
    t, L0 = lin.t, 2.0
    kb, kn = lin.select(1.0), lin.select(0.0)
    t_lin = al.first_time(lin.loss[:, kb], t, 1.05)
    shifted, shift = al.best_warp(relu.loss[:, kb], lin.loss[:, kb], t, "shift", SHIFTS,
                                  until=float(t_lin.max()))
    raw = np.array([al.max_gap(relu.loss[:, [k]], lin.loss[:, [k]], t, until=tl)[0]
                    for k, tl in zip(kb, t_lin)])
    return dict(t_lin=t_lin, shifted=shifted / L0, shift=shift, raw=raw / L0,
                relu_end=float(relu.loss[-1, kb].max()),
                lin_end_dev=float(np.abs(lin.loss[-1, kb] - 1).max()),
                lin_none_dev=float(np.abs(lin.loss[:, kn] - L0).max()),
                relu_none_end=float(relu.loss[-1, kn].max()), kb=kb, kn=kn)


def parallel_summary(runs):
    """Per condition ('bias', 'no bias'): final effective rank of H^T H, centred and uncentred
    R^2 per design, time within 10% of the dotted line, final loss, per-task losses."""
    relu = runs["relu"]
    out = {}
    for c, name in ((1.0, "bias"), (0.0, "no bias")):
        k = relu.select(c)
        H = relu.hidden()[-1, k]
        err = (relu.Y[None, None] - relu.outputs()[:, k]) ** 2
        out[name] = dict(
            k=k, rank=np.array([effective_rank(h.T @ h) for h in H]),
            r2={d: variance_explained(H, f) for d, f in DESIGNS.items()},
            r2_raw={d: variance_explained(H, f, centre=False) for d, f in DESIGNS.items()},
            dwell=al.dwell_time(relu.loss[:, k], relu.t, PARALLEL_DOTTED, 0.1),
            final=relu.loss[-1, k],
            lin_task=0.5 * err[:, :, :2].sum((-2, -1)), xor_task=0.5 * err[:, :, 2:].sum((-2, -1)))
    return out


def both_bias_pairs(scale_name: str = "ci"):
    """Hierarchy and XOR runs with biases in both layers (c = 1 only), shared by both papers."""
    return (pair("hierarchy4", scale_name, cs=(1.0,), both_biases=True),
            pair("xor", scale_name, cs=(1.0,), both_biases=True))


def both_bias_alignment(hier, xor):
    """Biases in both layers: best global shift vs best global time rescale on the hierarchy,
    and the unshifted early gap on XOR."""
    lin, relu = hier["linear"], hier["relu"]
    t, kb = lin.t, lin.select(1.0)
    L0 = float(lin.loss[0, kb].mean())
    g_shift, shift = al.best_warp(relu.loss[:, kb], lin.loss[:, kb], t, "shift", SHIFTS)
    g_scale, kappa = al.best_warp(relu.loss[:, kb], lin.loss[:, kb], t, "scale",
                                  np.linspace(1.0, 1.5, 51))
    xl, xr = xor["linear"], xor["relu"]
    xb = xl.select(1.0)
    t_lin = al.first_time(xl.loss[:, xb], xl.t, 1.05)
    early = np.array([al.max_gap(xr.loss[:, [k]], xl.loss[:, [k]], xl.t, until=tl)[0]
                      for k, tl in zip(xb, t_lin)]) / 2.0
    return dict(L0=L0, shift_gap=g_shift / L0, shift=shift, scale_gap=g_scale / L0, kappa=kappa,
                xor_early=early, kb=kb, xb=xb)

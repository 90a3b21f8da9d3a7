"""Evidence of the piecewise-linear claims of GRQ (Sec. 5, App. C).  Each takes the formula
under test (from ``theory.rich_quick.piecewise``) as its first argument and returns errors."""
from __future__ import annotations

import numpy as np

from numerics.rich_quick import piecewise as pw
from numerics.rich_quick import piecewise_errors as pe
from verify.measurement import exact, measure, paper, reading


def expressivity(fit) -> tuple[list, list]:
    """GRQ-Eq(124)-(127) remark L923 from :func:`expressivity_fits`: (printed, corrected) sides:
    'any continuous nonlinear function' against 'positively homogeneous with a linear odd part'."""
    w = pe.EXPRESSIVITY_WIDTHS[-1]
    printed = [measure(f"x1^2 (continuous, f(0) = 0): fit error at h = {w}", fit["x1^2"][-1], "<",
                       0.05, source=paper("L923", "represent any continuous nonlinear function"))]
    corrected = [measure(f"r cos(2 theta) + x1 (homogeneous, linear odd part): fit error at h = {w}",
                         fit["r cos(2 theta) + x1"][-1], "<", 0.05,
                         source=reading("a fit below 5% rel. RMS error counts as represented")),
                 measure(f"r cos(3 theta) (homogeneous, odd part not linear): fit error at h = {w}",
                         fit["r cos(3 theta)"][-1], ">", 0.1,
                         source=reading("a fit above 10% rel. RMS error counts as not "
                                        "represented"))]
    return printed, corrected


def cones_and_polytopes() -> tuple[list, str]:
    """GRQ-Fig9: bias-free patterns are invariant under x -> t x (cones), with biases some change
    (polytopes), and every crossing flips one unit and the parity: (measurements, note)."""
    rng = np.random.default_rng(11)
    cone = pw.DeepReLU.random(2, [20, 20, 20], rng, biases=False)
    poly = pw.DeepReLU.random(2, [20, 20, 20], rng, biases=True)
    P = rng.uniform(-3, 3, (2000, 2))
    t = rng.uniform(0.1, 10, (2000, 1))
    scale_inv = np.all(cone.patterns(P) == cone.patterns(t * P))
    scale_var = np.any(poly.patterns(P) != poly.patterns(t * P))
    hams, flips, _, deg = pe.crossing_statistics(cone, rng, lines=4)
    hams2, flips2, _, deg2 = pe.crossing_statistics(poly, rng, lines=4)
    count = exact("count")
    return ([measure("bias-free patterns invariant under x -> t x (cones)", bool(scale_inv), "==",
                     True, source=count),
             measure("with biases, some pattern changes under x -> t x (polytopes)",
                     bool(scale_var), "==", True, source=count),
             measure(f"crossings (of {len(hams) + len(hams2)}) with Hamming distance != 1 or no "
                     "parity flip", int(np.sum(np.concatenate([hams, hams2]) != 1)
                                        + np.sum(~np.concatenate([flips, flips2]))), "==", 0,
                     source=count)],
            f"3-layer ReLU, 20 units per layer, He init, seed 11; {deg + deg2} degenerate crossings "
            "skipped")

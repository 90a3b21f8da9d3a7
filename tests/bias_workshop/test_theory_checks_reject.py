"""Each check of an exact BA- claim rejects a perturbed version of the claim."""
import numpy as np
import pytest
import sympy as sp

from numerics.datasets import hierarchy
from theory import mode_law as ml
from theory.bias import bias_mode as bm
from theory.bias import hitting as h
from theory.bias import matrices as m
from theory.bias_workshop import derived as dv
from theory.bias_workshop import setting as ws
from numerics.bias.linear_flows import decoupled_flow
from numerics.bias.linear_runs import linear_modes
from theory.registry import Forms
from verify.bias import symbolic as sym
from verify.checks.mode_law import hitting_time_solves


@pytest.mark.rejects("BA-S3")
def test_time_constant_check_rejects_a_factor_two():
    trained = linear_modes(seeds=[0], n_hid=32, std=3e-3, lr=2e-3, steps=3000)
    fitted, printed, _, _ = sym.fitted_time_constants(trained, ws.TIME_CONSTANT.printed)
    assert np.max(np.abs(fitted / printed - 1)) <= 0.02
    _, wrong, _, _ = sym.fitted_time_constants(trained, 2 / (m.P * m.eps))
    assert np.max(np.abs(fitted / wrong - 1)) > 0.4


@pytest.mark.rejects("BA-D2")
def test_effective_a0_check_rejects_a_dropped_half():
    trained = linear_modes(seeds=range(8))
    fits, _, formula = sym.effective_a0_fits(trained, dv.EFFECTIVE_A0.printed, 2e-4)
    _, _, wrong = sym.effective_a0_fits(trained, dv.H * dv.sigma2, 2e-4)
    assert np.all(np.abs(fits.mean(1) / formula - 1) < 0.15)
    assert np.all(np.abs(fits.mean(1) / wrong - 1) > 0.4)


@pytest.mark.rejects("BA-Eq(2)")
def test_decoupling_check_tells_aligned_from_random_init_and_rejects_a_wrong_form():
    forms = ws.NETWORK_MAP.printed
    assert sym.off_diagonal_ratio(forms, decoupled_flow(True)) <= 1e-8
    assert sym.off_diagonal_ratio(forms, decoupled_flow(False)) > 1e-3
    wrong = Forms(product=m.W2 * m.W1, diagonal_form=2 * m.U * ws.A * m.V.T)
    assert sym.off_diagonal_ratio(wrong, decoupled_flow(True)) > 0.4


@pytest.mark.rejects("BA-D3")
def test_delay_identities_reject_perturbations():
    assert hitting_time_solves(dv.DELAY_IDENTITIES.printed["hitting_time"])
    assert not hitting_time_solves(2 * dv.DELAY_IDENTITIES.printed["hitting_time"])
    shifted = ml.trajectory.subs(ml.t, ml.t - 2 * h.delay_corrected)
    assert not sym.is_zero(ml.trajectory.subs(ml.a0, h.g * ml.a0) - shifted)
    assert sym.is_zero(ml.trajectory.subs(ml.a0, h.g * ml.a0)
                      - ml.trajectory.subs(ml.t, ml.t - h.delay_corrected))
    assert sp.simplify(dv.EFFECTIVE_A0.printed.subs(dv.H, dv.H / 2) / dv.EFFECTIVE_A0.printed) \
        == sp.Rational(1, 2)


@pytest.mark.rejects("BA-D1")
def test_top_singular_value_check_rejects_a_perturbed_s0():
    Y = hierarchy(2)[1]
    s0 = dv.SPECTRUM.printed["s0"]
    assert sym.top_singular_gap(s0, Y, 1.0) <= 1e-10
    for wrong in (s0.subs(bm.c, 2 * bm.c), s0.subs(bm.P_sym, 2 * bm.P_sym), s0 / sp.sqrt(2)):
        assert sym.top_singular_gap(wrong, Y, 1.0) > 1e-2

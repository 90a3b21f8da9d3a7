"""Machinery of the bias papers' simulations: unit states, kinks, t*, representation metrics,
curve alignment, seed statistics, tasks, the both-bias model, the gated-linear reconstruction.
Each check is shown to reject a perturbed input."""
import numpy as np
import pytest
import torch

from numerics.bias import alignment as al
from numerics.bias import configs, tasks
from numerics.bias.both_biases import BothBiasEnsemble
from numerics.bias.experiments import toy_pair, toy_study
from numerics.bias.gated_linear import gated_linear_loss
from numerics.bias.mode_fit import fit_a0, theory_loss
from numerics.bias.representations import (classical_mds, linear_cka, rsa,
                                           variance_explained)
from numerics.bias.units import (dead_at_init_probability, kinks, linearisation_time,
                                 unit_fractions, unit_states)
from numerics.datasets import hierarchy


def test_unit_states_partition_units():
    Z = np.array([[1.0, 2.0], [-1.0, 0.0], [1.0, -1.0]])
    on, off, gate = unit_states(Z)
    assert on.tolist() == [True, False, False]
    assert off.tolist() == [False, True, False]
    assert gate.tolist() == [False, False, True]
    assert np.isclose(sum(unit_fractions(Z)), 1)
    with pytest.raises(ValueError, match="Z"):
        unit_states(np.array([1.0, np.nan]))


def test_kink_zeroes_the_preactivation_and_a_wrong_c_does_not():
    rng = np.random.default_rng(0)
    W = rng.normal(size=(5, 4))
    c = 2.5
    k = kinks(W, c)
    w = W[:, 1:]
    x = k[:, None] * w / np.linalg.norm(w, axis=1, keepdims=True)
    assert np.abs(np.sum(w * x, 1) + c * W[:, 0]).max() < 1e-12
    x_wrong = kinks(W, 1.0)[:, None] * w / np.linalg.norm(w, axis=1, keepdims=True)
    assert np.abs(np.sum(w * x_wrong, 1) + c * W[:, 0]).max() > 1e-3
    W[0, 1:] = 0
    with pytest.raises(ValueError, match="zero input weights"):
        kinks(W, c)


def test_t_star_is_the_first_maximum():
    f = np.array([[0.1], [0.5], [0.3], [0.5]])
    assert linearisation_time(np.arange(4.0), f).tolist() == [1]
    with pytest.raises(ValueError, match="records"):
        linearisation_time(np.arange(3.0), f)


def test_dead_at_init_probability_matches_closed_forms():
    assert abs(dead_at_init_probability(1.0, 4) - 1 / 5) < 1e-9
    assert abs(dead_at_init_probability(0.0, 4) - 1 / 16) < 1e-9


def test_cka_rsa_mds_properties():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(10, 6))
    Q, _ = np.linalg.qr(rng.normal(size=(10, 10)))
    assert abs(linear_cka(A, 3 * Q @ A + 2) - 1) < 1e-12       # invariances
    assert linear_cka(A, rng.normal(size=(7, 6))) < 0.99
    with pytest.raises(ValueError, match="constant"):
        linear_cka(A, np.ones((3, 6)))
    assert abs(rsa(A, 2 * A) - 1) < 1e-12
    pts = rng.normal(size=(8, 2))
    xy = classical_mds(pts)
    d = lambda p: np.linalg.norm(p[:, None] - p[None], axis=-1)  # noqa: E731
    np.testing.assert_allclose(d(xy), d(pts), atol=1e-10)


def test_centred_r2_is_additive_and_uncentred_is_not():
    H = np.random.default_rng(2).normal(size=(9, 4))
    s, c = tasks.LINEAR_FEATURE, tasks.XOR_FEATURE
    r = [variance_explained(H, f) for f in (s, c, np.c_[s, c])]
    assert abs(r[2] - r[0] - r[1]) < 1e-12
    u = [variance_explained(H, f, centre=False) for f in (s, c, np.c_[s, c])]
    assert abs(u[2] - u[0] - u[1]) > 1e-3
    with pytest.raises(ValueError, match="design"):
        variance_explained(H, np.ones(3))


def test_alignment_recovers_a_known_shift_and_scale():
    t = np.linspace(0, 20, 401)
    a = (1 / (1 + np.exp(t - 8)))[:, None]
    shifted = (1 / (1 + np.exp(t - 9)))[:, None]
    gap, p = al.best_warp(shifted, a, t, "shift", np.linspace(0, 3, 61))
    assert abs(p[0] - 1) < 1e-9 and gap[0] < 1e-2
    scaled = (1 / (1 + np.exp(t / 1.25 - 8)))[:, None]
    gap, p = al.best_warp(scaled, a, t, "scale", np.linspace(1, 1.5, 51))
    assert abs(p[0] - 1.25) < 1e-9 and gap[0] < 1e-2
    assert al.max_gap(shifted, a, t)[0] > 0.2
    assert al.first_time(a, t, 0.5)[0] == pytest.approx(8.0)
    assert np.isinf(al.first_time(a, t, -1)[0])
    with pytest.raises(ValueError, match="kind"):
        al.best_warp(a, a, t, "stretch", [1.0])
    with pytest.raises(ValueError, match="increasing"):
        al.max_gap(a, a, t[::-1])


def test_tasks_encode_the_catalogue_reconstructions():
    X, Y = tasks.xor_margin(0.5)
    assert X.shape == (3, 4) and np.allclose(X[2], [0.5, 0.5, -0.5, -0.5])
    X, Y = tasks.parallel()
    assert np.array_equal(Y[0], tasks.LINEAR_FEATURE) and np.array_equal(Y[2], tasks.XOR_FEATURE)
    with pytest.raises(ValueError, match="delta"):
        tasks.xor_margin(-1)


def test_both_bias_model_adds_an_output_bias():
    m = BothBiasEnsemble.init([0, 1], 4, 8, 3, bias_strength=2.0)
    X = torch.eye(4, dtype=torch.float64, device=m.W1.device)
    expected = m.hidden_layer(X) + 2.0 * m.b2
    assert torch.allclose(m(X), expected)
    assert len(m.params) == 3


def test_mode_fit_recovers_the_a0_of_its_own_curve():
    X, Y = hierarchy(2)
    t = np.linspace(0, 30, 301)
    loss = theory_loss(t, X, Y, 1.0, 4e-3)
    a0, err = fit_a0(t, loss, X, Y, 1.0)
    assert abs(a0 / 4e-3 - 1) < 1e-3 and err < 1e-3
    assert fit_a0(t, loss + 0.5, X, Y, 1.0)[1] > 0.1     # a perturbed curve is not matched


def _config(**changes):
    base = configs.ToyConfig(scale="ci", task="hierarchy4", lr=5e-3, seeds=(0,), horizon=12.0,
                             cs=(1.0,))
    return base.replace(**changes)


def test_gated_linear_reconstruction_of_a_linear_network_is_its_own_closed_form():
    run = toy_pair(_config()).linear
    X, Y = run.X, run.Y
    i = int(np.argmin(np.abs(run.t - 6)))
    pred, a = gated_linear_loss(run.t, run.t[i], run.W1[i, 0], run.W2[i, 0],
                                np.ones(64, bool), X, Y, 1.0)
    m = ~np.isnan(pred)
    assert np.abs(pred[m] - run.loss[m, 0]).max() < 0.05 * 6
    with pytest.raises(ValueError, match="non-positive"):
        gated_linear_loss(run.t, run.t[i], run.W1[i, 0], run.W2[i, 0], np.zeros(64, bool), X, Y,
                          1.0)


def test_ci_learning_rate_keeps_the_paper_clock():
    """The ci runs use lr 5e-3 (25x the paper's); on the t/tau axis of theory.conventions the
    ReLU-bias loss curve barely depends on the rate (checked against 5x smaller)."""
    runs = [toy_pair(_config(cs=(1.0, 1.0), seeds=(0, 1), lr=lr)).relu for lr in (5e-3, 1e-3)]
    assert np.allclose(runs[0].t, runs[1].t)
    gap = np.abs(runs[0].loss - runs[1].loss).max() / 6.0
    assert gap < 0.03, gap        # O(lr P s) discretisation error of the larger rate
    # a member trained alone equals the same seed inside the ensemble
    alone = toy_pair(_config()).relu
    assert np.abs(alone.loss[:, 0] - runs[0].loss[:, 0]).max() <= 1e-12


def test_a_run_reports_what_it_ran_and_its_variants_change_one_setting_each():
    pair = toy_pair(_config(horizon=2.0, cs=(1.0, 0.0), seeds=(0, 1)))
    ran = pair.ran.settings
    assert ran["learning rate"] == 5e-3 and ran["seeds"] == (0, 1)
    assert ran["GD steps"] == round(2.0 / (4 * 5e-3)) and ran["horizon t/tau"] == 2.0
    assert ran["bias strengths c"] == (1.0, 0.0) and pair.relu.loss.shape[1] == 4
    full = configs.HIERARCHY["full"]
    for setting in full.sensitivity:
        changed = configs.variant(full, setting)
        differs = {k for k in vars(full) if getattr(full, k) != getattr(changed, k)}
        assert differs <= {{"seeds": "seeds", "bias init": "bias_init", "task": "task",
                            "horizon t/tau": "horizon", "dtype": "dtype"}[setting], "sensitivity"}
    assert not set(configs.variant(full, "seeds").seeds) & set(full.seeds)
    assert not set(full.seeds) & set(configs.HIERARCHY["ci"].seeds)
    assert toy_study(configs.HIERARCHY["ci"]).variants == {}


def test_bad_configurations_are_named():
    for bad, match in ((dict(lr=-1.0), "lr"), (dict(seeds=()), "seeds"), (dict(task="x"), "task"),
                       (dict(dtype="int8"), "dtype"), (dict(deltas=(0.5,)), "deltas"),
                       (dict(sensitivity=("colour",)), "sensitivity"), (dict(n_hid=0), "n_hid")):
        with pytest.raises(ValueError, match=match):
            _config(**bad)
    with pytest.raises(TypeError, match="ToyConfig"):
        toy_pair("hierarchy4")


def test_seed_spread_plateaus_and_map_modes():
    t = np.linspace(0, 1, 11)
    curves = np.stack([t, t + 0.1, t + 0.3], 1)
    np.testing.assert_allclose(al.seed_spread(curves, t), [0.1, 0.3, 0.2])
    X, Y = hierarchy(2)
    marks = al.plateaus(X, Y, 1.0)
    assert marks == pytest.approx({"start": 6.0, "first plateau": 2.5, "linear optimum": 0.0})
    assert al.plateaus(*tasks.xor(), 1.0)["linear optimum"] == pytest.approx(1.0)
    assert al.plateaus(*tasks.xor("0/1"), 1.0)["linear optimum"] == pytest.approx(1.0)
    from numerics.datasets import correlations, modes
    U, s, V, d, _ = modes(*correlations(X, Y, 1.0))
    Xa = np.vstack([np.ones((1, 4)), X])[None]
    exact = (Y @ np.linalg.pinv(Xa[0]) @ Xa[0])[None, None]      # the optimal linear map's outputs
    np.testing.assert_allclose(al.map_modes(exact, Xa, U, V)[0, 0], s / d, atol=1e-12)


def test_generated_tasks_are_validated_as_data():
    facts = tasks.data_facts(*tasks.xor())
    assert facts == {"samples": 4, "distinct inputs": 4, "label conflicts": 0,
                     "samples per label": [2, 2]}
    X = np.array([[1.0, 0.0, 1.0, 0.0]])
    assert tasks.data_facts(X, tasks.XOR_LABELS)["label conflicts"] == 2
    with pytest.raises(ValueError, match="coding"):
        tasks.xor("+-2")

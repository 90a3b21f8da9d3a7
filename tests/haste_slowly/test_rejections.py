"""Every empirical MHS claim's decision rejects a synthetic counter-scenario that violates the
paper's statement (the verdict is not 'holds') and accepts one that satisfies it ('holds'): the
evidence functions of ``verify.haste_slowly.evidence`` fed synthetic results."""
import numpy as np
import pytest

from numerics.haste_slowly import analysis as A
from numerics.haste_slowly.datasets import context_gates, k_of_c
from numerics.trajectory import Trajectory
from verify.haste_slowly import evidence as E

RNG = np.random.default_rng(0)
T = np.linspace(0, 8000, 161)
L0 = 100.0


def _curves(shift=0.0, noise=0.01, K=5, level=0.0, seed=0):
    """(T, K) staircase loss curves: a drop at epoch 500 + shift to 20, one at 3000 + shift to
    ``level``, each seed jittered in time by ``noise`` x 1000 epochs."""
    rng = np.random.default_rng(seed)
    jit = rng.standard_normal(K) * noise * 1000
    t = T[:, None] - shift - jit
    return 80 / (1 + np.exp((t - 500) / 60)) + (20 - level) / (1 + np.exp((t - 3000) / 200)) + level


def _verdicts(decide, good, bad):
    return decide(*good), decide(*bad)


@pytest.mark.rejects("MHS-S6-C1")
def test_depth_structure_needs_an_always_on_first_layer(decide):
    reln = np.repeat(np.array(sorted(A.reln_patterns())), 10, axis=0)     # (40, 24)
    g2, m2 = np.stack([reln] * 3).astype(bool), np.ones((3, 40))
    m1 = RNG.uniform(0.5, 1, (3, 30))
    good = E.first_layer_ungated(np.ones((3, 30, 24), bool), m1) + [E.second_layer_gates(g2, m2)]
    bad = E.first_layer_ungated(RNG.random((3, 30, 24)) > 0.5, m1) + [E.second_layer_gates(g2, m2)]
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-S6-C2")
def test_variance_with_depth_needs_more_spread_in_the_deep_nets(decide):
    deep, shallow = _curves(noise=0.5, K=8, seed=1), _curves(noise=0.001, K=8, seed=2)
    good = E.variance_with_depth(deep, _curves(noise=0.4, K=8, seed=3), shallow, L0)
    bad = E.variance_with_depth(_curves(noise=0.001, K=8, seed=4), deep, shallow, L0)
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


def _trajectory(loss, ctx_onset):
    """A depth trajectory: loss (T, K), its gating-only part dropping at each seed's onset, the
    common mode aligning at epoch 600."""
    K = loss.shape[1]
    ctx = 17 / (1 + np.exp((T[:, None] - np.asarray(ctx_onset)[None]) / 100))
    align = np.repeat((T > 600)[:, None], K, 1).astype(float)
    return Trajectory(T.astype(int), T, "epochs", loss, {"ctx": ctx, "align_lin": align})


@pytest.mark.rejects("MHS-S6-C3")
def test_staged_onsets_need_consistent_drops_after_alignment(decide):
    onsets = 3000 + RNG.normal(0, 100, 6)
    relu = _trajectory(_curves(noise=0.1, K=6, seed=5), onsets)
    same = _trajectory(_curves(noise=0.1, K=6, seed=6), onsets)
    other_plateau = _trajectory(_curves(noise=0.1, K=6, seed=6, level=8.0), onsets)
    assert _verdicts(decide, E.staged_onsets(relu, same, L0),
                     E.staged_onsets(relu, other_plateau, L0)) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-Fig6")
def test_stereotypical_runs_must_agree_within_the_relu_spread(decide):
    relu = _curves(noise=0.2, K=8, seed=7)
    good = E.stereotypical_agreement(relu, relu + 0.01, L0)
    bad = E.stereotypical_agreement(relu, _curves(shift=1500, noise=0.2, K=8, seed=8), L0)
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


def _outputs(loss, scale=0.01, seed=0):
    """(T, K, 4, 6) outputs whose seeds differ by ``scale``."""
    rng = np.random.default_rng(seed)
    base = np.linspace(0, 1, 24).reshape(4, 6)
    return base[None, None] * (1 - loss[..., None, None] / loss.max()) \
        + scale * rng.standard_normal((*loss.shape, 4, 6))


@pytest.mark.rejects("MHS-S4-C1")
def test_imitation_needs_the_reln_within_the_relu_spread_and_nearer_than_the_null(decide):
    relu, null = _curves(noise=0.05, seed=9), _curves(shift=2000, seed=10)
    Y = np.linspace(0, 1, 24).reshape(4, 6)
    reln = _curves(noise=0.05, seed=11)
    good = E.imitation(relu, reln, null, L0, "L120", "w") + [
        E.output_agreement(_outputs(relu, seed=1), _outputs(reln, seed=2), Y, T)]
    far = _curves(shift=2500, seed=12)
    bad = E.imitation(relu, far, null, L0, "L120", "w") + [
        E.output_agreement(_outputs(relu, seed=1), _outputs(far, seed=2) + 0.3, Y, T)]
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-S4-C4", "MHS-Fig4")
def test_loss_agreement_readings_reject_a_lagging_reln(decide):
    relu, null = _curves(noise=0.05, seed=13), _curves(shift=2000, seed=14)
    good = E.imitation(relu, _curves(noise=0.05, seed=15), null, L0, "L118", "w")
    bad = E.imitation(relu, _curves(shift=400, seed=15), null, L0, "L118", "w")
    assert _verdicts(decide, good + [E.does_not_imitate(relu, null, L0)],
                     bad + [E.does_not_imitate(relu, relu, L0)])[1] != "holds"
    assert decide(*good, E.does_not_imitate(relu, null, L0)) == "holds"
    assert decide(*bad) == "inconclusive"     # its readings disagree: nearer than the null only


def _hidden(K, seed, noise=0.01):
    """(T, K, 20, 24) hidden activities sharing one structure, seeds jittered by ``noise``."""
    rng = np.random.default_rng(0)
    base = rng.random((20, 24))
    jitter = np.random.default_rng(seed).standard_normal((len(T), K, 20, 24))
    return base[None, None] * np.linspace(0.1, 1, len(T))[:, None, None, None] + noise * jitter


@pytest.mark.rejects("MHS-S4-C2")
def test_latent_geometry_needs_the_reln_within_the_relu_runs(decide):
    relu, single = _hidden(3, 1), _hidden(1, 9, noise=0.5)
    good = E.latent_geometry(relu, _hidden(1, 2), single, T)
    bad = E.latent_geometry(relu, np.random.default_rng(3).random((len(T), 1, 20, 24)), single, T)
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-S4-C3")
def test_context_specific_units_refute_no_context_specific_neurons(decide):
    multi = np.zeros((3, 30, 24), bool)
    multi[:, :, :16] = True                                       # on in contexts 1 and 2
    single = multi.copy()
    single[:, :10] = False
    single[:, :10, :8] = True                                     # 10 units on in context 1 only
    mass, loss = np.ones((3, 30)), np.array([1.0, 1.1, 0.9])
    good = E.no_context_specific_neurons(multi, mass, loss, lambda drop: loss)
    bad = E.no_context_specific_neurons(single, mass, loss, lambda drop: loss + 5.0 * drop.any(1))
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-S4-C5")
def test_feature_learning_needs_growing_pathways(decide):
    grow = np.exp(np.linspace(0, 10, 50))[:, None, None, None] * np.ones((50, 2, 4, 3))
    assert _verdicts(decide, [E.feature_learning(grow)],
                     [E.feature_learning(grow[::-1])]) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-E-Six")
def test_active_single_context_modules_refute_inactivity(decide):
    sv = np.ones((10, 4, 7, 2)) * np.linspace(1e-8, 1, 10)[:, None, None, None]
    loss = np.array([0.030, 0.035, 0.028, 0.032])
    good = E.singles_inactive(loss, loss + 0.001, sv)
    bad = E.singles_inactive(loss, loss * 7, sv)
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


def _usage_patterns(C, k, K=3, H=40):
    """(K, H, 8C) patterns of units each on (all items) in k contexts, rotating over contexts."""
    sets = k_of_c(C, k)
    rows = context_gates(C, [sets[h % len(sets)] for h in range(H)]).astype(bool)
    return np.stack([rows] * K)


@pytest.mark.rejects("MHS-S5-C1", "MHS-Disc")
def test_units_on_in_one_context_refute_c_minus_one_pathways(decide):
    mass = {C: RNG.uniform(0.9, 1.1, (3, 40)) for C in (3, 4, 5)}
    good = E.reuse_with_contexts({C: _usage_patterns(C, C - 1) for C in (3, 4, 5)}, mass)
    bad = E.reuse_with_contexts({C: _usage_patterns(C, 1) for C in (3, 4, 5)}, mass)
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-Fig5")
def test_closed_form_must_sit_within_the_runs_spread(decide):
    relu = _curves(noise=0.05, seed=16)
    reln = relu[:, ::-1] + 0.001
    good = E.closed_form_agreement(3, relu, reln, relu.mean(1), L0)
    bad = E.closed_form_agreement(3, relu, reln, _curves(shift=300, K=1, seed=1)[:, 0], L0)
    assert _verdicts(decide, good, bad) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-Fig7")
def test_modes_must_reach_their_plateaus(decide):
    S, D = np.array([2.0, 1.0]), np.array([1.0, 1.0])
    proj = np.stack([S / D * (1 - np.exp(-t)) for t in np.linspace(0, 30, 40)])
    assert _verdicts(decide, E.modes_reach_plateaus(proj, S, D),
                     E.modes_reach_plateaus(0.9 * proj, S, D)) == ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-Fig8")
def test_elbow_must_be_an_elbow_at_four(decide):
    cents = {2: np.full((2, 24), 0.5), 3: np.full((3, 24), 0.4), 4: np.ones((4, 24))}
    at_four = {2: 1.0, 3: 0.8, 4: 0.1, 5: 0.09, 6: 0.085}
    at_three = {2: 1.0, 3: 0.2, 4: 0.1, 5: 0.09, 6: 0.085}
    assert _verdicts(decide, E.elbow_at_four(at_four, cents),
                     E.elbow_at_four(at_three, cents)) == ("holds", "not-reproduced")
    assert A.elbows(at_three) == {"curvature": 3, "kneedle": 3}


@pytest.mark.rejects("MHS-Fig2")
def test_relu_nets_that_follow_the_slower_gdln_are_rejected(decide):
    good = {"closer": np.array([3.0, 2.0, 2.5]), "switch": np.array([0.6, 0.5, 0.7]),
            "t_relu": np.array([[10.0, 11, 10]] * 3), "t_gdln": np.array([[20.0, 10.5]] * 3),
            "deltas": np.array([0.0, 0.8, 2.0]), "a0": 1e-6}
    bad = dict(good, closer=-good["closer"])
    assert _verdicts(decide, E.follows_faster(good), E.follows_faster(bad)) == \
        ("holds", "not-reproduced")


@pytest.mark.rejects("MHS-Asm2.1")
def test_a_task_without_shared_singular_vectors_is_rejected(decide):
    assert decide(E.diagonalisable(1e-14, 0.3)[0]) == "holds"
    assert decide(E.diagonalisable(0.3, 0.3)[0]) == "not-reproduced"

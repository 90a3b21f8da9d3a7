"""Unit tests of the MHS simulation code: gradients, datasets, conventions, bad input."""
import numpy as np
import pytest
import torch

from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import gate_finder as gf
from numerics.haste_slowly import lemma, reln
from numerics.haste_slowly.gated import GatedNet, init_weights, train
from numerics.haste_slowly.metrics import crossing_time, timing_gap
from theory.conventions import MEAN_HALF, SUM_HALF, flow_time


def _autograd(net, X, Y, loss, keep=None):
    Ws = [w.clone().requires_grad_(True) for w in net.weights]
    twin = GatedNet(Ws, net.gates, net.masks, net.common)
    _, _, out = twin.forward(X, keep)
    L = (loss.factor(X.shape[-1]) * ((out - Y) ** 2).sum(dim=(1, 2))).sum()
    return torch.autograd.grad(L, Ws)


@pytest.mark.parametrize("gated", [False, True])
def test_hand_gradients_match_autograd(gated):
    rng = np.random.default_rng(0)
    X, Y = torch.tensor(rng.standard_normal((5, 7))), torch.tensor(rng.standard_normal((3, 7)))
    W = init_weights([0, 1], [(6, 5), (4, 6), (3, 4)], [0.7, 0.7, 0.7])
    gates = [torch.tensor((rng.random((6, 7)) > .3) * 1.0), None] if gated else [None, None]
    net = GatedNet(W, gates, [torch.tensor((rng.random((6, 5)) > .2) * 1.0), None, None])
    for loss in (SUM_HALF, MEAN_HALF):
        _, mine = net.grads(X, Y, loss)
        auto = _autograd(net, X, Y, loss)
        for a, b in zip(mine, auto):
            assert torch.allclose(a, b, atol=1e-12)


def test_split_gradient_steps_common_units_on_their_own_loss():
    X, Y = ds.section4()
    mods = reln.pathways(3, 2, 3, 0.3, 0.3)
    net, um = reln.build(3, mods, [0], 60)
    Xt, Yt = torch.tensor(X), torch.tensor(Y)
    keep = net.common.double()
    _, common = net.grads(Xt, Yt, SUM_HALF, keep=keep)
    auto = _autograd(net, Xt, Yt, SUM_HALF, keep=keep)
    assert torch.allclose(common[0], auto[0], atol=1e-12)
    before = [w.clone() for w in net.weights]
    _, joint = net.grads(Xt, Yt, SUM_HALF)
    net.step(Xt, Yt, 1e-3, split=True)
    c = net.common
    assert torch.allclose(before[0][:, c] - net.weights[0][:, c], 1e-3 * common[0][:, c])
    assert torch.allclose(before[0][:, ~c] - net.weights[0][:, ~c], 1e-3 * joint[0][:, ~c])


def test_datasets_and_gates():
    X, Y = ds.contexts(4)
    assert X.shape == (12, 32) and Y.shape == (75, 32)
    assert np.allclose(X[8:].max(1), 1.1)
    g = ds.context_gates(3, [{0, 1}])
    assert g.sum() == 16 and g[0, 16:].sum() == 0
    assert list(reln.pattern_class(np.array([np.r_[np.ones(8), np.zeros(16)],
                                             np.r_[np.ones(9), np.zeros(15)]]), 3)) == [1, -1]
    with pytest.raises(ValueError, match="delta"):
        ds.xor_margin(-1)
    with pytest.raises(ValueError, match="C="):
        ds.contexts(1)
    with pytest.raises(ValueError, match="scale"):
        ds.contexts(3, 0.0)


def test_flow_time_of_the_two_training_conventions():
    assert flow_time(10, 1e-3, 24, "haste_slowly") == pytest.approx(10 * 1e-3 * 24)
    assert flow_time(10, 0.4, 4, "haste_slowly", trained_on=MEAN_HALF) == pytest.approx(4.0)


def test_bad_input_is_named():
    net = GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), [None])
    with pytest.raises(ValueError, match="X has 4 samples but Y has 5"):
        train(net, np.ones((2, 4)), np.ones((1, 5)), lr=0.1, steps=1)
    with pytest.raises(ValueError, match="steps"):
        train(net, np.ones((2, 4)), np.ones((1, 4)), lr=0.1, steps=-1)
    with pytest.raises(ValueError, match="non-finite"):
        train(net, np.full((2, 4), np.nan), np.ones((1, 4)), lr=0.1, steps=1)
    with pytest.raises(ValueError, match="gates"):
        GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), [])
    with pytest.raises(ValueError, match="pattern"):
        lemma.realisable(np.array([[2, 0]]))
    with pytest.raises(ValueError, match="k="):
        gf.find_gates(np.eye(3), 5)
    with pytest.raises(ValueError, match="loss"):
        timing_gap([np.nan, 1.0], [1.0, 1.0], [0.0, 1.0], 1.0)


def test_crossing_time_interpolates():
    assert crossing_time([0.0, 1.0, 2.0], [0.0, 10.0, 20.0], 1.5) == pytest.approx(15.0)
    assert crossing_time([0.0, 1.0], [0.0, 1.0], 5.0) == float("inf")


def test_the_full_scale_configuration_runs_in_float32_for_a_few_steps():
    """The code path of the ``--scale=full`` Sec 4-5 tests: the paper's step size, float32."""
    from numerics.haste_slowly import experiments as E
    cfg = dict(E.SEC45_FULL, steps=60)
    relu, rel = E.relu_run(**cfg), E.reln_run(4, **cfg)
    assert relu.hist.records["hidden"].dtype == np.float32 and rel.hist.loss.dtype == np.float32
    assert relu.epochs[-1] == 60 and np.all(np.diff(rel.hist.loss[:, 0]) <= 0)


def test_only_the_full_configuration_is_faithful():
    from numerics.haste_slowly import experiments as E
    from verify.haste_slowly.setups import sec45
    assert sec45(E.SEC45_FULL, C=(3, 4, 5)).faithful
    ci = sec45(E.SEC45_CI)
    assert not ci.faithful and {d.setting for d in ci.deviations} == {"learning rate", "dtype"}

"""Unit tests of the MHS simulation code: gradients, datasets, clocks, configurations, setups and
bad input (each public function names the argument it rejects)."""
import numpy as np
import pytest
import torch

from numerics.haste_slowly import (
    analysis,
    configs,
    experiments,
    graph,
    lemma,
    linear,
    race,
    reln,
    xor,
)
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import gate_finder as gf
from numerics.haste_slowly.gated import GatedNet, init_weights, paper_time, train
from numerics.metrics import crossing_time
from theory.conventions import MEAN_HALF, SUM_HALF
from verify.haste_slowly import settings


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
        for a, b in zip(mine, _autograd(net, X, Y, loss)):
            assert torch.allclose(a, b, atol=1e-12)


@pytest.mark.parametrize("gated", [False, True])
def test_one_rate_steps_inside_the_gradient_products(gated):
    """GatedNet.step with one rate takes an unmasked layer's step in the GEMM that forms its
    gradient (W <- W - lr delta a^T): the autograd gradient times the rate, to rounding, and the
    per-member-rate (two-pass) update to the last bits; a masked layer keeps its masked weights."""
    rng = np.random.default_rng(1)
    X, Y = torch.tensor(rng.standard_normal((5, 7))), torch.tensor(rng.standard_normal((3, 7)))
    W = init_weights([0, 1], [(6, 5), (4, 6), (3, 4)], [0.7, 0.7, 0.7])
    gates = [torch.tensor((rng.random((6, 7)) > .3) * 1.0), None] if gated else [None, None]
    mask = torch.tensor((rng.random((6, 5)) > .2) * 1.0)
    net = GatedNet([w.clone() for w in W], gates, [mask, None, None])
    twin = GatedNet([w.clone() for w in W], gates, [mask, None, None])
    grads = _autograd(net, X, Y, SUM_HALF)
    net.step(X, Y, 0.05)
    twin.step(X, Y, torch.full((2,), 0.05, dtype=torch.float64))
    for before, one, two, g in zip(W, net.weights, twin.weights, grads):
        assert torch.allclose(before - one, 0.05 * g, rtol=1e-10, atol=1e-15)
        assert torch.allclose(one, two, rtol=1e-14, atol=1e-16)
    assert torch.equal(net.weights[0][:, mask == 0], W[0][:, mask == 0])


def test_split_gradient_steps_common_units_on_their_own_loss():
    X, Y = ds.section4()
    net, _ = reln.build(3, reln.pathways(3, 2, 3, 0.3, 0.3), [0], 60)
    Xt, Yt = torch.tensor(X), torch.tensor(Y)
    keep = net.common.double()
    _, common = net.grads(Xt, Yt, SUM_HALF, keep=keep)
    assert torch.allclose(common[0], _autograd(net, Xt, Yt, SUM_HALF, keep=keep)[0], atol=1e-12)
    before = [w.clone() for w in net.weights]
    _, joint = net.grads(Xt, Yt, SUM_HALF)
    net.step(Xt, Yt, 1e-3, split=True)
    c = net.common
    assert torch.allclose(before[0][:, c] - net.weights[0][:, c], 1e-3 * common[0][:, c])
    assert torch.allclose(before[0][:, ~c] - net.weights[0][:, ~c], 1e-3 * joint[0][:, ~c])


def test_the_init_is_the_released_numpy_draw():
    W = init_weights([7], [(4, 3), (2, 4)], [0.5, 0.5])
    rng = np.random.RandomState(7)
    assert np.array_equal(W[0][0].numpy(), rng.normal(0, 0.5, (4, 3)))
    assert np.array_equal(W[1][0].numpy(), rng.normal(0, 0.5, (2, 4)))


def test_datasets_and_gates():
    X, Y = ds.contexts(4)
    assert X.shape == (12, 32) and Y.shape == (75, 32)
    assert np.allclose(X[8:].max(1), 1.1)
    g = ds.context_gates(3, [{0, 1}])
    assert g.sum() == 16 and g[0, 16:].sum() == 0
    assert ds.zero_output_loss(ds.contexts(3)[1]) == 96.0


def test_the_clocks_of_the_paper():
    """Epochs (one step at lr 1e-3 on the 1/2-sum loss) and t/tau (Fig 2: 1/tau = lr, mean loss)."""
    assert paper_time(10, 2e-3, 24, "epochs") == pytest.approx(20.0)
    assert paper_time(10, 1e-3, 24, "t/tau") == pytest.approx(10 * 1e-3 * 24)
    assert paper_time(10, 0.4, 4, "t/tau", MEAN_HALF) == pytest.approx(4.0)
    net = GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), [None])
    t = train(net, np.ones((2, 4)), np.ones((1, 4)), lr=2e-3, steps=10, record_every=5)
    assert t.clock == "epochs" and np.allclose(t.time, [0, 10, 20])


def test_crossing_time_interpolates():
    assert crossing_time([0.0, 1.0, 2.0], [0.0, 10.0, 20.0], 1.5) == pytest.approx(15.0)
    assert crossing_time([0.0, 1.0], [0.0, 1.0], 5.0) == float("inf")


def test_the_configurations_draw_disjoint_seeds_and_cover_the_papers_epochs():
    for pair in (configs.SEC45, configs.DEPTH):
        assert not set(pair.ci.seeds) & set(pair.full.seeds)
    assert configs.SEC45.ci.steps * configs.SEC45.ci.lr == pytest.approx(8000 * 1e-3)
    assert not set(configs.DEPTH.ci.seeds) & set(settings.DEPTH_RUNS)   # ci never replays a run


def test_only_the_full_sec45_configuration_is_faithful():
    """A few epochs of both configurations: the full one deviates only in the horizon."""
    full = configs.SEC45.full.replace(epochs=60, record_epochs=20)
    ci = configs.SEC45.ci.replace(epochs=60, record_epochs=20)
    for C in (None, 4):
        run = experiments.relu_run(full, C)
        assert run.trajectory.loss.dtype == np.float32
        assert {d.setting for d in settings.sec45(run).deviations} == {"horizon (epochs)", "steps"}
    assert {d.setting for d in settings.sec45(experiments.reln_run(ci)).deviations} == \
        {"horizon (epochs)", "steps", "learning rate", "dtype"}


@pytest.mark.parametrize("call, match", [
    (lambda: train(GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), [None]), np.ones((2, 4)),
                   np.ones((1, 5)), lr=0.1, steps=1), "X has 4 samples but Y has 5"),
    (lambda: train(GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), [None]), np.ones((2, 4)),
                   np.ones((1, 4)), lr=0.1, steps=-1), "steps"),
    (lambda: train(GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), [None]),
                   np.full((2, 4), np.nan), np.ones((1, 4)), lr=0.1, steps=1), "non-finite"),
    (lambda: train(GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), [None]), np.ones((2, 4)),
                   np.ones((1, 4)), lr=0.1, steps=1, clock="hours"), "clock"),
    (lambda: GatedNet(init_weights([0], [(3, 2), (1, 3)], [1, 1]), []), "gates"),
    (lambda: init_weights([-1], [(3, 2)], [1.0]), "seed"),
    (lambda: init_weights([0.5], [(3, 2)], [1.0]), "seed"),
    (lambda: init_weights([0], [(3, 2)], [0.0]), "stds"),
    (lambda: init_weights([0], [(3, 2)], [np.nan]), "stds"),
    (lambda: lemma.realisable(np.array([[2, 0]])), "pattern"),
    (lambda: gf.find_gates(np.eye(3), 5), "k="),
    (lambda: ds.xor_margin(-1), "delta"),
    (lambda: ds.contexts(1), "C="),
    (lambda: ds.contexts(3, 0.0), "scale"),
    (lambda: ds.contextual_statistics(np.ones((11, 24)), np.ones((60, 23)), 3), "datapoints"),
    (lambda: ds.zero_output_loss([np.inf]), "Y"),
    (lambda: graph.random_case(0, N=0), "N="),
    (lambda: race.two_pathway_case(1.5), "overlap"),
    (lambda: paper_time(10, 1e-3, 24, "days"), "clock"),
    (lambda: experiments.relu_run(configs.SEC45.ci, C=7), "C="),
    (lambda: experiments.relu_run(configs.DEPTH.ci), "cfg"),
    (lambda: xor.relu_sweep(configs.SEC45.ci), "cfg"),
    (lambda: linear.linear_run(configs.XOR), "cfg"),
    (lambda: gf.elbow_run(configs.SEC45.ci), "cfg"),
    (lambda: reln.loss_without(reln.relu([0], (11, 5, 60), 0.1), *ds.section4(),
                               np.zeros((1, 4), bool)), "drop"),
    (lambda: configs.SEC45.ci.replace(lr=-1.0), "lr"),
    (lambda: configs.SEC45.ci.replace(dtype="float16"), "dtype"),
    (lambda: configs.XOR.replace(hidden=0), "hidden"),
    (lambda: configs.FIG7.replace(std=np.inf), "std"),
    (lambda: analysis.flow_times([1.0, np.nan], 24), "epochs"),
    (lambda: analysis.flow_times([1.0], 0), "n_samples"),
    (lambda: analysis.first_time([0.0, 1.0], np.ones((3, 2)), 0.5), "times"),
    (lambda: analysis.deviation_from_mean(np.ones(5), 1.0), "loss"),
    (lambda: analysis.seed_spread(np.ones((5, 2)), 0.0), "L0"),
    (lambda: analysis.loss_distance(np.ones((5, 2)), np.ones((4, 2)), 1.0), "time grid"),
    (lambda: analysis.rdm(np.ones((3, 4))), "H"),
    (lambda: analysis.context_usage(np.ones((2, 25)), 3), "contexts"),
    (lambda: analysis.fit_a0([0.0, 1.0], [0.0, 1.0], -1.0, 1.0), "s="),
    (lambda: analysis.elbows({2: 1.0, 3: 0.5}), "at least 3"),
    (lambda: analysis.relative_error(np.ones(3), np.ones(4)), "shape"),
    (lambda: analysis.learning_rule_error(2), "sign"),
    (lambda: analysis.fixed_point_reconstruction(*ds.contexts(3), 1), "C="),
    (lambda: analysis.criterion_times(-1.0, 1e-3, None), "delta"),
    (lambda: analysis.mass_shares(np.ones(3), np.ones(4), (1,)), "shape"),
    (lambda: analysis.sigma1_increase(np.ones((2, 3)), np.ones((1, 3)), []), "keep"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()

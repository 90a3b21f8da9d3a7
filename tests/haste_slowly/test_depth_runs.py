"""The Sec 6 depth runs (MHS-S6-C1..C3, MHS-Fig6; ``numerics.haste_slowly.depth``): the released
GDLN's update rule and schedule, the record schedule, fractions and bad arguments."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from numerics.haste_slowly import depth as D

TINY = D.DepthConfig(width=14, module=2, epochs=400, released=200, start=40, switch=120, lr=4e-3,
                     seeds=(0, 1), record_every=40, shallow_width=14, shallow_std=1e-2,
                     relu_std=5e-2, gdln_std=(5e-2, 5e-2, 5e-2, 2e-1))


def _released_losses(W, X, Y, n_common, gates):
    """gdln_off.py's loss_gated_common and loss_gated_context (common prediction held fixed)."""
    h2 = W[1] @ (W[0] @ X)
    common = W[2][:, :n_common] @ h2[:n_common]
    context = W[2][:, n_common:] @ (h2[n_common:] * gates[n_common:])
    return 0.5 * ((common - Y) ** 2).sum(), 0.5 * ((context - (Y - common.detach())) ** 2).sum()


@pytest.mark.parametrize("contextual", [False, True])
def test_split_gradient_is_the_released_update(contextual):
    net = D.depth_net("gdln", TINY)
    X, Y = (torch.tensor(a) for a in D.task())
    n = int(net.common.sum())
    _, grads = D.split_grads(net, X, Y, contextual)
    W = [w[0].clone().requires_grad_(True) for w in net.weights]
    common, context = _released_losses(W, X, Y, n, net.gates[1])
    want = torch.autograd.grad(common + context if contextual else common, W)
    for g, w in zip(grads, want):
        assert torch.allclose(g[0], w, rtol=1e-10, atol=1e-14)


def test_schedule_freezes_then_trains_the_common_pathway_alone():
    X, Y = D.task()
    net = D.depth_net("gdln", TINY)
    start = [w.clone() for w in net.weights]
    frozen = TINY.steps(TINY.start)
    D.train_scheduled(net, X, Y, lr=TINY.lr, steps=frozen, start=frozen,
                      switch=TINY.steps(TINY.switch), record_every=5)
    assert all(torch.equal(a, b) for a, b in zip(start, net.weights))
    n = int(net.common.sum())
    D.train_scheduled(net, X, Y, lr=TINY.lr, steps=TINY.steps(TINY.switch), start=0,
                      switch=TINY.steps(TINY.switch), record_every=5)
    assert torch.equal(net.weights[2][:, :, n:], start[2][:, :, n:])      # contextual outputs wait
    assert torch.equal(net.weights[1][:, n:], start[1][:, n:])
    assert not torch.equal(net.weights[2][:, :, :n], start[2][:, :, :n])


def test_released_gdln_layout():
    net = D.depth_net("gdln", D.DEPTH_FULL)
    assert [tuple(w.shape[1:]) for w in net.weights] == [(420, 11), (420, 420), (60, 420)]
    assert int(net.common.sum()) == 240 and net.weights[0].dtype == torch.float32
    gates = net.gates[1].numpy()
    assert gates[:240].all() and gates[240:].sum(1).tolist() == [16.0] * 180
    out = net.weights[2][0].double()
    assert out[:, :240].std() < 1e-3 < out[:, 240:].std()          # 5.5e-4 vs 4e-3


def test_a_run_crosses_the_released_horizon_without_a_seam():
    """Training in two segments (to snapshot at the released epoch) equals one run."""
    whole = D.depth_run("gdln", replace(TINY, released=10 ** 6))
    split = D.depth_run("gdln", TINY)
    assert np.allclose(whole.hist.loss[-1], split.hist.loss[-1], rtol=1e-12)
    assert split.hist.records["released_g2"].shape == (1, 2, 14, 24)
    assert split.hist.records["ctx"].shape == split.hist.loss.shape
    ep = TINY.epochs_of(split.hist.steps)
    assert ep[0] == 0 and np.isclose(ep[-1], TINY.epochs) and np.all(np.diff(ep) > 0)


def test_parts_of_the_loss_add_up():
    run = D.depth_run("relu", TINY)
    rec = run.hist.records
    assert np.allclose(rec["lin"] + rec["ctx"], run.hist.loss, rtol=1e-10)
    assert np.all((rec["align_lin"] <= 1 + 1e-12) & (rec["align_ctx"] <= 1 + 1e-12))


def test_a_fraction_trains_that_share_of_the_horizon():
    run = D.depth_runs(TINY, fraction=0.5, kinds=("shallow",))["shallow"]
    assert np.isclose(TINY.epochs_of(run.hist.steps)[-1], 200)
    assert run.hist.records["g1"].shape == (1, 2, 14, 24)


def test_full_config_runs_its_code_path():
    """A few steps of the paper-scale networks (2 seeds): the path the ``full`` tests take."""
    cfg = replace(D.DEPTH_FULL, seeds=(0, 1), epochs=3, record_every=1, start=1, switch=2,
                  released=2, dtype="float64")
    runs = D.depth_runs(cfg)
    assert all(r.hist.loss.shape == (4, 2) for r in runs.values())
    assert all(np.all(np.isfinite(r.hist.loss)) for r in runs.values())


@pytest.mark.parametrize("call, match", [
    (lambda: D.depth_runs(TINY, fraction=0.0), "fraction"),
    (lambda: D.depth_runs(TINY, fraction=1.5), "fraction"),
    (lambda: D.depth_net("wide", TINY), "kind"),
    (lambda: D.train_scheduled(D.depth_net("gdln", TINY), *D.task(), lr=1e-3, steps=2, start=3,
                               switch=1, record_every=1), "start"),
])
def test_bad_arguments_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_full_scale_cli_rejects_a_fraction_outside_the_unit_interval(capsys):
    from numerics import full_scale
    with pytest.raises(SystemExit):
        full_scale.main(["--fraction", "0", "--out", "/dev/null"])
    assert "fraction" in capsys.readouterr().err

"""The Sec 6 depth runs (MHS-S6-C1..C3, MHS-Fig6; ``numerics.haste_slowly.depth``): the released
init, the released GDLN's update rule and schedule, the record schedule, and bad arguments."""
import numpy as np
import pytest
import torch

from numerics.haste_slowly import analysis as A
from numerics.haste_slowly import configs
from numerics.haste_slowly import depth as D
from verify.haste_slowly import settings

TINY = configs.Depth(scale="ci", width=14, module=2, epochs=400, start=40, switch=120, lr=4e-3,
                     seeds=(100, 101), record_epochs=40, shallow_width=14, shallow_std=1e-2,
                     shallow_epochs=200, relu_std=5e-2, gdln_std=(5e-2, 5e-2, 5e-2, 2e-1),
                     dtype="float64")


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


def test_the_init_is_the_released_draw_of_the_run_index():
    """relu.py and gdln_off.py: np.random.seed(run index), then the layers (blocks) in order."""
    cfg = configs.DEPTH.full.replace(seeds=(3,), dtype="float64")
    rng = np.random.RandomState(3)
    relu = [rng.normal(0.0, 6e-4, shape) for shape in ((420, 11), (420, 420), (60, 420))]
    assert all(np.array_equal(w[0].numpy(), r) for w, r in zip(D.depth_net("relu", cfg).weights,
                                                               relu))
    rng = np.random.RandomState(3)
    layer1 = np.vstack([rng.normal(0.0, 5.75e-4, (60, 11)) for _ in range(7)])
    first_block = rng.normal(0.0, 5.5e-4, (60, 60))
    gdln = D.depth_net("gdln", cfg).weights
    assert np.array_equal(gdln[0][0].numpy(), layer1)
    assert np.array_equal(gdln[1][0, :60, :60].numpy(), first_block)


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
    net = D.depth_net("gdln", configs.DEPTH.full)
    assert [tuple(w.shape[1:]) for w in net.weights] == [(420, 11), (420, 420), (60, 420)]
    assert int(net.common.sum()) == 240 and net.weights[0].dtype == torch.float32
    gates = net.gates[1].numpy()
    assert gates[:240].all() and gates[240:].sum(1).tolist() == [16.0] * 180
    out = net.weights[2][0].double()
    assert out[:, :240].std() < 1e-3 < out[:, 240:].std()          # 5.5e-4 vs 4e-3


def test_a_run_records_in_epochs_and_its_loss_splits_into_its_parts():
    run = D.depth_run("relu", TINY)
    t = run.trajectory
    assert t.clock == "epochs" and t.time[0] == 0 and np.isclose(t.time[-1], TINY.epochs)
    assert np.allclose(t.records["lin"] + t.records["ctx"], t.loss, rtol=1e-10)
    assert np.all((t.records["align_lin"] <= 1 + 1e-12) & (t.records["align_ctx"] <= 1 + 1e-12))
    assert run.final["g1"].shape == (2, 14, 24) and run.ran["steps"] == TINY.steps(TINY.epochs)
    # layer 1's gating over training (MHS-S6-C1): its last record is the final gates' share
    units, mass = A.always_on_shares(run.final["g1"], run.final["m1"])
    assert np.allclose(t.records["on1"][-1], units) and np.allclose(t.records["on1_mass"][-1], mass)
    shallow = D.depth_run("shallow", TINY)
    assert np.isclose(shallow.trajectory.time[-1], TINY.shallow_epochs)


@pytest.mark.parametrize("kind", D.KINDS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_seed_blocks_give_the_batched_program_bit_for_bit(kind, dtype):
    """numerics.haste_slowly.depth.seed_blocks: one seed a program on a CPU, the same training as
    all seeds side by side, bit for bit (the paper-scale depth runs train this way; their stored
    runs and records must not depend on it).  The alignment records take the top singular vectors
    of each output, which LAPACK's batched path rounds differently from its one-matrix path: the
    same within an ulp."""
    cfg = TINY.replace(seeds=(100, 101, 102), dtype=dtype)
    blocked, batched = D.depth_run(kind, cfg), D.depth_run(kind, cfg, blocks=False)
    assert len(D.seed_blocks(cfg, "cpu")) == 3 and D.seed_blocks(cfg, "cuda") == [cfg]
    a, b = blocked.trajectory, batched.trajectory
    assert np.array_equal(a.loss, b.loss) and np.array_equal(a.time, b.time)
    exact = [k for k in b.records if not k.startswith("align")]
    assert all(np.array_equal(a.records[k], b.records[k]) for k in exact)
    ulp = np.finfo(dtype).eps
    assert all(np.allclose(a.records[k], b.records[k], rtol=0, atol=2 * ulp) for k in b.records)
    assert all(np.array_equal(blocked.final[k], batched.final[k]) for k in batched.final)
    assert blocked.ran == batched.ran


def test_only_the_released_recipe_is_faithful():
    """The paper-scale setup reports no deviation (a few epochs of it, with the GDLN's schedule
    shortened to fit: only those deviate)."""
    short = configs.DEPTH.full.replace(seeds=(1, 2), epochs=3, shallow_epochs=3, record_epochs=1,
                                       start=1, switch=2)
    for kind in D.KINDS:
        run = D.depth_run(kind, short)
        schedule = {"schedule (epochs): frozen until, common pathway alone until"} if kind == "gdln" \
            else set()
        assert {d.setting for d in settings.depth(run).deviations} == \
            {"horizon (epochs)", "steps"} | schedule
        assert np.all(np.isfinite(run.trajectory.loss))
    assert not settings.depth(D.depth_run("relu", TINY)).faithful


@pytest.mark.parametrize("call, match", [
    (lambda: D.depth_net("wide", TINY), "kind"),
    (lambda: D.depth_run("wide", TINY), "kind"),
    (lambda: D.depth_net("relu", object()), "cfg"),
    (lambda: D.train_scheduled(D.depth_net("gdln", TINY), *D.task(), lr=1e-3, steps=2, start=3,
                               switch=1, record_every=1), "start"),
    (lambda: D.train_scheduled(D.depth_net("gdln", TINY), *D.task(), lr=-1e-3, steps=2, start=0,
                               switch=1, record_every=1), "lr"),
    (lambda: D.train_scheduled(D.depth_net("gdln", TINY), *D.task(), lr=1e-3, steps=0, start=0,
                               switch=1, record_every=1), "steps"),
    (lambda: TINY.replace(start=500, switch=100), "start"),
    (lambda: TINY.replace(seeds=(-1,)), "seeds"),
    (lambda: TINY.replace(width=0), "width"),
])
def test_bad_arguments_raise(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()

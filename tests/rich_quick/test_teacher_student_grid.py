"""The batched Fig. 1 teacher-student trainer (rich_quick GRQ-Fig1, App D.1): its draws are the
released code's (torch's generator, the authors' order), its hand-written GD step is autograd's,
its K0 shortcut is the NTK at initialisation, float32 training stays within the stated tolerance
of float64, and the runners report what they ran and read stored runs back without computing."""
import numpy as np
import pytest
import torch

from numerics.rich_quick import configs as C
from numerics.rich_quick import single_neuron_teacher_student as ts
from theory.rich_quick.conventions_rich_quick import EXPERIMENT_LOSS

TASKS = [ts.make_task(s, d=5, h=8, k=2, n=30, n_test=40) for s in (3, 4)]
TAUS, DELTAS = np.array([0.3, 1.5, 0.7]), np.array([0.8, -0.4, 0.0])
LR = np.array([2e-2, 5e-3, 1e-2])


def released_draws(teacher_seed, student_seed, d, h, k, n):
    """The authors' TeacherNetwork / StudentNetwork construction (two-layer-relu/utils.py) with
    torch's global generator, as plot_fig1a.ipynb runs it."""
    torch.manual_seed(teacher_seed)
    torch.nn.Linear(d, k, bias=False), torch.nn.Linear(k, 1, bias=False)
    tw = torch.randn(k, d)
    tw = tw / torch.norm(tw, dim=1, keepdim=True)
    ta = torch.sign(torch.randn(k))
    torch.manual_seed(student_seed)
    torch.nn.Linear(d, h, bias=False), torch.nn.Linear(h, 1, bias=False)
    w = torch.randn(h // 2, d)
    w = w / torch.norm(w, dim=1, keepdim=True)
    a = torch.sign(torch.randn(h // 2))
    X = torch.randn(n, d)
    return tw, ta, w, a, X / torch.norm(X, dim=1, keepdim=True)


def test_tasks_are_the_released_codes_draws():
    """plot_fig1a.ipynb: teacher seed 15 (its printed a = [-1, -1, 1]), student seed 100; the
    notebook prints 'input mean: 0.08544959127902985, label mean: -0.4403972625732422'."""
    with torch.random.fork_rng():
        tw, ta, w, a, X = released_draws(15, 100, 2, 50, 3, 20)
    task = ts.make_task(100, d=2, h=50, k=3, n=20, n_test=1, teacher_seed=15)
    assert np.array_equal(task.teacher_a, [-1.0, -1.0, 1.0]) and np.allclose(task.teacher_w, tw)
    assert np.allclose(task.base_w[:25], w) and np.allclose(task.base_w[25:], w)
    assert np.array_equal(task.base_a, np.concatenate([a, -a])) and np.allclose(task.X, X)
    assert task.X.mean() == pytest.approx(0.08544959127902985, abs=1e-7)
    assert task.y.mean() == pytest.approx(-0.4403972625732422, abs=1e-7)


def autograd_gd(task, tau, delta, lr, steps):
    al = ts.geometry_alpha(tau, delta)
    W = torch.tensor(task.base_w * tau / al, requires_grad=True)
    a = torch.tensor(task.base_a * tau * al, requires_grad=True)
    X, y = torch.tensor(task.X), torch.tensor(task.y)
    for _ in range(steps):
        loss = EXPERIMENT_LOSS.factor(len(y)) * ((torch.relu(X @ W.T) @ a - y) ** 2).sum()
        gW, ga = torch.autograd.grad(loss, (W, a))
        with torch.no_grad():
            W -= lr * gW
            a -= lr * ga
    return W.detach().numpy(), a.detach().numpy()


def test_batched_grid_steps_are_autograd_gd_per_member():
    run = ts.train(TASKS, TAUS, DELTAS, lr=LR, steps=25, record_steps=[], progress=False)
    for k, (task, g) in enumerate((t, g) for t in TASKS for g in range(len(TAUS))):
        W, a = autograd_gd(task, TAUS[g], DELTAS[g], LR[g], 25)
        # float64 roundoff over 25 steps of O(1) weights
        assert np.allclose(run.W[k], W, atol=1e-12) and np.allclose(run.a[k], a, atol=1e-12)


def test_kernel_distance_uses_the_initial_ntk():
    run = ts.train(TASKS, TAUS, DELTAS, lr=LR, steps=40, record_steps=[], progress=False)
    S = run.trajectory.records["S"]
    for k, (task, g) in enumerate((t, g) for t in TASKS for g in range(len(TAUS))):
        al = ts.geometry_alpha(TAUS[g], DELTAS[g])
        X = torch.tensor(task.X)
        K0 = ts.ntk(X, torch.tensor(task.base_w * TAUS[g] / al)[None],
                    torch.tensor(task.base_a * TAUS[g] * al)[None])[0]
        Kt = ts.ntk(X, torch.tensor(run.W[k])[None], torch.tensor(run.a[k])[None])[0]
        assert S[0, k] == pytest.approx(0, abs=1e-12)
        assert S[-1, k] == pytest.approx(1 - float((K0 * Kt).sum() / (K0.norm() * Kt.norm())),
                                         rel=1e-9, abs=1e-14)


SMALL = C.FIG1B.ci.replace(d=10, n=100, n_test=1000, cells=((0.1, 0.0), (0.45, 0.0), (2.0, 0.0)),
                           steps=1000, marks=(10,))


def test_float32_training_tolerance_on_a_small_fig1b_grid():
    """float32 is only an option for quick looks (the paper-scale runs train in float64, as the
    released code does).  Its tolerance, measured on a small grid over the whole run: S(0,t)
    moves by at most 2e-3 (a rounding flips the side of a ReLU kink for some data point, so S is
    not rounding-exact) and the test MSE by at most 1e-3 relative."""
    r64, r32 = ts.fig1b(SMALL), ts.fig1b(SMALL.replace(dtype="float32"))
    T64, T32 = r64.trajectory.records, r32.trajectory.records
    assert np.allclose(T32["S"], T64["S"], rtol=0, atol=2e-3)
    assert np.allclose(T32["test"], T64["test"], rtol=1e-3)


def test_runners_report_what_ran_and_read_back_without_computing(tmp_path):
    cfg = C.FIG1A.ci.replace(seeds=(0,), steps=40, records=4)
    run = ts.fig1a(cfg, out_dir=tmp_path)
    assert run.trajectory.records["W"].shape == (5, 4, 50, 2) and list(run.trajectory.steps) == [
        0, 10, 20, 30, 40]
    assert run.ran["n"] == 20 and run.ran["steps"] == 40 and run.ran["student and data seeds"] == (0,)
    again = ts.fig1a(cfg, out_dir=tmp_path, compute=False)
    assert np.array_equal(again.trajectory.records["W"], run.trajectory.records["W"])
    with pytest.raises(FileNotFoundError, match="not stored"):
        ts.fig1a(cfg.replace(seeds=(1,)), out_dir=tmp_path / "empty", compute=False)


def test_the_paper_scale_configurations_are_the_released_ones():
    """run_grid.py / plot_fig1b.ipynb: seeds 100-115, 1e5 steps at 5e-3/tau^2, checkpoints 0, 10,
    ..., 1e5, float64, the cells on the released grid; plot_fig1a.ipynb: seeds 15 and 100."""
    b, a = C.FIG1B.full, C.FIG1A.full
    assert b.seeds == tuple(range(100, 116)) and b.steps == 100_000 and b.dtype == "float64"
    assert list(ts.fig1b_steps(b.chunk_config())) == [0, 10, 100, 1000, 10_000, 100_000]
    grid = {(t, d) for t in np.logspace(-1, 0.3, 17) for d in np.linspace(-1, 1, 17)}
    assert set(b.cells) <= grid
    assert a.teacher_seed == 15 and a.seeds == (100,) and a.lr == 1e-4 and a.steps == 1_000_000
    assert ts.fig1b_cost(ts.FIG1B_FULL).endswith("= 9.25e+15 FLOP (float64)")


@pytest.mark.parametrize("kwargs, match", [
    (dict(steps=0), "steps"), (dict(record_steps=[5000]), "record_steps"),
    (dict(dtype=torch.int64), "dtype"), (dict(deltas=DELTAS[:2]), "deltas"),
])
def test_bad_arguments_raise(kwargs, match):
    args = dict(lr=LR, steps=10, record_steps=[], progress=False)
    args.update(kwargs)
    deltas = args.pop("deltas", DELTAS)
    with pytest.raises((ValueError, TypeError), match=match):
        ts.train(TASKS, TAUS, deltas, **args)


@pytest.mark.parametrize("kwargs, match", [
    (dict(seed=-1), "seed"), (dict(d=0), "d="), (dict(h=7), "even"), (dict(n=2.5), "n="),
    (dict(teacher_seed=1.5), "teacher_seed"),
])
def test_bad_task_arguments_raise(kwargs, match):
    args = dict(seed=0, d=2, h=4, k=1, n=3, n_test=2)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        ts.make_task(**args)


def test_fraction_outside_unit_interval_raises():
    with pytest.raises(ValueError, match="fraction"):
        ts.fig1b_sweep(ts.FIG1B_FULL, fraction=0.0)

"""Batched teacher-student training of two-layer bias-free ReLU networks (rich_quick Fig. 1,
App D.1): ``f(x) = sum_i a_i relu(w_i^T x)``, a whole (seed x (tau, delta)) grid in one program.

Data and initialisation are drawn as the authors' released code draws them (allanraventos/
getrichquick two-layer-relu, torch's generator; :func:`make_task`): teacher ``w ~ Unif(S^{d-1})``,
``a = +-1``; a symmetrised balanced base student (the second half copies ``w`` and flips ``a``,
so ``f = 0``), then ``w_i -> w_i tau/alpha`` and ``a_i -> a_i tau alpha`` with
``alpha^2 = (delta/tau^2 + sqrt(delta^2/tau^4 + 4))/2`` so that every neuron has
``a_i^2 - ||w_i||^2 = delta``.  Training: full-batch GD with one learning rate per grid point on
``theory.rich_quick.conventions_rich_quick.EXPERIMENT_LOSS`` (the plain mean, as released).
Time is counted in GD steps, the paper's clock for Fig. 1 (D.1: "1 million steps"; the Fig. 1(b)
panels are titled by step).

Why it is fast: a seed's grid points share their inputs (D.1 reuses the seed's data over the whole
grid), so the G students of one seed are one wide network of G*h neurons and a step is two GEMMs
per seed, batched over seeds; gradients are written out (no autograd) with the learning rate folded
into the residual, and both come from one product ``(relu' * r)^T X`` (in place, few passes over
the (n, G h) activations, which bound the CPU step); diagnostics (losses, the kernel distance) are
computed only at the record steps and always in float64.  The training loop may run in float32
(``dtype``) for a quick look at a large grid (the paper-scale runs train in float64, as the
released code does): it moves S(0, t) by at most 2e-3 and the test MSE by 1e-3 relative
(tests/rich_quick/test_teacher_student_grid.py).  Runs on ``numerics.models.default_device()``.

The runners :func:`fig1a` and :func:`fig1b` take a ``numerics.rich_quick.configs`` record and
return a typed result with its :class:`numerics.trajectory.Trajectory` and the
:class:`numerics.ran.Ran` of what ran; both go through ``numerics.sweep`` so that a paper-scale
run is written chunk by chunk to a folder, resumes there, and is read back (never rerun) later.
"""
from __future__ import annotations

import concurrent.futures as cf
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm.auto import tqdm

from numerics.models import default_device, torch_threads
from numerics.ran import Ran
from numerics.rich_quick import configs as C
from numerics.train import descend
from numerics.trajectory import Trajectory
from numerics.validation import InvalidArgument, finite_array, integer, number, positive, seed_list
from theory.rich_quick.conventions_rich_quick import EXPERIMENT_LOSS

F64 = torch.float64


def geometry_alpha(tau, delta):
    """alpha with ``tau^2 (alpha^2 - alpha^-2) = delta`` (Fig. 1 caption)."""
    tau = positive(tau, "tau")
    delta = finite_array(delta, "delta")
    return np.sqrt((delta / tau ** 2 + np.sqrt(delta ** 2 / tau ** 4 + 4)) / 2)


#: the torch seed of the held-out test inputs in the released code (``test_one_hidden_layer_relu``
#: of allanraventos/getrichquick two-layer-relu/utils.py, called with ``test_seed=201``)
RELEASED_TEST_SEED = 201


@dataclass
class Task:
    """One seed's teacher, training inputs, test inputs and base student (D.1)."""

    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    teacher_w: np.ndarray
    teacher_a: np.ndarray
    base_w: np.ndarray
    base_a: np.ndarray


def relu_net(X, W, a):
    """``f(X) = relu(X W^T) a``: X (n, d), W (h, d), a (h,)."""
    X, W, a = finite_array(X, "X", ndim=2), finite_array(W, "W", ndim=2), finite_array(a, "a", ndim=1)
    if W.shape[1] != X.shape[1]:
        raise InvalidArgument(f"W {W.shape} must be (h, {X.shape[1]}): X has {X.shape[1]} columns")
    if a.shape != (W.shape[0],):
        raise InvalidArgument(f"a {a.shape} must be ({W.shape[0]},): one readout per neuron of W")
    return np.maximum(X @ W.T, 0) @ a


def _size(value, name: str, *, even: bool = False) -> int:
    if isinstance(value, bool) or int(value) != value or value < 1:
        raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    if even and value % 2:
        raise InvalidArgument(f"{name}={value} must be even for the symmetrised initialisation")
    return int(value)


def _seed(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise InvalidArgument(f"{name}={value!r} must be a non-negative integer")
    return int(value)


def _linear_init(gen, fan_in: int, fan_out: int):
    """What ``torch.nn.Linear(fan_in, fan_out, bias=False)`` draws at construction (its
    ``kaiming_uniform_`` weight): the released networks build their layers first and overwrite
    them, so the draw only advances the generator."""
    torch.empty(fan_out, fan_in).uniform_(generator=gen)


def _sphere(gen, n: int, d: int) -> torch.Tensor:
    x = torch.randn(n, d, generator=gen)
    return x / torch.norm(x, dim=1, keepdim=True)


def _teacher(gen, d: int, k: int):
    """``TeacherNetwork(d, k)`` of the released utils.py: w ~ Unif(S^{d-1}), a = sign(N(0, 1))."""
    _linear_init(gen, d, k)
    _linear_init(gen, k, 1)
    return _sphere(gen, k, d), torch.sign(torch.randn(k, generator=gen))


def _student_base(gen, d: int, h: int):
    """``StudentNetwork(d, h, symmetrize=True)`` at scale 1, alpha 1: unit rows and a = +-1 for
    the first half, copied with flipped a in the second (f = 0 at init, D.1)."""
    _linear_init(gen, d, h)
    _linear_init(gen, h, 1)
    w = _sphere(gen, h // 2, d)
    a = torch.sign(torch.randn(h // 2, generator=gen))
    return torch.cat([w, w]), torch.cat([a, -a])


def _labels(X, w, a) -> np.ndarray:
    """The teacher's outputs as the released code computes them (float32), then float64."""
    return np.float64((torch.relu(X @ w.T) @ a).numpy())


def make_task(seed: int, d: int, h: int, k: int, n: int, n_test: int, *,
              teacher_seed: int | None = None, test_seed: int = RELEASED_TEST_SEED) -> Task:
    """One seed's task drawn as the authors' released code draws it (allanraventos/getrichquick
    two-layer-relu), with torch's generator:

    * ``teacher_seed`` None (``run_grid.py``, Fig. 1(b)): ``seed`` draws the teacher, then the
      base student, then the ``n`` training inputs;
    * ``teacher_seed`` given (``plot_fig1a.ipynb``, Fig. 1(a): teacher seed 15, student seed
      100): ``teacher_seed`` draws the teacher, ``seed`` the base student and the inputs.

    Inputs are uniform on the sphere S^{d-1}, labels the teacher's outputs in float32 (as
    released); the ``n_test`` test inputs come from ``test_seed`` (released: 201, shared by
    every seed).  Everything is returned in float64."""
    seed = _seed(seed, "seed")
    d, h, k = _size(d, "d"), _size(h, "h", even=True), _size(k, "k")
    n, n_test = _size(n, "n"), _size(n_test, "n_test")
    test_seed = _seed(test_seed, "test_seed")
    gen = torch.Generator().manual_seed(seed if teacher_seed is None
                                        else _seed(teacher_seed, "teacher_seed"))
    tw, ta = _teacher(gen, d, k)
    if teacher_seed is not None:
        gen = torch.Generator().manual_seed(seed)
    bw, ba = _student_base(gen, d, h)
    X = _sphere(gen, n, d)
    X_test = _sphere(torch.Generator().manual_seed(test_seed), n_test, d)
    def f64(t):
        return np.float64(t.numpy())
    return Task(f64(X), _labels(X, tw, ta), f64(X_test), _labels(X_test, tw, ta), f64(tw), f64(ta),
                f64(bw), f64(ba))


@dataclass
class GridRun:
    """What :func:`train` recorded: the :class:`Trajectory` (time in GD steps; ``loss`` the
    training loss (T, K) of the K = seeds x grid members, seed-major; records ``test`` (the test
    MSE) and ``S`` (the kernel distance S(0, t)), and with ``keep_weights`` also ``W`` (T, K, h, d)
    and ``a`` (T, K, h)), the final weights, and ``seconds``: wall time of the GD loop and of the
    records."""

    trajectory: Trajectory
    W: np.ndarray = field(repr=False)     # final (K, h, d)
    a: np.ndarray = field(repr=False)     # final (K, h)
    seconds: dict = field(default_factory=dict)


def ntk(X, W, a):
    """Unweighted NTK (single learning rate) ``H H^T + (X X^T) * (D diag(a^2) D^T)``, batched:
    X (n, d), W (K, h, d), a (K, h) -> (K, n, n)."""
    if X.ndim != 2 or W.ndim != 3 or a.ndim != 2 or W.shape[2] != X.shape[1] \
            or tuple(a.shape) != tuple(W.shape[:2]):
        raise InvalidArgument(f"X {tuple(X.shape)}, W {tuple(W.shape)} and a {tuple(a.shape)} must be "
                              "(n, d), (K, h, d), (K, h)")
    pre = torch.einsum("nd,khd->knh", X, W)
    H, D = pre.clamp_min(0), (pre > 0).to(X.dtype)
    return H @ H.transpose(1, 2) + (X @ X.T)[None] * ((D * a[:, None, :] ** 2) @ D.transpose(1, 2))


def train(tasks, taus, deltas, *, lr, steps: int, record_steps, keep_weights=False,
          dtype=F64, progress=None, checkpoint=None) -> GridRun:
    """Train every (task, (tau, delta)) student: ``tasks`` one per seed, ``taus``, ``deltas``,
    ``lr`` arrays (G,) of the grid shared by all seeds; members are ordered seed-major.
    ``record_steps``: the steps (0 and ``steps`` included automatically) at which losses, the
    kernel distance S(0, t) and (with ``keep_weights``) the weights are recorded; a
    FloatingPointError when the training loss turns non-finite (lr too large).  ``checkpoint``: a
    :class:`numerics.sweep.Checkpoint`; the weights, the step and the records so far are saved
    whenever it is due, and a run starts from the state it holds (bit-identical to a run never
    interrupted)."""
    if not tasks:
        raise InvalidArgument("tasks must be a non-empty list of Task (one per seed)")
    if len({(t.X.shape, t.base_w.shape, t.X_test.shape) for t in tasks}) > 1:
        raise InvalidArgument("tasks must share their sizes (d, h, n, n_test): one batched program")
    taus, deltas = positive(taus, "taus"), finite_array(deltas, "deltas")
    if taus.ndim != 1 or deltas.shape != taus.shape:
        raise InvalidArgument(f"taus {taus.shape} and deltas {deltas.shape} must be equal 1-d grids")
    lr = positive(np.broadcast_to(lr, taus.shape), "lr")
    if int(steps) != steps or steps < 1:
        raise InvalidArgument(f"steps={steps!r} must be a positive integer")
    marks = np.union1d(np.asarray(record_steps, dtype=int), [0, steps])
    if marks.min() < 0 or marks.max() > steps:
        raise InvalidArgument(f"record_steps must lie in [0, steps={steps}]")
    if dtype not in (torch.float32, F64):
        raise InvalidArgument(f"dtype={dtype} must be torch.float32 or torch.float64")
    small = (default_device().type == "cpu"
             and tasks[0].X.shape[0] * len(taus) * tasks[0].base_w.shape[0] < 1e6)
    with torch_threads(1 if small else None):  # small batched tensors: threading overhead dominates
        return _train(tasks, taus, deltas, lr, int(steps), marks, keep_weights, dtype, progress,
                      checkpoint)


class _Diagnostics:
    """Losses and S(0, t) of every member in float64, one seed and a block of grid points at a
    time (bounds the memory of the (G, n, n) kernels and of the test predictions).

    K0 is not stored per member: scaling a base student by ``w -> s_w w``, ``a -> s_a a``
    (``s_w > 0`` keeps the activation pattern D) gives ``K0 = s_w^2 A + s_a^2 B`` with the seed's
    ``A = H H^T`` and ``B = (X X^T) * (D diag(a^2) D^T)`` of the base student (``ntk``'s two terms)."""

    BLOCK = 24

    def __init__(self, tasks, s_w, s_a, dev):
        def T(v):
            return torch.as_tensor(v, dtype=F64, device=dev)
        self.X = [T(t.X) for t in tasks]
        self.y = [T(t.y) for t in tasks]
        self.Xt = [T(t.X_test) for t in tasks]
        self.yt = [T(t.y_test) for t in tasks]
        self.c = T(s_w ** 2), T(s_a ** 2)                                  # (G,) each
        self.AB = []
        for X, t in zip(self.X, tasks):
            A = ntk(X, T(t.base_w)[None], torch.zeros(1, len(t.base_a), dtype=F64, device=dev))[0]
            self.AB.append((A, ntk(X, T(t.base_w)[None], T(t.base_a)[None])[0] - A))
        self.AB_flat = [torch.stack([A.flatten(), B.flatten()], 1) for A, B in self.AB]
        self.factor = EXPERIMENT_LOSS.factor(tasks[0].X.shape[0])

    def __call__(self, W, a):
        W, a = W.to(F64), a.to(F64)
        train_l, test_l, S = [], [], []
        c1, c2 = self.c
        for s, (A, B) in enumerate(self.AB):
            train_l.append(self.factor * ((_predict(self.X[s], W[s], a[s]) - self.y[s][:, None]) ** 2).sum(0))
            test_l.append(((_predict(self.Xt[s], W[s], a[s]) - self.yt[s][:, None]) ** 2).mean(0))
            norm0 = (c1 ** 2 * (A * A).sum() + 2 * c1 * c2 * (A * B).sum() + c2 ** 2 * (B * B).sum()).sqrt()
            for g in range(0, W.shape[1], self.BLOCK):
                blk = slice(g, g + self.BLOCK)
                Kt = ntk(self.X[s], W[s, blk], a[s, blk]).flatten(1)
                AB = Kt @ self.AB_flat[s]                 # <A, K_t>, <B, K_t>: one pass over K_t
                inner = c1[blk] * AB[:, 0] + c2[blk] * AB[:, 1]
                S.append(1 - inner / (norm0[blk] * Kt.norm(dim=1)))
        return [torch.cat(v).cpu().numpy() for v in (train_l, test_l, S)]


def _predict(X, W, a):
    """X (n, d), W (G, h, d), a (G, h) -> (n, G)."""
    return torch.einsum("gnh,gh->ng", torch.einsum("nd,ghd->gnh", X, W).clamp_min(0), a)


#: GD steps between two looks at the checkpoint's clock: each look ends a ``descend`` segment,
#: whose two loss evaluations cost about one step, so a look every 128 steps costs under 1%
CHECK_EVERY = 128


def _outputs(X, W, a, shape):
    """The hidden activations H (S, n, G h) and outputs f (S, n, G) of the seeds' students side
    by side; ``shape`` = (S, G, n, h)."""
    S_, G, n, h = shape
    H = torch.bmm(X, W.transpose(1, 2)).clamp_min_(0)                     # (S, n, G h)
    # one (n x h) @ (h x 1) product per student, not a broadcast of a over samples (that
    # expanded a to H's size and ran n G products of 1 x h x 1): same sums
    f = torch.bmm(H.view(S_, n, G, h).transpose(1, 2).reshape(S_ * G, n, h),
                  a.view(S_ * G, h, 1)).view(S_, G, n).transpose(1, 2)    # (S, n, G)
    return H, f


def _train(tasks, taus, deltas, lr, steps, marks, keep_weights, dtype, progress, checkpoint=None):
    S_, G = len(tasks), len(taus)
    h, d = tasks[0].base_w.shape
    n = tasks[0].X.shape[0]
    shape = (S_, G, n, h)
    dev = default_device()
    alpha = geometry_alpha(taus, deltas)
    def T(v):
        return torch.as_tensor(np.asarray(v), dtype=dtype, device=dev)
    W = T(np.stack([t.base_w for t in tasks])[:, None] * (taus / alpha)[None, :, None, None])   # (S, G, h, d)
    a = T(np.stack([t.base_a for t in tasks])[:, None] * (taus * alpha)[None, :, None])        # (S, G, h)
    diag = _Diagnostics(tasks, taus / alpha, taus * alpha, dev)
    X, y = T(np.stack([t.X for t in tasks])), T(np.stack([t.y for t in tasks]))                # (S, n, d), (S, n)
    net = [W.reshape(S_, G * h, d), a]     # the seed's students side by side: one wide network
    factor = EXPERIMENT_LOSS.factor(n)
    step_r = T(2 * factor * lr)            # dL/df with the learning rate folded in, per grid point
    records = {k: [] for k in ("train", "test", "S", "W", "a")}
    seconds = {"loop": 0.0, "records": 0.0}

    def step(X, y, _lr, _loss):
        """One GD step of every student, in place (``descend``'s step)."""
        W, a = net
        H, f = _outputs(X, W, a, shape)
        r = (f - y[:, :, None]) * step_r                                     # lr * dL/df
        # relu'(pre) * r in place of H; then P = (relu' r)^T X gives both gradients:
        # lr dL/dW = a P and lr dL/da = <w, P> (since relu(pre) = relu'(pre) w.x)
        P = torch.bmm(H.sign_().view(S_, n, G, h).mul_(r[..., None]).view(S_, n, G * h)
                      .transpose(1, 2), X)                                   # (S, G h, d)
        grad_a = (W * P).sum(-1).view(S_, G, h)
        W -= a.view(S_, G * h, 1) * P
        a -= grad_a

    def losses(X, y, loss):
        """Every student's training loss (``descend``'s look for divergence)."""
        return loss.factor(n) * ((_outputs(X, *net, shape)[1] - y[:, :, None]) ** 2).sum(1).flatten()

    def snapshot():
        t0 = time.perf_counter()
        W, a = net
        for k, v in zip(("train", "test", "S"), diag(W.reshape(S_, G, h, d), a)):
            records[k].append(v)
        if not np.all(np.isfinite(records["train"][-1])):
            raise FloatingPointError(f"lr up to {lr.max():g}: the training loss is non-finite "
                                     f"by step {done} (take a smaller step)")
        if keep_weights:
            records["W"].append(W.reshape(S_ * G, h, d).to(F64, copy=True).cpu().numpy())
            records["a"].append(a.reshape(S_ * G, h).to(F64, copy=True).cpu().numpy())
        seconds["records"] += time.perf_counter() - t0

    def save(step):
        kept = [k for k in records if records[k]]
        checkpoint.save({"done": np.array(step), "W": net[0].cpu().numpy(), "a": net[1].cpu().numpy(),
                         **{f"r.{k}": np.stack(records[k]) for k in kept}})

    show = steps * S_ * G * n * h * d >= 1e10 if progress is None else progress
    bar = tqdm(total=steps, disable=not show, desc="teacher-student grid", leave=False)
    done = 0
    state = checkpoint.load() if checkpoint is not None else None
    with torch.no_grad():
        if state is None:
            snapshot()
        else:   # resume: the weights as saved, bit for bit, and the records made before
            done = int(state["done"])
            net[:] = (torch.as_tensor(state[k], device=dev) for k in ("W", "a"))
            for k in records:
                records[k] = list(state[f"r.{k}"]) if f"r.{k}" in state else []
            bar.update(done)
        for mark in marks[1:]:
            t0 = time.perf_counter()
            while done < mark:   # descend between marks, in segments that end at the clock's looks
                seg = min(mark - done, CHECK_EVERY) if checkpoint is not None else mark - done
                try:
                    descend(step, losses, X, y, lr=lr, loss=EXPERIMENT_LOSS, steps=seg,
                            record_every=seg, progress=False)
                except FloatingPointError as error:
                    raise FloatingPointError(f"lr up to {lr.max():g}: the training loss is "
                                             f"non-finite by step {done + seg} (take a smaller "
                                             "step)") from error
                done += seg
                bar.update(seg)
                if checkpoint is not None and done < mark and checkpoint.due():
                    save(done)
                if done == mark:
                    if dev.type == "cuda":
                        torch.cuda.synchronize()
                    seconds["loop"] += time.perf_counter() - t0
                    snapshot()
    bar.close()
    W, a = net
    final_W, final_a = W.reshape(S_ * G, h, d).to(F64).cpu().numpy(), a.reshape(S_ * G, h).to(F64).cpu().numpy()
    kept = {"W": np.stack(records["W"]), "a": np.stack(records["a"])} if keep_weights else {}
    trajectory = Trajectory(marks, marks, "steps", np.stack(records["train"]),
                            {"test": np.stack(records["test"]), "S": np.stack(records["S"]), **kept})
    return GridRun(trajectory, final_W, final_a, seconds)


#: The released Fig. 1(b) grid (allanraventos/getrichquick two-layer-relu/run_grid.py and
#: plot_fig1b.ipynb: tau in np.logspace(-1, 0.3, 17) x delta in np.linspace(-1, 1, 17), seeds
#: 100-115, 1e5 steps at 5e-3/tau^2, checkpoints 0, 10, ..., 1e5, numpy float64; D.1's d, h, k, n
#: and test set): 4,624 runs, a GPU job.  ``numerics.bench`` and ``numerics.full_scale`` time
#: fractions of it; the suite's paper-scale run is ``configs.FIG1B.full`` (the cells the
#: statements compare).
FIG1B_FULL = dict(taus=tuple(np.logspace(-1, 0.3, 17)), deltas=tuple(np.linspace(-1, 1, 17)),
                  seeds=tuple(range(100, 116)), d=100, h=50, k=3, n=1000, n_test=10_000,
                  base_lr=5e-3, steps=100_000, marks=(10, 100, 1000, 10_000), dtype="float64")


def _grid_config(cfg: dict, *keys) -> dict:
    """``cfg`` (a Fig. 1(b) grid, like FIG1B_FULL) with ``keys`` present; its steps (a positive
    integer) and seeds (non-negative integers) checked where named."""
    missing = sorted(set(keys) - set(cfg))
    if missing:
        raise InvalidArgument(f"cfg misses {missing}: a Fig. 1(b) grid names {sorted(FIG1B_FULL)}")
    if "steps" in keys:
        integer(cfg["steps"], "cfg['steps']", 1)
    if "seeds" in keys:
        seed_list(cfg["seeds"], "cfg['seeds']")
    return cfg


def fig1b_flop_per_step(cfg: dict) -> float:
    """FLOP of one GD step of one (seed, cell) run: the two (n x d) by (d x h) products, forward
    and backward, 2 n d h each (elementwise work, O(n h), is below 1%)."""
    _grid_config(cfg, "n", "d", "h")
    return 4.0 * cfg["n"] * cfg["d"] * cfg["h"]


def fig1b_cost(cfg: dict) -> str:
    """Runs x steps x FLOP per step of a Fig. 1(b) configuration, as text."""
    _grid_config(cfg, "seeds", "taus", "deltas", "steps", "dtype")
    runs = len(cfg["seeds"]) * len(cfg["taus"]) * len(cfg["deltas"])
    flop = runs * cfg["steps"] * fig1b_flop_per_step(cfg)
    return (f"{runs:,} runs x {cfg['steps']:,} steps x {fig1b_flop_per_step(cfg):.1e} FLOP = "
            f"{flop:.3g} FLOP ({cfg['dtype']})")


def _by_seed_and_cell(trajectory: Trajectory, n_seeds: int, weights: bool = False) -> dict:
    """A chunk's arrays with leading axes (seeds, cells), then records: ``train`` (the loss),
    ``test``, ``S`` (and ``W``, ``a`` with ``weights``)."""
    names = {"train": trajectory.loss, "test": trajectory.records["test"],
             "S": trajectory.records["S"]}
    if weights:
        names.update(W=trajectory.records["W"], a=trajectory.records["a"])
    out = {}
    for name, v in names.items():
        v = np.asarray(v)
        v = v.reshape(v.shape[0], n_seeds, -1, *v.shape[2:])       # (T, seeds, cells, ...)
        out[name] = np.moveaxis(v, 0, 2)                           # (seeds, cells, T, ...)
    return out


def fig1b_chunk(config: dict, cells, seeds, checkpoint=None) -> dict:
    """One chunk of the Fig. 1(b) sweep (``numerics.sweep`` chunk function): every (seed, cell)
    of ``seeds`` x ``cells`` (cells are (tau, delta) pairs) trained as one batched program.

    Each seed draws its own task (teacher, data, base student) from ``make_task(seed)``, the same
    in every chunk.  Returns arrays of shape (seeds, cells, records) at steps 0, ``marks`` and
    ``steps`` (GD steps at lr ``base_lr / tau^2`` on EXPERIMENT_LOSS): kernel distance S(0, t),
    test MSE and training loss.  ``checkpoint``: the sweep's :class:`numerics.sweep.Checkpoint`
    of this chunk (saved and resumed inside the chunk's run)."""
    cells, seeds = _grid_cells(cells), seed_list(seeds)
    steps = int(config["steps"])
    tasks = [make_task(int(s), d=config["d"], h=config["h"], k=config["k"], n=config["n"],
                       n_test=config["n_test"],
                       test_seed=config.get("test_seed", RELEASED_TEST_SEED)) for s in seeds]
    run = train(tasks, cells[:, 0], cells[:, 1], lr=config["base_lr"] / cells[:, 0] ** 2,
                steps=steps, record_steps=[m for m in config["marks"] if m <= steps],
                dtype=getattr(torch, config["dtype"]), progress=False, checkpoint=checkpoint)
    return _by_seed_and_cell(run.trajectory, len(seeds))


def _grid_cells(cells) -> np.ndarray:
    cells = np.asarray(cells, dtype=float)
    if cells.size == 0 or cells.size % 2:
        raise InvalidArgument(f"cells must be (tau, delta) pairs, got {cells.size} numbers")
    return cells.reshape(-1, 2)


def fig1b_steps(cfg: dict) -> np.ndarray:
    """The record steps of a Fig. 1(b) run: 0, the marks, the last step."""
    _grid_config(cfg, "steps", "marks")
    return np.union1d([0, cfg["steps"]], [m for m in cfg["marks"] if m <= cfg["steps"]])


def fig1b_sweep(cfg: dict, fraction: float = 1.0, *, out_dir=None, executor=None, address=None,
                chunk_seeds: int = 1, chunk_cells: int | None = None, progress=None,
                checkpoint_s: float | None = None, only=None):
    """Fig. 1(b) for ``cfg`` (FIG1B_CI / FIG1B_FULL) through ``numerics.sweep.run_sweep``:
    chunks of ``chunk_seeds`` seeds x ``chunk_cells`` (tau, delta) cells (default: one seed's
    whole grid, one wide network), written to ``out_dir`` as they finish (resumable), on
    ``executor`` (local, or Dask at ``address`` / $DASK_SCHEDULER_ADDRESS).

    ``fraction`` in (0, 1] runs only that share of the steps (for timing: every step costs the
    same; at least one step is run).  ``checkpoint_s`` and ``only``: as ``run_sweep``'s (save a
    running chunk's state this often; run only these chunks).  Returns (steps, S, test, sweep)
    with S and test as (records, seeds, tau, delta), or None for both while chunks are missing."""
    from numerics.sweep import run_sweep
    _grid_config(cfg, *FIG1B_FULL)
    if not 0 < fraction <= 1:
        raise InvalidArgument(f"fraction={fraction} must lie in (0, 1]")
    run_cfg = dict(cfg, steps=max(int(round(cfg["steps"] * fraction)), 1))
    cells = [(t, d) for t in cfg["taus"] for d in cfg["deltas"]]
    sweep = run_sweep(fig1b_chunk, cells, cfg["seeds"], config=run_cfg, chunk_seeds=chunk_seeds,
                      chunk_cells=chunk_cells, out_dir=out_dir, executor=executor,
                      address=address, progress=progress, desc="Fig. 1(b) chunks",
                      checkpoint_s=checkpoint_s, only=only)
    if not sweep.arrays:
        return fig1b_steps(run_cfg), None, None, sweep
    shape = (len(cfg["seeds"]), len(cfg["taus"]), len(cfg["deltas"]), -1)
    S, test = (np.moveaxis(sweep.arrays[k].reshape(shape), -1, 0) for k in ("S", "test"))
    return fig1b_steps(run_cfg), S, test, sweep


def fig1a_chunk(config: dict, cells, seeds) -> dict:
    """One chunk of Fig. 1(a) (``numerics.sweep`` chunk function): the students at ``cells`` for
    each seed's task (one teacher for all when ``config['teacher_seed']`` is set), GD at
    ``config['lr']`` for ``config['steps']`` steps, weights kept at ``config['records']`` + 1
    evenly spaced steps.  Arrays (seeds, cells, records, ...): train, test, S, W, a."""
    cells, seeds = _grid_cells(cells), seed_list(seeds)
    integer(config["records"], "config['records']", 1)
    steps = int(config["steps"])
    tasks = [make_task(int(s), d=config["d"], h=config["h"], k=config["k"], n=config["n"],
                       n_test=1, teacher_seed=config["teacher_seed"]) for s in seeds]
    run = train(tasks, cells[:, 0], cells[:, 1], lr=config["lr"], steps=steps,
                record_steps=np.linspace(0, steps, config["records"] + 1).astype(int),
                keep_weights=True, progress=False)
    return _by_seed_and_cell(run.trajectory, len(seeds), weights=True)


@dataclass(frozen=True)
class TeacherStudentRun:
    """A Fig. 1 run: ``trajectory`` (time in GD steps; ``loss`` the training MSE (T, K) of the
    K = seeds x cells students, seed-major; records ``test``, ``S`` and, for Fig. 1(a), ``W``
    (T, K, h, d) and ``a`` (T, K, h)), the ``cells`` and ``seeds``, each seed's teacher
    directions ``teacher_w`` (seeds, k, d), the :class:`Ran`, and ``compute_seconds``: the wall
    time of its chunks when they were computed (kept in the chunk files)."""

    trajectory: Trajectory
    cells: tuple
    seeds: tuple
    teacher_w: np.ndarray
    ran: Ran
    compute_seconds: float


class _ReadOnly(cf.Executor):
    """The executor of a run that must be read back, never computed (ci reads the committed
    paper-scale chunks): asked to compute a chunk, it names the missing folder."""

    def __init__(self, folder):
        self.folder = folder

    def submit(self, fn, /, *args, **kwargs):
        raise FileNotFoundError(f"the paper-scale run is not stored in {self.folder}: run "
                                "pytest verify/rich_quick --scale=full -k full to compute it")


def sweep_or_read(chunk, config: dict, cells, seeds, out_dir, compute: bool, workers,
                  chunk_cells: int | None = None):
    """``numerics.sweep.run_sweep`` of ``chunk`` in chunks of one seed, kept in ``out_dir``;
    ``compute=False`` reads the stored chunks and never computes one (``chunk_cells``: cells per
    chunk, default all).  A run neither kept nor spread over ``workers`` is one chunk of every
    seed: chunks exist to be kept, resumed and spread, and the seeds of one batched chunk give
    the same numbers bit for bit (each seed's students are their own slices of every tensor) in
    a third of the time of the small ci runs, whose steps are dominated by per-operation cost.
    Returns (arrays, the chunks' compute seconds)."""
    from numerics.sweep import run_sweep
    if not compute and out_dir is None:
        raise InvalidArgument("compute=False reads a stored run: out_dir must name its folder")
    executor = None if compute else _ReadOnly(out_dir)
    seeds = list(seeds)
    chunk_seeds = 1 if out_dir is not None or workers else max(len(seeds), 1)
    sweep = run_sweep(chunk, list(cells), seeds, config=config,
                      chunk_seeds=chunk_seeds, chunk_cells=chunk_cells, out_dir=out_dir,
                      executor=executor,
                      workers=workers if compute else None, progress=False,
                      desc=f"{chunk.__name__} chunks")
    return sweep.arrays, float(sum(sweep.chunk_seconds.values()))


def _plain_cells(cells) -> list:
    return [tuple(map(float, c)) for c in cells]


def _trajectory(arrays: dict, steps) -> Trajectory:
    """(seeds, cells, T, ...) chunk arrays as a Trajectory over the seed-major members."""
    def members(v):
        v = np.moveaxis(np.asarray(v), 2, 0)
        return v.reshape(v.shape[0], -1, *v.shape[3:])
    records = {k: members(v) for k, v in arrays.items() if k != "train"}
    steps = np.asarray(steps)
    return Trajectory(steps, steps, "steps", members(arrays["train"]), records)


def _drawn(config, seeds, teacher_seed=None, n_test: int = 1):
    """The seeds' tasks as the run draws them: what the run's Ran reports (sizes of the data
    actually drawn, the teachers)."""
    return [make_task(int(s), d=config.d, h=config.h, k=config.k, n=config.n, n_test=n_test,
                      teacher_seed=teacher_seed, test_seed=getattr(config, "test_seed",
                                                                  RELEASED_TEST_SEED))
            for s in seeds]


INIT = ("symmetrised base (w ~ Unif(S^{d-1}), a = +-1, mirrored halves), w * tau/alpha, "
        "a * tau alpha with tau^2 (alpha^2 - alpha^-2) = delta")


def _common_settings(tasks, config, runner) -> dict:
    t = tasks[0]
    return {"d": int(t.X.shape[1]), "h": int(t.base_w.shape[0]), "teacher neurons k":
            int(t.teacher_w.shape[0]), "n": int(t.X.shape[0]),
            "cells (tau, delta)": tuple(tuple(map(float, c)) for c in config.cells),
            "loss": str(EXPERIMENT_LOSS), "initialisation": INIT,
            "data and init": "drawn with torch's generator in the released code's order"}


def fig1a(config, *, out_dir=None, compute: bool = True) -> TeacherStudentRun:
    """GRQ Fig. 1(a) at ``config`` (``configs.Fig1a``); with ``out_dir`` the run is kept there
    and read back on a later call (``compute=False``: read only, never computed)."""
    config = C.expect(config, C.Fig1a)
    chunk = dict(d=config.d, h=config.h, k=config.k, n=config.n, teacher_seed=config.teacher_seed,
                 lr=config.lr, steps=config.steps, records=config.records)
    arrays, seconds = sweep_or_read(fig1a_chunk, chunk, _plain_cells(config.cells), config.seeds,
                                    out_dir, compute, None)
    steps = np.linspace(0, config.steps, config.records + 1).astype(int)
    tasks = _drawn(config, config.seeds, config.teacher_seed)
    ran = Ran.of(config, fig1a, **_common_settings(tasks, config, fig1a),
                 **{"teacher seed": ("each seed draws its own" if config.teacher_seed is None
                                     else config.teacher_seed),
                    "student and data seeds": tuple(config.seeds), "learning rate": config.lr,
                    "steps": int(steps[-1]), "dtype": str(arrays["W"].dtype)})
    return TeacherStudentRun(_trajectory(arrays, steps), tuple(config.cells), tuple(config.seeds),
                             np.stack([t.teacher_w for t in tasks]), ran, seconds)


def fig1b(config, *, out_dir=None, compute: bool = True, workers: int | None = None
          ) -> TeacherStudentRun:
    """GRQ Fig. 1(b) at the cells of ``config`` (``configs.Fig1b``), one chunk per seed on
    ``workers`` local processes; with ``out_dir`` the chunks are kept there and read back on a
    later call (``compute=False``: read only, never computed)."""
    config = C.expect(config, C.Fig1b)
    arrays, seconds = sweep_or_read(fig1b_chunk, config.chunk_config(), _plain_cells(config.cells),
                                    config.seeds,
                             out_dir, compute, workers)
    steps = fig1b_steps(config.chunk_config())
    tasks = _drawn(config, config.seeds, n_test=config.n_test)
    ran = Ran.of(config, fig1b, **_common_settings(tasks, config, fig1b),
                 **{"test inputs": int(tasks[0].X_test.shape[0]), "test-input seed":
                    config.test_seed, "seeds": tuple(config.seeds),
                    "learning rate x tau^2": config.base_lr, "steps": int(steps[-1]),
                    "dtype": config.dtype})
    return TeacherStudentRun(_trajectory(arrays, steps), tuple(config.cells), tuple(config.seeds),
                             np.stack([t.teacher_w for t in tasks]), ran, seconds)


def angular_movement(W0, W1, a1):
    """Per member: the contribution-weighted mean angle (rad) between w_i(0) and w_i(T),
    weights ``|a_i(T)| ||w_i(T)||``; W (K, h, d), a (K, h)."""
    W0, W1, a1 = (finite_array(v, n) for v, n in ((W0, "W0"), (W1, "W1"), (a1, "a1")))
    if W0.ndim != 3 or W0.shape != W1.shape or a1.shape != W0.shape[:2]:
        raise InvalidArgument(f"W0 {W0.shape}, W1 {W1.shape} and a1 {a1.shape} must be (K, h, d), "
                              "(K, h, d), (K, h)")
    _no_zero_neuron(W0, "W0")
    _no_zero_neuron(W1, "W1")
    cos = np.einsum("khd,khd->kh", W0, W1) / (np.linalg.norm(W0, axis=-1) * np.linalg.norm(W1, axis=-1))
    weight = np.abs(a1) * np.linalg.norm(W1, axis=-1)
    return (np.arccos(np.clip(cos, -1, 1)) * weight).sum(-1) / weight.sum(-1)


def _no_zero_neuron(W, name):
    if not np.all(np.linalg.norm(W, axis=-1)):
        raise InvalidArgument(f"{name} has a zero neuron: its direction is undefined")


def teacher_alignment(W, a, teacher_w, degrees: float = 5.0):
    """Per member: the share of the student's weight ``sum_i |a_i| ||w_i||`` carried by neurons
    within ``degrees`` of some teacher direction; W (K, h, d), a (K, h), teacher_w (K, k, d)."""
    W, a, teacher_w = np.asarray(W), np.asarray(a), np.asarray(teacher_w)
    degrees = number(degrees, "degrees", nonnegative=True)
    _no_zero_neuron(W, "W")
    norms = np.linalg.norm(W, axis=-1)
    cos = np.einsum("khd,kjd->khj", W / norms[..., None], teacher_w).max(-1)
    weight = np.abs(a) * norms
    return (weight * (cos >= np.cos(np.radians(degrees)))).sum(-1) / weight.sum(-1)


def cell_arrays(run, name):
    """(T, seeds, cells) array of record ``name`` ('loss' for the training loss)."""
    T = run.trajectory
    if name != "loss" and name not in T.records:
        raise KeyError(f"name={name!r} is not a record of the run: 'loss' or one of "
                       f"{sorted(T.records)}")
    v = np.asarray(T.loss if name == "loss" else T.records[name])
    return v.reshape(v.shape[0], len(run.seeds), len(run.cells), *v.shape[2:])


def fig1a_numbers(run, align_degrees: float = 20.0) -> dict:
    """Per seed (rows) and Fig. 1(a) cell (columns): S(0, end), the gain in the share of the
    student's weight |a_i| ||w_i|| within align_degrees of a teacher direction (end minus init),
    and the contribution-weighted angular movement of the neuron directions."""
    W, a = cell_arrays(run, "W"), cell_arrays(run, "a")
    n_s, n_c = W.shape[1:3]
    teacher = np.repeat(run.teacher_w, n_c, axis=0)
    def flat(v):
        return v.reshape(n_s * n_c, *v.shape[2:])
    gain = (teacher_alignment(flat(W[-1]), flat(a[-1]), teacher, align_degrees)
            - teacher_alignment(flat(W[0]), flat(a[0]), teacher, align_degrees))
    move = angular_movement(flat(W[0]), flat(W[-1]), flat(a[-1]))
    return {"S": cell_arrays(run, "S")[-1], "gain": gain.reshape(n_s, n_c),
            "move": move.reshape(n_s, n_c)}

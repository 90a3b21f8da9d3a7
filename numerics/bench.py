"""``python -m numerics.bench``: the suite's benchmarks, side by side in one run.

Writes ``reports/bench.json`` with the keys

* ``batched_vs_loop``: K = 64 two-layer ReLU networks with a hidden bias (hidden 64, the 4-item
  hierarchical task, 20,000 full-batch steps, float64) trained as one batched program against a
  Python loop over the same 64 models; the largest difference of the final weights and the ratio
  of wall times (target >= 30 on 2 CPU cores).
* ``closed_form_vs_ode``: the linear mode law and the lambda-balanced Q Q^T solution (LR Thm 4.3,
  stable form) on 10,000 time points against ``solve_ivp`` at matched accuracy; ratio of wall times.
* ``grq_fig1b``: Get rich quick Fig. 1(b) at the released grid (GRQ-Fig1; 4,624 runs, 1e5 GD
  steps, float64, 9.25e15 FLOP).  The paper-scale data ``reports/paper_scale/data/grq-fig1b.json``
  (wall time, FLOP/s, fraction of the device's float64 peak) when a full run wrote one; always a
  measured fraction: one seed's 17 chunks (a tau row's 17 students each, as
  ``python -m numerics.full_scale`` cuts the grid) for 10 steps, loop and
  records timed apart and extrapolated to the full run; the same trainer through ``numerics.sweep``
  on a two-worker Dask LocalCluster and in this process (one tau row of two chunks: wall times,
  identical arrays); and the achieved FLOP/s of its GD step against a plain ``torch.matmul`` of
  the same shapes on this device (the ceiling of this code path).
  Per thread count (``threads_1``, ``threads_2``, torch intra-op threads), and per network against
  a plain torch loop of one student (autograd; the released numpy loop is under ``released``).
* ``trainers``: every other batched trainer a paper-scale configuration runs (the bias papers'
  toy and MNIST networks, the MHS depth ReLU net and GDLN, the lazy-to-rich GD sweep), at its
  paper-scale shapes: the achieved FLOP/s of one step (the FLOP of the matrix products it runs,
  read at torch's dispatcher) against a plain ``torch.matmul`` of the same shapes on 1 and 2
  threads, the step's torch profile (where the ratio falls short, the reason), and the time per
  network against a plain torch loop written as the released loops are (one network at a time,
  autograd, ``w -= lr * grad``; the suite's code, not the authors').
* ``released``: the authors' released loops themselves, unchanged, from a checkout
  (:mod:`numerics.released`, ``--released DIR``): Fig. 1(b)'s numpy ``fit_nn_gd``, the depth
  net's jitted jax step (alone, and per epoch of the released loop with its loss) and From lazy
  to rich's numpy ``LinearNetwork.train``; per network-step on one thread, timed in rounds
  alternating with the suite's trainer for the same shapes, with the median of the rounds' ratios
  (``released_over_suite`` >= 1: the suite is at least as fast).
* ``device_peak``: the measured GEMM peak of this device (float64 and float32, 1 and 2 threads).
* ``ceilings``: one line per trainer, its FLOP/s beside those ceilings (the bench page's summary).
* ``faithful_costs``: the measured wall time of every paper-scale test that wrote a record in
  ``reports/paper_scale/``.
* ``load_average``: the machine's 1, 5 and 15 minute load when the bench started (shared CPU).
* ``suite_seconds``: wall time of ``pytest verify`` in the ``ci`` profile, total and per paper.
* ``device``: the device that ran; the batched trainer's GPU/CPU ratio on a CUDA machine, else
  marked not measured.

and then re-renders ``reports/summary.pdf`` so it carries a benchmark page
(``python -m verify.report``).  Time units: GD steps for training, the papers' ``t / tau`` for
closed forms, seconds of wall time.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from scipy.integrate import solve_ivp

from numerics.atomic import write_text
from numerics.closed_forms import mode_strength
from numerics.datasets import hierarchy
from numerics.machine import best_time
from torch.utils._python_dispatch import TorchDispatchMode

from numerics.models import TwoLayerEnsemble, configure_threads, torch_threads, trainer_backend
from numerics.train import train
from numerics.validation import integer
from theory.registry import catalogue_ids

K, N_HID, LR, INIT_STD = 64, 64, 2e-4, 2e-4 ** 0.5


def _hierarchy_run(seeds, steps: int, device: str):
    X, Y = hierarchy(2)
    net = TwoLayerEnsemble.init(seeds, 4, N_HID, 7, activation="relu", bias_strength=1.0,
                                init_std=INIT_STD, device=device)
    train(net, X, Y, lr=LR, steps=steps, paper="bias", record_every=steps, progress=False)
    return net


def batched_vs_loop(steps: int = 20_000, device: str = "cpu") -> dict:
    batched, t_batched = best_time(lambda: _hierarchy_run(range(K), steps, device))
    loop, t_loop = best_time(lambda: [_hierarchy_run([k], steps, device) for k in range(K)])
    diff = max(float((torch.cat([m.W1 for m in loop]) - batched.W1).abs().max()),
               float((torch.cat([m.W2 for m in loop]) - batched.W2).abs().max()))
    return {"K": K, "hidden": N_HID, "steps": steps, "dtype": "float64", "device": device,
            "batched_seconds": round(t_batched, 3), "loop_seconds": round(t_loop, 3),
            "ratio": round(t_loop / t_batched, 2), "max_abs_weight_difference": diff,
            "identical_to_1e-12": diff <= 1e-12}


def _ode_timing(rhs, y0, t_end, grid, rtol):
    sol, seconds = best_time(lambda: solve_ivp(rhs, (0, t_end), y0, t_eval=grid, method="DOP853",
                                            rtol=rtol, atol=rtol * 1e-3), repeat=5)
    return sol.y, seconds


def closed_form_vs_ode(points: int = 10_000) -> dict:
    """Both sides at matched accuracy: solve_ivp's rtol is tightened until it agrees with the
    (machine-precision) closed form to 1e-9, and timed at that rtol."""
    out = {}
    s, d, a0 = np.array([1.5, 0.6, 0.2]), np.array([0.8, 1.7, 0.3]), np.array([1e-3, 2e-2, 1.0])
    grid = np.linspace(0, 60.0, points)
    closed, t_closed = best_time(lambda: mode_strength(grid[:, None], s, d, a0), repeat=5)
    ys, t_ode = _ode_timing(lambda t, a: 2 * a * (s - d * a), a0, grid[-1], grid, 1e-11)
    out["mode_law"] = {"points": points, "closed_form_seconds": t_closed, "ode_seconds": t_ode,
                       "max_rel_diff": float(np.max(np.abs(ys.T - closed) / closed)),
                       "ratio": round(t_ode / t_closed, 1)}
    from numerics.lazy_rich.init import lambda_balanced_init
    from numerics.lazy_rich.solution import flow_rhs, qq_from_weights, qq_stable
    from numerics.lazy_rich.tasks import random_task, task_svd
    rng = np.random.default_rng(0)
    n_in, n_out = 5, 3
    task = random_task(n_in, n_out, 20, rng)
    syx = task.Y @ task.X.T / task.X.shape[1]
    W1, W2 = lambda_balanced_init(0.7, n_in, min(n_in, n_out), n_out, rng, scale=0.1)
    grid = np.linspace(0, 20.0, points)
    closed, t_closed = best_time(lambda: qq_stable(grid, W1, W2, task_svd(syx), 0.7), repeat=5)
    rhs = flow_rhs(syx)
    shapes = (W1.shape, W2.shape)

    def flat(t, y):
        p = rhs(t, {"W1": y[:W1.size].reshape(shapes[0]), "W2": y[W1.size:].reshape(shapes[1])})
        return np.concatenate([p["W1"].ravel(), p["W2"].ravel()])
    ys, t_ode = _ode_timing(flat, np.concatenate([W1.ravel(), W2.ravel()]), grid[-1], grid, 1e-11)
    qq_ode = qq_from_weights(ys[:W1.size].T.reshape(-1, *shapes[0]),
                             ys[W1.size:].T.reshape(-1, *shapes[1]))
    out["lambda_balanced_qq"] = {
        "points": points, "shape": f"{n_in} in, {min(n_in, n_out)} hidden, {n_out} out",
        "lambda": 0.7, "closed_form_seconds": t_closed, "ode_seconds": t_ode,
        "max_rel_diff": float(np.max(np.abs(qq_ode - closed)) / np.max(np.abs(closed))),
        "ratio": round(t_ode / t_closed, 1)}
    return out


#: float64 peak FLOP/s by device name (tensor-core FP64 where the device has it; vendor sheets).
FLOAT64_PEAK = {"H100 SXM": 67e12, "H100 PCIe": 51e12, "H100": 67e12, "H200": 67e12,
                "A100": 19.5e12, "V100": 7.8e12}


def float64_peak(device_name: str) -> float | None:
    for key, peak in FLOAT64_PEAK.items():
        if key in device_name:
            return peak
    return None


def _full(base):
    from numerics.rich_quick import single_neuron_teacher_student as ts
    return ts.FIG1B_FULL if base is None else base


def _fig1b_chunk(full: dict, seed: int, steps: int, row: int = 0):
    """One chunk of the grid ``full`` as ``python -m numerics.full_scale`` cuts it (seed
    ``seed``'s tau row ``row``, its students as one program, the chunk function's trainer) for
    ``steps`` GD steps, recorded at step 0 and the end."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    taus = np.full(len(full["deltas"]), full["taus"][row])
    task = ts.make_task(seed, d=full["d"], h=full["h"], k=full["k"], n=full["n"],
                        n_test=full["n_test"])
    return ts.train([task], taus, np.asarray(full["deltas"]), lr=full["base_lr"] / taus ** 2,
                    steps=steps, record_steps=[], dtype=getattr(torch, full["dtype"]),
                    progress=False)


def fig1b_fraction(steps: int = 10, seeds: int = 1, base: dict | None = None) -> dict:
    """Every tau row of ``seeds`` seeds of the released grid (each row's students one program,
    the chunk function's trainer) for ``steps`` GD steps, recorded at step 0 and the end: the GD
    loop and the records are timed apart.  Extrapolation to the full run: runs x (1e5 x seconds
    per run-step + 6 records x seconds per run-record).  ``base``: default FIG1B_FULL."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    full = _full(base)
    cells = np.array([(t, d) for t in full["taus"] for d in full["deltas"]])
    loop = records = 0.0
    for seed in full["seeds"][:seeds]:
        for row in range(len(full["taus"])):
            run = _fig1b_chunk(full, seed, steps, row)
            loop, records = loop + run.seconds["loop"], records + run.seconds["records"]
    members = seeds * len(cells)
    runs = len(full["seeds"]) * len(cells)
    per_step, per_record = loop / (members * steps), records / (2 * members)
    return {"chunks_run": seeds * len(full["taus"]), "of_chunks": len(full["seeds"]) * len(full["taus"]),
            "steps": steps, "loop_seconds": loop, "record_seconds": records,
            "flop_per_s_gd_step": members * steps * ts.fig1b_flop_per_step(full) / loop,
            "extrapolated_full_s": runs * (per_step * full["steps"]
                                           + per_record * len(ts.fig1b_steps(full))),
            "method": "runs x (full steps x loop s per run-step + records x s per run-record)"}


def fig1b_through_dask(address: str, steps: int = 10, seeds: int = 2, cells: int = 17,
                       base: dict | None = None) -> dict:
    """The first ``cells`` cells (one tau row) of ``seeds`` chunks through ``numerics.sweep``, on
    the Dask scheduler at ``address`` and in this process: wall times and whether the arrays are
    identical."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    from numerics.sweep import run_sweep
    full = _full(base)
    grid = [(t, d) for t in full["taus"] for d in full["deltas"]][:cells]
    cfg = dict(full, steps=steps, marks=())
    out, arrays = {}, {}
    for name, kwargs in (("dask", dict(executor="dask", address=address)),
                         ("in_process", dict(executor="inline"))):
        t0 = time.perf_counter()
        result = run_sweep(ts.fig1b_chunk, grid, full["seeds"][:seeds], config=cfg,
                           progress=False, **kwargs)
        out[f"{name}_wall_s"] = time.perf_counter() - t0
        out[f"{name}_chunk_seconds"] = sum(result.chunk_seconds.values())
        arrays[name] = result.arrays
    out.update(chunks=seeds, cells_per_chunk=len(grid), steps=steps,
               identical=all(np.array_equal(arrays["dask"][k], arrays["in_process"][k])
                             for k in arrays["dask"]))
    return out


def matmul_ceiling(repeat: int = 3, device: str = "cpu", base: dict | None = None) -> dict:
    """A plain ``torch.matmul`` of the Fig. 1(b) step's two products for one chunk (one tau row's
    17 students side by side): (n x d)(d x 17 h) and (17 h x n)(n x d), float64."""
    full = _full(base)
    width = len(full["deltas"]) * full["h"]
    gen = torch.Generator().manual_seed(0)
    X = torch.randn(full["n"], full["d"], dtype=torch.float64, generator=gen).to(device)
    W = torch.randn(width, full["d"], dtype=torch.float64, generator=gen).to(device)
    R = torch.randn(width, full["n"], dtype=torch.float64, generator=gen).to(device)

    def step():
        out = (X @ W.T, R @ X)
        if device == "cuda":
            torch.cuda.synchronize()
        return out
    step()
    _, seconds = best_time(step, repeat=repeat)
    flop = 4.0 * full["n"] * full["d"] * width
    return {"shapes": f"({full['n']}x{full['d']})({full['d']}x{width}) + ({width}x{full['n']})"
                      f"({full['n']}x{full['d']})", "seconds": seconds, "flop_per_s": flop / seconds}


def grq_fig1b(steps: int = 10, seeds: int = 1, dask: bool = True, records=Path("reports/paper_scale"),
              base: dict | None = None, threads=(1, 2)) -> dict:
    """The ``grq_fig1b`` entry of bench.json (see the module docstring)."""
    device = "cuda" if torch.cuda.is_available() else "cpu"
    from numerics.rich_quick.single_neuron_teacher_student import fig1b_cost
    out = {"cost": fig1b_cost(_full(base)),
           "target": "<= 10 min on one H100 (float64 floor 2.3 min at 67 TFLOP/s)"}
    record = records / "data" / "grq-fig1b.json"
    if record.is_file():
        full = json.loads(record.read_text())
        peak = float64_peak(full.get("device", ""))
        out["paper_scale"] = {k: full.get(k) for k in ("device", "wall_s", "flop_per_s", "commit",
                                                       "started", "verdict")}
        out["paper_scale"]["fraction_of_float64_peak"] = full["flop_per_s"] / peak if peak else None
    else:
        out["paper_scale"] = ("not measured: no reports/paper_scale/data/grq-fig1b.json (needs a "
                              "GPU run of pytest verify --scale=full)")
    with torch_threads(1):
        out["profile_1_thread"] = profile_per_step(
            lambda: _fig1b_chunk(_full(base), _full(base)["seeds"][0], steps), steps,
            between="aten::einsum")
    for n in threads:
        with torch_threads(n):
            fraction = fig1b_fraction(steps, seeds, base=base)
            ceiling = matmul_ceiling(device=device, base=base)
        out[f"threads_{n}"] = {"fraction_local": fraction, "matmul_ceiling": ceiling,
                               "gd_step_over_matmul": (fraction["flop_per_s_gd_step"]
                                                       / ceiling["flop_per_s"])}
    if base is None:
        plain, students = _grq_plain()
        with torch_threads(1):
            t_plain = _per_call(plain, steps)
        local = out["threads_1"]["fraction_local"]
        t_batched = local["loop_seconds"] / (local["chunks_run"] * students * steps)
        out["per_network_step_1_thread"] = {"batched_s": t_batched, "plain_torch_loop_s": t_plain,
                                            "plain_torch_over_batched": t_plain / t_batched}
    if dask:
        from distributed import LocalCluster
        with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                          dashboard_address=None) as cluster:
            out["fraction_dask_local_cluster_2_workers"] = fig1b_through_dask(
                cluster.scheduler_address, base=base)
    return out


# ------------------------------------------------------------ trainers against their GEMM ceiling
GEMMS = ("mm", "bmm", "addmm", "baddbmm", "addmm_", "baddbmm_")


class _GemmShapes(TorchDispatchMode):
    """Records the operand shapes and dtype of every matrix product a block of torch code runs
    (at the dispatcher, so ``@``, ``einsum`` and ``matmul`` all show as the GEMM they become)."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.overloadpacket.__name__
        if name in GEMMS:
            a, b = args[-2:]
            self.seen.append((tuple(a.shape), tuple(b.shape), a.dtype))
        return func(*args, **(kwargs or {}))


def gemm_shapes(fn) -> list:
    """The (A shape, B shape, dtype) of every GEMM one call of ``fn`` runs."""
    with _GemmShapes() as mode:
        fn()
    return mode.seen


def gemm_flop(shapes) -> float:
    """2 m k n (times the batch) per product."""
    return float(sum(2 * np.prod(a[:-1]) * a[-1] * b[-1] for a, b, _ in shapes))


def plain_matmuls(shapes, device: str = "cpu"):
    """A function running ``torch.matmul`` once per recorded product, on contiguous tensors of the
    same shapes and dtype made here (the ceiling of a step that does those products)."""
    gen = torch.Generator().manual_seed(0)
    pairs = [(torch.randn(a, generator=gen, dtype=dt).to(device),
              torch.randn(b, generator=gen, dtype=dt).to(device)) for a, b, dt in shapes]
    return lambda: [torch.matmul(a, b) for a, b in pairs]


def _per_call(fn, calls: int, repeat: int = 3) -> float:
    """Best-of-``repeat`` seconds per call of ``fn`` over ``calls`` calls (one warm-up call)."""
    fn()
    return best_time(lambda: [fn() for _ in range(calls)], repeat=repeat)[1] / calls


def step_against_matmul(step, calls: int, threads=(1, 2), repeat: int = 3) -> dict:
    """Achieved FLOP/s of one trainer step (the GEMM FLOP it does over its wall time) against a
    plain ``torch.matmul`` of the same shapes, at each intra-op thread count; with a profile of
    the step (its ten costliest torch ops at 1 thread) as the reason where the ratio is short.
    Both run in the trainers' backend (``numerics.models.trainer_backend``: MKL, oneDNN off),
    entered once around the calls as a training loop enters it."""
    shapes = gemm_shapes(step)
    flop, ceiling = gemm_flop(shapes), plain_matmuls(shapes)
    out = {"dtype": str(shapes[0][2]).removeprefix("torch."), "gemms_per_step": len(shapes),
           "gemm_flop_per_step": flop,
           "shapes": sorted({f"{a}x{b}" for a, b, _ in shapes})[:12]}
    for n in threads:
        with trainer_backend(n):
            t_step, t_mm = _per_call(step, calls, repeat), _per_call(ceiling, calls, repeat)
        out[f"threads_{n}"] = {"step_s": t_step, "matmul_s": t_mm, "step_flop_per_s": flop / t_step,
                               "matmul_flop_per_s": flop / t_mm, "step_over_matmul": t_mm / t_step}
    with trainer_backend(1):
        out["profile_1_thread"] = profile_per_step(lambda: [step() for _ in range(calls)], calls)
    return out


def profile_per_step(fn, steps: int, between: str | None = None, top: int = 10) -> dict:
    """The ``top`` costliest torch ops per step of ``fn`` (which runs ``steps`` steps): calls and
    self CPU microseconds per step.  ``between``: an op that only the records before and after the
    steps run (the Fig. 1(b) chunk's ``aten::einsum``); then only the ops in the longest gap
    between two of its calls, the GD loop, are counted."""
    with torch.profiler.profile() as prof:
        fn()
    events = prof.events()
    if between is not None:
        spans = sorted((e.time_range.start, e.time_range.end) for e in events if e.name == between)
        gap = int(np.argmax([b[0] - a[1] for a, b in zip(spans, spans[1:])]))
        events = [e for e in events if spans[gap][1] < e.time_range.start < spans[gap + 1][0]]
    rows = collections.defaultdict(lambda: [0, 0.0])
    for e in events:
        rows[e.name][0] += 1
        rows[e.name][1] += e.self_cpu_time_total
    return {k: {"calls_per_step": c / steps, "self_us_per_step": us / steps}
            for k, (c, us) in sorted(rows.items(), key=lambda r: -r[1][1])[:top]}


def _plain_layers(weights, gates, X, Y, factor: float, lr: float):
    """One network's step written plainly, as the authors' released loops do it (one network at a
    time, autograd, ``w -= lr * grad``): ``weights`` one member's layers, ``gates[l]`` 'relu',
    'linear' or a fixed 0/1 gate matrix for hidden layer l."""
    params = [w.clone().requires_grad_(True) for w in weights]

    def step():
        a = X
        for l, W in enumerate(params):
            a = W @ a
            if l < len(gates):
                a = torch.relu(a) if gates[l] == "relu" else a if gates[l] == "linear" else a * gates[l]
        loss = factor * ((a - Y) ** 2).sum()
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= lr * g
    return step


def _two_layer(seeds, n_in, n_hid, n_out, P, *, paper, activation="relu", bias=True, lr=1e-3,
               dtype=torch.float64):
    """(batched step, one network's plain step, K) of ``numerics.train``'s two-layer trainer; the
    batched step is timed inside ``trainer_backend``, as training runs it."""
    from numerics.train import gd_step
    from theory.conventions import convention
    gen = torch.Generator().manual_seed(0)
    X = torch.randn(n_in, P, generator=gen, dtype=dtype)
    Y = torch.randn(n_out, P, generator=gen, dtype=dtype)
    net = TwoLayerEnsemble.init(list(seeds), n_in, n_hid, n_out, activation=activation,
                                bias_strength=1.0 if bias else None, init_std=0.01, dtype=dtype,
                                device="cpu")
    norm = convention(paper).train
    one = net.member(0)
    plain = _plain_layers([one.W1[0], one.W2[0]], [activation], one.augment(X)[0], Y,
                          norm.factor(P), lr)
    def step():
        return gd_step(net, X, Y, lr, norm)
    return step, plain, net.K


def _depth(kind: str):
    """(batched step, one network's plain step, K) of the MHS depth trainer at paper scale (the
    ReLU net's ``GatedNet.step``; the GDLN's split-gradient update after the switch), on the
    program ``depth.depth_run`` trains: one :func:`~numerics.haste_slowly.depth.seed_blocks`
    block (one seed on a CPU); the batched step is timed inside ``trainer_backend``, as training
    runs it."""
    from numerics.haste_slowly import depth
    from numerics.haste_slowly.configs import DEPTH
    from theory.conventions import SUM_HALF
    cfg = depth.seed_blocks(DEPTH.full, "cpu")[0]
    X, Y = depth.task()
    net = depth.depth_net(kind, cfg, "cpu")
    dt = net.weights[0].dtype
    X, Y = (torch.as_tensor(v, dtype=dt) for v in (X, Y))
    def step():
        if kind == "relu":
            return net.step(X, Y, cfg.lr)
        for W, g in zip(net.weights, depth.split_grads(net, X, Y, contextual=True)[1]):
            W -= g.mul_(cfg.lr)     # as depth.train_scheduled
    gates = ["relu", "relu"] if kind == "relu" else [
        torch.ones(net.weights[0].shape[1], X.shape[1], dtype=dt),
        torch.as_tensor(depth.gdln_gates(cfg.module), dtype=dt)]
    plain = _plain_layers([w[0] for w in net.weights], gates, X, Y, SUM_HALF.factor(X.shape[1]),
                          cfg.lr)
    return step, plain, net.K


def _grq_plain():
    """One student's plain step of GRQ Fig. 1(b) (the released two-layer-relu loop, one network),
    and the students of one chunk, a tau row (the batched chunk trainer is timed by
    :func:`fig1b_fraction`)."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    from theory.rich_quick.conventions_rich_quick import EXPERIMENT_LOSS
    full = _full(None)
    task = ts.make_task(full["seeds"][0], d=full["d"], h=full["h"], k=full["k"], n=full["n"],
                        n_test=full["n_test"])
    X = torch.as_tensor(task.X, dtype=torch.float64)
    plain = _plain_layers([torch.as_tensor(task.base_w), torch.as_tensor(task.base_a)[None]],
                          ["relu"], X.T, torch.as_tensor(task.y)[None],
                          EXPERIMENT_LOSS.factor(full["n"]), full["base_lr"])
    return plain, len(full["deltas"])


def trainer_cases() -> dict:
    """name -> (what, make): every batched trainer a paper-scale configuration runs, at its
    paper-scale shapes; ``make()`` gives (batched step, one network's plain step, members)."""
    from numerics.bias.configs import HIERARCHY, MNIST
    from numerics.lazy_rich.configs import GRADIENT_DESCENT
    toy, mnist, lr_gd = HIERARCHY.full, MNIST.full, GRADIENT_DESCENT.full
    return {
        "bias_toy": ("BL/BA 4-item hierarchy, 4(+1)-64-7 ReLU, full batch, seeds x cs members",
                     lambda: _two_layer(range(len(toy.seeds) * len(toy.cs)), 4, 64, 7, 4,
                                        paper="bias", lr=toy.lr)),
        "bias_mnist": ("BL MNIST, 784(+1)-512-10 ReLU, minibatch 64, seeds x cs members",
                       lambda: _two_layer(range(len(mnist.seeds) * len(mnist.cs)), 784,
                                          mnist.n_hid, 10, mnist.batch, paper="bias",
                                          lr=mnist.lr, dtype=getattr(torch, mnist.dtype))),
        "mhs_depth_relu": ("MHS Sec 6 ReLU 11-420-420-60, 24 datapoints, float32, one seed a "
                           "program (depth.seed_blocks; 32 programs a run)",
                           lambda: _depth("relu")),
        "mhs_depth_gdln": ("MHS Sec 6 depth GDLN 7 x 60 units per layer, split gradient, float32, "
                           "one seed a program",
                           lambda: _depth("gdln")),
        "lazy_rich_gd": ("LR Thm 4.3 GD sweep, 5-3-3 linear nets, 10 samples, seeds x lambdas "
                         "members per learning rate",
                         lambda: _two_layer(range(len(lr_gd.seeds) * len(lr_gd.lams)), 5, 3, 3,
                                            10, paper="lazy_rich", activation="linear",
                                            bias=False, lr=lr_gd.lrs[0])),
    }


def trainers(calls: int = 5, threads=(1, 2)) -> dict:
    """Every batched trainer a paper-scale configuration runs, at its paper-scale shapes: the step
    against ``torch.matmul`` of its GEMMs (:func:`step_against_matmul`) and per network against
    a plain torch loop of one network (autograd, as the released loops step) on one thread."""
    out = {}
    for name, (what, make) in trainer_cases().items():
        step, plain, members = make()
        entry = {"what": what, "members": members, **step_against_matmul(step, calls, threads)}
        with torch_threads(1):
            t_plain = _per_call(plain, calls)
        t_batched = entry["threads_1"]["step_s"] / members
        entry["per_network_step_1_thread"] = {
            "batched_s": t_batched, "plain_torch_loop_s": t_plain, "plain_torch_over_batched": t_plain / t_batched}
        out[name] = entry
    return out


def device_peak(size: int = 2048, threads=(1, 2)) -> dict:
    """The device's measured GEMM peak: a square ``torch.matmul`` of ``size`` in float64 and
    float32 at each thread count (no vendor figure is known for a CPU, see ``FLOAT64_PEAK``)."""
    out = {}
    for dtype in (torch.float64, torch.float32):
        a = torch.randn(size, size, dtype=dtype)
        for n in threads:
            with torch_threads(n):
                seconds = _per_call(lambda: a @ a, 2)
            out[f"{str(dtype)[6:]}_threads_{n}_flop_per_s"] = 2.0 * size ** 3 / seconds
    return out


def faithful_costs(records=Path("reports/paper_scale")) -> dict:
    """The measured wall time of every paper-scale test that wrote a record
    (``reports/paper_scale/*.json``): the cost of the faithful configurations that ran here."""
    out = {}
    for path in sorted(records.glob("*.json")):
        rec = json.loads(path.read_text())
        if rec.get("wall_seconds") is not None:
            out[rec.get("experiment", path.stem)] = {
                "wall_s": rec["wall_seconds"], "device": rec.get("device"), "date": rec.get("date"),
                "under_an_hour": rec["wall_seconds"] < 3600}
    return out


def ceilings(bench: dict) -> dict:
    """One line per trainer: its step's FLOP/s beside the ceilings (a plain matmul of the same
    shapes at the same thread count, the authors' one-network loop, the device's measured GEMM
    peak), for the summary's bench page."""
    peak = bench["device_peak"]
    entries = dict(bench["trainers"])
    if isinstance(bench.get("grq_fig1b"), dict) and "threads_1" in bench["grq_fig1b"]:
        g = bench["grq_fig1b"]
        entries["grq_fig1b_chunk"] = {
            **{k: {"step_flop_per_s": v["fraction_local"]["flop_per_s_gd_step"],
                   "matmul_flop_per_s": v["matmul_ceiling"]["flop_per_s"],
                   "step_over_matmul": v["gd_step_over_matmul"]}
               for k, v in g.items() if k.startswith("threads_")},
            "per_network_step_1_thread": g.get("per_network_step_1_thread")}
    out = {}
    for name, e in entries.items():
        parts = [f"{n.replace('_', ' ')}: step {v['step_flop_per_s'] / 1e9:.2f} GFLOP/s, matmul "
                 f"{v['matmul_flop_per_s'] / 1e9:.2f} ({v['step_over_matmul']:.2f} of it)"
                 for n, v in e.items() if n.startswith("threads_")]
        net = e.get("per_network_step_1_thread")
        if net:
            parts.append(f"per network {net['batched_s'] * 1e3:.3g} ms a step batched, "
                         f"{net['plain_torch_loop_s'] * 1e3:.3g} ms a plain torch loop "
                         f"({net['plain_torch_over_batched']:.2f}x)")
        if released := bench.get("released", {}).get(name):
            parts.append(_against_released(released))
        out[name] = "; ".join(parts)
    out["device peak (measured GEMM)"] = ", ".join(f"{k.replace('_flop_per_s', '').replace('_', ' ')} "
                                                   f"{v / 1e9:.1f} GFLOP/s" for k, v in peak.items())
    return out


def _against_released(released: dict) -> str:
    """The released code's time per network-step and its ratio to the trainer's, as
    :func:`released_against_trainers` measured them."""
    if "released_over_suite" not in released:
        return f"released code not measured ({released.get('not measured', 'no suite trainer')})"
    low, high = released["released_over_suite_range"]
    text = (f"released code {released['step_s'] * 1e3:.3g} ms a step "
            f"({released['released_over_suite']:.2f}x, median of {released['rounds']} paired "
            f"rounds, {low:.2f}-{high:.2f}")
    if "epoch_s" in released:
        text += (f"; {released['epoch_s'] * 1e3:.3g} ms an epoch of its loop with the loss, "
                 f"{released['released_epoch_over_suite']:.2f}x")
    return text + ")"


#: GD steps of one round of each comparison, (released loop, suite trainer): a second or less a
#: side, so that the two sides of a round see the same machine
ROUND_STEPS = {"grq_fig1b_chunk": (100, 20), "mhs_depth_relu": (300, 300),
               "lazy_rich_gd": (2000, 300)}


def suite_trainers() -> dict:
    """The suite's trainer for the shapes of each released loop (``numerics.released.LOOPS``):
    name -> ``seconds(steps)``, the wall seconds per network-step of a run of ``steps`` steps on
    one thread (the Fig. 1(b) chunk trainer's GD loop for one tau row's students; the batched
    step of :func:`trainer_cases` for the others)."""
    full = _full(None)

    def fig1b(steps):
        with torch_threads(1):
            run = _fig1b_chunk(full, full["seeds"][0], steps)
        return run.seconds["loop"] / (len(full["deltas"]) * steps)

    def batched(name):
        step, _, members = trainer_cases()[name][1]()

        def seconds(steps):
            with trainer_backend(1):
                start = time.perf_counter()
                for _ in range(steps):
                    step()
                return (time.perf_counter() - start) / (steps * members)
        return seconds
    return {"grq_fig1b_chunk": fig1b, "mhs_depth_relu": batched("mhs_depth_relu"),
            "lazy_rich_gd": batched("lazy_rich_gd")}


def released_against_trainers(folder=None, rounds: int = 9, suites=None) -> dict:
    """The authors' released loops (:mod:`numerics.released`), each timed against the suite's
    trainer for the same shapes in ``rounds`` alternating rounds (:data:`ROUND_STEPS`), so that a
    drift of a shared machine's speed moves both sides of a round: per network-step the best round
    of each side (``step_s``, ``suite_trainer_s``), and ``released_over_suite`` the median over the
    rounds of the released time over the suite's (>= 1: the suite's trainer is at least as fast)
    with the range of the round ratios.  ``suites``: name -> seconds per network-step of a run of
    ``steps`` steps (default :func:`suite_trainers`)."""
    from numerics import released
    rounds = integer(rounds, "rounds", 1)
    loops = released.loops(folder)
    if suites is None and any(not isinstance(v, dict) for v in loops.values()):
        suites = suite_trainers()
    out = {}
    for name, loop in loops.items():
        if isinstance(loop, dict):
            out[name] = loop
            continue
        n_released, n_suite = ROUND_STEPS[name]
        sides = {"step": loop.run, **({"epoch": loop.epochs} if loop.epochs else {})}
        for run in sides.values():
            run(2)                                       # compiled and warm before timing
        suites[name](2)
        times = {side: [] for side in (*sides, "suite")}
        for _ in range(rounds):
            for side, run in sides.items():
                start = time.perf_counter()
                run(n_released)
                times[side].append((time.perf_counter() - start) / n_released)
            times["suite"].append(suites[name](n_suite))
        suite = np.array(times["suite"])
        entry = {"what": loop.what, "shapes": loop.shapes, "dtype": loop.dtype, **loop.about,
                 "rounds": rounds, "steps_a_round": {"released": n_released, "suite": n_suite},
                 "suite_trainer_s": float(suite.min())}
        for side in sides:
            ratio = np.array(times[side]) / suite
            key = "released" if side == "step" else "released_epoch"
            entry[f"{side}_s"] = float(min(times[side]))
            entry[f"{key}_over_suite"] = float(np.median(ratio))
            entry[f"{key}_over_suite_range"] = [float(ratio.min()), float(ratio.max())]
        out[name] = entry
    return out


def suite_seconds(workdir: Path) -> dict:
    """Run ``pytest verify`` (ci profile, no PDFs) and split its time by paper; a test tied to
    claims of several papers is split evenly between them."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "verify", "-q", "--no-pdf",
                           f"--reports-dir={workdir}", "-p", "no:cacheprovider"],
                          capture_output=True, text=True)
    total = time.perf_counter() - start
    timings = json.loads((workdir / "timings.json").read_text())["tests"]
    papers = catalogue_ids()
    per_paper = collections.Counter()
    for entry in timings.values():
        owners = [papers[c] for c in entry["claims"]]
        for paper in owners:
            per_paper[paper] += entry["seconds"] / len(owners)
    return {"total": round(total, 1), "per_paper": {p: round(v, 1) for p, v in per_paper.items()},
            "passed": proc.returncode == 0, "summary": proc.stdout.strip().splitlines()[-1:]}


def device_info(steps: int) -> dict:
    info = {"device": "cuda" if torch.cuda.is_available() else "cpu",
            "torch_threads": torch.get_num_threads(),
            "gpu_over_cpu": "not measured: no CUDA device"}
    if torch.cuda.is_available():
        info["gpu"] = torch.cuda.get_device_name(0)
        _, cpu = best_time(lambda: _hierarchy_run(range(K), steps, "cpu"))
        _hierarchy_run(range(K), 10, "cuda")  # warm-up
        _, gpu = best_time(lambda: (_hierarchy_run(range(K), steps, "cuda"), torch.cuda.synchronize()))
        info.update(batched_cpu_seconds=cpu, batched_gpu_seconds=gpu, gpu_over_cpu=cpu / gpu)
    return info


def _positive_int(text: str) -> int:
    """An argparse type: a positive integer, else a one-line usage error naming the value."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive integer")
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m numerics.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reports-dir", default="reports", type=Path)
    parser.add_argument("--steps", type=_positive_int, default=20_000,
                        help="training steps, a positive integer (default 20000)")
    parser.add_argument("--skip-suite", action="store_true", help="do not time pytest verify")
    parser.add_argument("--skip-fig1b", action="store_true", help="do not time the Fig. 1(b) grid")
    parser.add_argument("--released", default=None, metavar="DIR",
                        help="folder of the authors' checkouts (getrichquick/, make-haste-slowly/, "
                             "LinearNetworkDynamics/) whose loops are timed beside the trainers "
                             "(default $CLAIMS_RELEASED_CODE; jax for the depth code: pip install "
                             "-e .[bench])")
    parser.add_argument("--no-dask", action="store_true",
                        help="time the Fig. 1(b) fraction in this process only")
    args = parser.parse_args(argv)
    configure_threads()
    bench = {"device": device_info(args.steps), "load_average": list(os.getloadavg()),
             "device_peak": device_peak()}
    print("trainers against their matmul ceiling ...", flush=True)
    bench["trainers"] = trainers()
    print("batched vs loop ...", flush=True)
    bench["batched_vs_loop"] = batched_vs_loop(args.steps)
    print("closed form vs ode ...", flush=True)
    bench["closed_form_vs_ode"] = closed_form_vs_ode()
    if not args.skip_fig1b:
        print("GRQ Fig. 1(b), a fraction of the released grid ...", flush=True)
        bench["grq_fig1b"] = grq_fig1b(dask=not args.no_dask,
                                       records=args.reports_dir / "paper_scale")
    print("the authors' released loops ...", flush=True)
    bench["released"] = released_against_trainers(args.released)
    bench["faithful_costs"] = faithful_costs(args.reports_dir / "paper_scale")
    if not args.skip_suite:
        print("pytest verify (ci profile) ...", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            bench["suite_seconds"] = suite_seconds(Path(tmp))
    bench = {"ceilings": ceilings(bench), **bench}
    write_text(args.reports_dir / "bench.json", json.dumps(bench, indent=1))
    print(json.dumps(bench, indent=1))
    subprocess.run([sys.executable, "-m", "verify.report", f"--reports-dir={args.reports_dir}"],
                   check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

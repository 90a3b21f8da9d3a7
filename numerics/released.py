"""The authors' released training loops, run unchanged from a checkout, as the bench's yardstick
(``numerics.bench``, issue "honest speed").

Nothing of the released code is copied here: :func:`load` imports a file of a checkout of the
authors' repository as it is, and each loop calls its functions.  A checkout is looked for in
``CLAIMS_RELEASED_CODE`` (a folder holding one folder per repository, named as the repository:
``getrichquick/``, ``make-haste-slowly/``, ``LinearNetworkDynamics/``;
``python -m numerics.bench --released DIR``).  Where a checkout or an optional package (jax, for
the depth code) is missing, :func:`loops` says so and nothing is timed.

Each function returns a :class:`Loop` that runs a given number of steps; ``numerics.bench``
times it in rounds alternating with the suite's trainer for the same shapes.

* :func:`grq_fit_nn_gd`: Get rich quick Fig. 1(b)'s student (``two-layer-relu/utils.py``
  ``fit_nn_gd``, numpy float64, as ``run_grid.py`` calls it: n = 1000, d = 100, h = 50,
  ``checkpoint_frequency`` 100), GD steps of one network.
* :func:`mhs_depth_relu`: Make haste slowly Sec 6's 11-420-420-60 ReLU net (``depth/relu.py``:
  its jitted ``loss_relu`` and init; the three-line ``update_relu`` is written under the file's
  ``__main__`` guard, so it is rebuilt here from the imported ``loss_relu`` exactly as written
  there), float32 as jax runs it: steps alone, and epochs of the released loop (the step, then
  ``losses[epoch] = statistics_relu(...)``).
* :func:`lr_linear_network`: From lazy to rich's GD (``LinearNetworkDynamics``
  ``linear_network.py`` ``LinearNetwork.train``, numpy float64) at the Thm 4.3 sweep's shapes
  (5-3-3, 10 samples, lambda-balanced init from its ``utils.get_lambda_balanced``): epochs (one
  GD step each, with the loss and weight copies ``train`` keeps).

Time units: GD steps of one network, on one thread (XLA's CPU thread pool off).
"""
from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from numerics.validation import InvalidArgument

#: the folder of the authors' checkouts, one per repository, named as the repository
RELEASED_CODE = "CLAIMS_RELEASED_CODE"
#: XLA on one thread, as the trainers are compared (set before jax is first imported)
XLA_ONE_THREAD = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"


class NotAvailable(RuntimeError):
    """The released code (a checkout or an optional package it needs) is not on this machine."""


def root(folder=None) -> Path:
    """The folder of checkouts: ``folder``, else ``$CLAIMS_RELEASED_CODE``."""
    folder = folder or os.environ.get(RELEASED_CODE)
    if not folder:
        raise NotAvailable(f"no checkout of the released code: set {RELEASED_CODE} (or pass "
                           "--released DIR) to a folder holding getrichquick/, make-haste-slowly/ and LinearNetworkDynamics/")
    path = Path(folder)
    if not path.is_dir():
        raise InvalidArgument(f"released code folder {str(path)!r} is not a directory")
    return path


def load(path: Path, name: str):
    """The module at ``path`` (a file of a checkout), imported under ``name`` with its own folder
    first on ``sys.path`` (the released scripts import their siblings by bare name, such as
    ``utils``); the siblings are dropped from ``sys.modules`` afterwards, so no bare name of the
    authors' stays importable in this process."""
    if not path.is_file():
        raise NotAvailable(f"{path} is not there: check out the authors' repository under the "
                           "released code folder")
    before = set(sys.modules)
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError as exc:
        raise NotAvailable(f"{path} needs {exc.name!r}, not installed here") from None
    finally:
        sys.path.remove(str(path.parent))
        for added in set(sys.modules) - before:
            if str(getattr(sys.modules[added], "__file__", "") or "").startswith(str(path.parent)):
                del sys.modules[added]
    return module


@dataclass(frozen=True)
class Loop:
    """One released loop, loaded and ready: ``run(steps)`` takes ``steps`` GD steps of one
    network; ``epochs(steps)``, where the released script has one, runs that many epochs of its
    loop as written (the step and the per-epoch statistics it keeps)."""

    what: str
    shapes: str
    dtype: str
    run: Callable[[int], object]
    epochs: Callable[[int], object] | None = None
    about: dict = field(default_factory=dict)


def grq_fit_nn_gd(folder=None) -> Loop:
    """Get rich quick Fig. 1(b)'s student in the released ``fit_nn_gd`` (its first tau row's first
    cell: the student's init, data and lr at the released grid's shapes)."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    utils = load(root(folder) / "getrichquick" / "two-layer-relu" / "utils.py", "released_grq")
    full = ts.FIG1B_FULL
    task = ts.make_task(full["seeds"][0], d=full["d"], h=full["h"], k=full["k"], n=full["n"],
                        n_test=full["n_test"])
    W0, a0 = np.float64(task.base_w), np.float64(task.base_a)[None]
    X, y = np.float64(task.X), np.float64(task.y).reshape(-1, 1)
    lr = full["base_lr"] / full["taus"][0] ** 2

    def run(steps):
        # fit_nn_gd takes n_iter + 1 steps (range(n_iter + 1)), each one gradient step; numpy's
        # BLAS on one thread, as every trainer is compared
        with threadpool_limits(1):
            return utils.fit_nn_gd(W0, a0, X, y, lr=lr, n_iter=steps - 1)
    return Loop("getrichquick two-layer-relu/utils.py fit_nn_gd, unchanged (numpy, float64)",
                f"n={full['n']}, d={full['d']}, h={full['h']}", "float64", run)


def mhs_depth_relu(folder=None) -> Loop:
    """The Sec 6 ReLU net in the released jax code, run index 1, on one XLA thread."""
    # the checkout is looked for first, so a machine with neither says what to set before what
    # to install
    depth = root(folder) / "make-haste-slowly" / "depth"
    os.environ.setdefault("XLA_FLAGS", XLA_ONE_THREAD)
    try:
        import jax
    except ImportError:
        raise NotAvailable("the released depth code runs on jax: pip install -e .[bench]") from None
    relu = load(depth / "relu.py", "released_mhs_relu")
    X, Y = relu.gen_data3(8)                            # relu.py's own import of gen_data
    step_size = 0.001                                   # relu.py's step_size

    @jax.jit
    def update_relu(params, batch):                     # relu.py's update_relu, as written there
        grads = jax.grad(relu.loss_relu)(params, batch)
        return [w - step_size * dw for w, dw in zip(params, grads)]

    params = [jax.numpy.asarray(p) for p in
              relu.init_random_params_relu(0.0006, [X.shape[0], 420, 420, Y.shape[0]], 1)]
    state = {"params": update_relu(params, (X, Y))}    # compiled before timing

    def run(steps):
        p = state["params"]
        for _ in range(steps):
            p = update_relu(p, (X, Y))
        state["params"] = jax.block_until_ready(p)

    def epochs(steps):
        p, losses = state["params"], np.zeros(steps)
        for epoch in range(steps):
            p = update_relu(p, (X, Y))
            losses[epoch] = relu.statistics_relu(p, (X, Y))
        state["params"] = p
    return Loop("make-haste-slowly depth/relu.py: jitted loss_relu and update_relu, unchanged (jax)",
                f"11-420-420-60, {X.shape[1]} datapoints", str(state["params"][0].dtype), run,
                epochs, {"jax": jax.__version__, "xla_flags": os.environ.get("XLA_FLAGS", "")})


def lr_linear_network(folder=None) -> Loop:
    """One network of the Thm 4.3 sweep in the released ``LinearNetwork.train`` (one epoch is one GD
    step), lambda = -2 (the released init takes lambda <= 0 when the input is wider than the
    output), learning rate 4e-3."""
    from numerics.lazy_rich.configs import GRADIENT_DESCENT
    net_code = load(root(folder) / "LinearNetworkDynamics" / "linear_network.py",
                    "released_lr_linear_network")
    cfg = GRADIENT_DESCENT.full
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((5, 10)), rng.standard_normal((3, 10))
    with threadpool_limits(1):
        np.random.seed(0)                               # the released init draws from it
        w1, w2 = net_code.get_lambda_balanced(cfg.lams[0], 5, 3, 3)

    def run(steps):
        with threadpool_limits(1):
            return net_code.LinearNetwork(5, 3, 3, w1, w2).train(X, Y, steps, cfg.lrs[0])
    return Loop("LinearNetworkDynamics linear_network.py LinearNetwork.train, unchanged "
                "(numpy, float64)", "5-3-3, 10 samples", "float64", run)


#: the released loop of each trainer of numerics.bench.trainers / grq_fig1b, by trainer name
LOOPS = {"grq_fig1b_chunk": grq_fit_nn_gd, "mhs_depth_relu": mhs_depth_relu,
         "lazy_rich_gd": lr_linear_network}


def loops(folder=None) -> dict:
    """Every released loop by trainer name, loaded (a :class:`Loop`), or why it is not here
    (``{"not measured": reason}``)."""
    out = {}
    for name, make in LOOPS.items():
        try:
            out[name] = make(folder=folder)
        except NotAvailable as exc:
            out[name] = {"not measured": str(exc)}
    return out

"""Bad input to the public functions of ``theory/`` and ``numerics/`` (issue 18, item 4).

One table of cases, one parametrised test.  A case calls one public function with one bad
argument (NaN, inf, a negative or zero size, a wrong shape or dtype, an empty array, a huge value,
a wrong type) and requires either

* a named error: the exception type and a message that names the offending argument (the regex
  must match), or
* the documented result: a value the function's docstring states for that input (the case
  names the docstring's words, and a predicate checks the value).

Every call runs under a deadline (:data:`DEADLINE_S`), so a call that hangs fails its case
instead of the run.  A failing case says what went wrong: a silent result (a NaN, an inf, or a
bad argument accepted), a raw library crash, an unclear message, or a hang.

Not covered here: ``numerics/rich_quick`` and ``theory/rich_quick`` (a second pass, once their
rewrite lands), and ``verify/`` (it is the suite's own layer, not a public API).
"""
from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
import sympy as sp
import torch

import numerics.ode as ode
from numerics import closed_forms as cf
from numerics import datasets as nd
from numerics import image_data as im
from numerics import linalg as la
from numerics import metrics as me
from numerics import mode_flows as mf
from numerics import models as mo
from numerics import ran
from numerics import sweep as sw
from numerics import train as tr
from numerics import trajectory as tj
from numerics import validation as va
from numerics.bias import alignment as b_align
from numerics.bias import configs as b_cfg
from numerics.bias import experiments as b_exp
from numerics.bias import gated_linear as b_gl
from numerics.bias import image_data as b_img
from numerics.bias import image_experiments as b_imx
from numerics.bias import instances as b_inst
from numerics.bias import linear_flows as b_lf
from numerics.bias import linear_runs as b_lr
from numerics.bias import mode_fit as b_fit
from numerics.bias import representations as b_rep
from numerics.bias import tasks as b_tasks
from numerics.bias import theory_linear_gd as b_gd
from numerics.bias import units as b_units
from numerics.bias.both_biases import BothBiasEnsemble
from numerics.haste_slowly import analysis as h_an
from numerics.haste_slowly import configs as h_cfg
from numerics.haste_slowly import datasets as h_ds
from numerics.haste_slowly import depth as h_depth
from numerics.haste_slowly import equivalence as h_eq
from numerics.haste_slowly import experiments as h_exp
from numerics.haste_slowly import gate_finder as h_gf
from numerics.haste_slowly import gated as h_gated
from numerics.haste_slowly import graph as h_graph
from numerics.haste_slowly import lemma as h_lemma
from numerics.haste_slowly import linear as h_linear
from numerics.haste_slowly import race as h_race
from numerics.haste_slowly import reln as h_reln
from numerics.haste_slowly import xor as h_xor
from numerics.lazy_rich import configs as l_cfg
from numerics.lazy_rich import empirical as l_emp
from numerics.lazy_rich import experiments as l_exp
from numerics.lazy_rich import init as l_init
from numerics.lazy_rich import kernels as l_ker
from numerics.lazy_rich import runs as l_runs
from numerics.lazy_rich import solution as l_sol
from numerics.lazy_rich import tasks as l_tasks
from numerics.lazy_rich import training as l_train
from theory import conventions as tc
from theory import mode_law as ml
from theory import papers as tp
from theory import registry as tr_reg
from theory.bias import bias_mode as t_bm
from theory.bias import effective_rank as t_er
from theory.haste_slowly import xor_margin as t_xm

#: seconds one call may take before its case fails as a hang
DEADLINE_S = 5.0
nan, inf = float("nan"), float("inf")
ROOT = Path(__file__).resolve().parents[1]
#: papers whose numerics the harness covers (rich_quick: a second pass, see the module docstring)
PAPERS = ("bias", "haste_slowly", "lazy_rich")


# ---------------------------------------------------------------------------------- the cases
@dataclass(frozen=True)
class Case:
    """``fn(*args, **kwargs)`` with one bad argument, named by ``label``; either ``error`` (type)
    with ``match`` (a regex naming the argument), or ``check`` (a predicate on the value) with
    ``doc`` (words of ``fn``'s docstring that document that value)."""

    fn: Callable
    label: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    error: type | None = None
    match: str = ""
    check: Callable[[Any], bool] | None = None
    doc: str = ""

    @property
    def id(self) -> str:
        return f"{qualified(self.fn)}[{self.label}]"


def qualified(fn) -> str:
    fn = inspect.unwrap(fn)
    return f"{fn.__module__}.{fn.__qualname__}"


def bad(fn, label: str, *args, error: type = ValueError, match: str, **kwargs) -> Case:
    return Case(fn, label, args, kwargs, error=error, match=match)


def documented(fn, label: str, *args, check: Callable[[Any], bool], doc: str, **kwargs) -> Case:
    return Case(fn, label, args, kwargs, check=check, doc=doc)


def fields_of(config, **changes) -> dict:
    """A configuration's fields as keywords, with ``changes``: what its constructor sees."""
    return {**{f.name: getattr(config, f.name) for f in dataclasses.fields(config)}, **changes}


def config(cls, base, label: str, match: str, **changes) -> Case:
    """A configuration built from ``base`` with one bad field must be refused at construction."""
    return bad(cls, label, match=match, **fields_of(base, **changes))


def finite(value) -> bool:
    return bool(np.all(np.isfinite(np.asarray(value, dtype=float))))


def close(expected, rtol=1e-9):
    return lambda value: bool(np.allclose(np.asarray(value, dtype=float), expected, rtol=rtol))


# --------------------------------------------------------------------------- shared fixtures
RNG = np.random.default_rng
X22, Y12 = np.eye(2), np.ones((1, 2))
HX, HY = nd.hierarchy(2)
LR_TASK = l_tasks.random_task(3, 2, 6, RNG(0))
LR_W1, LR_W2 = l_init.lambda_balanced_init(0.5, 3, 2, 2, RNG(1))
LR_SQ_TASK, LR_SQ_W1, LR_SQ_W2 = l_exp.problem(2, 2, 1.0, seed=3)
CURVES = np.linspace(1.0, 0.0, 5)[:, None] * np.ones((1, 2))
T5 = np.linspace(0.0, 4.0, 5)
FLOW = {"x": 1.0}


def decay(t, p):
    return {"x": -p["x"]}


def tiny_net():
    return mo.TwoLayerEnsemble.init([0], 2, 3, 1, activation="linear", init_std=0.1)


def tiny_gated():
    return h_gated.GatedNet(h_gated.init_weights([0], [(3, 2), (1, 3)], [0.1, 0.1]), [None])


def unit_task(C=3):
    return h_ds.contexts(C)


def sweep_fn(config, cells, seeds):
    return {"x": np.zeros((len(seeds), len(cells)))}


# ---------------------------------------------------------------------------- shared numerics
SHARED = [
    # numerics.validation
    bad(va.finite_array, "text", "abc", "x", error=TypeError, match=r"\bx must be numeric"),
    bad(va.finite_array, "nan", [1.0, nan], "x", match=r"\bx contains non-finite"),
    bad(va.finite_array, "ragged", [[1.0], [1.0, 2.0]], "x", error=TypeError, match=r"\bx must be numeric"),
    bad(va.finite_array, "wrong ndim", [1.0], "x", ndim=2, match=r"\bx must have 2 dimensions"),
    bad(va.positive, "zero", 0.0, "s", match=r"\bs must be positive"),
    bad(va.positive, "inf", inf, "s", match=r"\bs contains non-finite"),
    # numerics.ode
    bad(ode.integrate_flow, "t_end nan", decay, FLOW, nan, match=r"t_end contains non-finite"),
    bad(ode.integrate_flow, "t_end inf", decay, FLOW, inf, match=r"t_end contains non-finite"),
    bad(ode.integrate_flow, "t_end zero", decay, FLOW, 0.0, match=r"t_end must be positive"),
    bad(ode.integrate_flow, "rhs not callable", 3, FLOW, 1.0, error=TypeError, match=r"\brhs must be callable"),
    bad(ode.integrate_flow, "rhs NaN", lambda t, p: {"x": np.nan * p["x"]}, FLOW, 1.0,
        error=ode.NonFiniteFlow, match=r"rhs returned a non-finite derivative for \['x'\]"),
    bad(ode.integrate_flow, "rhs blows up", lambda t, p: {"x": p["x"] ** 2}, FLOW, 5.0,
        error=ode.IntegrationFailed, match=r"stopped at t=1 before t_end=5"),
    bad(ode.integrate_flow, "rhs misses a name", lambda t, p: {"y": p["x"]}, FLOW, 1.0,
        match=r"rhs must return .*'x'"),
    bad(ode.integrate_flow, "rhs wrong shape", lambda t, p: {"x": np.ones(3)}, FLOW, 1.0,
        match=r"rhs returned .*'x'.* shape"),
    bad(ode.integrate_flow, "empty params", decay, {}, 1.0, match=r"params is empty"),
    bad(ode.integrate_flow, "param NaN", decay, {"x": nan}, 1.0, match=r"params\['x'\] contains non-finite"),
    bad(ode.integrate_flow, "t_eval beyond", decay, FLOW, 1.0, t_eval=[0.0, 2.0], match=r"t_eval must lie"),
    bad(ode.integrate_flow, "t_eval empty", decay, FLOW, 1.0, t_eval=[], match=r"\bt_eval is empty"),
    bad(ode.integrate_flow, "rtol negative", decay, FLOW, 1.0, rtol=-1.0, match=r"rtol"),
    bad(ode.integrate_flow, "method unknown", decay, FLOW, 1.0, method="RK99", match=r"method"),
    # numerics.closed_forms
    bad(cf.mode_strength, "t negative", -1.0, 1.0, 1.0, 0.1, match=r"\bt must be non-negative"),
    bad(cf.mode_strength, "a0 zero", 1.0, 1.0, 1.0, 0.0, match=r"\ba0 must be positive"),
    bad(cf.mode_strength, "tau nan", 1.0, 1.0, 1.0, 0.1, tau=nan, match=r"\btau contains non-finite"),
    documented(cf.mode_strength, "t huge", 1e308, 1.0, 2.0, 0.1, check=close(0.5),
               doc="never overflows for t -> inf"),
    documented(cf.mode_strength, "t zero", 0.0, 1.0, 2.0, 0.1, check=close(0.1), doc="a(0) = a0"),
    bad(cf.mode_strength, "d zero, t huge", 1e3, 1.0, 0.0, 0.1, error=OverflowError,
        match=r"overflows float64 at t=1000"),
    bad(cf.hitting_time, "rho beyond plateau", 2.0, 1.0, 1.0, 0.1, match=r"\brho must lie between"),
    bad(cf.hitting_time, "s zero", 0.5, 0.0, 1.0, 0.1, match=r"\bs must be positive"),
    bad(cf.loss_from_modes, "a NaN", [nan], [1.0], [1.0], 1.0, 4, match=r"\ba contains non-finite"),
    bad(cf.loss_from_modes, "s NaN", [0.1], [nan], [1.0], 1.0, 4, match=r"\bs contains non-finite"),
    bad(cf.loss_from_modes, "modes disagree", [0.1, 0.2], [1.0, 2.0, 3.0], [1.0, 1.0, 1.0], 1.0, 4,
        match=r"\ba .*\bs .*modes"),
    bad(cf.loss_from_modes, "n_samples zero", [0.1], [1.0], [1.0], 1.0, 0, match=r"n_samples"),
    bad(cf.loss_from_modes, "y_norm2 inf", [0.1], [1.0], [1.0], inf, 4, match=r"y_norm2"),
    # numerics.metrics
    bad(me.rel_err, "empty", [], [], match=r"\ba and b are empty"),
    documented(me.rel_err, "shapes differ", [1.0], [1.0, 2.0], check=lambda v: v == inf,
               doc="``inf`` when the shapes differ"),
    documented(me.rel_err, "NaN in a", [nan], [1.0], check=np.isnan, doc="NaN in either"),
    bad(me.effective_rank, "NaN", [[nan]], match=r"\bA contains non-finite"),
    bad(me.effective_rank, "1-d", [1.0, 2.0], match=r"\bA must have 2 dimensions"),
    bad(me.effective_rank, "empty", np.zeros((0, 0)), match=r"\bA is empty"),
    bad(me.effective_rank, "zero", np.zeros((2, 2)), match=r"\bA is the zero matrix"),
    bad(me.kernel_distance, "shapes differ", np.eye(2), np.eye(3), match=r"K1 .*K2 .*shape"),
    bad(me.kernel_distance, "zero kernel", np.eye(2), np.zeros((2, 2)), match=r"K1 or K2 is identically zero"),
    bad(me.kernel_distance, "vector", [1.0, 2.0], np.eye(2), match=r"K1 and K2 must be matrices"),
    bad(me.crossing_time, "level NaN", [0.0, 1.0], [0.0, 1.0], nan, match=r"\blevel contains non-finite"),
    bad(me.crossing_time, "two levels", [0.0, 1.0], [0.0, 1.0], [0.2, 0.5], match=r"\blevel must be one number"),
    bad(me.crossing_time, "empty", [], [], 0.5, match=r"\bseries is empty"),
    bad(me.crossing_time, "times shape", [0.0, 1.0], [0.0], 0.5, match=r"\btimes must have shape"),
    documented(me.crossing_time, "never crosses", [0.0, 0.1], [0.0, 1.0], 0.5, check=lambda v: v == inf,
               doc="inf if it never does"),
    # numerics.linalg
    bad(la.random_orthogonal, "n zero", 0, RNG(0), match=r"\bn=0 must be a positive integer"),
    bad(la.random_orthogonal, "n fraction", 2.5, RNG(0), match=r"\bn=2.5 must be a positive integer"),
    bad(la.random_orthogonal, "rng missing", 3, None, error=TypeError, match=r"\brng must be a numpy"),
    bad(la.random_orthogonal, "n huge", 10 ** 7, RNG(0), match=r"\bn=10000000 .*(too large|at most)"),
    # numerics.datasets
    bad(nd.hierarchy, "depth zero", 0, match=r"\bdepth=0 must be a positive integer"),
    bad(nd.hierarchy, "depth fraction", 1.5, match=r"\bdepth=1.5 must be a positive integer"),
    bad(nd.hierarchy, "depth huge", 40, match=r"\bdepth=40 .*(too large|at most)"),
    bad(nd.augment, "c NaN", X22, nan, match=r"\bc=nan must be finite"),
    bad(nd.augment, "c text", X22, "one", error=TypeError, match=r"\bc='one' must be a number"),
    bad(nd.augment, "X 1-d", [1.0, 2.0], 1.0, match=r"\bX must have 2 dimensions"),
    bad(nd.correlations, "samples differ", X22, np.ones((1, 3)), match=r"\bX has 2 samples but Y has 3"),
    bad(nd.correlations, "Y NaN", X22, [[nan, 1.0]], match=r"\bY contains non-finite"),
    bad(nd.modes, "sigma_x shape", np.ones((1, 2)), np.eye(3), match=r"\bsigma_x must be"),
    bad(nd.modes, "tol negative", np.ones((1, 2)), np.eye(2), tol=-1.0, match=r"\btol"),
    # numerics.image_data
    bad(im.mnist_subset, "n_test negative", -10, match=r"\bn_test=-10 must be"),
    bad(im.mnist_subset, "n_test fraction", 15, match=r"\bn_test=15 must be"),
    bad(im.mnist_subset, "seed fraction", 100, seed=1.5, match=r"\bseed=1.5 must be an integer >= 0"),
    bad(im.read_idx, "missing file", ROOT / "no-such-file.idx", error=FileNotFoundError, match=r"no-such-file"),
    bad(im.load_mnist, "split", ROOT, "val", match=r"\bsplit='val' must be"),
    bad(im.load_cifar10, "split", ROOT, "dev", match=r"\bsplit='dev' must be"),
    bad(im.grayscale, "channels", np.zeros((2, 1, 4, 4)), match=r"\bimages must be \(N, 3, H, W\)"),
    bad(im.grayscale, "NaN", np.full((1, 3, 2, 2), nan), match=r"\bimages contains non-finite"),
    bad(im.as_columns, "3-d", np.zeros((2, 4, 4)), match=r"\bimages must be \(N, C, H, W\)"),
    # numerics.mode_flows
    bad(mf.scalar_mode_flow, "s NaN", nan, 1.0, 0.1, 1.0, T5, match=r"\bs=nan must be finite"),
    bad(mf.scalar_mode_flow, "tau zero", 1.0, 1.0, 0.1, 0.0, T5, match=r"\btau=0.0 must be positive"),
    bad(mf.scalar_mode_flow, "grid empty", 1.0, 1.0, 0.1, 1.0, [], match=r"\bgrid must be"),
    bad(mf.scalar_mode_flow, "grid decreasing", 1.0, 1.0, 0.1, 1.0, [2.0, 1.0], match=r"\bgrid must be"),
    bad(mf.layer_flow_drift, "w1 NaN", lambda w1, w2: (w2, w1), nan, 1.0, 1.0, match=r"params\['w1'\]"),
    bad(mf.layer_flow_drift, "t_end zero", lambda w1, w2: (w2, w1), 1.0, 1.0, 0.0, match=r"t_end must be positive"),
    bad(mf.aligned_flow, "n_in zero", 0, 2, 2, [1.0], [1.0], [0.1], 1.0, match=r"\bn_in=0 must be an integer >= 1"),
    bad(mf.aligned_flow, "modes exceed sizes", 2, 2, 2, [1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [0.1] * 3, 1.0,
        match=r"\bs .*at most"),
    bad(mf.aligned_flow, "a0 negative", 2, 2, 2, [1.0], [1.0], [-0.1], 1.0, match=r"\ba0 must be positive"),
    bad(mf.trained_linear_modes, "steps negative", [0], steps=-1, match=r"\bsteps=-1 must be"),
    bad(mf.trained_linear_modes, "c NaN", [0], c=nan, match=r"\bc=nan must be finite"),
    # numerics.trajectory
    bad(tj.Trajectory, "no steps", [], [], "t/tau", np.zeros((0, 1)), match=r"\bsteps must be a non-empty"),
    bad(tj.Trajectory, "time length", [0, 1], [0.0], "t/tau", np.zeros((2, 1)), match=r"\btime has"),
    bad(tj.Trajectory, "no clock", [0], [0.0], " ", np.zeros((1, 1)), match=r"\bclock must name"),
    bad(tj.Trajectory(np.arange(3), np.arange(3.0), "t/tau", np.zeros((3, 1))).upto, "time before", -1.0,
        match=r"\btime=-1.0 is before the first record"),
    bad(tj.Trajectory(np.arange(3), np.arange(3.0), "t/tau", np.zeros((3, 1))).upto, "time NaN", nan,
        match=r"\btime=nan must be"),
    bad(tj.Trajectory(np.arange(3), np.arange(3.0), "t/tau", np.zeros((3, 1))).final, "unknown record", "W9",
        error=KeyError, match=r"\bname='W9' is not a record"),
    # numerics.ran
    bad(ran.seeds, "scale", "test", 2, match=r"\bscale='test' is not one of"),
    bad(ran.seeds, "n zero", "ci", 0, match=r"\bn=0: a run needs at least one seed"),
    bad(ran.seeds, "n fraction", "ci", 1.5, match=r"\bn=1.5 must be a non-negative integer"),
    bad(ran.seeds, "offset negative", "ci", 2, -1, match=r"\boffset=-1 must be"),
    bad(ran.seeds, "n huge", "ci", 10 ** 9, match=r"reaches the full seeds"),
    bad(ran.Config, "scale", scale="paper", match=r"Config.scale='paper' is not one of"),
    bad(ran.Ran.of, "config not a Config", None, "runner", error=TypeError, match=r"\bconfig must be"),
    bad(ran.Ran, "no settings", "runner", "ci", {}, match=r"\bsettings must map"),
    bad(ran.Ran, "no runner", " ", "ci", {"a": 1}, match=r"\brunner must name"),
    bad(ran.Scales, "ci not ci", ran.Config(scale="full"), ran.Config(scale="full"), match=r"\bci must be a Config"),
    # numerics.sweep
    bad(sw.plan, "empty", 0, 3, 1, 1, match=r"the sweep is empty"),
    bad(sw.plan, "chunk zero", 2, 3, 0, 1, match=r"\bchunk_seeds=0 must be"),
    bad(sw.plan, "chunk fraction", 2, 3, 1, 1.5, match=r"\bchunk_cells=1.5 must be"),
    bad(sw.plan, "n_seeds NaN", nan, 3, 1, 1, match=r"\bn_seeds=nan must be"),
    bad(sw.run_sweep, "no cells", sweep_fn, [], [0], executor="inline", match=r"the sweep is empty"),
    bad(sw.run_sweep, "executor", sweep_fn, [1], [0], executor="gpu", match=r"\bexecutor='gpu' must be"),
    bad(sw.local_executor, "workers zero", 0, match=r"\bworkers=0 must be"),
    bad(sw.fingerprint, "config object", sweep_fn, {"x": object()}, [1], [0], 1, 1, error=TypeError,
        match=r"is not a plain setting"),
    # numerics.models (being optimised elsewhere: see PENDING)
    bad(mo.TwoLayerEnsemble.init, "seed fraction", [1.7], 2, 3, 1, match=r"\bseeds?\b.*1.7.*integer"),
    bad(mo.TwoLayerEnsemble.init, "no seeds", [], 2, 3, 1, match=r"\bseeds\b.*(empty|at least one)"),
    bad(mo.TwoLayerEnsemble.init, "bias strength NaN", [0], 2, 3, 1, bias_strength=nan,
        match=r"\bbias_strength\b.*finite"),
    bad(mo.TwoLayerEnsemble.init, "n_hid zero", [0], 2, 0, 1, match=r"\bn_hid=0 must be a positive integer"),
    bad(mo.TwoLayerEnsemble.init, "init_std NaN", [0], 2, 3, 1, init_std=nan, match=r"\binit_std=nan must be"),
    bad(mo.TwoLayerEnsemble.init, "activation", [0], 2, 3, 1, activation="tanh", match=r"\bactivation='tanh'"),
    bad(mo.as_tensor, "NaN", [nan], "X", match=r"\bX contains non-finite"),
    # numerics.train (being optimised elsewhere: see PENDING)
    bad(tr.train, "lr negative", tiny_net(), X22, Y12, lr=-1.0, steps=2, paper="bias", match=r"\blr=-1.0 must be positive"),
    bad(tr.train, "lr NaN", tiny_net(), X22, Y12, lr=nan, steps=2, paper="bias", match=r"\blr=nan must be positive"),
    bad(tr.train, "steps negative", tiny_net(), X22, Y12, lr=0.1, steps=-5, paper="bias", match=r"\bsteps=-5 must be"),
    bad(tr.train, "steps fraction", tiny_net(), X22, Y12, lr=0.1, steps=2.5, paper="bias", match=r"\bsteps=2.5 must be"),
    bad(tr.train, "record_every zero", tiny_net(), X22, Y12, lr=0.1, steps=2, paper="bias", record_every=0,
        match=r"\brecord_every=0 must be"),
    bad(tr.train, "X NaN", tiny_net(), [[nan, 0.0], [0.0, 1.0]], Y12, lr=0.1, steps=2, paper="bias",
        match=r"\bX contains non-finite"),
    bad(tr.train, "samples differ", tiny_net(), X22, np.ones((1, 3)), lr=0.1, steps=2, paper="bias",
        match=r"\bX has 2 samples but Y has 3"),
    bad(tr.train, "X rows", tiny_net(), np.eye(3), np.ones((1, 3)), lr=0.1, steps=2, paper="bias",
        match=r"\bX has 3 input rows"),
    bad(tr.train, "paper", tiny_net(), X22, Y12, lr=0.1, steps=2, paper="nope", match=r"\bpaper='nope' is not known"),
    bad(tr.train, "lr per member", tiny_net(), X22, Y12, lr=[0.1, 0.2], steps=2, paper="bias",
        match=r"\blr must be a scalar or have shape \(1,\)"),
    bad(tr.train, "diverges", tiny_net(), X22 * 1e3, Y12, lr=10.0, steps=200, paper="bias",
        error=FloatingPointError, match=r"\blr=10.0 .*diverge|non-finite loss"),
    bad(tr.descend, "loss not a LossNorm", lambda *a: None, lambda *a: np.zeros(1), X22, Y12, lr=0.1,
        loss="sum", steps=1, error=TypeError, match=r"\bloss must be a theory.conventions.LossNorm"),
]


# ------------------------------------------------------------------------------------- theory
THEORY = [
    bad(tc.LossNorm(mean=True, half=True).factor, "n_samples zero", 0, match=r"\bn_samples=0 must be a positive"),
    bad(tc.LossNorm(mean=True, half=True).factor, "n_samples fraction", 2.5, match=r"\bn_samples=2.5 must be"),
    bad(tc.flow_time, "steps negative", -1, 0.1, 4, "bias", match=r"\bsteps must be finite and non-negative"),
    bad(tc.flow_time, "steps NaN", [1.0, nan], 0.1, 4, "bias", match=r"\bsteps must be finite"),
    bad(tc.flow_time, "lr zero", 10, 0.0, 4, "bias", match=r"\blr=0.0 must be a positive"),
    bad(tc.flow_time, "lr text", 10, "fast", 4, "bias", error=TypeError, match=r"\blr='fast' must be a number"),
    bad(tc.flow_time, "paper", 10, 0.1, 4, "nope", match=r"\bpaper='nope' is not known"),
    bad(tc.flow_time, "trained_on", 10, 0.1, 4, "bias", trained_on="sum", error=TypeError,
        match=r"\btrained_on must be a LossNorm"),
    documented(tc.flow_time, "zero steps", 0, 0.1, 4, "bias", check=close(0.0), doc="after ``steps``"),
    bad(tc.tau, "lr inf", inf, 4, "bias", match=r"\blr=inf must be a positive"),
    bad(tc.tau, "n_samples negative", 0.1, -4, "bias", match=r"\bn_samples=-4 must be a positive"),
    bad(tc.convention, "paper", "nope", match=r"\bpaper='nope' is not known"),
    bad(ml.ode_residual, "not a formula", "a +* b", error=TypeError, match=r"\bsolution must be a sympy expression"),
    bad(ml.ode_residual, "rhs not sympy", ml.trajectory, rhs_expr=None, error=TypeError,
        match=r"\brhs_expr must be a sympy expression"),
    bad(tp.paper, "unknown", "biass", match=r"\bpaper='biass' is not known"),
    bad(tp.catalogue, "unknown", "nope", match=r"paper 'nope' has no IDs"),
    bad(tp.read_record, "missing", ROOT / "no-such" / "paper.json", match=r"not a readable paper record"),
    bad(tp.add_paper, "not a Paper", None, error=TypeError, match=r"\bpaper must be a Paper"),
    bad(tp.Paper, "key", "1bad", "X-", "t", tp.PAPERS["bias"].convention, ("X-1",), match=r"\bkey='1bad' must be"),
    bad(tr_reg.REGISTRY.__getitem__, "unknown claim", "BL-Nope", error=KeyError, match=r"claim 'BL-Nope' is not registered"),
    bad(tr_reg.Forms, "no forms", match=r"Forms needs at least one named object"),
    bad(t_bm.augmented_inputs, "P zero", 0, match=r"\bP=0 must be a positive integer"),
    bad(t_bm.sigma_x, "P fraction", 2.5, match=r"\bP=2.5 must be a positive integer"),
    bad(t_bm.sigma_yx, "Y not sympy", np.ones((2, 2)), error=TypeError, match=r"\bY must be a sympy Matrix"),
    bad(t_bm.mean_label, "Y not sympy", [[1, 2]], error=TypeError, match=r"\bY must be a sympy Matrix"),
    bad(t_bm.top_eigenvector, "P zero", 0, match=r"\bP=0 must be a positive integer"),
    bad(t_bm.null_vector, "P negative", -2, match=r"\bP=-2 must be a positive integer"),
    bad(t_bm.saturated_bias_mode_outputs, "Y empty", sp.zeros(2, 0), match=r"\bY must have at least one"),
    bad(t_er.evaluate_effective_rank, "empty", t_er.effective_rank_corrected, [], match=r"\bsingular_values must be a non-empty"),
    bad(t_er.evaluate_effective_rank, "NaN", t_er.effective_rank_corrected, [1.0, nan], match=r"\bsingular_values must be"),
    bad(t_er.evaluate_effective_rank, "zero", t_er.effective_rank_corrected, [0.0, 0.0], match=r"\bsingular_values are all zero"),
    bad(t_xm.pathway_statistics, "gate length", t_xm.X, t_xm.Y, [1, 0], 4, match=r"\bgate \(2\), X \(4\)"),
    bad(t_xm.pathway_statistics, "N zero", t_xm.X, t_xm.Y, [1, 1, 1, 1], 0, match=r"\bN=0 must be a positive"),
    bad(t_xm.pathway_statistics, "not sympy", np.ones((3, 4)), t_xm.Y, [1] * 4, 4, error=TypeError,
        match=r"\bX and Y must be sympy matrices"),
    bad(t_xm.mode_of, "two rows", sp.ones(2, 3), sp.eye(3), match=r"\bsyx must be a 1-row sympy matrix"),
]


# --------------------------------------------------------------------------------- bias papers
TOY = b_cfg.HIERARCHY.ci
IMG = b_cfg.MNIST.ci
BIAS = [
    # configurations refuse bad fields
    config(b_cfg.ToyConfig, TOY, "lr NaN", r"\blr=nan must be a positive finite", lr=nan),
    config(b_cfg.ToyConfig, TOY, "horizon inf", r"\bhorizon=inf must be a positive finite", horizon=inf),
    config(b_cfg.ToyConfig, TOY, "no seeds", r"\bseeds=\(\) must be a non-empty", seeds=()),
    config(b_cfg.ToyConfig, TOY, "seed fraction", r"\bseeds=\(1.5,\) must be", seeds=(1.5,)),
    config(b_cfg.ToyConfig, TOY, "c negative", r"\bcs=\(-1.0,\) must be", cs=(-1.0,)),
    config(b_cfg.ToyConfig, TOY, "c NaN", r"\bcs=\(nan,\) must be", cs=(nan,)),
    config(b_cfg.ToyConfig, TOY, "task", r"\btask='xor3' is not one of", task="xor3"),
    config(b_cfg.ToyConfig, TOY, "n_hid zero", r"\bn_hid=0 must be a positive integer", n_hid=0),
    config(b_cfg.ToyConfig, TOY, "records zero", r"\brecords_per_tau=0 must be a positive integer", records_per_tau=0),
    config(b_cfg.ToyConfig, TOY, "dtype", r"\bdtype='float16' is not one of", dtype="float16"),
    config(b_cfg.ToyConfig, TOY, "sensitivity", r"\bsensitivity names \['colour'\]", sensitivity=("colour",)),
    config(b_cfg.ToyConfig, b_cfg.MARGIN.ci, "Delta NaN", r"\bdeltas=\(nan,\)", deltas=(nan,)),
    config(b_cfg.ImageConfig, IMG, "n_train zero", r"\bn_train=0 must be a positive integer", n_train=0),
    config(b_cfg.ImageConfig, IMG, "lr NaN", r"\blr=nan must be a positive finite", lr=nan),
    config(b_cfg.ImageConfig, IMG, "data", r"\bdata='imagenet' is not one of", data="imagenet"),
    config(b_cfg.ImageConfig, IMG, "records zero", r"\brecords=0 must be a positive integer", records=0),
    config(b_cfg.ImageConfig, IMG, "init_var negative", r"\binit_var=-1.0 must be a positive finite", init_var=-1.0),
    config(b_cfg.ImageConfig, IMG, "c NaN", r"\bcs=\(nan,\) must be", cs=(nan,)),
    config(b_cfg.ImageConfig, IMG, "no seeds", r"\bseeds=\(\) must be a non-empty", seeds=()),
    config(b_cfg.ImageConfig, b_cfg.MNIST.full, "records_per_epoch zero", r"\brecords_per_epoch=0 must be",
           records_per_epoch=0),
    bad(b_cfg.variant, "setting", TOY, "colour", match=r"\bsetting='colour' is not one of"),
    bad(b_cfg.variant, "config", None, "seeds", error=TypeError, match=r"\bconfig must be a .*ToyConfig"),
    # runners
    bad(b_exp.toy_pair, "config", "hierarchy4", error=TypeError, match=r"\bconfig must be a .*ToyConfig"),
    bad(b_exp.toy_study, "config", None, error=TypeError, match=r"\bconfig must be a .*ToyConfig"),
    bad(b_exp.no_dead_unit_pair, "lr negative", lr=-1.0, match=r"\blr=-1.0 must be positive"),
    bad(b_exp.no_dead_unit_pair, "steps zero", steps=0, match=r"\bsteps=0 must be a positive"),
    bad(b_exp.no_dead_unit_pair, "bias_shift NaN", bias_shift=nan, match=r"\bbias_shift=nan must be finite"),
    bad(b_exp.no_dead_unit_pair, "no seeds", seeds=(), match=r"\bseeds=\(\) must be a non-empty"),
    bad(b_exp.no_dead_unit_pair, "seed fraction", seeds=(1.5,), match=r"\bseeds\[0\]=1.5 must be"),
    bad(b_imx.image_pair, "config", TOY, error=TypeError, match=r"\bconfig must be a .*ImageConfig"),
    bad(b_imx.image_run, "activation", IMG, "tanh", 64, match=r"\bactivation='tanh' is not one of"),
    bad(b_imx.image_run, "width zero", IMG, "relu", 0, match=r"\bwidth=0 must be a positive integer"),
    bad(b_imx.image_run, "width fraction", IMG, "relu", 2.5, match=r"\bwidth=2.5 must be a positive integer"),
    bad(b_imx.raw_images, "config", None, error=TypeError, match=r"\bconfig must be an ImageConfig"),
    bad(b_imx.image_data_of, "config", "mnist", error=TypeError, match=r"\bconfig must be an ImageConfig"),
    bad(b_exp.grid, "no axes", match=r"\baxes\b.*at least one"),
    # tasks and data
    bad(b_tasks.xor, "coding", "0/2", match=r"\bcoding='0/2' must be one of"),
    bad(b_tasks.xor_margin, "delta NaN", nan, match=r"\bdelta=nan must be finite"),
    bad(b_tasks.xor_margin, "delta negative", -0.5, match=r"\bdelta=-0.5 must be finite and non-negative"),
    bad(b_tasks.task, "name", "xor3", match=r"\btask='xor3' is not one of"),
    bad(b_tasks.data_facts, "1-d", [1.0, 2.0], HY, match=r"\bX \(2,\) and Y"),
    bad(b_tasks.data_facts, "NaN", [[nan, 1.0]], [[1.0, 0.0]], match=r"\bX contains non-finite"),
    bad(b_tasks.equal_overlap, "1-d", [1.0, 2.0], match=r"\bY must have 2 dimensions"),
    bad(b_tasks.equal_overlap, "NaN", [[nan, 1.0]], match=r"\bY contains non-finite"),
    bad(b_img.one_hot, "out of range", [0, 10], match=r"\blabels must be 1-d integers in \[0, 10\)"),
    bad(b_img.one_hot, "empty", [], match=r"\blabels must be .*non-empty|\blabels is empty"),
    bad(b_img.one_hot, "fractions", [0.5, 1.0], match=r"\blabels must be 1-d integers"),
    bad(b_img.preprocess, "kind", np.eye(3), np.eye(3), "zscore", match=r"\bkind='zscore' must be"),
    bad(b_img.preprocess, "constant", np.ones((2, 3)), np.ones((2, 3)), "standard", match=r"\bX_train is constant"),
    bad(b_img.preprocess, "pixels differ", np.eye(3), np.ones((2, 3)), "pixel", match=r"\bX_test has 2 pixels"),
    # analysis
    bad(b_align.max_gap, "grid not increasing", CURVES, CURVES, T5[::-1], match=r"\bt must be strictly increasing"),
    bad(b_align.max_gap, "shapes", CURVES, CURVES[:, :1], T5, match=r"curves .* do not match"),
    bad(b_align.best_warp, "kind", CURVES, CURVES, T5, "stretch", [1.0], match=r"\bkind='stretch' must be"),
    bad(b_align.best_warp, "empty grid", CURVES, CURVES, T5, "shift", [], match=r"\bgrid must be non-empty|\bgrid is empty"),
    bad(b_align.best_warp, "zero scale", CURVES, CURVES, T5, "scale", [0.0], match=r"\bgrid must be positive"),
    bad(b_align.first_time, "below NaN", CURVES, T5, nan, match=r"\bbelow=nan must be finite"),
    bad(b_align.dwell_time, "level NaN", CURVES, T5, nan, 0.1, match=r"\blevel contains non-finite"),
    bad(b_align.dwell_time, "non-uniform grid", CURVES, [0, 1, 2, 4, 8], 0.5, 0.1, match=r"uniform time grid"),
    bad(b_align.seed_spread, "one member", CURVES[:, :1], T5, match=r"needs at least two members"),
    bad(b_align.plateaus, "c NaN", HX, HY, nan, match=r"\bc=nan must be finite"),
    bad(b_align.plateaus, "samples differ", HX, HY[:, :3], 1.0, match=r"\bX .* and Y .* must share"),
    bad(b_align.half_rise_times, "modes differ", np.ones((3, 2, 4)), T5[:3], [1.0, 1.0], match=r"\bplateau must have shape \(4,\)"),
    bad(b_align.map_modes, "modes differ", np.ones((2, 1, 2, 3)), np.ones((1, 2, 3)), np.eye(2), np.eye(3),
        match=r"\bU .* V .* do not fit"),
    bad(b_units.unit_states, "1-d", [1.0, -1.0], match=r"\bZ must be \(\.\.\., n_hid, P\)"),
    bad(b_units.kinks, "zero row", np.array([[1.0, 0.0, 0.0]]), 1.0, match=r"\bW1 has a unit with zero input weights"),
    bad(b_units.kinks, "c NaN", np.array([[1.0, 1.0, 0.0]]), nan, match=r"\bc contains non-finite"),
    bad(b_units.linearisation_time, "records differ", T5, np.ones(4), match=r"\bf_on has 4 records but steps has 5"),
    bad(b_units.dead_at_init_probability, "c NaN", nan, 4, match=r"\bc=nan must be finite"),
    bad(b_units.dead_at_init_probability, "c text", "big", 4, error=TypeError, match=r"\bc='big' must be a number"),
    bad(b_units.dead_at_init_probability, "P zero", 1.0, 0, match=r"\bP=0 must be a positive integer"),
    bad(b_rep.linear_cka, "samples differ", np.ones((2, 3)), np.ones((2, 4)), match=r"\bA and B must share"),
    bad(b_rep.linear_cka, "constant", np.ones((2, 3)), np.eye(3), match=r"constant over the samples"),
    documented(b_rep.rsa, "constant distances", np.ones((2, 3)), np.eye(3), check=np.isnan,
               doc="NaN where"),
    bad(b_rep.classical_mds, "dim zero", np.eye(3), 0, match=r"\bdim=0 must be"),
    bad(b_rep.classical_mds, "1-d", [1.0, 2.0], match=r"\bpoints must have 2 dimensions"),
    bad(b_rep.variance_explained, "rows", np.ones((2, 3)), np.ones((4, 1)), match=r"\bdesign has 4 rows but H has 3"),
    bad(b_rep.variance_explained, "constant", np.ones((2, 3)), np.arange(3.0), match=r"\bH has no variance"),
    # linear theory runs
    bad(b_gd.init_weights, "std zero", [0], 2, 3, 1, 0.0, match=r"\bstd must be positive"),
    bad(b_gd.init_weights, "seed fraction", [1.5], 2, 3, 1, 0.1, match=r"\bseeds\[0\]=1.5 must be"),
    bad(b_gd.init_weights, "n_in zero", [0], 0, 3, 1, 0.1, match=r"\bn_in=0 must be an integer >= 1"),
    bad(b_gd.init_weights, "no seeds", [], 2, 3, 1, 0.1, match=r"\bseeds=\[\] must be a non-empty"),
    bad(b_gd.train_linear, "steps zero", HX, HY, np.ones((1, 3, 4)), np.ones((1, 7, 3)), lr=0.1, steps=0,
        U=np.eye(7), V=np.eye(4), match=r"\bsteps=0 must be a positive integer"),
    bad(b_gd.train_linear, "lr NaN", HX, HY, np.ones((1, 3, 4)), np.ones((1, 7, 3)), lr=nan, steps=2,
        U=np.eye(7), V=np.eye(4), match=r"\blr contains non-finite"),
    bad(b_gd.train_linear, "weights", HX, HY, np.ones((1, 3, 5)), np.ones((1, 7, 3)), lr=0.1, steps=2,
        U=np.eye(7), V=np.eye(4), match=r"\bW1 .* and W2 .* do not fit"),
    bad(b_gd.logistic_rate, "plateau NaN", T5, [0.1, 0.2, 0.5, 0.8, 0.9], nan, match=r"\bplateau=nan must be finite"),
    bad(b_gd.half_rise_step, "plateau zero", T5, [0.1, 0.2, 0.5, 0.8, 0.9], 0.0, match=r"\bplateau=0.0 must be positive"),
    bad(b_lr.linear_modes, "dead all", seeds=[0], n_hid=4, dead=4, match=r"\bdead=4 must be an integer in \[0, n_hid\)"),
    bad(b_lr.linear_modes, "no seeds", seeds=[], match=r"\bseeds=\[\] must be a non-empty"),
    bad(b_lr.gated_a0_ratio, "fraction above one", 8, 1.5, 0, match=r"\bdead_fraction=1.5 must lie in \[0, 1\]"),
    bad(b_lr.gated_a0_ratio, "n_hid zero", 0, 0.5, 0, match=r"\bn_hid=0 must be an integer >= 1"),
    bad(b_lr.hierarchy_modes, "c NaN", nan, match=r"\bc=nan must be finite"),
    bad(b_lr.hierarchy_modes, "depth zero", 1.0, 0, match=r"\bdepth=0 must be a positive integer"),
    bad(b_fit.theory_loss, "a0 zero", T5, HX, HY, 1.0, 0.0, match=r"\ba0=0.0 must be positive"),
    bad(b_fit.theory_loss, "t NaN", [0.0, nan], HX, HY, 1.0, 0.1, match=r"\bt contains non-finite"),
    bad(b_fit.fit_a0, "bounds", T5, np.ones(5), HX, HY, 1.0, bounds=(1.0, 0.5), match=r"\bbounds=\(1.0, 0.5\) must be"),
    bad(b_lf.linear_flow_plateau, "a0 above one", HY, 1.0, a0=2.0, match=r"\ba0=2.0 must lie in \(0, 1\)"),
    bad(b_lf.linear_flow_plateau, "one item", np.ones((2, 1)), 1.0, match=r"\bY .*at least two"),
    bad(b_lf.linear_flow_plateau, "c NaN", HY, nan, match=r"\bc=nan must be finite"),
    bad(b_lf.decoupled_flow, "a0 zero", True, a0=0.0, match=r"\ba0=0.0 must lie in \(0, 1\)"),
    bad(b_lf.decoupled_flow, "n_in zero", True, n_in=0, match=r"\bn_in=0 must be a positive integer"),
    bad(b_lf.balanced_mode_product, "s negative", -1.0, 1.0, 1.0, 0.1, T5, match=r"\bs, d, tau must be positive"),
    bad(b_lf.balanced_mode_product, "w0 NaN", 1.0, 1.0, 1.0, nan, T5, match=r"\bw0 contains non-finite"),
    bad(b_lf.balanced_mode_product, "empty grid", 1.0, 1.0, 1.0, 0.1, [], match=r"\bgrid must be a non-empty"),
    bad(b_lf.scalar_mode, "rate NaN", lambda a: nan, 0.1, T5, error=ode.NonFiniteFlow, match=r"\brate returned a non-finite"),
    bad(b_lf.scalar_mode, "rate blows up", lambda a: a ** 2, 1.0, T5, error=ode.IntegrationFailed,
        match=r"stopped at t=1 before the end of grid"),
    bad(b_lf.scalar_mode, "rate not callable", 2.0, 0.1, T5, error=TypeError, match=r"\brate must be a callable"),
    bad(b_gl.gated_linear_loss, "t_star NaN", T5, nan, np.ones((2, 5)), np.ones((7, 2)), np.ones(2, bool), HX, HY, 1.0,
        match=r"\bt_star=nan must be finite"),
    bad(b_gl.gated_linear_loss, "mask", T5, 0.0, np.ones((2, 5)), np.ones((7, 2)), np.ones(3, bool), HX, HY, 1.0,
        match=r"\balways_on must be a boolean mask of the 2 hidden units"),
    bad(b_inst.network_instance, "n_in zero", 0, 3, 1, 4, 1.0, 0, match=r"\bn_in=0 must be a positive integer"),
    bad(b_inst.network_instance, "c NaN", 2, 3, 1, 4, nan, 0, match=r"\bc=nan must be finite"),
    bad(b_inst.network_instance, "seed fraction", 2, 3, 1, 4, 1.0, 1.5, match=r"\bseed=1.5 must be an integer"),
    bad(b_inst.autograd_rates, "lr NaN", b_inst.network_instance(2, 3, 1, 4, 1.0, 0)[1], np.ones((2, 4)),
        np.ones((1, 4)), nan, match=r"\blr=nan must be finite"),
    bad(BothBiasEnsemble.init, "no seeds", [], 2, 3, 1, match=r"\bseeds=\[\] must be a non-empty"),
    bad(BothBiasEnsemble.init, "init_std NaN", [0], 2, 3, 1, init_std=nan, match=r"\binit_std=nan must be"),
]


# ------------------------------------------------------------------------- Make haste slowly
SEC45 = h_cfg.SEC45.ci
HASTE = [
    config(h_cfg.Sec45, SEC45, "lr NaN", r"Sec45.lr=nan must be positive", lr=nan),
    config(h_cfg.Sec45, SEC45, "epochs zero", r"Sec45.epochs=0 must be positive", epochs=0),
    config(h_cfg.Sec45, SEC45, "dtype", r"Sec45.dtype='float16' must be", dtype="float16"),
    config(h_cfg.Sec45, SEC45, "no seeds", r"Sec45.seeds=\(\) must be", seeds=()),
    config(h_cfg.Sec45, SEC45, "seed fraction", r"Sec45.seeds=\(1.5,\) must be", seeds=(1.5,)),
    config(h_cfg.Gates, h_cfg.GATES.ci, "k zero", r"Gates.ks=\(0, 2\) must be", ks=(0, 2)),
    config(h_cfg.Gates, h_cfg.GATES.ci, "std NaN", r"Gates.stds=\(nan,\) must be positive", stds=(nan,)),
    config(h_cfg.Gates, h_cfg.GATES.ci, "every zero", r"Gates.every=0 must be positive", every=0),
    config(h_cfg.Gates, h_cfg.GATES.ci, "scales differ", r"Gates.sec45 must be a configuration of the same scale",
           sec45=h_cfg.SEC45.full),
    config(h_cfg.Depth, h_cfg.DEPTH.ci, "schedule", r"need 0 <= start", start=20000),
    config(h_cfg.Depth, h_cfg.DEPTH.ci, "std NaN", r"Depth.gdln_std=.* must be 4 positive finite", gdln_std=(nan, 1.0, 1.0, 1.0)),
    config(h_cfg.Depth, h_cfg.DEPTH.ci, "width zero", r"Depth.width=0 must be positive", width=0),
    config(h_cfg.Xor, h_cfg.XOR, "hidden zero", r"Xor.hidden=0 must be positive", hidden=0),
    config(h_cfg.Xor, h_cfg.XOR, "Delta negative", r"Xor.deltas=\(-1.0,\) must be", deltas=(-1.0,)),
    config(h_cfg.Xor, h_cfg.XOR, "dtype", r"Xor.dtype='float16' must be", dtype="float16"),
    config(h_cfg.Linear, h_cfg.FIG7, "dtype", r"Linear.dtype='half' must be", dtype="half"),
    config(h_cfg.Linear, h_cfg.FIG7, "lr inf", r"Linear.lr=inf must be positive", lr=inf),
    config(h_cfg.Tasks, h_cfg.TASKS, "one context", r"Tasks.contexts=\(1,\) must be", contexts=(1,)),
    config(h_cfg.Tasks, h_cfg.TASKS, "no contexts", r"Tasks.contexts=\(\) must be", contexts=()),
    # runners
    bad(h_exp.relu_run, "config", None, error=TypeError, match=r"\bcfg must be a configs.Sec45"),
    bad(h_exp.relu_run, "C", SEC45, 7, match=r"\bC=7 must be None"),
    bad(h_exp.reln_run, "k zero", SEC45, None, 0, match=r"\bk=0 must lie in \[1, C=3\]"),
    bad(h_exp.reln_run, "config", h_cfg.XOR, error=TypeError, match=r"\bcfg must be a configs.Sec45"),
    bad(h_gf.elbow_run, "config", SEC45, error=TypeError, match=r"\bcfg must be a configs.Gates"),
    bad(h_depth.depth_run, "kind", "resnet", h_cfg.DEPTH.ci, match=r"\bkind='resnet' must be one of"),
    bad(h_depth.depth_run, "config", "relu", None, error=TypeError, match=r"\bcfg must be a configs.Depth"),
    bad(h_depth.depth_net, "kind", "resnet", h_cfg.DEPTH.ci, match=r"\bkind='resnet' must be one of"),
    bad(h_xor.relu_sweep, "config", SEC45, error=TypeError, match=r"\bcfg must be a configs.Xor"),
    bad(h_linear.linear_run, "config", SEC45, error=TypeError, match=r"\bcfg must be a configs.Linear"),
    bad(h_ds.all_tasks, "config", None, error=TypeError, match=r"\bcfg must be a configs.Tasks"),
    # data
    bad(h_ds.xor_margin, "delta negative", -1.0, match=r"\bdelta=-1.0 must be non-negative"),
    bad(h_ds.xor_margin, "delta NaN", nan, match=r"\bdelta contains non-finite"),
    bad(h_ds.hierarchy_block, "not a power of two", 6, match=r"\bn_items=6 must be a power of two"),
    bad(h_ds.hierarchy_block, "zero items", 0, match=r"\bn_items=0 must be a power of two"),
    bad(h_ds.contexts, "C one", 1, match=r"\bC=1 must be an integer >= 2"),
    bad(h_ds.contexts, "scale zero", 3, 0.0, match=r"\bscale=0.0 must be positive"),
    bad(h_ds.k_of_c, "k zero", 3, 0, match=r"\bk=0 must lie in \[1, C=3\]"),
    bad(h_ds.k_of_c, "k fraction", 3, 1.5, match=r"\bk=1.5 must be an integer"),
    bad(h_ds.context_of, "C zero", 0, match=r"\bC=0 must be an integer >= 1"),
    bad(h_ds.context_gates, "context out of range", 3, [{5}], match=r"\bactive_sets\[0\]=\{5\} must name contexts in"),
    bad(h_ds.zero_output_loss, "NaN", [nan], match=r"\bY contains non-finite"),
    bad(h_ds.contextual_statistics, "C wrong", *unit_task(3), 4, match=r"must have 8 x C = 32 datapoints"),
    bad(h_ds.overlap_and_rho, "C wrong", *unit_task(3), 2, match=r"must have 8 x C = 16 datapoints"),
    # gated networks
    bad(h_gated.paper_time, "clock", 10, 1e-3, 24, "hours", match=r"\bclock='hours' must be one of"),
    bad(h_gated.paper_time, "lr zero", 10, 0.0, 24, "epochs", match=r"\blr=0.0 must be a positive"),
    bad(h_gated.GatedNet, "2-d weights", [torch.ones(3, 2), torch.ones(1, 3)], [None],
        match=r"weights\[0\] must be \(K, rows, cols\)"),
    bad(h_gated.GatedNet, "gates count", [torch.ones(1, 3, 2), torch.ones(1, 1, 3)], [], match=r"\bgates must have one entry"),
    bad(h_gated.init_weights, "seed negative", [-1], [(3, 2)], [0.1], match=r"\bseed=-1 must be a non-negative integer"),
    bad(h_gated.init_weights, "std zero", [0], [(3, 2)], [0.0], match=r"\bstds\[0\] must be positive"),
    bad(h_gated.init_weights, "stds count", [0], [(3, 2), (1, 3)], [0.1], match=r"\bstds has 1 entries for 2 layers"),
    bad(h_gated.init_weights, "zero rows", [0], [(0, 2)], [0.1], match=r"\bshapes\[0\]=\(0, 2\) must be"),
    bad(h_gated.block_normal, "rng", None, [2], [2], [[1.0]], error=TypeError, match=r"\brng must be a numpy.random.RandomState"),
    bad(h_gated.train, "lr negative", tiny_gated(), X22, Y12, lr=-1.0, steps=2, match=r"\blr=-1.0 must be positive"),
    bad(h_gated.train, "steps negative", tiny_gated(), X22, Y12, lr=0.1, steps=-1, match=r"\bsteps=-1 must be"),
    bad(h_gated.train, "clock", tiny_gated(), X22, Y12, lr=0.1, steps=1, clock="hours", match=r"\bclock='hours'"),
    bad(h_gated.train, "lr per member", tiny_gated(), X22, Y12, lr=[0.1], steps=1, match=r"\blr must be one rate"),
    bad(h_xor.stacked_inputs, "no seeds", [0.5], [], match=r"\bseeds=\[\] must be a non-empty"),
    bad(h_xor.stacked_inputs, "Delta negative", [-1.0], [0], match=r"\bdelta=-1.0 must be non-negative"),
    bad(h_xor.train_gdln, "width zero", 0.5, h_xor.LINEAR_GATES, width=0, match=r"\bwidth=0 must be an integer >= 1"),
    bad(h_xor.train_gdln, "gates columns", 0.5, np.ones((2, 3)), match=r"\bgates must be \(pathways, 4\)"),
    bad(h_reln.relu, "std zero", [0], (2, 3, 1), 0.0, match=r"\bstds\[0\] must be positive"),
    bad(h_reln.pathways, "k too large", 3, 4, 10, 0.1, 0.1, match=r"\bk=4 must lie in \[1, C=3\]"),
    bad(h_reln.loss_without, "drop shape", tiny_gated(), X22, Y12, np.zeros((1, 4), bool), match=r"\bdrop must have shape"),
    bad(h_gf.collect, "shapes", np.zeros((2, 1, 3, 4)), np.ones((2, 1, 2)), match=r"\bpatterns .* and masses .* disagree"),
    bad(h_gf.find_gates, "k zero", np.eye(3), 0, match=r"\bk=0 must be an integer in \[1, 3\]"),
    bad(h_gf.binarise, "threshold NaN", np.eye(2), nan, match=r"\bthreshold=nan must be"),
    bad(h_gf.gdlns_from_centroids, "no centroids", [], 11, 60, 4, [0.1], [0], match=r"\bcentroid_sets must be a non-empty"),
    bad(h_gf.gdlns_from_centroids, "width zero", [np.ones((1, 24))], 11, 60, 0, [0.1], [0],
        match=r"\bwidth=0 must be an integer >= 1"),
    bad(h_race.pathway_flow, "tau zero", [np.ones((1, 2))], [[np.eye(2)]], np.ones((1, 2, 2)), np.ones((1, 1, 2)),
        0.0, T5, match=r"\btau must be positive"),
    bad(h_race.pathway_flow, "empty t_eval", [np.ones((1, 2))], [[np.eye(2)]], np.ones((1, 2, 2)), np.ones((1, 1, 2)),
        1.0, [], match=r"\bt_eval is empty"),
    bad(h_race.race_flow, "b1 NaN", np.ones((1, 1)), np.ones((1, 1, 1)), np.ones((1, 1)), [[nan]], [[0.1]], 1.0, T5,
        match=r"params\['b1'\] contains non-finite"),
    bad(h_race.two_pathway_case, "overlap above one", 1.5, match=r"\boverlap=1.5 must lie in \[-1, 1\]"),
    bad(h_race.two_pathway_case, "overlap NaN", nan, match=r"\boverlap=nan must lie in \[-1, 1\]"),
    bad(h_race.contextual_race, "C one", 1, match=r"\bC=1 must be an integer >= 2"),
    bad(h_graph.Graph, "edge backwards", [1, 1], [(1, 0)], [0], [1], match=r"edges\[0\]=\(1, 0\) must satisfy"),
    bad(h_graph.random_case, "N zero", 0, 0, match=r"\bN=0 must be a positive integer"),
    bad(h_lemma.realisable, "not 0/1", [[2, 0]], match=r"\bpattern must be a 2-D 0/1 array"),
    bad(h_lemma.enumerate_patterns, "too many", 5, 5, match=r"n_items\*C=25 > 16"),
    bad(h_lemma.enumerate_patterns, "zero items", 0, 3, match=r"\bn_items=0 must be an integer >= 1"),
    bad(h_eq.gd_beside_flow, "lr zero", lambda lr, N: 1 / lr, 0.0, 5, match=r"\blr=0.0 must be positive"),
    bad(h_eq.gd_beside_flow, "steps zero", lambda lr, N: 1 / lr, 0.1, 0, match=r"\bsteps=0 must be an integer >= 1"),
    bad(h_eq.equivalence_runs, "steps negative", steps=-1, match=r"\bsteps=-1 must be an integer >= 1"),
    # analysis
    bad(h_an.flow_times, "epochs NaN", [nan], 24, match=r"\bepochs contains non-finite"),
    bad(h_an.flow_times, "n_samples zero", [1.0], 0, match=r"\bn_samples=0 must be an integer >= 1"),
    bad(h_an.first_time, "level NaN", T5, CURVES, nan, match=r"\blevel contains non-finite"),
    bad(h_an.first_time, "instants differ", T5[:3], CURVES, 0.5, match=r"\btimes has \(3,\) instants"),
    bad(h_an.deviation_from_mean, "L0 zero", CURVES, 0.0, match=r"\bL0=0.0 must be positive"),
    bad(h_an.stereotypical, "1-d", [1.0, 2.0], match=r"\bloss must be \(T, K\) curves"),
    bad(h_an.mass_shares, "no mass", np.ones((1, 3)), np.zeros((1, 3)), [1], match=r"\bmass\b.*(zero|positive)"),
    bad(h_an.per_context, "length", [np.ones(20)], 3, match=r"\bcentroids\b.*24"),
    bad(h_an.reln_patterns, "C one", 1, match=r"\bC=1 must be an integer >= 2"),
    bad(h_an.aligned_curves, "every zero", tj.Trajectory(np.arange(5), T5, "epochs", CURVES), [0.0, 0.0], 2.0, 0.0,
        match=r"\bevery=0.0 must be positive"),
    bad(h_an.aligned_curves, "start NaN", tj.Trajectory(np.arange(5), T5, "epochs", CURVES), [nan, 0.0], 2.0, 1.0,
        match=r"\bstart contains non-finite"),
    bad(h_an.loss_distance, "grids differ", CURVES, CURVES[:3], 1.0, match=r"\ba and b must share a time grid"),
    bad(h_an.seed_spread, "L0 NaN", CURVES, nan, match=r"\bL0 contains non-finite"),
    bad(h_an.rdm, "2-d", np.ones((3, 4)), match=r"\bH must be \(K, units, N\)"),
    bad(h_an.rdm_correlation, "one run, same", np.ones((1, 2, 3)), np.ones((1, 2, 3)), True,
        match=r"\bHa\b.*at least two runs"),
    bad(h_an.context_usage, "C one", np.ones((2, 24)), 1, match=r"\bC=1 must be an integer >= 2"),
    bad(h_an.fit_a0, "level one", T5, T5, 1.0, 1.0, level=1.0, match=r"\blevel=1.0 must lie in \(0, 1\)"),
    bad(h_an.fit_a0, "s zero", T5, T5, 0.0, 1.0, match=r"\bs=0.0 must be positive"),
    bad(h_an.elbows, "two ks", {1: 1.0, 2: 0.5}, match=r"\bmse needs at least 3 values"),
    bad(h_an.race_gap, "lengths differ", np.ones(5), np.ones(4), 1.0, match=r"\bloss_alt .* and loss_star .* must"),
    bad(h_an.sigma1_increase, "keep empty", HX, HY, [], match=r"\bkeep must name at least one"),
    bad(h_an.sigma1_increase, "keep out of range", HX, HY, [9], match=r"\bkeep\b.*indices in \[0, 4\)"),
    bad(h_an.relative_error, "shapes", [1.0], [1.0, 2.0], match=r"\ba \(1,\) and b \(2,\) must have one shape"),
    bad(h_an.relative_error, "zero reference", [1.0], [0.0], match=r"\bb is zero"),
    bad(h_an.rise_time, "plateau zero", T5, T5, 0.0, match=r"\bplateau=0.0 must be positive"),
    bad(h_an.overlap_error, "C one", 1.0, 1, *unit_task(3), match=r"\bC=1 must be an integer >= 2"),
    bad(h_an.criterion_times, "delta negative", -1.0, 1e-3, lambda d: ((1, 1), (1, 1)), match=r"\bdelta=-1.0 must be"),
    bad(h_an.criterion_times, "criterion too large", 1.0, 1e-3, lambda d: ((1, 1), (1, 1)), criterion=0.6,
        match=r"\bcriterion=0.6 must lie in \(0, 0.5\)"),
    bad(h_an.detectable_effect, "one seed", 1, 5, match=r"\bn1=1, n2=5 must be >= 2"),
    bad(h_an.cohen_d, "one value", [1.0], [2.0, 3.0], match=r"\ba and b need at least two values"),
    bad(h_an.cross_modes, "after all records", np.ones((3, 2, 2)), np.array([1.0, 2.0]), T5[:3], 10.0,
        match=r"\bafter=10.0 .*no record"),
    bad(h_an.linearly_separable, "delta NaN", nan, match=r"\bdelta contains non-finite"),
    bad(h_an.time_course_values, "s zero", 0.0, 1e-3, 0.5, [1.0], match=r"\bs=0.0 must be positive"),
]


# -------------------------------------------------------------------------- From lazy to rich
LAZY = [
    config(l_cfg.Framing, l_cfg.FRAMING.ci, "no seeds", r"Framing.seeds=\(\) must be a non-empty", seeds=()),
    config(l_cfg.Framing, l_cfg.FRAMING.ci, "lr NaN", r"Framing.lr contains non-finite", lr=nan),
    config(l_cfg.Framing, l_cfg.FRAMING.ci, "lr negative", r"Framing.lr=-1.0 must be positive", lr=-1.0),
    config(l_cfg.Framing, l_cfg.FRAMING.ci, "steps zero", r"Framing.steps=0 must be an integer >= 1", steps=0),
    config(l_cfg.Framing, l_cfg.FRAMING.ci, "dims zero", r"Framing.dims\[1\]=0 must be an integer >= 1",
              dims=(3, 0, 3)),
    config(l_cfg.Framing, l_cfg.FRAMING.ci, "variance zero", r"Framing.target_variances\[0\]=0.0 must be positive",
              target_variances=(0.0,)),
    config(l_cfg.Balance, l_cfg.BALANCE.ci, "dims negative", r"Balance.dims\[1\]=-1 must be an integer >= 1",
              dims=(40, -1, 250)),
    config(l_cfg.Balance, l_cfg.BALANCE.ci, "permutations zero", r"Balance.permutations=0 must be", permutations=0),
    config(l_cfg.ScaleMap, l_cfg.SCALE_MAP, "scale zero", r"ScaleMap.scales\[0\]=0.0 must be positive",
              scales=(0.0, 1.5, 7)),
    config(l_cfg.Transfer, l_cfg.TRANSFER, "item negative", r"Transfer.trained_item=-1 must be", trained_item=-1),
    config(l_cfg.Transfer, l_cfg.TRANSFER, "item beyond", r"Transfer.trained_item=8 must index one of the 8 items",
              trained_item=8),
    config(l_cfg.Moments, l_cfg.MOMENTS.ci, "draws zero", r"Moments.draws=0 must be", draws=0),
    config(l_cfg.Noise, l_cfg.NOISE.ci, "sigma zero", r"Noise.sigma_input=0.0 must be positive", sigma_input=0.0),
    config(l_cfg.GradientDescent, l_cfg.GRADIENT_DESCENT.ci, "lr zero", r"GradientDescent.lrs\[0\]=0.0 must be positive",
              lrs=(0.0,)),
    config(l_cfg.Hierarchy, l_cfg.HIERARCHY.ci, "seed negative", r"Hierarchy.seeds\[0\]=-1 must be", seeds=(-1,)),
    config(l_cfg.FineTuning, l_cfg.FINE_TUNING, "budget inf", r"FineTuning.budget contains non-finite", budget=inf),
    config(l_cfg.Architectures, l_cfg.ARCH, "lambdas zero", r"Architectures.n_lams=0 must be", n_lams=0),
    # runners
    bad(l_emp.framing, "config", l_cfg.BALANCE.ci, error=TypeError, match=r"\bconfig must be a configs.Framing"),
    bad(l_emp.lecun_balance, "config", None, error=TypeError, match=r"\bconfig must be a configs.Balance"),
    bad(l_emp.architectures, "config", None, error=TypeError, match=r"\bconfig must be a configs.Architectures"),
    bad(l_emp.scale_map, "config", None, error=TypeError, match=r"\bconfig must be a configs.ScaleMap"),
    bad(l_emp.transfer, "config", None, error=TypeError, match=r"\bconfig must be a configs.Transfer"),
    bad(l_emp.fine_tuning, "config", None, error=TypeError, match=r"\bconfig must be a configs.FineTuning"),
    bad(l_runs.gradient_descent, "config", None, error=TypeError, match=r"\bconfig must be a configs.GradientDescent"),
    bad(l_runs.hierarchy, "config", None, error=TypeError, match=r"\bconfig must be a configs.Hierarchy"),
    bad(l_runs.noise, "kind", l_cfg.NOISE.ci, "output", 2, 2, match=r"\bkind='output' must be"),
    bad(l_runs.noise, "config", None, "input", 2, 2, error=TypeError, match=r"\bconfig must be a configs.Noise"),
    bad(l_runs.noise, "n_in zero", l_cfg.NOISE.ci, "input", 0, 2, match=r"\bn_in=0 must be an integer >= 1"),
    # tasks
    bad(l_tasks.task_svd, "1-d", [1.0, 2.0], match=r"\bsyx must have 2 dimensions"),
    bad(l_tasks.task_svd, "empty", np.zeros((0, 2)), match=r"\bsyx is empty"),
    bad(l_tasks.Task, "samples differ", np.eye(2), np.ones((1, 3)), match=r"must share a positive number of samples"),
    bad(l_tasks.Task, "no samples", np.zeros((2, 0)), np.zeros((1, 0)), match=r"must share a positive number of samples"),
    bad(l_tasks.whitened_inputs, "too few samples", 3, 2, RNG(0), match=r"\bn_samples=2 < n_in=3"),
    bad(l_tasks.whitened_inputs, "rng", 2, 3, 0, error=TypeError, match=r"\brng must be a numpy.random.Generator"),
    bad(l_tasks.random_task, "target_std zero", 2, 2, 4, RNG(0), 0.0, match=r"\btarget_std=0.0 must be positive"),
    bad(l_tasks.random_task, "n_out zero", 2, 0, 4, RNG(0), match=r"\bn_out=0 must be an integer >= 1"),
    # init
    bad(l_init.layer_singular_values, "s negative", [-1.0], 0.5, match=r"\bs must be non-negative"),
    bad(l_init.layer_singular_values, "lam inf", [1.0], inf, match=r"\blam contains non-finite"),
    bad(l_init.balanced_weights, "shapes", np.eye(2), [1.0], np.eye(2), np.eye(1), 0.0, match=r"shapes U .* disagree"),
    bad(l_init.lambda_balanced_init, "lam NaN", nan, 3, 2, 2, RNG(0), match=r"\blam contains non-finite"),
    bad(l_init.lambda_balanced_init, "n_hid", 0.5, 3, 3, 2, RNG(0), match=r"\bn_hid=3 must equal min"),
    bad(l_init.lambda_balanced_init, "scale negative", 0.5, 3, 2, 2, RNG(0), scale=-1.0, match=r"\bscale=-1.0 must be non-negative"),
    bad(l_init.lambda_balanced_init, "syx shape", 0.5, 3, 2, 2, RNG(0), syx=np.eye(2), match=r"\bsyx must have shape \(2, 3\)"),
    bad(l_init.aligned_init, "s0 negative", np.eye(2), np.eye(2), [-1.0, 1.0], 0.5, RNG(0), match=r"\bs must be non-negative"),
    bad(l_init.aligned_init, "rng", np.eye(2), np.eye(2), [1.0, 1.0], 0.5, None, error=TypeError, match=r"\brng must be"),
    bad(l_init.balance, "hidden widths differ", np.ones((2, 3)), np.ones((2, 3)), match=r"\bW1 .* and W2 .* must be"),
    bad(l_init.weights_from_product, "NaN", [[nan]], 0.0, match=r"\bproduct contains non-finite"),
    # closed forms
    bad(l_sol.f_matrix, "lam NaN", np.eye(2), nan, match=r"\blam contains non-finite"),
    bad(l_sol.f_matrix, "1-d", [1.0], 0.0, match=r"\bsyx must have 2 dimensions"),
    bad(l_sol.qq_from_weights, "widths differ", np.ones((2, 3)), np.ones((2, 3)), match=r"\bW1 .* and W2 .* must be"),
    bad(l_sol.blocks, "n_in too large", np.eye(3), 3, match=r"\bqq .* with Ni = 3 < its size"),
    bad(l_sol.blocks, "n_in fraction", np.eye(3), 1.5, match=r"\bn_in=1.5 must be an integer"),
    bad(l_sol.spectrum, "svd", np.eye(2), 0.0, error=TypeError, match=r"\bsvd must be a TaskSVD"),
    bad(l_sol.qq_exact, "t negative", [-1.0], LR_W1, LR_W2, LR_TASK.svd, 0.5, match=r"\bt must be non-negative"),
    bad(l_sol.qq_exact, "t NaN", [nan], LR_W1, LR_W2, LR_TASK.svd, 0.5, match=r"\bt contains non-finite"),
    bad(l_sol.qq_exact, "t huge", [1e6], LR_W1, LR_W2, LR_TASK.svd, 0.5, error=l_sol.PlainFormOverflow,
        match=r"\bt=1e\+06 .*use qq_stable"),
    bad(l_sol.qq_exact, "weights misfit", [1.0], np.ones((2, 2)), LR_W2, LR_TASK.svd, 0.5, match=r"do not fit the task"),
    bad(l_sol.qq_exact, "lam inf", [1.0], LR_W1, LR_W2, LR_TASK.svd, inf, match=r"\blam contains non-finite"),
    documented(l_sol.qq_stable, "t huge", [1e6], LR_SQ_W1, LR_SQ_W2, LR_SQ_TASK.svd, 1.0, check=finite,
               doc="only decaying exponentials"),
    documented(l_sol.qq_exact, "t zero", [0.0], LR_W1, LR_W2, LR_TASK.svd, 0.5,
               check=close(l_sol.qq_from_weights(LR_W1, LR_W2)[None], rtol=1e-12), doc="QQ^T(t)"),
    bad(l_sol.qq_fukumizu, "t huge", [1e6], LR_W1, LR_W2, l_sol.f_matrix(LR_TASK.syx, 0.5),
        error=l_sol.PlainFormOverflow, match=r"\bt=1e\+06 .*overflows"),
    bad(l_sol.qq_fukumizu, "F shape", [1.0], LR_W1, LR_W2, np.eye(3), match=r"\bF \(3, 3\) must be \(Ni \+ No\) square"),
    bad(l_sol.middle_matrix, "t huge", [1e6], LR_W1, LR_W2, l_sol.f_matrix(LR_TASK.syx, 0.5),
        error=l_sol.PlainFormOverflow, match=r"\bt=1e\+06 .*overflows"),
    bad(l_sol.flow_rhs, "sxx shape", np.ones((2, 3)), np.eye(2), match=r"\bsxx must have shape \(3, 3\)"),
    # kernels and training
    bad(l_ker.rsm_in, "W1 misfit", np.ones((2, 3)), np.ones((2, 4)), match=r"\bW1 \(2, 3\) must be"),
    bad(l_ker.rsm_out, "W2 misfit", np.ones((2, 3)), np.ones((3, 4)), match=r"\bW2 \(2, 3\) must be"),
    bad(l_ker.ntk_from_grams, "gram_in misfit", np.eye(2), np.eye(2), np.ones((3, 4)), match=r"\bgram_in \(2, 2\) must be"),
    bad(l_ker.ntk, "X NaN", LR_W1, LR_W2, [[nan] * 2] * 3, match=r"\bX contains non-finite"),
    bad(l_train.linear_ensemble, "2-d", np.ones((2, 3)), np.ones((2, 2)), match=r"\bW1s and W2s must be \(K, rows, cols\)"),
    bad(l_train.linear_ensemble, "NaN", np.full((1, 2, 3), nan), np.ones((1, 2, 2)), match=r"\bW1s contains non-finite"),
    bad(l_train.train_linear, "steps negative", LR_W1[None], LR_W2[None], LR_TASK.X, LR_TASK.Y, lr=0.1, steps=-1,
        record_every=1, match=r"\bsteps=-1 must be"),
    bad(l_train.step_once, "lr negative", LR_W1, LR_W2, LR_TASK.X, LR_TASK.Y, -0.1, match=r"\blr=-0.1 must be positive"),
    bad(l_train.step_once, "W1 NaN", np.full((2, 3), nan), LR_W2, LR_TASK.X, LR_TASK.Y, 0.1, match=r"\bW1 contains non-finite"),
    # runs
    bad(l_runs.flow, "task", "task", LR_W1, LR_W2, 0.5, T5, error=TypeError, match=r"\btask must be a .*Task"),
    bad(l_runs.flow, "t empty", LR_TASK, LR_W1, LR_W2, 0.5, [], match=r"\bt_eval must be a non-empty"),
    bad(l_runs.flow, "t negative", LR_TASK, LR_W1, LR_W2, 0.5, [-1.0, 0.0], match=r"\bt_eval must be a non-empty"),
    bad(l_runs.flow, "W1 NaN", LR_TASK, np.full((2, 3), nan), LR_W2, 0.5, T5, match=r"\bW1 contains non-finite"),
    bad(l_runs.problem_flow, "n_in zero", 0, 2, 0.5, 0, T5, match=r"\bn_in=0 must be an integer >= 1"),
    bad(l_runs.aligned_flow, "s_task length", 3, 2, [1.0, 1.0, 1.0], [0.1, 0.1], 0.5, T5, 0,
        match=r"\bs_task .* 2 values"),
    bad(l_runs.reversal_flow, "lam NaN", nan, T5, match=r"\blam contains non-finite"),
    bad(l_runs.batch, "no inits", LR_TASK, [], [], [], lr=0.1, steps=1, record_every=1,
        match=r"\bW1s must hold at least one"),
    bad(l_runs.continual, "horizon negative", [LR_TASK], LR_W1, LR_W2, horizon=-1.0, lr=0.1,
        match=r"\bhorizon=-1.0 must be positive"),
    bad(l_runs.continual, "records zero", [LR_TASK], LR_W1, LR_W2, horizon=1.0, lr=0.1, records=0,
        match=r"\brecords=0 must be an integer >= 1"),
    bad(l_runs.continual, "no tasks", [], LR_W1, LR_W2, horizon=1.0, lr=0.1, match=r"\btasks must be a non-empty"),
    bad(l_runs.chained, "durations count", [LR_TASK], LR_W1, LR_W2, 0.5, [1.0, 2.0], match=r"\bdurations has 2 entries for 1 tasks"),
    bad(l_runs.chained, "duration NaN", [LR_TASK], LR_W1, LR_W2, 0.5, [nan], match=r"\bdurations contains non-finite"),
    bad(l_runs.new_feature_row, "item out of range", LR_W1, LR_TASK, item=99, match=r"\bitem=99 must index"),
    bad(l_runs.new_feature_row, "zero hidden", np.zeros((2, 3)), LR_TASK, match=r"\bW1\b.*zero hidden"),
    bad(l_runs.new_feature_row, "steps negative", LR_W1, LR_TASK, steps=-1, match=r"\bsteps=-1 must be an integer >= 1"),
    bad(l_runs.one_step, "lr zero", LR_TASK, LR_W1, LR_W2, 0.0, match=r"\blr=0.0 must be positive"),
    # cases
    bad(l_exp.horizon, "lam NaN", LR_TASK, nan, match=r"\blam contains non-finite"),
    bad(l_exp.horizon, "cap zero", LR_TASK, 0.5, 0.0, match=r"\bcap=0.0 must be positive"),
    bad(l_exp.problem, "seed negative", 2, 2, 0.5, -1, match=r"\bseed=-1 must be an integer >= 0"),
    bad(l_exp.problem, "n_out zero", 2, 0, 0.5, 0, match=r"\bn_out=0 must be an integer >= 1"),
    bad(l_exp.problem_from_numbers, "w1 size", 2, 2, 0.5, 1.0, [1.0] * 3, [1.0] * 4, [1.0] * 4, 0.1,
        match=r"\bw1 has 3 entries, expected 4"),
    bad(l_exp.invertible_b_init, "seed fraction", LR_TASK, 0.5, 1.5, 0.3, match=r"\bseed=1.5 must be an integer"),
    bad(l_exp.balanced_family, "no scales", LR_TASK, [0.5], [], RNG(0), match=r"\bscales=\[\] must be positive"),
    bad(l_exp.padded_init, "seeds", 2, 3, 2, [1.0, 1.0], 0.5, [0], match=r"\bseeds=\[0\] must be three"),
    bad(l_exp.padded_init, "n_hid too small", 3, 1, 3, [1.0] * 3, 0.5, [0, 1, 2], match=r"\bn_hid=1 must be >= min"),
    bad(l_exp.input_noise_losses, "sigma NaN", LR_TASK, LR_W1, LR_W2, nan, 5, 0, match=r"\bsigma=nan must be"),
    bad(l_exp.input_noise_losses, "draws zero", LR_TASK, LR_W1, LR_W2, 0.1, 0, 0, match=r"\bdraws=0 must be an integer >= 1"),
    bad(l_exp.weight_noise_losses, "sigma negative", LR_TASK, LR_W1, LR_W2, -0.1, 5, 0, match=r"\bsigma=-0.1 must be"),
    bad(l_exp.sample_balance, "var negative", 2, 2, 2, -1.0, 1.0, 3, 0, match=r"\bvar1=-1.0, var2=1.0 must be"),
    bad(l_exp.balance_spread, "width zero", widths=(0,), match=r"\bwidths=\(0,\) must be positive integers"),
    bad(l_exp.continual_tasks, "count zero", count=0, match=r"\bcount=0 must be an integer >= 1"),
    bad(l_exp.reversal_problem, "s0 negative", 0.5, s0=-1.0, match=r"\bs must be non-negative"),
    bad(l_exp.fine_tuning_tasks, "base", LR_TASK, match=r"\bbase must be the 8-item hierarchy"),
    bad(l_exp.reversed_mode, "run shapes", LR_TASK, np.ones((3, 2, 2)), np.ones((3, 2, 2)),
        match=r"\bW1t .* and W2t .* do not fit the task"),
]


CASES = SHARED + THEORY + BIAS + HASTE + LAZY
#: cases of numerics/models.py and numerics/train.py that still fail: those files are being
#: optimised by another engineer and are out of this harness's reach (strict: a fix makes the
#: case pass and this entry must then go)
_MODELS = ("numerics/models.py is being optimised by another engineer: TwoLayerEnsemble.init must "
           "validate its seeds and bias_strength there")
_TRAIN = ("numerics/train.py is being optimised by another engineer: a run whose loss turns NaN or inf "
          "must stop with a named error there")
_SWEEP = "numerics/sweep.py is outside this task's files: plan/run_sweep must check their sizes first"
PENDING: dict[str, str] = {}


# ------------------------------------------------------------------------------ running a case
class Hang(BaseException):
    """A call ran past its deadline (a BaseException: no ``except Exception`` inside swallows it)."""


def call(case: Case, seconds: float = DEADLINE_S):
    """("returned", value) or ("raised", exception) or ("hang", None) of one case."""
    if threading.current_thread() is not threading.main_thread():
        return _call_in_thread(case, seconds)

    def alarm(signum, frame):
        raise Hang()
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return "returned", case.fn(*case.args, **case.kwargs)
    except Hang:
        return "hang", None
    except Exception as exc:  # noqa: BLE001 -- the exception is what the case checks
        return "raised", exc
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _call_in_thread(case: Case, seconds: float):
    out = []

    def target():
        try:
            out.append(("returned", case.fn(*case.args, **case.kwargs)))
        except Exception as exc:  # noqa: BLE001
            out.append(("raised", exc))
    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(seconds)
    return out[0] if out else ("hang", None)


LIBRARIES = ("numpy", "scipy", "torch", "sklearn", "sympy", "mpmath")


def diagnosis(case: Case, outcome: str, value) -> str:
    """What went wrong, in the harness's words (empty when the case passes)."""
    if outcome == "hang":
        return f"hang: no return within {DEADLINE_S:g} s"
    if case.error is not None:
        if outcome == "returned":
            kind = "silent NaN/inf" if not _finite(value) else "silent result (bad input accepted)"
            return f"{kind}: returned {_short(value)} instead of raising {case.error.__name__}"
        message = str(value)
        if isinstance(value, case.error) and re.search(case.match, message):
            return ""
        origin = _origin(value)
        if re.search(case.match, message):
            return f"wrong type: {type(value).__name__} (expected {case.error.__name__}): {message}"
        if origin in LIBRARIES or isinstance(value, (KeyError, IndexError, AttributeError,
                                                       ZeroDivisionError, RuntimeError)):
            return f"raw crash in {origin}: {type(value).__name__}: {message[:300]}"
        return f"unclear message: {type(value).__name__}: {message[:300]} (must match {case.match!r})"
    if outcome == "raised":
        return f"raised {type(value).__name__}: {str(value)[:300]} (documented result expected)"
    doc = inspect.getdoc(case.fn) or ""
    if case.doc not in doc:
        return f"undocumented: the docstring of {qualified(case.fn)} does not say {case.doc!r}"
    if not case.check(value):
        return f"returned {_short(value)}, not the documented result"
    return ""


def _finite(value) -> bool:
    try:
        return finite(value)
    except (TypeError, ValueError):
        return True


def _short(value) -> str:
    text = repr(value)
    return text if len(text) < 200 else text[:200] + "..."


def _origin(exc) -> str:
    """The top-level package of the innermost frame that raised ``exc``."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return ""
    module = tb.tb_frame.f_globals.get("__name__", "")
    return module.split(".")[0]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=[pytest.mark.xfail(
    reason=PENDING[c.id], strict=True)] if c.id in PENDING else []) for c in CASES])
def test_bad_input_gets_a_named_error_or_its_documented_result(case):
    outcome, value = call(case)
    problem = diagnosis(case, outcome, value)
    assert not problem, problem


# ------------------------------------------------------------------------- the table's coverage
def test_the_table_has_at_least_150_cases_with_unique_ids():
    ids = [c.id for c in CASES]
    assert len(ids) >= 150, len(ids)
    assert len(set(ids)) == len(ids), sorted({i for i in ids if ids.count(i) > 1})


def _paper_modules(paper: str):
    package = importlib.import_module(f"numerics.{paper}")
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"numerics.{paper}.{info.name}")


def _config_classes(paper: str) -> set[str]:
    configs = importlib.import_module(f"numerics.{paper}.configs")
    return {name for name, obj in vars(configs).items() if inspect.isclass(obj)
            and issubclass(obj, ran.Config) and obj.__module__ == configs.__name__}


def runners(paper: str) -> set[str]:
    """The public runners of ``numerics/<paper>/``: module-level functions that build a
    :class:`numerics.ran.Ran` or take one of the paper's configurations."""
    configs = _config_classes(paper)
    out = set()
    for module in _paper_modules(paper):
        for name, obj in vars(module).items():
            fn = inspect.unwrap(obj) if callable(obj) else None
            if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != module.__name__:
                continue
            tree = ast.parse(inspect.getsource(fn).lstrip())
            node = tree.body[0]
            annotations = {ast.unparse(a.annotation) for a in node.args.args if a.annotation}
            builds_ran = "Ran.of(" in ast.unparse(node)
            if builds_ran or annotations & configs:
                out.add(qualified(fn))
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_every_runner_and_configuration_of_a_paper_has_a_case(paper):
    covered = {qualified(c.fn) for c in CASES}
    missing = sorted(runners(paper) - covered)
    assert not missing, f"runners of numerics/{paper} without a bad-input case: {missing}"
    configs = {f"numerics.{paper}.configs.{name}" for name in _config_classes(paper)}
    abstract = {f"numerics.{paper}.configs.LazyRichConfig"}
    missing = sorted(configs - abstract - covered)
    assert not missing, f"configurations of numerics/{paper} without a bad-field case: {missing}"


def test_pending_cases_exist():
    """Every PENDING entry names a case of the table (a fixed case's entry is removed)."""
    ids = {c.id for c in CASES}
    assert not set(PENDING) - ids, sorted(set(PENDING) - ids)


def test_a_hang_fails_its_case_within_the_deadline():
    def forever():
        while True:
            time.sleep(0.01)
    start = time.perf_counter()
    outcome, _ = call(Case(forever, "forever", error=ValueError, match="x"), seconds=0.2)
    assert outcome == "hang" and time.perf_counter() - start < 2


# --------------------------------------------------------------------------- CLI misuse (bench)
@pytest.mark.parametrize("argv, words", [
    (["--steps", "-5"], r"--steps: -5 is not a positive integer"),
    (["--steps", "0"], r"--steps: 0 is not a positive integer"),
    (["--steps", "ten"], r"--steps: invalid .*'ten'|--steps: 'ten' is not a positive integer"),
    (["--reports-dir"], r"--reports-dir: expected one argument"),
    (["--fast"], r"unrecognized arguments: --fast"),
])
def test_bench_misuse_is_a_one_line_usage_error(argv, words, capsys):
    from numerics import bench
    with pytest.raises(SystemExit) as exit_info:
        bench.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("usage: python -m numerics.bench")
    assert len([line for line in err if "error:" in line]) == 1 and "Traceback" not in "\n".join(err)
    assert re.search(words, err[-1]), err[-1]

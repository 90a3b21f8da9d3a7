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

Not covered here: ``verify/`` (it is the suite's own layer, not a public API).
"""
from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import pkgutil
import re
import signal
import threading
import time
import typing
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
from numerics.rich_quick import checks as rq_chk
from numerics.rich_quick import configs as rq_cfg
from numerics.rich_quick import experiments as rq_exp
from numerics.rich_quick import formula_errors as fe
from numerics.rich_quick import grokking as gk
from numerics.rich_quick import image_nets as inet
from numerics.rich_quick import linear_errors as le
from numerics.rich_quick import linear_flows as rq_lf
from numerics.rich_quick import linear_nets as ln
from numerics.rich_quick import piecewise as pw
from numerics.rich_quick import piecewise_errors as pwe
from numerics.rich_quick import relu_regimes as rq_rr
from numerics.rich_quick import relu_training as rq_rt
from numerics.rich_quick import rhm
from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick import single_neuron_paths as sns
from numerics.rich_quick import single_neuron_teacher_student as ts
from theory import conventions as tc
from theory import mode_law as ml
from theory import papers as tp
from theory import registry as tr_reg
from theory.bias import bias_mode as t_bm
from theory.bias import effective_rank as t_er
from theory.haste_slowly import xor_margin as t_xm
from theory.rich_quick import deep_linear as t_dl
from theory.rich_quick import piecewise as tpw
from theory.rich_quick import single_neuron_implicit_bias as t_sib
from theory.rich_quick import single_neuron_model as t_snm
from theory.rich_quick import single_neuron_symbols as t_sns
from theory.rich_quick import wide_linear as t_wl

#: seconds one call may take before its case fails as a hang
DEADLINE_S = 5.0
nan, inf = float("nan"), float("inf")
ROOT = Path(__file__).resolve().parents[1]


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
    # numerics.models
    bad(mo.TwoLayerEnsemble.init, "seed fraction", [1.7], 2, 3, 1, match=r"\bseeds?\b.*1.7.*integer"),
    bad(mo.TwoLayerEnsemble.init, "no seeds", [], 2, 3, 1, match=r"\bseeds\b.*(empty|at least one)"),
    bad(mo.TwoLayerEnsemble.init, "bias strength NaN", [0], 2, 3, 1, bias_strength=nan,
        match=r"\bbias_strength\b.*finite"),
    bad(mo.TwoLayerEnsemble.init, "n_hid zero", [0], 2, 0, 1, match=r"\bn_hid=0 must be"),
    bad(mo.TwoLayerEnsemble.init, "init_std NaN", [0], 2, 3, 1, init_std=nan, match=r"\binit_std=nan must be"),
    bad(mo.TwoLayerEnsemble.init, "activation", [0], 2, 3, 1, activation="tanh", match=r"\bactivation='tanh'"),
    bad(mo.as_tensor, "NaN", [nan], "X", match=r"\bX contains non-finite"),
    # numerics.train
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
    config(b_cfg.ToyConfig, TOY, "lr NaN", r"\blr=nan must be finite", lr=nan),
    config(b_cfg.ToyConfig, TOY, "horizon inf", r"\bhorizon=inf must be finite", horizon=inf),
    config(b_cfg.ToyConfig, TOY, "no seeds", r"\bseeds=\(\) must be a non-empty", seeds=()),
    config(b_cfg.ToyConfig, TOY, "seed fraction", r"\bseeds\[0\]=1.5 must be an integer", seeds=(1.5,)),
    config(b_cfg.ToyConfig, TOY, "c negative", r"\bcs\[0\]=\-1\.0 must be", cs=(-1.0,)),
    config(b_cfg.ToyConfig, TOY, "c NaN", r"\bcs\[0\]=nan must be finite", cs=(nan,)),
    config(b_cfg.ToyConfig, TOY, "task", r"\btask='xor3' is not one of", task="xor3"),
    config(b_cfg.ToyConfig, TOY, "n_hid zero", r"\bn_hid=0 must be", n_hid=0),
    config(b_cfg.ToyConfig, TOY, "records zero", r"\brecords_per_tau=0 must be", records_per_tau=0),
    config(b_cfg.ToyConfig, TOY, "dtype", r"\bdtype='float16' is not one of", dtype="float16"),
    config(b_cfg.ToyConfig, TOY, "sensitivity", r"\bsensitivity names \['colour'\]", sensitivity=("colour",)),
    config(b_cfg.ToyConfig, b_cfg.MARGIN.ci, "Delta NaN", r"\bdeltas\[0\]=nan must be finite", deltas=(nan,)),
    config(b_cfg.ImageConfig, IMG, "n_train zero", r"\bn_train=0 must be", n_train=0),
    config(b_cfg.ImageConfig, IMG, "lr NaN", r"\blr=nan must be finite", lr=nan),
    config(b_cfg.ImageConfig, IMG, "data", r"\bdata='imagenet' is not one of", data="imagenet"),
    config(b_cfg.ImageConfig, IMG, "records zero", r"\brecords=0 must be", records=0),
    config(b_cfg.ImageConfig, IMG, "init_var negative", r"\binit_var=\-1\.0 must be", init_var=-1.0),
    config(b_cfg.ImageConfig, IMG, "c NaN", r"\bcs\[0\]=nan must be finite", cs=(nan,)),
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
    config(h_cfg.Sec45, SEC45, "lr NaN", r"Sec45.lr=nan must be finite", lr=nan),
    config(h_cfg.Sec45, SEC45, "epochs zero", r"\bSec45\.epochs=0 must be", epochs=0),
    config(h_cfg.Sec45, SEC45, "dtype", r"\bSec45\.dtype='float16' is not one of", dtype="float16"),
    config(h_cfg.Sec45, SEC45, "no seeds", r"Sec45.seeds=\(\) must be", seeds=()),
    config(h_cfg.Sec45, SEC45, "seed fraction", r"\bSec45\.seeds\[0\]=1\.5 must be", seeds=(1.5,)),
    config(h_cfg.Gates, h_cfg.GATES.ci, "k zero", r"Gates.ks=\(0, 2\) must be", ks=(0, 2)),
    config(h_cfg.Gates, h_cfg.GATES.ci, "std NaN", r"\bGates\.stds\[0\]=nan must be", stds=(nan,)),
    config(h_cfg.Gates, h_cfg.GATES.ci, "every zero", r"\bGates\.every=0 must be", every=0),
    config(h_cfg.Gates, h_cfg.GATES.ci, "scales differ", r"Gates.sec45 must be a configuration of the same scale",
           sec45=h_cfg.SEC45.full),
    config(h_cfg.Depth, h_cfg.DEPTH.ci, "schedule", r"need 0 <= start", start=20000),
    config(h_cfg.Depth, h_cfg.DEPTH.ci, "std NaN", r"\bDepth\.gdln_std\[0\]=nan must be", gdln_std=(nan, 1.0, 1.0, 1.0)),
    config(h_cfg.Depth, h_cfg.DEPTH.ci, "width zero", r"\bDepth\.width=0 must be", width=0),
    config(h_cfg.Xor, h_cfg.XOR, "hidden zero", r"\bXor\.hidden=0 must be", hidden=0),
    config(h_cfg.Xor, h_cfg.XOR, "Delta negative", r"Xor.deltas=\(-1.0,\) must be", deltas=(-1.0,)),
    config(h_cfg.Xor, h_cfg.XOR, "dtype", r"\bXor\.dtype='float16' is not one of", dtype="float16"),
    config(h_cfg.Linear, h_cfg.FIG7, "dtype", r"\bLinear\.dtype='half' is not one of", dtype="half"),
    config(h_cfg.Linear, h_cfg.FIG7, "lr inf", r"Linear.lr=inf must be finite", lr=inf),
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
    bad(h_depth.seed_blocks, "config", None, error=TypeError, match=r"\bcfg must be a configs.Depth"),
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
    config(l_cfg.Framing, l_cfg.FRAMING.ci, "lr NaN", r"Framing.lr=nan must be finite", lr=nan),
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
    config(l_cfg.FineTuning, l_cfg.FINE_TUNING, "budget inf", r"FineTuning.budget=inf must be finite", budget=inf),
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
    bad(l_init.layer_singular_values, "lam inf", [1.0], inf, match=r"\blam(=nan must be finite| contains non-finite)"),
    bad(l_init.balanced_weights, "shapes", np.eye(2), [1.0], np.eye(2), np.eye(1), 0.0, match=r"shapes U .* disagree"),
    bad(l_init.lambda_balanced_init, "lam NaN", nan, 3, 2, 2, RNG(0), match=r"\blam(=nan must be finite| contains non-finite)"),
    bad(l_init.lambda_balanced_init, "n_hid", 0.5, 3, 3, 2, RNG(0), match=r"\bn_hid=3 must equal min"),
    bad(l_init.lambda_balanced_init, "scale negative", 0.5, 3, 2, 2, RNG(0), scale=-1.0, match=r"\bscale=-1.0 must be non-negative"),
    bad(l_init.lambda_balanced_init, "syx shape", 0.5, 3, 2, 2, RNG(0), syx=np.eye(2), match=r"\bsyx must have shape \(2, 3\)"),
    bad(l_init.aligned_init, "s0 negative", np.eye(2), np.eye(2), [-1.0, 1.0], 0.5, RNG(0), match=r"\bs must be non-negative"),
    bad(l_init.aligned_init, "rng", np.eye(2), np.eye(2), [1.0, 1.0], 0.5, None, error=TypeError, match=r"\brng must be"),
    bad(l_init.balance, "hidden widths differ", np.ones((2, 3)), np.ones((2, 3)), match=r"\bW1 .* and W2 .* must be"),
    bad(l_init.weights_from_product, "NaN", [[nan]], 0.0, match=r"\bproduct contains non-finite"),
    # closed forms
    bad(l_sol.f_matrix, "lam NaN", np.eye(2), nan, match=r"\blam(=nan must be finite| contains non-finite)"),
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
    bad(l_sol.qq_exact, "lam inf", [1.0], LR_W1, LR_W2, LR_TASK.svd, inf, match=r"\blam(=nan must be finite| contains non-finite)"),
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
    bad(l_runs.reversal_flow, "lam NaN", nan, T5, match=r"\blam(=nan must be finite| contains non-finite)"),
    bad(l_runs.batch, "no inits", LR_TASK, [], [], [], lr=0.1, steps=1, record_every=1,
        match=r"\bW1s must hold at least one"),
    bad(l_runs.continual, "horizon negative", [LR_TASK], LR_W1, LR_W2, horizon=-1.0, lr=0.1,
        match=r"\bhorizon=-1.0 must be positive"),
    bad(l_runs.continual, "records zero", [LR_TASK], LR_W1, LR_W2, horizon=1.0, lr=0.1, records=0,
        match=r"\brecords=0 must be an integer >= 1"),
    bad(l_runs.continual, "no tasks", [], LR_W1, LR_W2, horizon=1.0, lr=0.1, match=r"\btasks must be a non-empty"),
    bad(l_runs.chained, "durations count", [LR_TASK], LR_W1, LR_W2, 0.5, [1.0, 2.0], match=r"\bdurations has 2 entries for 1 tasks"),
    bad(l_runs.chained, "duration NaN", [LR_TASK], LR_W1, LR_W2, 0.5, [nan], match=r"\bdurations=nan must be"),
    bad(l_runs.new_feature_row, "item out of range", LR_W1, LR_TASK, item=99, match=r"\bitem=99 must index"),
    bad(l_runs.new_feature_row, "zero hidden", np.zeros((2, 3)), LR_TASK, match=r"\bW1\b.*zero hidden"),
    bad(l_runs.new_feature_row, "steps negative", LR_W1, LR_TASK, steps=-1, match=r"\bsteps=-1 must be an integer >= 1"),
    bad(l_runs.one_step, "lr zero", LR_TASK, LR_W1, LR_W2, 0.0, match=r"\blr=0.0 must be positive"),
    # cases
    bad(l_exp.horizon, "lam NaN", LR_TASK, nan, match=r"\blam(=nan must be finite| contains non-finite)"),
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


# ------------------------------------------------------------------------ "Get rich quick"
RQ_X, RQ_Y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, 0.5, 1.5])
RQ_X1, RQ_Y1 = np.array([[0.5, 1.0]]), np.array([1.1])
RQ_CASE = {"a0": 1.0, "w0": [0.5, 0.2], "beta_star": [0.0, 1.0], "eta_a": 1.0, "eta_w": 1.0}
RQ_TASK = ts.make_task(0, d=2, h=4, k=1, n=3, n_test=2)
RQ_NET = pw.DeepReLU.random(2, [3], RNG(0))
RQ_W, RQ_A = ln.init_wide(2, 3, 1, 0.5, 0.3, 1.0, 1.0, RNG(0))
RQ_DEAD_W = np.array([[0.0, 0.0], [1.0, 0.5]])
PW_W, PW_A = RNG(1).standard_normal((3, 2)), RNG(2).standard_normal(3)
RQ_DEEP_WS, RQ_DEEP_A = ln.deep_balanced_chain(2, 2, 0.7, RNG(0))
PW_M8 = {"I": tpw.eta_w * sp.Symbol("a") ** 2, "ww": tpw.eta_a}
PW_M126 = {"I": sp.Integer(1), "bb": tpw.eta_a}
LENET = inet.stack([inet.lenet5_init(0, 1.0)])
MNIST4 = torch.zeros(4, 1, 28, 28)
DAWN = inet.stack([inet.dawn_init(0, 1.0)])
MLP = rhm.mlp_init([0], [1.0], 4, 3, 1, 2)
GK_P = gk.init([0], [1.0], 8, d=4, mlp=4)
GK_TRAIN, GK_TEST = gk.modular_addition(7, 0.5, 0)
GK_X = torch.as_tensor(GK_TRAIN[0])
FIG1B_CFG = dict(ts.FIG1B_FULL)
CHUNK_CFG = rq_cfg.FIG1B.ci.chunk_config()
TS_RUN = ts.TeacherStudentRun(tj.Trajectory(np.arange(2), np.arange(2.0), "steps", np.zeros((2, 2)),
                                            {"S": np.zeros((2, 2))}),
                              ((0.1, 0.0), (0.2, 0.0)), (0,), np.zeros((1, 1, 2)), None, 0.0)
LIMITS = sns.LimitRun(np.zeros((1, 2)), np.zeros((1, 2)), (0.5,), RQ_X1, RQ_Y1, np.array([0.4, 0.05]),
                      None)
XOR_RUN = rq_rr.XorRun(None, None, None, (np.zeros((2, 4, 2)),) * 2, (np.zeros((2, 1, 4)),) * 2, (), (), None)
GRAM_BAD = tr_reg.Forms(left=t_wl.x, left_gram="xyz", right=t_wl.x, right_gram="btb")
FIG1A, FIG1B = rq_cfg.FIG1A.ci, rq_cfg.FIG1B.ci
FIG6A, FIG6B, FIG6C, FIG6D = rq_cfg.FIG6A.ci, rq_cfg.FIG6B.ci, rq_cfg.FIG6C.ci, rq_cfg.FIG6D.ci
RQ_SYM = {"a": 1.2, "w1": 0.7, "w2": -0.4, "b": 1.1, "eta_a": 1.0, "eta_w": 1.0}


def rq_target(P):
    return np.zeros(len(P))


def rq_quantity(W, A):
    return W.T @ W


RICH = [
    # configurations refuse bad fields
    config(rq_cfg.Fig1a, FIG1A, "d zero", r"\bFig1a\.d=0 must be", d=0),
    config(rq_cfg.Fig1a, FIG1A, "h fraction", r"\bFig1a\.h=2.5 must be an integer", h=2.5),
    config(rq_cfg.Fig1a, FIG1A, "h odd", r"\bFig1a\.h=5 must be even", h=5),
    config(rq_cfg.Fig1a, FIG1A, "lr NaN", r"\bFig1a\.lr=nan must be finite", lr=nan),
    config(rq_cfg.Fig1a, FIG1A, "lr negative", r"\bFig1a\.lr=-0.1 must be positive", lr=-0.1),
    config(rq_cfg.Fig1a, FIG1A, "no seeds", r"\bFig1a\.seeds=\(\) must be a non-empty", seeds=()),
    config(rq_cfg.Fig1a, FIG1A, "seed fraction", r"\bFig1a\.seeds\[0\]=1\.5 must be", seeds=(1.5,)),
    config(rq_cfg.Fig1a, FIG1A, "teacher seed negative", r"\bFig1a\.teacher_seed=\-1 must be",
           teacher_seed=-1),
    config(rq_cfg.Fig1a, FIG1A, "cell tau zero", r"\bFig1a\.cells=.* must be \(tau > 0, delta\)",
           cells=((0.0, 0.0),)),
    config(rq_cfg.Fig1a, FIG1A, "cell NaN", r"\bFig1a\.cells=.* must be \(tau > 0, delta\)", cells=((0.1, nan),)),
    config(rq_cfg.Fig1a, FIG1A, "no cells", r"\bFig1a\.cells=\(\) must be", cells=()),
    config(rq_cfg.Fig1a, FIG1A, "steps zero", r"\bFig1a\.steps=0 must be", steps=0),
    config(rq_cfg.Fig1a, FIG1A, "records zero", r"\bFig1a\.records=0 must be", records=0),
    config(rq_cfg.Fig1b, FIG1B, "n_test zero", r"\bFig1b\.n_test=0 must be", n_test=0),
    config(rq_cfg.Fig1b, FIG1B, "base_lr inf", r"\bFig1b\.base_lr=inf must be finite", base_lr=inf),
    config(rq_cfg.Fig1b, FIG1B, "test seed fraction", r"\bFig1b\.test_seed=1.5 must be", test_seed=1.5),
    config(rq_cfg.Fig1b, FIG1B, "marks beyond steps", r"\bFig1b\.marks=\(10, 5000\) must lie", marks=(10, 5000)),
    config(rq_cfg.Fig1b, FIG1B, "mark fraction", r"\bFig1b\.marks=\(10.5,\) must lie", marks=(10.5,)),
    config(rq_cfg.Fig1b, FIG1B, "dtype", r"\bFig1b\.dtype='float16' is not one of", dtype="float16"),
    config(rq_cfg.Fig1b, FIG1B, "h odd", r"\bFig1b\.h=7 must be even", h=7),
    config(rq_cfg.Hierarchy, FIG6C, "L zero", r"\bHierarchy\.L=0 must be", L=0),
    config(rq_cfg.Hierarchy, FIG6C, "s one", r"\bHierarchy\.s=1 must be >= 2", s=1),
    config(rq_cfg.Hierarchy, FIG6C, "size fraction", r"\bHierarchy\.sizes=\(64.5,\) must be positive integers",
           sizes=(64.5,)),
    config(rq_cfg.Hierarchy, FIG6C, "sizes too large", r"exceed the 512 inputs of the RHM", sizes=(600,)),
    config(rq_cfg.Hierarchy, FIG6C, "alphas without 1", r"\bHierarchy\.alphas=\(0.1, 10.0\) must .*include 1",
           alphas=(0.1, 10.0)),
    config(rq_cfg.Hierarchy, FIG6C, "alpha NaN", r"\bHierarchy\.alphas=\(nan, 1.0\) must be", alphas=(nan, 1.0)),
    config(rq_cfg.Hierarchy, FIG6C, "alpha negative", r"\bHierarchy\.alphas=\(-1.0, 1.0\) must be",
           alphas=(-1.0, 1.0)),
    config(rq_cfg.Hierarchy, FIG6C, "lr NaN", r"\bHierarchy\.lr=nan must be finite", lr=nan),
    config(rq_cfg.Hierarchy, FIG6C, "momentum one", r"\bHierarchy\.momentum=1.0 must lie in \[0, 1\)", momentum=1.0),
    config(rq_cfg.Hierarchy, FIG6C, "decay_frac zero", r"\bHierarchy\.decay_frac=0.0 must be positive",
           decay_frac=0.0),
    config(rq_cfg.Hierarchy, FIG6C, "stop_loss negative", r"\bHierarchy\.stop_loss=-0.01 must be positive",
           stop_loss=-0.01),
    config(rq_cfg.Hierarchy, FIG6C, "parametrisation", r"\bHierarchy\.parametrisation='mup' is not one of",
           parametrisation="mup"),
    config(rq_cfg.Hierarchy, FIG6C, "dtype", r"\bHierarchy\.dtype='float16' is not one of", dtype="float16"),
    config(rq_cfg.Hierarchy, FIG6C, "no seeds", r"\bHierarchy\.seeds=\(\) must be a non-empty", seeds=()),
    config(rq_cfg.Kernel, FIG6A, "data", r"\bKernel\.data='cifar10' is not one of", data="cifar10"),
    config(rq_cfg.Kernel, FIG6A, "n_train zero", r"\bKernel\.n_train=0 must be", n_train=0),
    config(rq_cfg.Kernel, FIG6A, "lr NaN", r"\bKernel\.lr=nan must be finite", lr=nan),
    config(rq_cfg.Kernel, FIG6A, "no alphas", r"\bKernel\.alphas=\(\) must be a non-empty", alphas=()),
    config(rq_cfg.Kernel, FIG6A, "seed negative", r"\bKernel\.seeds\[0\]=\-1 must be", seeds=(-1,)),
    config(rq_cfg.Filters, FIG6B, "data", r"\bFilters\.data='imagenet' is not one of", data="imagenet"),
    config(rq_cfg.Filters, FIG6B, "filter_size zero", r"\bFilters\.filter_size=0 must be",
           filter_size=0),
    config(rq_cfg.Filters, FIG6B, "lr inf", r"\bFilters\.lr=inf must be finite", lr=inf),
    config(rq_cfg.Filters, FIG6B, "epochs fraction", r"\bFilters\.epochs=1.5 must be an integer",
           epochs=1.5),
    config(rq_cfg.Grokking, FIG6D, "p zero", r"\bGrokking\.p=0 must be", p=0),
    config(rq_cfg.Grokking, FIG6D, "heads", r"\bGrokking\.heads=3 must divide the model width d=16", heads=3),
    config(rq_cfg.Grokking, FIG6D, "batch zero", r"\bGrokking\.batch=0 must be", batch=0),
    config(rq_cfg.Grokking, FIG6D, "lr NaN", r"\bGrokking\.lr=nan must be finite", lr=nan),
    config(rq_cfg.Grokking, FIG6D, "wd negative", r"\bGrokking\.wd=-1.0 must be non-negative", wd=-1.0),
    config(rq_cfg.Grokking, FIG6D, "taus without 1", r"\bGrokking\.taus=\(0.5,\) must include 1", taus=(0.5,)),
    config(rq_cfg.Grokking, FIG6D, "tau zero", r"\bGrokking\.taus=\(0.0, 1.0\) must be", taus=(0.0, 1.0)),
    config(rq_cfg.Grokking, FIG6D, "steps negative", r"\bGrokking\.steps=\-1 must be", steps=-1),
    config(rq_cfg.Xor, rq_cfg.XOR, "n zero", r"\bXor\.n=0 must be", n=0),
    config(rq_cfg.Xor, rq_cfg.XOR, "h odd", r"\bXor\.h=3 must be even", h=3),
    config(rq_cfg.Xor, rq_cfg.XOR, "deltas order", r"\bXor\.deltas=\(1.0, 0.0, -1.0\) must be", deltas=(1.0, 0.0, -1.0)),
    config(rq_cfg.Xor, rq_cfg.XOR, "delta NaN", r"\bXor\.deltas=\(-1.0, 0.0, nan\) must be", deltas=(-1.0, 0.0, nan)),
    config(rq_cfg.Xor, rq_cfg.XOR, "dtype", r"\bXor\.dtype='int8' is not one of", dtype="int8"),
    config(rq_cfg.Xor, rq_cfg.XOR, "noise negative", r"\bXor\.noise=-0.1 must be non-negative", noise=-0.1),
    config(rq_cfg.Xor, rq_cfg.XOR, "tau zero", r"\bXor\.tau=0.0 must be positive", tau=0.0),
    config(rq_cfg.Xor, rq_cfg.XOR, "lr NaN", r"\bXor\.lr=nan must be finite", lr=nan),
    config(rq_cfg.Xor, rq_cfg.XOR, "data seed negative", r"\bXor\.data_seed=\-1 must be", data_seed=-1),
    config(rq_cfg.Regimes, rq_cfg.REGIMES, "deltas missing", r"\bRegimes\.deltas=\(0.0,\) must include", deltas=(0.0,)),
    config(rq_cfg.Regimes, rq_cfg.REGIMES, "delta NaN", r"\bRegimes\.deltas=.* must be .*finite",
           deltas=(-30.0, -3.0, 0.0, 3.0, 30.0, nan)),
    config(rq_cfg.Regimes, rq_cfg.REGIMES, "beta_scale zero", r"\bRegimes\.beta_scale=0.0 must be positive",
           beta_scale=0.0),
    config(rq_cfg.Regimes, rq_cfg.REGIMES, "eta_a NaN", r"\bRegimes\.eta_a=nan must be finite", eta_a=nan),
    config(rq_cfg.Regimes, rq_cfg.REGIMES, "seed negative", r"\bRegimes\.seed=\-1 must be", seed=-1),
    config(rq_cfg.Regimes, rq_cfg.REGIMES, "net size zero", r"\bRegimes\.nets entry .* positive integer sizes",
           nets=(("funnel", (6, 0, 2)),)),
    config(rq_cfg.Regimes, rq_cfg.REGIMES, "net size fraction", r"\bRegimes\.nets entry .* positive integer sizes",
           nets=(("funnel", (6, 2.5, 2)),)),
    config(rq_cfg.Paths, rq_cfg.FIG3, "points misfit", r"points - 1 = 399 must be a multiple", points=400),
    config(rq_cfg.Paths, rq_cfg.FIG3, "ref_points one", r"ref_points - 1 = 0 >= 1", ref_points=1),
    config(rq_cfg.Paths, rq_cfg.FIG3, "t_end zero", r"\bPaths\.t_end=0.0 must be positive", t_end=0.0),
    config(rq_cfg.Paths, rq_cfg.FIG3, "t_end inf", r"\bPaths\.t_end=inf must be finite", t_end=inf),
    config(rq_cfg.Paths, rq_cfg.FIG3, "rate negative", r"\bPaths\.rates=\(1.0, -1.0\) must be", rates=(1.0, -1.0)),
    config(rq_cfg.Paths, rq_cfg.FIG3, "three rates", r"\bPaths\.rates=\(1.0, 1.0, 1.0\) must be 2", rates=(1.0,) * 3),
    config(rq_cfg.Paths, rq_cfg.FIG3, "sign zero", r"\bPaths\.sign=0.0 must be \+1 or -1", sign=0.0),
    config(rq_cfg.Paths, rq_cfg.FIG3, "delta NaN", r"\bPaths\.deltas=\(nan,\) must be", deltas=(nan,)),
    config(rq_cfg.Paths, rq_cfg.FIG3, "beta_star zero", r"\bPaths\.beta_star=\(0.0, 0.0\) must be nonzero",
           beta_star=(0.0, 0.0)),
    config(rq_cfg.Paths, rq_cfg.FIG3, "beta0 length", r"\bPaths\.beta0s\[0\]=\(1.0, 0.0, 0.0\) must be 2",
           beta0s=((1.0, 0.0, 0.0),)),
    config(rq_cfg.Paths, rq_cfg.FIG3, "no beta0s", r"\bPaths\.beta0s is empty", beta0s=()),
    config(rq_cfg.Lowrank, rq_cfg.LOWRANK, "X 1-d", r"\bLowrank\.X=\(0.5, 1.0\) must be a non-empty finite \(n, d\)",
           X=(0.5, 1.0)),
    config(rq_cfg.Lowrank, rq_cfg.LOWRANK, "X NaN", r"\bLowrank\.X=.* must be a non-empty finite", X=((nan, 1.0),)),
    config(rq_cfg.Lowrank, rq_cfg.LOWRANK, "y length", r"\bLowrank\.y=\(1.1, 2.0\) must be 1 finite", y=(1.1, 2.0)),
    config(rq_cfg.Lowrank, rq_cfg.LOWRANK, "beta0 length", r"\bLowrank\.beta0=\(0.4,\) must be 2 finite", beta0=(0.4,)),
    config(rq_cfg.Lowrank, rq_cfg.LOWRANK, "delta inf", r"\bLowrank\.deltas=\(inf,\) must be", deltas=(inf,)),
    config(rq_cfg.Lowrank, rq_cfg.LOWRANK, "no deltas", r"\bLowrank\.deltas=\(\) must be a non-empty", deltas=()),
    config(rq_cfg.Lowrank, rq_cfg.LOWRANK, "rate zero", r"\bLowrank\.rates=\(0.0, 1.0\) must be", rates=(0.0, 1.0)),
    bad(rq_cfg.expect, "not a config", "fig1a", rq_cfg.Fig1a, error=TypeError,
        match=r"\bconfig must be a numerics.rich_quick.configs.Fig1a, got str"),
    # runners
    bad(rq_exp.kernel, "config", None, error=TypeError, match=r"\bconfig must be a .*configs.Kernel"),
    bad(rq_exp.kernel, "other config", FIG6B, error=TypeError, match=r"\bconfig must be a .*Kernel, got Filters"),
    bad(rq_exp.filters, "config", FIG6A, error=TypeError, match=r"\bconfig must be a .*configs.Filters"),
    bad(rq_exp.hierarchy, "config", "fig6c", error=TypeError, match=r"\bconfig must be a .*configs.Hierarchy"),
    bad(rq_exp.hierarchy, "read without out_dir", FIG6C, compute=False, match=r"\bcompute=False .*out_dir"),
    bad(rq_exp.hierarchy, "store missing", FIG6C, out_dir=ROOT / "no-such-store", compute=False,
        error=FileNotFoundError, match=r"no-such-store"),
    bad(rq_exp.hierarchy, "workers zero", FIG6C, workers=0, match=r"\bworkers=0 must be"),
    bad(rq_exp.hierarchy_chunk, "size zero", dataclasses.asdict(FIG6C), [0], [0],
        match=r"\bsizes=\[0\] must be positive integers"),
    bad(rq_exp.hierarchy_chunk, "seed fraction", dataclasses.asdict(FIG6C), [64], [1.5],
        match=r"\bseeds\[0\]=1.5 must be an integer >= 0"),
    bad(rq_exp.grokking, "config", None, error=TypeError, match=r"\bconfig must be a .*configs.Grokking"),
    bad(ts.fig1a, "config", FIG1B, error=TypeError, match=r"\bconfig must be a .*configs.Fig1a, got Fig1b"),
    bad(ts.fig1a, "store missing", FIG1A, out_dir=ROOT / "no-such-store", compute=False, error=FileNotFoundError,
        match=r"no-such-store"),
    bad(ts.fig1b, "config", None, error=TypeError, match=r"\bconfig must be a .*configs.Fig1b"),
    bad(ts.fig1b, "read without out_dir", FIG1B, compute=False, match=r"\bcompute=False .*out_dir"),
    bad(rq_lf.regime_table, "config", rq_cfg.XOR, error=TypeError, match=r"\bconfig must be a .*configs.Regimes"),
    bad(rq_rr.xor, "config", rq_cfg.REGIMES, error=TypeError, match=r"\bconfig must be a .*configs.Xor"),
    bad(sns.paths, "config", None, error=TypeError, match=r"\bconfig must be a .*configs.Paths"),
    bad(sns.lowrank_limits, "config", rq_cfg.FIG3, error=TypeError, match=r"\bconfig must be a .*configs.Lowrank"),
    bad(rq_rr.one_step_delta_change, "member out of range", XOR_RUN, 99,
        match=r"\bmember=99 must index one of the run's 2 members"),
    bad(rq_rr.one_step_delta_change, "not a run", {"W1": None}, error=TypeError, match=r"\brun must be a .*XorRun"),
    bad(rq_rr.xor_numbers, "not a run", None, error=TypeError, match=r"\brun must be a .*XorRun"),
    bad(rq_rt.alpha_for, "tau zero", 0.0, 0.5, match=r"\btau must be positive"),
    bad(rq_rt.symmetrised_base, "h odd", 0, 2, 3, match=r"\bh=3 must be even"),
    # shared argument checks
    bad(rq_chk.alpha_of, "zero", 0.0, match=r"\balpha=0.0 must be positive"),
    bad(rq_chk.members, "lengths differ", [0], [1.0, 2.0], match=r"\bseeds \(1\) and alphas \(2\) must pair up"),
    bad(rq_chk.members, "seed fraction", [0.5], [1.0], match=r"\bseeds\[0\]=0.5 must be an integer >= 0"),
    bad(rq_chk.size, "fraction", 2.5, "width", match=r"\bwidth=2.5 must be an integer >= 1"),
    bad(rq_chk.numbers, "ragged", "rates", [[1.0], [1.0, 2.0]], match=r"\brates=.* must be a non-empty tuple"),
    bad(rq_chk.numbers, "wrong length", "rates", [1.0], length=2, match=r"\brates=\[1.0\] must be 2 finite"),
    bad(rq_chk.formula, "text", "x + 1", error=TypeError, match=r"\bexpr must be a sympy expression, got str"),
    bad(rq_chk.parts, "missing part", {"I": 1}, ("I", "ww"), "M_coefs", error=KeyError,
        match=r"\bM_coefs must name \['I', 'ww'\]; it misses \['ww'\]"),
    bad(ln.wide_shapes, "X columns", RQ_W, RQ_A, np.ones((2, 5)), match=r"\bX \(2, 5\) must have 2 columns"),
    bad(ln.generator, "legacy state", np.random.RandomState(0), error=TypeError, match=r"\brng must be a numpy Generator"),
    bad(ln.deep_shapes, "readout", RQ_DEEP_WS, np.ones(5), match=r"\ba \(5,\) does not fit Ws\[-1\]"),
    bad(sn.weight_vector, "length", RQ_X, [1.0], match=r"\bw0 has 1 entries but X has 2 columns"),
    bad(sn.weight_vector, "NaN", RQ_X, [nan, 1.0], "w", match=r"\bw contains non-finite"),
    # grokking
    bad(gk.modular_addition, "p zero", 0, 0.5, 0, match=r"\bp=0 must be an integer >= 2"),
    bad(gk.modular_addition, "train_frac above one", 7, 1.5, 0, match=r"\btrain_frac=1.5 must lie in \(0, 1\)"),
    bad(gk.modular_addition, "train_frac NaN", 7, nan, 0, match=r"\btrain_frac=nan must be finite"),
    bad(gk.modular_addition, "seed negative", 7, 0.5, -1, match=r"\bseed=-1 must be an integer >= 0"),
    bad(gk.init, "lengths differ", [0, 1], [1.0], 8, match=r"\bseeds \(2\) and alphas \(1\) must pair up"),
    bad(gk.init, "alpha zero", [0], [0.0], 8, match=r"\balphas must be positive"),
    bad(gk.init, "no members", [], [], 8, match=r"\bseeds=\[\] must be a non-empty"),
    bad(gk.init, "d zero", [0], [1.0], 8, d=0, match=r"\bd=0 must be an integer >= 1"),
    bad(gk.init, "vocab one", [0], [1.0], 1, match=r"\bvocab=1 must be an integer >= 2"),
    bad(gk.forward, "heads", GK_P, GK_X, torch.ones(1), heads=3, match=r"\bheads=3 must divide the model width 4"),
    bad(gk.train, "steps zero", GK_P, GK_TRAIN, GK_TEST, tau=[1.0], lr=1e-3, wd=1.0, steps=0, eval_every=1,
        match=r"\bsteps=0 must be an integer >= 1"),
    bad(gk.train, "eval_every zero", GK_P, GK_TRAIN, GK_TEST, tau=[1.0], lr=1e-3, wd=1.0, steps=2, eval_every=0,
        match=r"\beval_every=0 must be an integer >= 1"),
    bad(gk.train, "lr NaN", GK_P, GK_TRAIN, GK_TEST, tau=[1.0], lr=nan, wd=1.0, steps=2, eval_every=1,
        match=r"\blr=nan must be finite"),
    bad(gk.train, "tau per member", GK_P, GK_TRAIN, GK_TEST, tau=[1.0, 1.0], lr=1e-3, wd=1.0, steps=2,
        eval_every=1, match=r"\btau has 2 entries for 1 members"),
    bad(gk.train, "tau zero", GK_P, GK_TRAIN, GK_TEST, tau=[0.0], lr=1e-3, wd=1.0, steps=2, eval_every=1,
        match=r"\btau must be positive"),
    bad(gk.train, "threshold", GK_P, GK_TRAIN, GK_TEST, tau=[1.0], lr=1e-3, wd=1.0, steps=2, eval_every=1,
        threshold=1.5, match=r"\bthreshold=1.5 must lie in \(0, 1\]"),
    bad(gk.train, "batch zero", GK_P, GK_TRAIN, GK_TEST, tau=[1.0], lr=1e-3, wd=1.0, steps=2, eval_every=1,
        batch=0, match=r"\bbatch=0 must be an integer >= 1"),
    bad(gk.embedding_fraction, "no embeddings", {"q": torch.ones(1, 2, 2)}, match=r"\bP must hold 'tok' and 'pos'"),
    # image networks
    bad(inet.lenet5_init, "alpha zero", 0, 0.0, match=r"\balpha=0.0 must be positive"),
    bad(inet.lenet5_init, "alpha NaN", 0, nan, match=r"\balpha=nan must be finite"),
    bad(inet.lenet5_init, "seed fraction", 1.5, 1.0, match=r"\bseed=1.5 must be an integer >= 0"),
    bad(inet.lenet5_init, "n_cls zero", 0, 1.0, n_cls=0, match=r"\bn_cls=0 must be an integer >= 1"),
    bad(inet.lenet5_forward, "image size", LENET, torch.zeros(2, 1, 8, 8), match=r"\bx must be \(B, 1, 28, 28\)"),
    bad(inet.resnet_init, "width zero", 0, 1.0, width=0, match=r"\bwidth=0 must be an integer >= 1"),
    bad(inet.resnet_init, "alpha negative", 0, -1.0, match=r"\balpha=-1.0 must be positive"),
    bad(inet.resnet_init, "first_kernel zero", 0, 1.0, first_kernel=0, match=r"\bfirst_kernel=0 must be an integer"),
    bad(inet.resnet_forward, "channels", inet.stack([inet.resnet_init(0, 1.0, width=2)]), torch.zeros(2, 3, 8, 8),
        match=r"\bx must be \(B, 1, H, W\)"),
    bad(inet.stack, "empty", [], match=r"\bparams_list is empty"),
    bad(inet.train_ensemble, "lr NaN", inet.lenet5_forward, LENET, MNIST4, [0, 1, 2, 3], lr=nan, epochs=1, batch=2,
        seed=0, match=r"\blr=nan must be finite"),
    bad(inet.train_ensemble, "epochs negative", inet.lenet5_forward, LENET, MNIST4, [0, 1, 2, 3], lr=0.1, epochs=-1,
        batch=2, seed=0, match=r"\bepochs=-1 must be an integer >= 0"),
    bad(inet.train_ensemble, "batch zero", inet.lenet5_forward, LENET, MNIST4, [0, 1, 2, 3], lr=0.1, epochs=1,
        batch=0, seed=0, match=r"\bbatch=0 must be an integer >= 1"),
    bad(inet.train_ensemble, "samples differ", inet.lenet5_forward, LENET, MNIST4, [0, 1, 2], lr=0.1, epochs=1,
        batch=2, seed=0, match=r"\bX has 4 samples but y has 3"),
    bad(inet.train_ensemble, "seed negative", inet.lenet5_forward, LENET, MNIST4, [0, 1, 2, 3], lr=0.1, epochs=1,
        batch=2, seed=-1, match=r"\bseed=-1 must be an integer >= 0"),
    bad(inet.accuracy, "samples differ", inet.lenet5_forward, LENET, MNIST4, [0, 1], match=r"\bX has 4 samples but y has 2"),
    bad(inet.scalar_ntk, "no images", inet.lenet5_forward, LENET, MNIST4[:0], match=r"\bX is empty"),
    bad(inet.smoothness, "zero filter", np.zeros((1, 5, 5)), rq_exp.LAPLACIAN_PRINTED, match=r"\bfilters has a zero filter"),
    bad(inet.smoothness, "NaN filter", np.full((1, 5, 5), nan), rq_exp.LAPLACIAN_PRINTED,
        match=r"\bfilters contains non-finite"),
    bad(inet.smoothness, "kernel larger", np.ones((1, 2, 2)), rq_exp.LAPLACIAN_PRINTED,
        match=r"\bkernel \(3, 3\) is larger than the filters \(2, 2\)"),
    bad(inet.dawn_init, "alpha zero", 0, 0.0, match=r"\balpha=0.0 must be positive"),
    bad(inet.dawn_init, "prep_kernel zero", 0, 1.0, prep_kernel=0, match=r"\bprep_kernel=0 must be an integer >= 1"),
    bad(inet.dawn_forward, "image size", DAWN, torch.zeros(2, 3, 8, 8), match=r"\bx must be \(B, 3, 32, 32\)"),
    bad(inet.train_dawn, "batch above samples", DAWN, torch.zeros(2, 3, 32, 32), [0, 1], epochs=1, batch=4,
        peak_lr=0.4, weight_decay=0.0, seed=0, match=r"\bbatch=4 exceeds the 2 training images"),
    bad(inet.train_dawn, "peak_lr NaN", DAWN, torch.zeros(2, 3, 32, 32), [0, 1], epochs=1, batch=2, peak_lr=nan,
        weight_decay=0.0, seed=0, match=r"\bpeak_lr=nan must be finite"),
    bad(inet.train_dawn, "weight_decay negative", DAWN, torch.zeros(2, 3, 32, 32), [0, 1], epochs=1, batch=2,
        peak_lr=0.4, weight_decay=-1.0, seed=0, match=r"\bweight_decay=-1.0 must be non-negative"),
    bad(inet.chunked_accuracy, "chunk zero", inet.lenet5_forward, LENET, MNIST4, [0, 1, 2, 3], chunk=0,
        match=r"\bchunk=0 must be an integer >= 1"),
    # random hierarchy model
    bad(rhm.rhm_rules, "L zero", 0, 8, 4, 2, 8, 0, match=r"\bL=0 must be a positive integer"),
    bad(rhm.rhm_rules, "s fraction", 2, 8, 4, 1.5, 8, 0, match=r"\bs=1.5 must be a positive integer"),
    bad(rhm.rhm_rules, "seed fraction", 2, 8, 4, 2, 8, 1.5, match=r"\bseed=1.5 must be an integer"),
    bad(rhm.rhm_rules, "too few tuples", 2, 8, 4, 2, 2, 0, match=r"v\^s = 4 tuples cannot give 8 symbols"),
    bad(rhm.rhm_data_checks, "X 1-d", [1.0, 2.0], [0, 1], 2, match=r"\bX \(2,\) must be \(inputs, features\)"),
    bad(rhm.rhm_data_checks, "y length", np.eye(3), [0, 1], 2, match=r"\by \(2,\) \(inputs,\)"),
    bad(rhm.rhm_data_checks, "empty", np.zeros((0, 3)), np.zeros(0, int), 2, match=r"\bX has no inputs"),
    bad(rhm.rhm_data_checks, "label out of range", np.eye(2), [0, 5], 2, match=r"\by must hold labels in \[0, 2\)"),
    bad(rhm.rhm_all_data, "top 2-d", np.zeros((2, 2), int), [], match=r"\btop \(2, 2\) must be \(n_c, m, s\)"),
    bad(rhm.mlp_init, "parametrisation", [0], [1.0], 4, 3, 1, 2, parametrisation="mup",
        match=r"\bparametrisation='mup' is not one of"),
    bad(rhm.mlp_init, "lengths differ", [0, 1], [1.0], 4, 3, 1, 2, match=r"\bseeds \(2\) and alphas \(1\) must pair up"),
    bad(rhm.mlp_init, "alpha zero", [0], [0.0], 4, 3, 1, 2, match=r"\balphas must be positive"),
    bad(rhm.mlp_init, "width zero", [0], [1.0], 4, 0, 1, 2, match=r"\bwidth=0 must be an integer >= 1"),
    bad(rhm.mlp_init, "no members", [], [], 4, 3, 1, 2, match=r"\bseeds=\[\] must be a non-empty"),
    bad(rhm.mlp_forward, "X width", MLP, torch.zeros(2, 5), match=r"\bX has 5 features but the first layer takes 4"),
    bad(rhm.train_mlp, "lr NaN", MLP, np.eye(4), [0, 1, 0, 1], lr=nan, epochs=1, batch=2, momentum=0.9, seed=0,
        match=r"\blr=nan must be finite"),
    bad(rhm.train_mlp, "epochs zero", MLP, np.eye(4), [0, 1, 0, 1], lr=0.1, epochs=0, batch=2, momentum=0.9, seed=0,
        match=r"\bepochs=0 must be an integer >= 1"),
    bad(rhm.train_mlp, "batch zero", MLP, np.eye(4), [0, 1, 0, 1], lr=0.1, epochs=1, batch=0, momentum=0.9, seed=0,
        match=r"\bbatch=0 must be an integer >= 1"),
    bad(rhm.train_mlp, "decay_frac zero", MLP, np.eye(4), [0, 1, 0, 1], lr=0.1, epochs=1, batch=2, momentum=0.9,
        seed=0, decay_frac=0.0, match=r"\bdecay_frac=0.0 must be positive"),
    bad(rhm.train_mlp, "momentum NaN", MLP, np.eye(4), [0, 1, 0, 1], lr=0.1, epochs=1, batch=2, momentum=nan,
        seed=0, match=r"\bmomentum=nan must be finite"),
    bad(rhm.train_mlp, "stop_loss negative", MLP, np.eye(4), [0, 1, 0, 1], lr=0.1, epochs=1, batch=2, momentum=0.9,
        seed=0, stop_loss=-1.0, match=r"\bstop_loss=-1.0 must be positive"),
    bad(rhm.train_mlp, "check_every zero", MLP, np.eye(4), [0, 1, 0, 1], lr=0.1, epochs=1, batch=2, momentum=0.9,
        seed=0, check_every=0, match=r"\bcheck_every=0 must be an integer >= 1"),
    bad(rhm.train_mlp, "labels differ", MLP, np.eye(4), [0, 1], lr=0.1, epochs=1, batch=2, momentum=0.9, seed=0,
        match=r"\bX \(1, 4, 4\), y \(1, 2\)"),
    bad(rhm.mlp_accuracy, "samples differ", MLP, np.eye(4), [0, 1], match=r"\bX has 4 samples but y has 2"),
    # single neuron
    bad(sn.delta_of, "eta_a zero", 1.0, [1.0], eta_a=0.0, match=r"\beta_a must be positive"),
    bad(sn.delta_of, "a NaN", nan, [1.0], match=r"\ba contains non-finite"),
    bad(sn.weight_rhs, "rows differ", RQ_X, [1.0, 2.0], match=r"\bX has 3 rows but y has 2"),
    bad(sn.weight_rhs, "eta_w NaN", RQ_X, RQ_Y, eta_w=nan, match=r"\beta_w contains non-finite"),
    bad(sn.integrate, "a0 NaN", RQ_X, RQ_Y, nan, [0.5, 0.2], 1.0, match=r"\ba0=nan must be finite"),
    bad(sn.integrate, "w0 length", RQ_X, RQ_Y, 1.0, [0.5], 1.0, match=r"\bw0 has 1 entries but X has 2 columns"),
    bad(sn.integrate, "t_end negative", RQ_X, RQ_Y, 1.0, [0.5, 0.2], -1.0, match=r"\bt_end must be positive"),
    bad(sn.integrate, "t_end NaN", RQ_X, RQ_Y, 1.0, [0.5, 0.2], nan, match=r"\bt_end contains non-finite"),
    bad(sn.integrate_with_a_sq_integral, "a0 inf", RQ_X, RQ_Y, inf, [0.5, 0.2], 1.0, match=r"\ba0=inf must be finite"),
    bad(sn.integrate_with_a_sq_integral, "w0 length", RQ_X, RQ_Y, 1.0, [0.5], 1.0,
        match=r"\bw0 has 1 entries but X has 2 columns"),
    bad(sn.gradient_descent, "steps negative", RQ_X, RQ_Y, 1.0, [0.5, 0.2], 0.1, -5,
        match=r"\bsteps=-5 must be an integer >= 0"),
    bad(sn.gradient_descent, "steps fraction", RQ_X, RQ_Y, 1.0, [0.5, 0.2], 0.1, 2.5,
        match=r"\bsteps=2.5 must be an integer >= 0"),
    bad(sn.gradient_descent, "lr zero", RQ_X, RQ_Y, 1.0, [0.5, 0.2], 0.0, 5, match=r"\blr must be positive"),
    bad(sn.gradient_descent, "a0 NaN", RQ_X, RQ_Y, nan, [0.5, 0.2], 0.1, 5, match=r"\ba0=nan must be finite"),
    bad(sn.gradient_descent, "diverges", RQ_X * 10, RQ_Y, 1.0, [0.5, 0.2], 1.0, 200, error=FloatingPointError,
        match=r"\blr=1.0 .*diverged"),
    bad(sn.integrate_coordinates, "empty grid", np.negative, [1.0], [], match=r"\bt_eval must be an increasing"),
    bad(sn.integrate_coordinates, "one time", np.negative, [1.0], [0.0], match=r"\bt_eval must be an increasing"),
    bad(sn.integrate_coordinates, "y0 NaN", np.negative, [nan], [0.0, 1.0], match=r"\by0 contains non-finite"),
    bad(sn.integrate_coordinates, "rate not callable", 3, [1.0], [0.0, 1.0], error=TypeError,
        match=r"\brate must be callable"),
    bad(sn.integrate_coordinates, "rate blows up", np.square, [1.0], [0.0, 5.0], error=ode.IntegrationFailed,
        match=r"\brate\b.*stopped at t="),
    bad(sn.mu_phi, "beta_star zero", 1.0, [1.0, 0.0], [0.0, 0.0], match=r"\bbeta_star must be nonzero"),
    bad(sn.mu_phi, "w zero", 1.0, [0.0, 0.0], [0.0, 1.0], match=r"\bw has a zero column: phi is undefined"),
    bad(sn.mu_phi, "w length", 1.0, [1.0, 0.0, 0.0], [0.0, 1.0], match=r"\bw has 3 entries but beta_star has 2"),
    bad(sn.preconditioner, "a NaN", nan, [1.0, 0.0], match=r"\ba=nan must be finite"),
    bad(sn.preconditioner, "w 2-d", 1.0, np.eye(2), match=r"\bw must have 1 dimensions"),
    bad(sn.preconditioner_from_beta, "beta zero", [0.0, 0.0], 1.0, match=r"\bbeta must be nonzero"),
    bad(sn.preconditioner_from_beta, "delta NaN", [1.0, 0.0], nan, match=r"\bdelta=nan must be finite"),
    bad(sn.riccati, "t NaN", [nan], 0.5, 1.0, 1.0, 1.0, match=r"\bt contains non-finite"),
    bad(sn.riccati, "complex rate", [1.0], 0.5, -1.0, 0.0, 1.0, match=r"Q\^2 \+ 4 P S = -4.0 must be non-negative"),
    bad(sn.changes_sign, "a0 NaN", nan, 1.0, 1.0, 0.0, match=r"\ba0=nan must be finite"),
    bad(sn.changes_sign, "delta inf", 1.0, 1.0, 1.0, inf, match=r"\bdelta=inf must be finite"),
    bad(sn.exact_solution, "a0 NaN", [0.0, 1.0], nan, [0.5, 0.2], [0.0, 1.0], match=r"\ba0=nan must be finite"),
    bad(sn.exact_solution, "t negative", [-1.0, 0.0], 1.0, [0.5, 0.2], [0.0, 1.0], match=r"\bt must be non-negative"),
    bad(sn.exact_solution, "t NaN", [nan], 1.0, [0.5, 0.2], [0.0, 1.0], match=r"\bt contains non-finite"),
    bad(sn.exact_solution, "beta_star zero", [0.0], 1.0, [0.5, 0.2], [0.0, 0.0], match=r"\bbeta_star must be nonzero"),
    bad(sn.exact_solution, "w0 length", [0.0], 1.0, [0.5], [0.0, 1.0], match=r"\bw0 has 1 entries but beta_star has 2"),
    bad(sn.exact_solution, "saddle", [0.0, 1.0], 0.0, [1.0, 0.0], [0.0, 1.0],
        match=r"a0 = 0 and w0 orthogonal to beta_star"),
    documented(sn.exact_solution, "t huge", [1e6], 1.0, [0.5, 0.2], [0.0, 1.0],
               check=lambda ex: finite([ex.a, ex.mu, ex.phi]), doc="finite for every t >= 0"),
    bad(sn.recover_weights, "delta NaN", [1.0], [0.5], [0.5, 0.2], [0.0, 1.0], nan, match=r"\bdelta=nan must be finite"),
    bad(sn.recover_weights, "mu NaN", [nan], [0.5], [0.5, 0.2], [0.0, 1.0], 0.0, match=r"\bmu contains non-finite"),
    bad(sn.recover_weights, "phi beyond one", [1.0], [1.5], [0.5, 0.2], [0.0, 1.0], 0.0,
        match=r"\bphi must lie in \[-1, 1\]"),
    bad(sn.recover_weights, "w0 length", [1.0], [0.5], [0.5], [0.0, 1.0], 0.0,
        match=r"\bw0 has 1 entries but beta_star has 2"),
    bad(sn.recover_weights, "beta_star zero", [1.0], [0.5], [0.5, 0.2], [0.0, 0.0], 0.0,
        match=r"\bbeta_star must be nonzero"),
    bad(sn.interpolant_argmin, "rows differ", np.sum, RQ_X, [1.0], [0.0, 0.0], match=r"\bX has 3 rows but y has 1"),
    bad(sn.interpolant_argmin, "zero X", np.sum, np.zeros((1, 2)), [1.0], [0.0, 0.0], match=r"\bX is the zero matrix"),
    bad(sn.interpolant_argmin, "guess length", np.sum, RQ_X1, RQ_Y1, [0.0], match=r"\bbeta_guess has 1 entries but X has 2"),
    bad(sn.interpolant_argmin, "objective", None, RQ_X1, RQ_Y1, [0.0, 0.0], error=TypeError,
        match=r"\bobjective must be callable"),
    bad(sn.eq72_alpha, "delta NaN", 1.0, nan, 1.0, match=r"\bdelta contains non-finite"),
    bad(sn.eq72_alpha, "b negative", 1.0, 0.5, -1.0, match=r"\bb must be non-negative"),
    bad(sn.balanced_init, "delta NaN", [1.0, 0.0], nan, match=r"\bdelta=nan must be finite"),
    bad(sn.balanced_init, "sign zero", [1.0, 0.0], 0.5, sign=0.0, match=r"\bsign=0.0 must be \+1 or -1"),
    bad(sn.balanced_init, "beta0 zero, delta negative", [0.0, 0.0], -1.0, match=r"beta0 = 0 with delta <= 0"),
    bad(sn.balanced_init, "beta0 NaN", [nan, 0.0], 0.5, match=r"\bbeta0 contains non-finite"),
    bad(sn.kernel_distance_path, "lengths differ", [1.0, 1.0], np.ones((2, 3)),
        match=r"\ba \(2,\) and w \(2, 3\) must be \(T,\) and \(d, T\)"),
    bad(sn.kernel_distance_path, "a NaN", [nan, 1.0], np.ones((2, 2)), match=r"\ba contains non-finite"),
    bad(sn.ntk_autograd, "a NaN", RQ_X, nan, [0.5, 0.2], match=r"\ba=nan must be finite"),
    bad(sn.ntk_autograd, "w length", RQ_X, 1.0, [0.5], match=r"\bw has 1 entries but X has 2 columns"),
    bad(sn.flow_end, "seed fraction", RQ_X, RQ_Y, 1.5, 1.0, match=r"\bseed=1.5 must be an integer >= 0"),
    bad(sn.flow_end, "seed negative", RQ_X, RQ_Y, -1, 1.0, match=r"\bseed=-1 must be an integer >= 0"),
    bad(sn.flow_end, "t_end zero", RQ_X, RQ_Y, 0, 0.0, match=r"\bt_end\b.*must be positive"),
    bad(sn.flow_drift, "seed fraction", RQ_X, RQ_Y, 0.5, 1.0, match=r"\bseed=0.5 must be an integer >= 0"),
    bad(sn.surface_components, "d three", 0.5, 3, match=r"\bd=3 must be 1 or 2"),
    bad(sn.surface_components, "delta NaN", nan, 2, match=r"\bdelta=nan must be finite"),
    bad(sn.surface_components, "n one", 0.5, 2, n=1, match=r"\bn=1 must be an integer >= 2"),
    # single-neuron paths
    bad(sns.whitened_data, "beta_star empty", [], match=r"\bbeta_star is empty"),
    bad(sns.whitened_data, "beta_star NaN", [nan, 1.0], match=r"\bbeta_star contains non-finite"),
    bad(sns.whitened_data, "seed negative", [0.0, 1.0], -1, match=r"\bseed=-1 must be an integer >= 0"),
    bad(sns.whitened_case, "key missing", {"a0": 1.0}, match=r"\bcase misses \['beta_star', 'eta_a', 'eta_w', 'w0'\]"),
    bad(sns.whitened_case, "not a dict", [1.0], error=TypeError, match=r"\bcase must be a dict"),
    bad(sns.whitened_flow, "key missing", {"a0": 1.0}, 1.0, match=r"\bcase misses"),
    bad(sns.whitened_flow, "n_t one", RQ_CASE, 1.0, 1, match=r"\bn_t=1 must be an integer >= 2"),
    bad(sns.whitened_flow, "t_end negative", RQ_CASE, -1.0, match=r"\bt_end=-1.0 must be positive"),
    bad(sns.flow_coordinates, "n_t fraction", RQ_CASE, 1.0, 2.5, match=r"\bn_t=2.5 must be an integer >= 2"),
    bad(sns.flow_coordinates, "w0 NaN", dict(RQ_CASE, w0=[nan, 0.0]), 1.0, match=r"\bcase\['w0'\] contains non-finite"),
    bad(sns.trajectory_error, "unknown coordinate", {"zeta": [1.0]}, {"mu": [1.0]},
        match=r"\bpredicted names \['zeta'\], not in the reference"),
    bad(sns.trajectory_error, "shapes differ", {"mu": [1.0, 2.0]}, {"mu": [1.0]},
        match=r"\bpredicted\['mu'\] \(2,\) and the reference \(1,\)"),
    bad(sns.trajectory_error, "empty", {}, {"mu": [1.0]}, match=r"\bpredicted is empty"),
    documented(sns.trajectory_error, "non-finite prediction", {"mu": [nan]}, {"mu": [1.0]},
               check=lambda v: v == inf, doc="inf when a prediction is not finite"),
    bad(sns.final_sign_of_a, "t_end negative", RQ_CASE, -1.0, match=r"\bt_end=-1.0 must be positive"),
    bad(sns.final_sign_of_a, "case missing", {}, match=r"\bcase misses"),
    bad(sns.zero_crossings, "n_t one", RQ_CASE, 1.0, 1, match=r"\bn_t=1 must be an integer >= 2"),
    bad(sns.limit_time, "delta NaN", nan, match=r"\bdelta=nan must be finite"),
    bad(sns.flow_limit, "delta NaN", RQ_X1, RQ_Y1, [0.4, 0.05], nan, match=r"\bdelta=nan must be finite"),
    bad(sns.flow_limit, "t_end negative", RQ_X1, RQ_Y1, [0.4, 0.05], 0.5, t_end=-1.0,
        match=r"\bt_end=-1.0 must be positive"),
    bad(sns.flow_limit, "beta0 length", RQ_X1, RQ_Y1, [0.4], 0.5, match=r"\bw0 has 1 entries but X has 2 columns"),
    bad(sns.exact_path, "t negative", [0.4, 0.05], [0.0, 1.0], 0.5, [-1.0], match=r"\bt must be non-negative"),
    bad(sns.exact_path, "delta NaN", [0.4, 0.05], [0.0, 1.0], nan, [0.0], match=r"\bdelta=nan must be finite"),
    bad(sns.timescales, "delta zero", deltas=(0.0,), match=r"\bdeltas=\(0.0,\) must be .*positive"),
    bad(sns.timescales, "mu0 negative", mu0s=(-1.0,), match=r"\bmu0s=\(-1.0,\) must be .*positive"),
    bad(sns.timescales, "one rate", rates=(0.5,), match=r"\brates=\(0.5,\) must be 2 "),
    bad(sns.timescales, "beta_star zero", beta_star=(0.0, 0.0), match=r"\bbeta_star=\(0.0, 0.0\) must be nonzero"),
    bad(sns.conserved_surface_flows, "t_end zero", t_end=0.0, match=r"\bt_end=0.0 must be positive"),
    bad(sns.conserved_surface_flows, "points one", points=1, match=r"\bpoints=1 must be an integer >= 2"),
    bad(sns.conserved_surface_flows, "delta NaN", deltas=(nan,), match=r"\bdeltas=\(nan,\) must be"),
    # teacher-student grid
    bad(ts.geometry_alpha, "tau zero", 0.0, 0.5, match=r"\btau must be positive"),
    bad(ts.geometry_alpha, "delta NaN", 1.0, nan, match=r"\bdelta contains non-finite"),
    bad(ts.relu_net, "W columns", RQ_X, np.ones((4, 3)), np.ones(4), match=r"\bW \(4, 3\) must be \(h, 2\)"),
    bad(ts.relu_net, "a length", RQ_X, np.ones((4, 2)), np.ones(3), match=r"\ba \(3,\) must be \(4,\)"),
    bad(ts.make_task, "d zero", 0, 0, 4, 1, 3, 2, match=r"\bd=0 must be a positive integer"),
    bad(ts.make_task, "h odd", 0, 2, 3, 1, 3, 2, match=r"\bh=3 must be even"),
    bad(ts.make_task, "seed fraction", 1.5, 2, 4, 1, 3, 2, match=r"\bseed=1.5 must be a non-negative integer"),
    bad(ts.make_task, "n_test zero", 0, 2, 4, 1, 3, 0, match=r"\bn_test=0 must be a positive integer"),
    bad(ts.make_task, "teacher seed negative", 0, 2, 4, 1, 3, 2, teacher_seed=-1,
        match=r"\bteacher_seed=-1 must be a non-negative integer"),
    bad(ts.ntk, "W 2-d", torch.ones(3, 2), torch.ones(4, 2), torch.ones(1, 4),
        match=r"\bX \(3, 2\), W \(4, 2\) and a \(1, 4\) must be \(n, d\), \(K, h, d\), \(K, h\)"),
    bad(ts.train, "no tasks", [], [0.1], [0.0], lr=0.1, steps=2, record_steps=[], match=r"\btasks must be a non-empty"),
    bad(ts.train, "steps zero", [RQ_TASK], [0.1], [0.0], lr=0.1, steps=0, record_steps=[],
        match=r"\bsteps=0 must be a positive integer"),
    bad(ts.train, "tau NaN", [RQ_TASK], [nan], [0.0], lr=0.1, steps=2, record_steps=[], match=r"\btaus contains non-finite"),
    bad(ts.train, "grid shapes", [RQ_TASK], [0.1, 0.2], [0.0], lr=0.1, steps=2, record_steps=[],
        match=r"\btaus \(2,\) and deltas \(1,\) must be equal 1-d grids"),
    bad(ts.train, "lr negative", [RQ_TASK], [0.1], [0.0], lr=-0.1, steps=2, record_steps=[], match=r"\blr must be positive"),
    bad(ts.train, "record beyond", [RQ_TASK], [0.1], [0.0], lr=0.1, steps=2, record_steps=[5],
        match=r"\brecord_steps must lie in \[0, steps=2\]"),
    bad(ts.train, "dtype", [RQ_TASK], [0.1], [0.0], lr=0.1, steps=2, record_steps=[], dtype=torch.float16,
        error=TypeError, match=r"\bdtype=torch.float16 must be"),
    bad(ts.train, "tasks differ", [RQ_TASK, ts.make_task(1, d=3, h=4, k=1, n=3, n_test=2)], [0.1], [0.0], lr=0.1,
        steps=2, record_steps=[], match=r"\btasks must share their sizes"),
    bad(ts.train, "diverges", [RQ_TASK], [3.0], [0.0], lr=1e3, steps=50, record_steps=[10, 20, 30, 40],
        error=FloatingPointError, match=r"\blr\b.*non-finite"),
    bad(ts.fig1b_flop_per_step, "missing key", {"n": 1}, match=r"\bcfg misses \['d', 'h'\]"),
    bad(ts.fig1b_cost, "no seeds", dict(FIG1B_CFG, seeds=()), match=r"\bcfg\['seeds'\]=\(\) must be a non-empty"),
    bad(ts.fig1b_cost, "steps zero", dict(FIG1B_CFG, steps=0), match=r"\bcfg\['steps'\]=0 must be an integer >= 1"),
    bad(ts.fig1b_steps, "steps negative", {"steps": -5, "marks": ()}, match=r"\bcfg\['steps'\]=-5 must be"),
    bad(ts.fig1b_sweep, "steps zero", dict(FIG1B_CFG, steps=0), match=r"\bcfg\['steps'\]=0 must be an integer >= 1"),
    bad(ts.fig1b_sweep, "fraction zero", FIG1B_CFG, 0.0, match=r"\bfraction=0.0 must lie in \(0, 1\]"),
    bad(ts.fig1b_sweep, "fraction NaN", FIG1B_CFG, nan, match=r"\bfraction=nan must lie in \(0, 1\]"),
    bad(ts.fig1b_sweep, "missing key", {"steps": 10}, match=r"\bcfg misses"),
    bad(ts.fig1b_chunk, "cells odd", CHUNK_CFG, [0.1, 0.0, 0.5], [0], match=r"\bcells must be \(tau, delta\) pairs"),
    bad(ts.fig1b_chunk, "seed fraction", CHUNK_CFG, [(0.1, 0.0)], [1.5], match=r"\bseeds\[0\]=1.5 must be an integer"),
    bad(ts.fig1a_chunk, "seed fraction", dataclasses.asdict(FIG1A), [(0.1, 0.0)], [0.5],
        match=r"\bseeds\[0\]=0.5 must be an integer"),
    bad(ts.fig1a_chunk, "records zero", dict(dataclasses.asdict(FIG1A), records=0), [(0.1, 0.0)], [0],
        match=r"\bconfig\['records'\]=0 must be an integer >= 1"),
    bad(ts.sweep_or_read, "read without out_dir", ts.fig1b_chunk, CHUNK_CFG, [(0.1, 0.0)], [0], None, False, None,
        match=r"\bcompute=False .*out_dir"),
    bad(ts.angular_movement, "shapes", np.ones((1, 2, 2)), np.ones((1, 3, 2)), np.ones((1, 3)),
        match=r"\bW0 \(1, 2, 2\), W1 \(1, 3, 2\) and a1 \(1, 3\)"),
    bad(ts.angular_movement, "zero neuron", np.zeros((1, 2, 2)), np.ones((1, 2, 2)), np.ones((1, 2)),
        match=r"\bW0 has a zero neuron"),
    bad(ts.teacher_alignment, "zero student", np.zeros((1, 2, 2)), np.ones((1, 2)), np.ones((1, 1, 2)),
        match=r"\bW has a zero neuron"),
    bad(ts.teacher_alignment, "degrees NaN", np.ones((1, 2, 2)), np.ones((1, 2)), np.ones((1, 1, 2)), nan,
        match=r"\bdegrees=nan must be finite"),
    bad(ts.cell_arrays, "unknown record", TS_RUN, "Q", error=KeyError, match=r"\bname='Q' is not a record"),
    bad(ts.fig1a_numbers, "no weights", TS_RUN, error=KeyError, match=r"\bname='W' is not a record"),
    # wide and deep linear networks
    bad(rq_lf.wide_flow_drift, "t_end zero", RQ_W, RQ_A, np.eye(2), np.ones((2, 1)), 1.0, 1.0, 0.0, rq_quantity,
        match=r"\bt_end must be positive"),
    bad(rq_lf.wide_flow_drift, "W A rows", RQ_W, RQ_A[:2], np.eye(2), np.ones((2, 1)), 1.0, 1.0, 1.0, rq_quantity,
        match=r"\bW \(3, 2\) and A \(2, 1\) must share the hidden width"),
    bad(rq_lf.aligned_square_flow, "d zero", 0, 0.5, 1.0, 1.0, RNG(0), [], match=r"\bd=0 must be an integer >= 1"),
    bad(rq_lf.aligned_square_flow, "D length", 2, 0.5, 1.0, 1.0, RNG(0), [1.0], match=r"\bD must have shape \(2,\)"),
    bad(rq_lf.aligned_square_flow, "D negative", 2, 0.5, 1.0, 1.0, RNG(0), [1.0, -1.0], match=r"\bD must be non-negative"),
    bad(rq_lf.aligned_square_flow, "delta NaN", 2, nan, 1.0, 1.0, RNG(0), [1.0, 1.0], match=r"\bdelta=nan must be finite"),
    bad(rq_lf.aligned_square_flow, "rng", 2, 0.5, 1.0, 1.0, None, [1.0, 1.0], error=TypeError,
        match=r"\brng must be a numpy"),
    bad(rq_lf.aligned_square_flow, "t_end negative", 2, 0.5, 1.0, 1.0, RNG(0), [1.0, 1.0], t_end=-1.0,
        match=r"\bt_end=-1.0 must be positive"),
    bad(rq_lf.kernel_movement, "d zero", 0, 3, 2, 0.5, RNG(0), match=r"\bd=0 must be an integer >= 1"),
    bad(rq_lf.kernel_movement, "delta inf", 2, 3, 2, inf, RNG(0), match=r"\bdelta=inf must be finite"),
    bad(rq_lf.kernel_movement, "beta_scale zero", 2, 3, 2, 0.5, RNG(0), beta_scale=0.0,
        match=r"\bbeta_scale=0.0 must be positive"),
    bad(rq_lf.deep_flow_limit, "depth", RQ_DEEP_WS, RQ_DEEP_A, RQ_X1, RQ_Y1, 3, match=r"\bl=3 but Ws holds 2"),
    bad(rq_lf.deep_flow_limit, "t_end zero", RQ_DEEP_WS, RQ_DEEP_A, RQ_X1, RQ_Y1, 2, t_end=0.0,
        match=r"\bt_end must be positive"),
    bad(rq_lf.deep_flow_drift, "depth", RQ_DEEP_WS, RQ_DEEP_A, RQ_X1, RQ_Y1, 1, np.sum, 1.0,
        match=r"\bl=1 but Ws holds 2"),
    bad(ln.kron_sum, "P not square", np.ones((2, 3)), np.eye(2), match=r"\bP \(2, 3\) and Q \(2, 2\) must be square"),
    bad(ln.gram_function, "not square", np.ones((2, 3)), np.sqrt, match=r"\bG must be a square matrix"),
    bad(ln.gram_function, "NaN", [[nan]], np.sqrt, match=r"\bG contains non-finite"),
    bad(ln.gram_function, "f", np.eye(2), 3, error=TypeError, match=r"\bf must be callable"),
    bad(ln.wide_rhs, "rows", np.eye(2), np.ones((3, 1)), 1.0, 1.0, match=r"\bX \(2, 2\) and Y \(3, 1\)"),
    bad(ln.wide_rhs, "eta negative", np.eye(2), np.ones((2, 1)), -1.0, 1.0, match=r"\beta_a must be positive"),
    bad(ln.wide_M, "rows", RQ_W, RQ_A[:2], 1.0, 1.0, match=r"\bW \(3, 2\) and A \(2, 1\) must share"),
    bad(ln.wide_M, "eta NaN", RQ_W, RQ_A, nan, 1.0, match=r"\beta_a contains non-finite"),
    bad(ln.wide_ntk_autograd, "X columns", RQ_W, RQ_A, np.ones((2, 3)), 1.0, 1.0,
        match=r"\bX \(2, 3\) must have 2 columns"),
    bad(ln.neuron_terms, "rows", RQ_W, RQ_A[:2], 1.0, 1.0, match=r"\bW \(3, 2\) and A \(2, 1\) must share"),
    bad(ln.init_wide, "d zero", 0, 3, 1, 0.5, 0.3, 1.0, 1.0, RNG(0), match=r"\bd=0 must be an integer >= 1"),
    bad(ln.init_wide, "deltas length", 2, 3, 1, [0.5, 0.5], 0.3, 1.0, 1.0, RNG(0),
        match=r"\bdeltas must be one value or one per neuron \(3\)"),
    bad(ln.init_wide, "beta_norms zero", 2, 3, 1, 0.5, 0.0, 1.0, 1.0, RNG(0), match=r"\bbeta_norms must be positive"),
    bad(ln.init_wide, "rng", 2, 3, 1, 0.5, 0.3, 1.0, 1.0, None, error=TypeError, match=r"\brng must be a numpy"),
    bad(ln.init_square_isotropic, "d zero", 0, 0.5, 1.0, 1.0, RNG(0), match=r"\bd=0 must be an integer >= 1"),
    bad(ln.init_square_isotropic, "delta NaN", 2, nan, 1.0, 1.0, RNG(0), match=r"\bdelta=nan must be finite"),
    bad(ln.init_square_isotropic, "scale NaN", 2, 0.5, 1.0, 1.0, RNG(0), scale=nan, match=r"\bscale=nan must be finite"),
    bad(ln.deep_beta, "shapes", [np.ones((2, 3))], np.ones(3), match=r"\ba \(3,\) does not fit Ws\[-1\] \(2, 3\)"),
    bad(ln.deep_beta, "layers misfit", [np.ones((2, 3)), np.ones((2, 3))], np.ones(2),
        match=r"\bWs\[1\] \(2, 3\) does not take the 2 outputs of Ws\[0\]"),
    bad(ln.deep_rhs, "l zero", RQ_X, RQ_Y, 0, match=r"\bl=0 must be an integer >= 1"),
    bad(ln.deep_rhs, "rows", RQ_X, [1.0], 2, match=r"\bX has 3 rows but y has 1"),
    bad(ln.deep_isotropic_init, "delta positive", 2, 2, 0.5, RNG(0), match=r"\bdelta=0.5 > 0 has no isotropic"),
    bad(ln.deep_isotropic_init, "delta NaN", 2, 2, nan, RNG(0), match=r"\bdelta=nan must be finite"),
    bad(ln.deep_isotropic_init, "h zero", 0, 2, -0.5, RNG(0), match=r"\bh=0 must be an integer >= 1"),
    bad(ln.deep_isotropic_init, "a length", 2, 2, -0.5, RNG(0), a=[1.0], match=r"\ba must have shape \(2,\)"),
    bad(ln.deep_balanced_chain, "h zero", 0, 2, 1.0, RNG(0), match=r"\bh=0 must be an integer >= 1"),
    bad(ln.deep_balanced_chain, "scale NaN", 2, 2, nan, RNG(0), match=r"\bscale=nan must be finite"),
    bad(ln.deep_M_autograd, "shapes", [np.ones((2, 3))], np.ones(3), match=r"\ba \(3,\) does not fit Ws\[-1\]"),
    bad(ln.single_neuron_beta, "beta0 zero", np.eye(2), [1.0, 0.0], -0.5, [0.0, 0.0], 1.0, method="RK45", rtol=1e-6,
        match=r"beta0 = 0 with delta <= 0"),
    bad(ln.single_neuron_beta, "samples one", np.eye(2), [1.0, 0.0], 0.5, [0.1, 0.1], 1.0, method="RK45", rtol=1e-6,
        samples=1, match=r"\bsamples=1 must be an integer >= 2"),
    bad(ln.single_neuron_beta, "XtX shape", np.eye(3), [1.0, 0.0], 0.5, [0.1, 0.1], 1.0, method="RK45", rtol=1e-6,
        match=r"\bXtX must have shape \(2, 2\)"),
    bad(ln.single_neuron_beta, "delta NaN", np.eye(2), [1.0, 0.0], nan, [0.1, 0.1], 1.0, method="RK45", rtol=1e-6,
        match=r"\bdelta=nan must be finite"),
    # piecewise linear networks
    bad(pw.leaky, "gamma one", [1.0], 1.0, match=r"\bgamma=1.0 must lie in \[0, 1\)"),
    bad(pw.leaky_grad, "gamma negative", [1.0], -0.5, match=r"\bgamma=-0.5 must lie in \[0, 1\)"),
    bad(pw.two_layer_parts, "gamma one", PW_W, PW_A, RQ_X, RQ_Y, 1.0, match=r"\bgamma=1.0 must lie in \[0, 1\)"),
    bad(pw.two_layer_parts, "y length", PW_W, PW_A, RQ_X, [1.0], 0.0, match=r"\by has 1 entries but X has 3 rows"),
    bad(pw.two_layer_parts, "W columns", np.ones((3, 3)), PW_A, RQ_X, RQ_Y, 0.0,
        match=r"\bW \(3, 3\) must have as many columns as X \(3, 2\)"),
    bad(pw.two_layer_parts, "a length", PW_W, np.ones(2), RQ_X, RQ_Y, 0.0, match=r"\ba has 2 entries but W has 3 rows"),
    bad(pw.two_layer_rhs, "eta_w negative", RQ_X, RQ_Y, 0.0, 1.0, -1.0, match=r"\beta_w must be positive"),
    bad(pw.two_layer_rhs, "gamma", RQ_X, RQ_Y, 2.0, 1.0, 1.0, match=r"\bgamma=2.0 must lie in \[0, 1\)"),
    bad(pw.two_layer_autograd, "y length", PW_W, PW_A, RQ_X, [1.0], 0.0, 1.0, 1.0,
        match=r"\by has 1 entries but X has 3 rows"),
    bad(pw.two_layer_autograd, "eta_a NaN", PW_W, PW_A, RQ_X, RQ_Y, 0.0, nan, 1.0, match=r"\beta_a contains non-finite"),
    bad(pw.DeepReLU.random, "no widths", 2, [], RNG(0), match=r"\bwidths=\[\] must be a non-empty"),
    bad(pw.DeepReLU.random, "d zero", 0, [3], RNG(0), match=r"\bd=0 must be an integer >= 1"),
    bad(pw.DeepReLU.random, "width zero", 2, [0], RNG(0), match=r"\bwidths=\[0\] must be a non-empty"),
    bad(pw.DeepReLU, "readout length", [np.ones((3, 2))], None, np.ones(2),
        match=r"\breadout has 2 entries but the last layer has 3 units"),
    bad(pw.DeepReLU, "layers misfit", [np.ones((3, 2)), np.ones((2, 4))], None, np.ones(2),
        match=r"\bweights\[1\] \(2, 4\) does not take the 3 outputs"),
    bad(pw.DeepReLU, "bias length", [np.ones((3, 2))], [np.ones(2)], np.ones(3), match=r"\bbiases\[0\] has 2 entries"),
    bad(pw.DeepReLU, "gamma", [np.ones((3, 2))], None, np.ones(3), 1.5, match=r"\bgamma=1.5 must lie in \[0, 1\)"),
    bad(RQ_NET.preactivations, "points width", np.ones((4, 3)), match=r"\bP must be \(N, 2\)"),
    bad(RQ_NET.patterns, "points NaN", [[nan, 0.0]], match=r"\bP contains non-finite"),
    bad(RQ_NET.__call__, "points width", np.ones((4, 3)), match=r"\bP must be \(N, 2\)"),
    bad(RQ_NET.input_gradient, "x length", [1.0, 2.0, 3.0], match=r"\bx must have shape \(2,\)"),
    bad(RQ_NET.preactivation_gradient, "unit too large", [1.0, 0.0], 99, match=r"\bunit=99 exceeds"),
    bad(RQ_NET.preactivation_gradient, "unit negative", [1.0, 0.0], -1, match=r"\bunit=-1 must be an integer >= 0"),
    bad(pw.boundary_crossings, "tol zero", RQ_NET, [-3.0, 0.0], [3.0, 0.0], tol=0.0, match=r"\btol=0.0 must be positive"),
    bad(pw.boundary_crossings, "samples one", RQ_NET, [-3.0, 0.0], [3.0, 0.0], samples=1,
        match=r"\bsamples=1 must be an integer >= 2"),
    bad(pw.boundary_crossings, "same points", RQ_NET, [1.0, 0.0], [1.0, 0.0], match=r"\bp0 and p1 must differ"),
    bad(pw.boundary_crossings, "p0 NaN", RQ_NET, [nan, 0.0], [1.0, 0.0], match=r"\bp0 contains non-finite"),
    bad(pw.delta_drift, "t_end zero", PW_W, PW_A, RQ_X, RQ_Y, 0.0, 1.0, 1.0, t_end=0.0, match=r"\bt_end must be positive"),
    bad(pw.delta_drift, "gamma", PW_W, PW_A, RQ_X, RQ_Y, 1.0, 1.0, 1.0, match=r"\bgamma=1.0 must lie in \[0, 1\)"),
    bad(pw.homogeneous_fit_error, "h zero", np.linalg.norm, 0, RNG(0), match=r"\bh=0 must be an integer >= 1"),
    bad(pw.homogeneous_fit_error, "n zero", np.linalg.norm, 10, RNG(0), n=0, match=r"\bn=0 must be an integer >= 1"),
    bad(pw.homogeneous_fit_error, "radii", np.linalg.norm, 10, RNG(0), radii=(2.0, 0.5),
        match=r"\bradii=\(2.0, 0.5\) must be 0 <= r_min < r_max"),
    bad(pw.homogeneous_fit_error, "zero target", rq_target, 10, RNG(0), n=50,
        match=r"\btarget is zero on the test points"),
    bad(pwe.beta_dynamics_error, "coefficient missing", {"I": 1}, PW_W, PW_A, RQ_X, RQ_Y, 0.0, 1.0, 1.0,
        error=KeyError, match=r"\bM_coefs must name \['I', 'ww'\]"),
    bad(pwe.beta_dynamics_error, "gamma", PW_M8, PW_W, PW_A, RQ_X, RQ_Y, 1.0, 1.0, 1.0,
        match=r"\bgamma=1.0 must lie in \[0, 1\)"),
    bad(pwe.preconditioner_error, "dead neuron", PW_M126, RQ_DEAD_W, np.ones(2), 1.0, 1.0,
        match=r"\bunit 0 has beta_i = 0"),
    bad(pwe.preconditioner_error, "coefficient missing", {"I": 1}, PW_W, PW_A, 1.0, 1.0, error=KeyError,
        match=r"\bM_coefs must name \['I', 'bb'\]"),
    bad(pwe.spherical_error, "zero w", tpw.EQ9, RQ_DEAD_W, np.ones(2), RQ_X, RQ_Y, 0.0, 1.0, 1.0,
        match=r"\bunit 0 has w_i = 0"),
    bad(pwe.spherical_error, "form missing", {"radial": 1}, PW_W, PW_A, RQ_X, RQ_Y, 0.0, 1.0, 1.0, error=KeyError,
        match=r"\beq9 must name \['angular', 'radial'\]"),
    bad(pwe.delta_rate, "y length", PW_W, PW_A, RQ_X, [1.0], 0.0, 1.0, 1.0, match=r"\by has 1 entries but X has 3"),
    bad(pwe.crossing_statistics, "lines zero", RQ_NET, RNG(0), lines=0, match=r"\blines=0 must be an integer >= 1"),
    bad(pwe.crossing_statistics, "radius NaN", RQ_NET, RNG(0), radius=nan, match=r"\bradius=nan must be finite"),
    bad(pwe.crossing_statistics, "not a net", None, RNG(0), error=TypeError, match=r"\bnet must be a .*DeepReLU"),
    bad(pwe.fixed_setting_drift, "setting missing", {"W": PW_W}, 1.0, 1.0, error=KeyError,
        match=r"\bs must name \['W', 'X', 'a', 'y'\]"),
    # formula errors (single neuron)
    bad(fe.with_delta, "missing weight", {"a": 1.0}, error=KeyError, match=r"\bpoint misses \['eta_a', 'eta_w', 'w1', 'w2'\]"),
    bad(fe.with_delta, "NaN", dict(RQ_SYM, a=nan), match=r"\bpoint\['a'\]=nan must be finite"),
    bad(fe.hp_abs, "symbol missing", t_sns.MU_OF_WEIGHTS, {"a": 1.0}, error=KeyError, match=r"\bpoint misses \['w1', 'w2'\]"),
    bad(fe.hp_abs, "not a formula", "a +* b", {}, error=TypeError, match=r"\bexpr must be a sympy expression"),
    bad(fe.relative, "point NaN", t_sns.a, 1, dict(RQ_SYM, a=nan), match=r"\bpoint\['a'\]=nan must be finite"),
    bad(fe.flow_rate, "not sympy", "x +", error=TypeError, match=r"\bquantity must be a sympy expression"),
    bad(fe.rate_equation_error, "point misses", t_sns.DELTA_OF_WEIGHTS, 0, {"a": 1.0}, error=KeyError,
        match=r"\bpoint misses"),
    bad(fe.identity_error, "point NaN", t_sns.mu, t_sns.MU_OF_WEIGHTS, dict(RQ_SYM, w1=nan),
        match=r"\bpoint\['w1'\]=nan must be finite"),
    bad(fe.solution_residual, "state not a symbol", t_sns.t, 1, "t", {"t": 1.0}, error=TypeError,
        match=r"\bstate must be a sympy Symbol"),
    bad(fe.rate_pair_preconditioner_gap, "n zero", n=0, match=r"\bn=0 must be an integer >= 1"),
    bad(fe.rate_pair_preconditioner_gap, "factor zero", factors=(0.0, 1.0), match=r"\bfactors=\(0.0, 1.0\) must be 2"),
    bad(fe.rate_pair_preconditioner_gap, "seed negative", seed=-1, match=r"\bseed=-1 must be an integer >= 0"),
    bad(fe.wlog_points, "n zero", n=0, match=r"\bn=0 must be an integer >= 1"),
    bad(fe.wlog_points, "seed fraction", seed=0.5, match=r"\bseed=0.5 must be an integer >= 0"),
    bad(fe.rescaled_rate_error, "point misses", t_sns.DELTA_OF_WEIGHTS, 0, {"a": 1.0}, error=KeyError,
        match=r"\bpoint misses"),
    bad(fe.closed_form_in_t, "constant missing", t_sns.b * t_sns.t, {}, [0.0], error=KeyError,
        match=r"\bconstants misses \['b'\]"),
    bad(fe.closed_form_in_t, "t NaN", t_sns.b * t_sns.t, {"b": 1.0}, [nan], match=r"\bt contains non-finite"),
    bad(fe.basin_prediction, "case misses", t_sns.a0, {"a0": 1.0}, match=r"\bcase misses"),
    bad(fe.basin_mismatches, "margin negative", t_sns.a0, [RQ_CASE], margin=-0.1,
        match=r"\bmargin=-0.1 must be non-negative"),
    bad(fe.basin_mismatches, "no cases", t_sns.a0, [], match=r"\bcases is empty"),
    bad(fe.preconditioner_error, "M not callable", None, 1.0, [0.5, 0.2], 1.0, 1.0, error=TypeError,
        match=r"\bM_of_beta must be callable"),
    bad(fe.preconditioner_error, "a NaN", sn.preconditioner_from_beta, nan, [0.5, 0.2], 1.0, 1.0,
        match=r"\ba=nan must be finite"),
    bad(fe.numeric_hessian, "h zero", np.sum, np.ones(2), h=0.0, match=r"\bh=0.0 must be positive"),
    bad(fe.numeric_hessian, "beta 2-d", np.sum, np.ones((2, 2)), match=r"\bbeta must have 1 dimensions"),
    bad(fe.curl_asymmetry, "h negative", np.outer, np.ones(2), h=-1e-6, match=r"\bh=-1e-06 must be positive"),
    bad(fe.implicit_bias_minimiser, "beta0 zero", np.sum, 1.0, RQ_X1, RQ_Y1, [0.0, 0.0], [0.0, 0.0],
        match=r"\bbeta0 must be nonzero"),
    bad(fe.downstream_inits, "n negative", -1, 1.0, 1.0, 0, match=r"\bn=-1 must be an integer >= 1"),
    bad(fe.downstream_inits, "eta_a zero", 3, 0.0, 1.0, 0, match=r"\beta_a must be positive"),
    bad(fe.eq71_residuals, "delta not run", t_sns.alpha, LIMITS, [99.0], match=r"\bdeltas \[99.0\] were not run"),
    bad(fe.radial_potential, "not sympy", "r **", error=TypeError, match=r"\bq_expr must be a sympy expression"),
    bad(fe.thm31_error, "delta NaN", t_sns.r ** 2, t_sib.n0, RQ_X1, RQ_Y1, [0.4, 0.05], nan,
        match=r"\bdelta=nan must be finite"),
    bad(fe.beta_flow_error, "M not callable", None, RQ_X, RQ_Y, 1.0, [0.5, 0.2], 1.0, 1.0, error=TypeError,
        match=r"\bM_of_weights must be callable"),
    bad(fe.beta_flow_error, "w length", sn.preconditioner, RQ_X, RQ_Y, 1.0, [0.5], 1.0, 1.0,
        match=r"\bw has 1 entries but X has 2 columns"),
    bad(fe.sherman_morrison_error, "beta zero", t_sib.F_DELTA, t_sib.H_DELTA, [0.0, 0.0], 0.5,
        match=r"\bbeta must be nonzero"),
    bad(fe.mirror_flow_residuals, "n_t small", t_sib.DQ_PRINTED, t_sib.G_DELTA, RQ_X1, RQ_Y1, [0.4, 0.05],
        [1.0, -0.5], 0.5, n_t=100, match=r"\bn_t=100 must be an integer >= 201"),
    bad(fe.mirror_flow_residuals, "t_end negative", t_sib.DQ_PRINTED, t_sib.G_DELTA, RQ_X1, RQ_Y1, [0.4, 0.05],
        [1.0, -0.5], 0.5, t_end=-1.0, match=r"\bt_end=-1.0 must be positive"),
    bad(fe.rescaling_error, "t_end zero", RQ_X1, RQ_Y1, [0.4, 0.05], 1.0, 1.0, 0.5, t_end=0.0,
        match=r"\bt_end=0.0 must be positive"),
    bad(fe.rescaling_error, "eta NaN", RQ_X1, RQ_Y1, [0.4, 0.05], nan, 1.0, 0.5, match=r"\beta_a contains non-finite"),
    bad(fe.weight_flow_error, "factory not callable", None, RQ_X, RQ_Y, 1.0, [0.5, 0.2], 1.0, 1.0, error=TypeError,
        match=r"\brhs_factory must be callable"),
    bad(fe.mu_phi_ode_error, "case misses", np.add, {}, match=r"\bcase misses"),
    bad(fe.exact_vs_flow, "case misses", {"a0": 1.0}, match=r"\bcase misses"),
    bad(fe.sign_flips_of_a, "w0 NaN", dict(RQ_CASE, w0=[nan, 0.0]), match=r"\bcase\['w0'\] contains non-finite"),
    bad(fe.balanced_closed_form_error, "which", t_sns.phi, t_sns.mu, t_sns.c_mu, RQ_CASE, "nu",
        match=r"\bwhich='nu' must be 'phi' or 'mu'"),
    bad(fe.nu_closed_form_error, "case misses", t_sns.nu, {}, match=r"\bcase misses"),
    bad(fe.recover_error, "pair", (t_sns.a,), RQ_CASE, match=r"\brecover_pair must be two"),
    bad(fe.w_vector_error, "eta zero", dict(RQ_CASE, eta_a=0.0), match=r"\bcase\['eta_a'\]=0.0 must be positive"),
    # formula errors (wide and deep linear)
    bad(le.matrix_formula, "not sympy", "A*W", RQ_W, RQ_A, error=TypeError, match=r"\bexpr must be a sympy"),
    bad(le.matrix_formula, "W A rows", t_wl.M_WIDE, RQ_W, RQ_A[:2], match=r"\bW \(3, 2\) and A \(2, 1\) must share"),
    bad(le.scalar_formula, "not sympy", "x +", t_wl.x, error=TypeError, match=r"\bexpr must be a sympy"),
    bad(le.rel, "shapes differ", [1.0, 2.0], [1.0, 2.0, 3.0], match=r"\ba \(2,\) and b \(3,\) must have one shape"),
    bad(le.rel, "NaN", [nan], [1.0], match=r"\ba contains non-finite"),
    bad(le.conservation_drift, "t_end zero", t_wl.M_WIDE, RQ_W, RQ_A, np.eye(2), np.ones((2, 1)), 1.0, 1.0,
        t_end=0.0, match=r"\bt_end must be positive"),
    bad(le.ntk_error, "X columns", t_wl.M_WIDE, RQ_W, RQ_A, np.ones((2, 3)), 1.0, 1.0,
        match=r"\bX \(2, 3\) must have 2 columns"),
    bad(le.vec_flow_error, "Y rows", t_wl.M_WIDE, RQ_W, RQ_A, np.eye(2), np.ones((3, 1)), 1.0, 1.0,
        match=r"\bX \(2, 2\) and Y \(3, 1\)"),
    bad(le.neuron_sum_error, "coefs", {"out": 1}, RQ_W, RQ_A, 1.0, 1.0, error=KeyError,
        match=r"\bcoefs must name \['in', 'out'\]"),
    bad(le.neuron_sum_error, "dead neuron", t_wl.MI_PRINTED, np.vstack([np.zeros((1, 2)), RQ_W[1:]]), RQ_A, 1.0, 1.0,
        match=r"\bneuron 0 has beta_i = 0"),
    bad(le.neuron_gram_error, "formulas", {}, RQ_W, RQ_A, 1.0, 1.0, error=KeyError,
        match=r"\bformulas must name \['a_norm2', 'w_norm2'\]"),
    bad(le.numerical_rank, "empty", np.zeros((0, 0)), match=r"\bM is empty"),
    bad(le.numerical_rank, "NaN", [[nan]], match=r"\bM contains non-finite"),
    bad(le.numerical_rank, "rel_tol negative", np.eye(2), rel_tol=-1.0, match=r"\brel_tol=-1.0 must be positive"),
    documented(le.numerical_rank, "zero matrix", np.zeros((2, 2)), check=lambda v: v == 0, doc="0 for the zero matrix"),
    bad(le.lazy_limit_ranks, "d zero", 0, 2, 2, RNG(0), match=r"\bd=0 must be an integer >= 1"),
    bad(le.lazy_limit_ranks, "sign", 2, 2, 2, RNG(0), sign=0, match=r"\bsign=0 must be \+1 or -1"),
    bad(le.limit_convergence, "D zero", 2, 3, 2, 0.0, RNG(0), match=r"\bD=0.0 must be nonzero"),
    bad(le.balanced_form_error, "dead neuron", np.vstack([np.zeros((1, 2)), RQ_W[1:]]), RQ_A, 1.0, 1.0,
        match=r"\bneuron 0 has beta_i = 0"),
    bad(le.coefficient_limit, "direction", t_wl.MI_PRINTED, 5, match=r"\bdirection=5 must be sympy.oo or -sympy.oo"),
    bad(le.gram_kron, "gram name", GRAM_BAD, np.ones((2, 2)), 1.0, 1.0, 0.5, match=r"\bspec.left_gram='xyz' must be"),
    bad(le.square_M_error, "not square", t_wl.gram_kron(t_wl.x, "btb", t_wl.x, "bbt"), RQ_W, RQ_A, 1.0, 1.0, 0.5,
        match=r"\bW \(3, 2\) and A \(3, 1\) must be square"),
    bad(le.square_gram_error, "gram name", tr_reg.Forms(f=t_wl.x, gram="xyz"), np.eye(2), np.eye(2), 1.0, 1.0, 0.5,
        match=r"\bform.gram='xyz' must be"),
    bad(le.potential_curvature_error, "lams empty", t_wl.Q_CORRECTED, 1.0, 1.0, 0.5, np.array([]),
        match=r"\blams is empty"),
    bad(le.potential_curvature_error, "lams NaN", t_wl.Q_CORRECTED, 1.0, 1.0, 0.5, np.array([nan]),
        match=r"\blams contains non-finite"),
    bad(le.mode_ode_error, "modes shape", t_wl.lam, (np.ones((2, 5)), np.ones((2, 4))), np.ones(2), np.ones(2),
        1.0, 1.0, 0.5, match=r"\bmodes .* must be two \(modes, T\) arrays of one shape"),
    bad(le.gram_poly, "G not square", t_dl.x, np.ones((2, 3)), 1.0, 0.0, 2, match=r"\bG must be a square matrix"),
    bad(le.deep_identity_errors, "unknown formula", {"nope": 1}, RQ_DEEP_WS, RQ_DEEP_A, 0.0, 2,
        match=r"\bformulas names \['nope'\]"),
    bad(le.rank_one_update, "coefs", {"identity": 1}, np.ones(2), 2, error=TypeError,
        match=r"\bcoefs must be Forms with identity and outer"),
    bad(le.implicit_bias_minimiser, "rows", np.sum, RQ_X, [1.0], [0.4, 0.05], 2, match=r"\bX has 3 rows but y has 1"),
    bad(le.deep_objective, "not sympy", "r **", error=TypeError, match=r"\bexpr must be a sympy expression"),
    bad(le.theorem_b9_data, "l zero", 0, 0, match=r"\bl=0 must be an integer >= 1"),
    bad(le.theorem_b9_data, "seed negative", -1, 2, match=r"\bseed=-1 must be an integer >= 0"),
    bad(le.theorem_b9_data, "h zero", 0, 2, h=0, match=r"\bh=0 must be an integer >= 1"),
    bad(le.depth_alignment, "not sympy", None, error=TypeError, match=r"\bexpr must be a sympy expression"),
    # theory/rich_quick
    bad(t_snm.ntk_expression, "n zero", 0, 2, match=r"\bn=0 must be a positive integer"),
    bad(t_snm.ntk_expression, "d fraction", 2, 1.5, match=r"\bd=1.5 must be a positive integer"),
    bad(t_sns.kappa, "m text", "m +", error=TypeError, match=r"\bm must be a sympy expression or a number"),
    bad(t_wl.gram_kron, "gram name", t_wl.x, "xyz", t_wl.x, "btb", match=r"\bleft_gram='xyz' must be 'btb' or 'bbt'"),
    bad(t_wl.gram_function, "gram name", t_wl.x, "G", match=r"\bgram='G' must be 'btb' or 'bbt'"),
    bad(t_wl.gram_function, "f text", "x **", "btb", error=TypeError, match=r"\bf must be a sympy expression"),
    bad(t_wl.kron_sum, "P not a matrix", 3, sp.Identity(2), error=TypeError, match=r"\bP and Q must be sympy matrices"),
]


# ------------------------------------------------- every paper's configurations, discovered
#: values no annotated field of a configuration takes: one named error each, from the one
#: vocabulary (numerics.validation.check_fields), whichever paper the configuration is of
BAD_FIELD_VALUES = {int: ("ten", 2.5, True), float: ("ten", nan, True), str: (1,)}


def config_instances(paper: str) -> dict[type, ran.Config]:
    """One instance of each configuration type ``numerics/<paper>/configs.py`` builds."""
    module = importlib.import_module(f"numerics.{paper}.configs")
    found = {}
    for value in vars(module).values():
        for config in (value.ci, value.full) if isinstance(value, ran.Scales) else (value,):
            if isinstance(config, ran.Config):
                found.setdefault(type(config), config)
    return found


def field_cases(paper: str) -> list[Case]:
    """Every annotated int, float and text field of every configuration the paper builds, given
    each value of :data:`BAD_FIELD_VALUES`: refused at construction, naming the field."""
    out = []
    for cls, base in config_instances(paper).items():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            for value in BAD_FIELD_VALUES.get(hints.get(f.name), ()) if f.name != "scale" else ():
                out.append(config(cls, base, f"field {f.name}={value!r}",
                                  rf"\b{re.escape(f.name)}={re.escape(repr(value))} ", **{f.name: value}))
    return out


#: papers whose numerics the harness covers: every paper record with a numerics package, so a
#: paper added later is covered without editing this file
PAPERS = tuple(key for key in tp.PAPERS if importlib.util.find_spec(f"numerics.{key}") is not None)
#: long computations refuse, naming their estimate and the override, instead of hanging
COSTLY = [
    bad(ode.integrate_flow, "t_end huge", decay, FLOW, 1e12, error=va.TooCostly,
        match=r"t_end=1e\+12 would take about 1e\+12 .*CLAIMS_COST_FACTOR"),
    bad(ode.integrate_flow, "t_end huge, fast flow", lambda t, p: {"x": -1e6 * p["x"]}, FLOW, 1e3,
        error=va.TooCostly, match=r"t_end=1000 would take about 1e\+09"),
    bad(tr.train, "steps huge", tiny_net(), X22, Y12, lr=0.1, steps=1e12, paper="bias",
        error=va.TooCostly, match=r"steps=1000000000000 would take .*CLAIMS_COST_FACTOR"),
]

CASES = SHARED + THEORY + BIAS + HASTE + LAZY + RICH + COSTLY + [
    case for paper in PAPERS for case in field_cases(paper)]


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
    except (TypeError, ValueError, RuntimeError):    # RuntimeError: a tensor that requires grad
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


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
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


# ---------------------------------------------------------------- the cost limit's override
def test_the_cost_override_scales_every_limit_and_is_checked(monkeypatch):
    with pytest.raises(va.TooCostly, match=r"about 3 steps, beyond the limit of 2"):
        va.affordable(3.0, 2.0, "x", "steps")
    monkeypatch.setenv(va.COST_FACTOR, "2")
    assert va.affordable(3.0, 2.0, "x", "steps") == 3.0
    monkeypatch.setenv(va.COST_FACTOR, "lots")
    with pytest.raises(va.InvalidArgument, match=r"CLAIMS_COST_FACTOR='lots' must be a positive"):
        va.affordable(1.0, 2.0, "x", "steps")


def test_one_error_type_is_a_value_error_and_a_type_error():
    """Callers that caught ValueError or TypeError before the vocabulary had one type still do."""
    for bad_value in ("ten", nan, True):
        with pytest.raises(ValueError):
            va.number(bad_value, "x")
        with pytest.raises(TypeError):
            va.number(bad_value, "x")
    assert va.integer(3.0, "n") == 3 and isinstance(va.integer(3.0, "n"), int)


def test_the_harness_covers_every_paper_with_numerics():
    assert set(PAPERS) == {k for k in tp.PAPERS if (ROOT / "numerics" / k).is_dir()}
    assert all(field_cases(paper) for paper in PAPERS)



def test_numerics_and_theory_raise_one_error_type_for_bad_input():
    """Issue 26: one validation vocabulary.  A bare ``ValueError`` / ``TypeError`` raised in
    numerics/ or theory/ would be a second vocabulary: every such raise is
    :class:`theory.validation.InvalidArgument` (a subclass of both)."""
    root_dir = Path(__file__).resolve().parents[1]
    bare = []
    for root in ("numerics", "theory"):
        for path in sorted((root_dir / root).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                exc = node.exc.func if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) else None
                if isinstance(exc, ast.Name) and exc.id in ("ValueError", "TypeError"):
                    bare.append(f"{path.relative_to(root_dir)}:{node.lineno}")
    assert not bare, bare
    assert issubclass(va.InvalidArgument, ValueError) and issubclass(va.InvalidArgument, TypeError)

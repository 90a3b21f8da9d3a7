"""Fixtures of the rich_quick verify tests: the runs behind the claims, each computed once per
session (``grq``) from ``numerics.rich_quick.configs``, and a per-test seeded generator."""
import functools
import zlib

import numpy as np
import pytest
import torch

from numerics import image_data as idata
from numerics.rich_quick import configs as C
from numerics.rich_quick import experiments as X
from numerics.rich_quick import linear_flows as lf
from numerics.rich_quick import relu_regimes as rr
from numerics.rich_quick import single_neuron_paths as sp_paths
from numerics.rich_quick import single_neuron_teacher_student as ts
from verify.rich_quick.evidence import FIG6_COST as E_COST

#: what a paper-scale Fig. 6 panel needs beyond this machine, when it is absent
NEEDS = {"a": f"MNIST (the 60,000 training images; set {idata.DATA_DIR_ENV})",
         "b": f"CIFAR-10 (set {idata.DATA_DIR_ENV})",
         "d": "a GPU (125 transformers x 30,000 steps: ~6 hours on one H100)"}


class Runs:
    """The runners of ``numerics.rich_quick`` at a scale, each called once per session.

    Paper-scale runs with a store (``configs.*_STORE``) are computed there under
    ``--scale=full`` and read back, never rerun, by :meth:`stored` in every ci run."""

    @functools.cache
    def fig1a(self, scale):
        store = C.FIG1A_STORE if scale == "full" else None
        return ts.fig1a(C.FIG1A[scale], out_dir=store)

    @functools.cache
    def fig1a_step(self):
        return ts.fig1a(C.FIG1A_STEP)

    @functools.cache
    def fig1b(self, scale):
        store = C.FIG1B_STORE if scale == "full" else None
        return ts.fig1b(C.FIG1B[scale], out_dir=store, workers=2 if scale == "full" else None)

    @functools.cache
    def paths(self, figure, alt=False):
        """The exact and simulated single-neuron paths of Fig. ``figure`` ('3', '4', '8');
        ``alt``: at other deltas and rates (the settings the paper leaves open)."""
        name = f"FIG{figure}" + ("_ALT" if alt else "")
        return sp_paths.paths(getattr(C, name))

    @functools.cache
    def expressivity(self):
        """App. C's expressivity fits (random features, widening)."""
        from numerics.rich_quick import piecewise as pw
        return pw.expressivity_fits()

    @functools.cache
    def timescales(self):
        """Sec. 3's timescales from the exact solution (and gradient flow for the figure)."""
        return sp_paths.timescales()

    @functools.cache
    def surfaces(self):
        """Fig. 2: flows on the conserved surfaces, both signs of a0, delta -1, 0, 1."""
        return sp_paths.conserved_surface_flows()

    @functools.cache
    def lowrank(self, alt=False):
        """Fig. 4 (right): gradient-flow limits on D.2's low-rank data (``alt``: other deltas
        and rates)."""
        return sp_paths.lowrank_limits(C.LOWRANK_ALT if alt else C.LOWRANK)

    @functools.cache
    def xor(self, alt=False):
        """The Fig. 5 XOR runs (``alt``: with the settings the paper leaves open changed)."""
        return rr.xor(C.XOR_ALT if alt else C.XOR)

    @functools.cache
    def xor_numbers(self, alt=False):
        """Per delta and seed, the Fig. 5 XOR runs' summaries (``relu_regimes.xor_numbers``)."""
        return rr.xor_numbers(self.xor(alt))

    @functools.cache
    def one_step(self, alt=False):
        return rr.one_step_delta_change(self.xor(alt))

    @functools.cache
    def regimes(self, alt=False):
        """The Sec. 4 wide linear regime table (``alt``: other shapes, rates, scale, targets)."""
        return lf.regime_table(C.REGIMES_ALT if alt else C.REGIMES)

    @functools.cache
    def square_symmetry(self):
        """Largest difference of the square net's task-aligned singular values at delta = +-2."""
        modes = [lf.aligned_square_flow(3, d, 0.5, 3.0, np.random.default_rng(4), np.ones(3))[0][0]
                 for d in (2.0, -2.0)]
        return float(np.max(np.abs(modes[0] - modes[1])))

    def missing(self, panel, scale):
        """Why the Fig. 6 ``panel`` run at ``scale`` is not run here ('' when it is)."""
        if scale == "ci" or panel == "c":
            return ""
        absent = {"a": idata.data_dir() is None, "b": idata.data_dir() is None,
                  "d": not torch.cuda.is_available()}[panel]
        return (f"the paper-scale Fig. 6({panel}) run is not run here: it needs {NEEDS[panel]}; "
                f"a faithful run: {E_COST[panel]}") if absent else ""

    @functools.cache
    def fig6(self, panel, scale):
        """The Fig. 6 ``panel`` run at ``scale``; None where :meth:`missing` says why not."""
        if self.missing(panel, scale):
            return None
        if panel == "c":
            store = C.FIG6C_STORE if scale == "full" else None
            return X.hierarchy(C.FIG6C[scale], out_dir=store,
                               workers=2 if scale == "full" else None)
        runner, configs = {"a": (X.kernel, C.FIG6A), "b": (X.filters, C.FIG6B),
                           "d": (X.grokking, C.FIG6D)}[panel]
        return runner(configs[scale])

    @functools.cache
    def grokking_share(self):
        """The embeddings' share of the parameters of the paper-scale Fig. 6(d) model."""
        return X.grokking_embedding_share(C.FIG6D.full)

    @functools.cache
    def stored(self, name):
        """The committed paper-scale run ``name`` ('fig1a', 'fig1b', 'fig6c'), read only; None
        when the store is absent (then ``pytest --scale=full`` computes it)."""
        runner, config, store = {"fig1a": (ts.fig1a, C.FIG1A.full, C.FIG1A_STORE),
                                 "fig1b": (ts.fig1b, C.FIG1B.full, C.FIG1B_STORE),
                                 "fig6c": (X.hierarchy, C.FIG6C.full, C.FIG6C_STORE)}[name]
        try:
            return runner(config, out_dir=store, compute=False)
        except FileNotFoundError:
            return None


@pytest.fixture(scope="session")
def grq() -> Runs:
    return Runs()


@pytest.fixture
def rng(request) -> np.random.Generator:
    """A generator seeded by the test's own name: its draws do not depend on which tests ran
    before it in the process (a serial run and ``-n 2`` measure the same values)."""
    return np.random.default_rng(zlib.crc32(request.node.originalname.encode()))

"""The Setups of the Make haste slowly runs (MHS-): each run's record (``numerics.ran.Ran``) beside
the paper's side of every setting it reports, from the tables of ``theory.haste_slowly.settings``
(stated by the paper, fixed by the released code, or unknown).  ``verify.setup.Setup``
refuses an unlisted or missing setting, so a run is faithful only when what it ran matches.
"""
from __future__ import annotations

from theory.haste_slowly import settings as T
from verify.settings_tables import paper_side
from verify.setup import Setup, released

DEPTH_RUNS = T.DEPTH_RUNS
#: what a faithful depth run needs and costs (measured on this shared 2-core CPU, one thread per
#: run: 0.75 ms per seed and step of the 420-420 nets)
DEPTH_COST = ("the released recipe: 30001 epochs x (2-hidden-layer ReLU + depth GDLN) per seed, "
              "~3e7 FLOP per seed-step, 0.75 ms per seed-step on one CPU core: ~1 min per seed "
              "for both networks, 32 seeds in ~30 min on 2 CPU cores (pytest verify "
              "--scale=full); well under a minute on one H100")
SEC45_COST = ("the paper's lr 1e-3 x 8000 epochs in float32: every run is small (N <= 40, H <= "
              "700), under a minute per network and seed on 2 CPU cores (pytest verify "
              "--scale=full)")
OPEN_COST = "a faithful run needs the settings {} leaves open shown harmless; seconds on 2 CPU cores"


def _seeds(ran, where: str, allowed=None):
    """The released code's seeds: ``allowed`` run indices (the depth code), or, where it draws a
    fresh random seed per run (``np.random.randint(0, 100000)``, the Sec 4-5 code), any seed: a
    run count is then the statistic's business (unanimity, or a stated power), not a setting."""
    ran_seeds = tuple(ran.settings["seeds"])
    if allowed is None or all(s in allowed for s in ran_seeds):
        return released(ran_seeds, where)
    return released(tuple(allowed), where)


def depth(run) -> Setup:
    """The Setup of one network of the Sec 6 experiment (a ``numerics.haste_slowly.depth.DepthRun``)."""
    shallow = run.kind == "shallow"
    paper = paper_side(T.DEPTH[run.kind])
    paper["seeds"] = _seeds(run.ran, T.SHALLOW_SEEDS if shallow else T.DEPTH_SEEDS,
                            None if shallow else DEPTH_RUNS)
    return Setup(run.ran, paper, cost=DEPTH_COST, name=run.kind)


def sec45(run) -> Setup:
    """The Setup of one network of a Sec 4-5 run (a ``numerics.haste_slowly.experiments.Sec45Run``)."""
    script = "3_context_diff/relu.py" if run.C is None else "diff_context_num/relu3.py"
    network, std = T.SEC45_NETS[(run.network, run.C)]
    paper = paper_side(T.SEC45_COMMON[script], data=T.SEC45_DATA[run.C], network=network,
                   **{"init std": std}, **({} if run.network == "relu" else
                                           {"update": T.SEC45_UPDATE}))
    paper["seeds"] = _seeds(run.ran, T.REPO + script + T.ANY_SEED)
    return Setup(run.ran, paper, cost=SEC45_COST, name=f"{run.network}, C = {run.C or 3}")


def gates(run, sensitivity: dict) -> Setup:
    """The Setup of Algorithm B.1 and Figs 8-9 (a ``numerics.haste_slowly.gate_finder.GateRun``);
    the settings App B leaves open are shown harmless (or not) by ``sensitivity``."""
    paper = paper_side(T.GATES)
    paper["seeds"] = _seeds(run.ran, T.REPO + "3_context_diff/relu.py" + T.ANY_SEED)
    return Setup(run.ran, paper, sensitivity=sensitivity, cost=SEC45_COST, name="Algorithm B.1")


def xor(run, sensitivity: dict) -> Setup:
    """The Setup of Fig 2's ReLU nets (a ``numerics.haste_slowly.xor.XorRun``)."""
    return Setup(run.ran, paper_side(T.XOR), sensitivity=sensitivity, name="Fig 2 ReLU nets",
                 cost=OPEN_COST.format("Fig 2"))


def linear(run, sensitivity: dict) -> Setup:
    """The Setup of Fig 7's linear net (a ``numerics.haste_slowly.linear.LinearRun``)."""
    return Setup(run.ran, paper_side(T.FIG7), sensitivity=sensitivity, name="Fig 7 linear net",
                 cost=OPEN_COST.format("Fig 7"))


def tasks(ran) -> Setup:
    """The Setup of the task set whose statistics MHS-Asm2.1 checks (no training)."""
    return Setup(ran, paper_side(T.TASKS), name="the tasks")

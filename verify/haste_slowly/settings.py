"""The paper's side of every setting the Make haste slowly runs report (MHS-): what the paper
states, or where it is silent what the released code (CAandL-Lab/make-haste-slowly) fixes, or
``UNKNOWN``.  Written here from the paper and the code, never read from the configurations that
ran, so a run is faithful only when what it reports (its ``numerics.ran.Ran``) matches.

:func:`setup` pairs a run's ``Ran`` with the table of its experiment; the keys must match exactly
(``verify.measurement.Setup`` refuses an unlisted or missing setting).
"""
from __future__ import annotations

from verify.measurement import UNKNOWN, Setup, released, stated

REPO = "CAandL-Lab/make-haste-slowly/"
TABLE1 = "App H, Table 1, L805-L822"

#: the released seeds of the depth experiment: depth/run.sh and replot.py run indices 1-99, each
#: drawing its init with np.random.seed(run index)
DEPTH_RUNS = range(1, 100)


def _seeds(ran, where: str, allowed=None):
    """The released code's seeds: ``allowed`` run indices (the depth code), or, where it draws a
    fresh random seed per run (``np.random.randint(0, 100000)``, the Sec 4-5 code), any seed: a
    run count is then the statistic's business (unanimity, or a stated power), not a setting."""
    ran_seeds = tuple(ran.settings["seeds"])
    if allowed is None or all(s in allowed for s in ran_seeds):
        return released(ran_seeds, where)
    return released(tuple(allowed), where)


_DEPTH_COMMON = {
    "data": released("hierarchical 3-context task gen_data3(8): 24 datapoints, 24 distinct inputs",
                     REPO + "depth/gen_data.py"),
    "loss": released("1/2 sum of squared errors", REPO + "depth/relu.py loss_relu"),
    "optimiser": stated("full-batch gradient descent", "Sec 4, L118"),
    "learning rate": stated(1e-3, TABLE1 + " (Step-Size 0.001)"),
    "dtype": released("float32", REPO + "depth/relu.py (Jax default float32)"),
    "init": released("np.random.seed(seed), then N(0, std^2) per layer in order",
                     REPO + "depth/relu.py init_random_params_relu"),
}
#: the depth horizon: Table 1 gives 8000 epochs "for Sections 4, 5 and 6", but Sec 6 (L171) has
#: the contextual pathways appear at epoch 12000; the released code trains 30001
_DEPTH = {
    "relu": dict(_DEPTH_COMMON, **{
        "network": released("bias-free ReLU 11-420-420-60", REPO + "depth/relu.py layer_sizes_relu"),
        "init std": released(6e-4, REPO + "depth/relu.py param_scale_relu"),
        "horizon (epochs)": released(30001, REPO + "depth/relu.py num_epochs"),
        "steps": released(30001, REPO + "depth/relu.py: one update per epoch")}),
    "gdln": dict(_DEPTH_COMMON, **{
        "network": released("depth GDLN, 7 x 60 units in each hidden layer, 4 common modules and "
                            "the contexts {1,2}, {2,3}, {1,3} in layer 2",
                            REPO + "depth/gdln_off.py predict_gated_common/_context"),
        "init std": released((5.75e-4, 5.5e-4, 5.5e-4, 4e-3),
                             REPO + "depth/gdln_off.py param_scale_gated"),
        "init": released("np.random.seed(seed), then N(0, std^2) blocks per layer in order",
                         REPO + "depth/gdln_off.py init_random_params_gated"),
        "schedule (epochs): frozen until, common pathway alone until": released(
            (500, 12000), REPO + "depth/gdln_off.py start_epoch, switch_epoch1"),
        "update": released("split gradient: common units on the common loss, contextual units on "
                           "the joint loss", REPO + "depth/gdln_off.py update_gated"),
        "horizon (epochs)": released(30001, REPO + "depth/gdln_off.py num_epochs"),
        "steps": released(30001, REPO + "depth/gdln_off.py: one update per epoch")}),
    "shallow": dict(_DEPTH_COMMON, **{
        "network": released("bias-free ReLU 11-700-60", REPO + "diff_context_num/relu3.py"),
        "init std": released(0.005 / 700, REPO + "diff_context_num/relu3.py param_scale_relu"),
        "init": released("np.random.seed(seed), then N(0, std^2) per layer in order",
                         REPO + "diff_context_num/relu3.py init_random_params_relu"),
        "horizon (epochs)": released(8001, REPO + "diff_context_num/relu3.py num_epochs"),
        "steps": released(8001, REPO + "diff_context_num/relu3.py: one update per epoch")}),
}
DEPTH_SEEDS = REPO + "depth/run.sh, replot.py: run indices 1-99, np.random.seed(run index)"
SHALLOW_SEEDS = (REPO + "diff_context_num/relu3.py: np.random.randint(0, 100000) per run, so "
                 "every seed is one of its draws")

#: what a faithful depth run needs and costs (measured on this shared 2-core CPU, one thread per
#: run: 0.75 ms per seed and step of the 420-420 nets)
DEPTH_COST = ("the released recipe: 30001 epochs x (2-hidden-layer ReLU + depth GDLN) per seed, "
              "~3e7 FLOP per seed-step, 0.75 ms per seed-step on one CPU core: ~1 min per seed "
              "for both networks, 32 seeds in ~30 min on 2 CPU cores (pytest verify "
              "--scale=full); well under a minute on one H100")


def depth(run) -> Setup:
    """The Setup of one network of the Sec 6 experiment (a ``numerics.haste_slowly.depth.DepthRun``)."""
    paper = dict(_DEPTH[run.kind])
    paper["seeds"] = _seeds(run.ran, SHALLOW_SEEDS if run.kind == "shallow" else DEPTH_SEEDS,
                            None if run.kind == "shallow" else DEPTH_RUNS)
    return Setup(run.ran, paper, cost=DEPTH_COST, name=run.kind)


# ------------------------------------------------------------------ Sec 4-5 and App E

_SEC45_DATA = {
    None: released("Sec 4 task gen_data3(8, diff_struct=True) (H, Ring, Cross blocks): 24 "
                   "datapoints, 24 distinct inputs", REPO + "3_context_diff/gen_data.py"),
    3: released("hierarchical 3-context task (context scale 1): 24 datapoints, 24 distinct inputs",
                REPO + "diff_context_num/gen_data.py"),
    4: released("hierarchical 4-context task (context scale 1.1): 32 datapoints, 32 distinct "
                "inputs", REPO + "diff_context_num/gen_data.py"),
    5: released("hierarchical 5-context task (context scale 1.35): 40 datapoints, 40 distinct "
                "inputs", REPO + "diff_context_num/gen_data.py")}
_BASE3 = 0.0005 / (100 * 7)
#: (network, C) -> (network, init std): Table 1 gives the widths and module counts, the code
#: the init (Table 1's "Init-Scale 1e-7" matches neither, MHS-E9)
_SEC45_NETS = {
    ("relu", None): (stated("bias-free ReLU 11-700-60", TABLE1 + " (Num-Hidden (ReLU) 700)"),
                     released(0.005 / 700, REPO + "3_context_diff/relu.py param_scale_relu")),
    ("relu", 3): (stated("bias-free ReLU 11-700-60", TABLE1 + " (Num-Hidden (ReLU) 700)"),
                  released(0.005 / 700, REPO + "diff_context_num/relu3.py")),
    ("relu", 4): (released("bias-free ReLU 12-500-75", REPO + "diff_context_num/relu4.py"),
                  released(0.005 / 500, REPO + "diff_context_num/relu4.py")),
    ("relu", 5): (released("bias-free ReLU 13-600-90", REPO + "diff_context_num/relu5.py"),
                  released(0.005 / 600, REPO + "diff_context_num/relu5.py")),
    ("reln", None): (stated("GDLN: common pathway + every 2-of-3-context pathway, 100 units each",
                            TABLE1 + "; Sec 4 L120"),
                     released((10 * _BASE3, 20 * _BASE3), REPO + "3_context_diff/gdln.py")),
    ("gdln k=1()", None): (stated("GDLN: common pathway + every 1-of-3-context pathway, 100 units "
                                  "each", TABLE1 + " (GDLN Single Modules, 4); Fig 4a"),
                           released((10 * _BASE3, 20 * _BASE3),
                                    REPO + "3_context_diff/gdln_single.py")),
    ("gdln k=2(1,)", None): (stated("GDLN: common pathway + every 2-of-3 and 1-of-3-context "
                                    "pathway, 100 units each",
                                    TABLE1 + " (GDLN Single and Double Modules, 7); App E L586"),
                             released((10 * _BASE3, 20 * _BASE3), REPO + "3_context_diff/gdln.py")),
    ("reln", 3): (stated("GDLN: common pathway + every 2-of-3-context pathway, 100 units each",
                         TABLE1 + "; Sec 5 L153"),
                  released((10 * _BASE3, 20 * _BASE3), REPO + "diff_context_num/gdln3.py")),
    ("reln", 4): (stated("GDLN: common pathway + every 3-of-4-context pathway, 100 units each",
                         TABLE1 + " (GDLN Triple Modules, 5); Sec 5 L153"),
                  released((10 * 0.0005 / 500, 10 * 0.0005 / 500), REPO + "diff_context_num/gdln4.py")),
    ("reln", 5): (stated("GDLN: common pathway + every 4-of-5-context pathway, 100 units each",
                         TABLE1 + " (GDLN Quad Modules, 6); Sec 5 L153"),
                  released((10 * 0.0005 / 600, 10 * 0.0005 / 600), REPO + "diff_context_num/gdln5.py")),
}
SEC45_COST = ("the paper's lr 1e-3 x 8000 epochs in float32: every run is small (N <= 40, H <= "
              "700), under a minute per network and seed on 2 CPU cores (pytest verify "
              "--scale=full)")


def sec45(run) -> Setup:
    """The Setup of one network of a Sec 4-5 run (a ``numerics.haste_slowly.experiments.Sec45Run``)."""
    network, std = _SEC45_NETS[(run.network, run.C)]
    code_file = REPO + ("3_context_diff/relu.py" if run.C is None else "diff_context_num/relu3.py")
    paper = {"data": _SEC45_DATA[run.C], "network": network, "init std": std,
             "init": released("np.random.seed(seed), then N(0, std^2) per weight",
                              code_file + " init_random_params_relu"),
             "loss": released("1/2 sum of squared errors", code_file + " loss_relu"),
             "optimiser": stated("full-batch gradient descent", "Sec 4, L118"),
             "learning rate": stated(1e-3, TABLE1 + " (Step-Size 0.001)"),
             "horizon (epochs)": stated(8000, TABLE1 + " (Num-Epochs 8000)"),
             "steps": stated(8000, TABLE1 + ": 8000 epochs of full-batch steps"),
             "dtype": released("float32", code_file + " (Jax default float32)"),
             "seeds": _seeds(run.ran, code_file + ": np.random.randint(0, 100000) per run, so "
                                                  "every seed is one of its draws")}
    if run.network != "relu":
        paper["update"] = released("split gradient: common pathway on its own loss, the others "
                                   "on the residual", REPO + "3_context_diff/gdln.py update_gated")
    return Setup(run.ran, paper, cost=SEC45_COST, name=f"{run.network}, C = {run.C or 3}")


# ------------------------------------------------------------------ App B

def gates(run, sensitivity: dict) -> Setup:
    """The Setup of Algorithm B.1 and Figs 8-9 (a ``numerics.haste_slowly.gate_finder.GateRun``);
    the settings App B leaves open are shown harmless (or not) by ``sensitivity``."""
    paper = {"data": _SEC45_DATA[None],
             "ReLU runs pooled": UNKNOWN,
             "sampled every (epochs)": stated(100, "App B, Algorithm 1 (j mod 100 = 0)"),
             "k": UNKNOWN,
             "clustering": stated("K-means on every stacked binary sample", "App B, Algorithm 1"),
             "GDLN units per module": stated(100, TABLE1 + " (Num-Hidden (GDLN) 100)"),
             "GDLN init std": UNKNOWN,
             "learning rate": stated(1e-3, TABLE1 + " (Step-Size 0.001)"),
             "horizon (epochs)": stated(8000, TABLE1 + " (Num-Epochs 8000)"),
             "dtype": released("float32", REPO + "3_context_diff/relu.py (Jax default float32)"),
             "seeds": _seeds(run.ran, REPO + "3_context_diff/relu.py: np.random.randint(0, 100000) "
                                             "per run, so every seed is one of its draws")}
    return Setup(run.ran, paper, sensitivity=sensitivity, cost=SEC45_COST, name="Algorithm B.1")


# ------------------------------------------------------------------ Fig 2

def xor(run, sensitivity: dict) -> Setup:
    """The Setup of Fig 2's ReLU nets (a ``numerics.haste_slowly.xor.XorRun``); there is no
    released code for App C, so what Fig 2 leaves open is checked by ``sensitivity``."""
    paper = {"network": stated("bias-free ReLU 3-128-1", "Fig 2 caption (N_h = 128); App C has no "
                                                          "bias"),
             "init variance": stated(4e-8 / 128, "Fig 2 caption (4e-8 / N_h)"),
             "learning rate": stated(0.4, "Fig 2 caption (1/tau = .4)"),
             "loss": stated("1/(2N) mean squared error (Eq. 2)", "Sec 2, Eq. (2), L55"),
             "steps": UNKNOWN, "Delta grid": UNKNOWN, "seeds": UNKNOWN, "dtype": UNKNOWN}
    return Setup(run.ran, paper, sensitivity=sensitivity, name="Fig 2 ReLU nets",
                 cost="a faithful run needs the settings Fig 2 leaves open shown harmless; the "
                      "sweep takes seconds on 2 CPU cores")


# ------------------------------------------------------------------ App A, Fig 7

def linear(run, sensitivity: dict) -> Setup:
    """The Setup of Fig 7's linear net (a ``numerics.haste_slowly.linear.LinearRun``): Fig 7 gives
    the data and the network only ("the exact setting and dynamics are from Saxe et al. 2019"),
    so every other setting is checked by ``sensitivity``."""
    paper = {"data": stated("4-item hierarchy: 4 one-hot items, 7 features", "App A, L359 (Fig 7a)"),
             "network": stated("two-layer linear, 4 in, 7 out", "App A, L359-L367"),
             "hidden units": UNKNOWN, "init std": UNKNOWN, "learning rate": UNKNOWN,
             "horizon t/tau": UNKNOWN, "dtype": UNKNOWN, "seeds": UNKNOWN}
    return Setup(run.ran, paper, sensitivity=sensitivity, name="Fig 7 linear net",
                 cost="a faithful run needs the settings Fig 7 leaves open shown harmless; each "
                      "run takes seconds on 2 CPU cores")


# ------------------------------------------------------------------ the tasks (MHS-Asm2.1)

def tasks(ran) -> Setup:
    """The Setup of the task set whose statistics MHS-Asm2.1 checks (no training)."""
    return Setup(ran, {"data": stated("Sec 4 task and hierarchical C = 3, 4, 5 tasks (unit and code "
                                      "context scales): 192 datapoints, 192 distinct inputs",
                                      "L296 ('the tasks considered in this work'); datasets of "
                                      "the released code")}, name="the tasks")

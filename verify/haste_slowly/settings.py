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

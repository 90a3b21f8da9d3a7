"""The settings of every Make haste slowly experiment (MHS-) as the paper gives them, or, where it
is silent, as the released code (CAandL-Lab/make-haste-slowly) fixes them: the reference a run's
record (``numerics.ran.Ran``) is held to by ``verify.haste_slowly.settings``.  Each entry is
(S, value, where) for a setting the paper gives, (R, value, where) for one the
released code fixes, and None where neither does.  Written from the paper and the code, never
from the configurations that ran.
"""
REPO = "CAandL-Lab/make-haste-slowly/"
TABLE1 = "App H, Table 1, L805-L822"

#: the released seeds of the depth experiment: depth/run.sh and replot.py run indices 1-99, each
#: drawing its init with np.random.seed(run index)
DEPTH_RUNS = range(1, 100)

R, S = "released", "stated"
DEPTH_CODE, SEC5_CODE = REPO + "depth/", REPO + "diff_context_num/"
DEPTH_COMMON = {
    "data": (R, "hierarchical 3-context task gen_data3(8): 24 datapoints, 24 distinct inputs",
             DEPTH_CODE + "gen_data.py"),
    "loss": (R, "1/2 sum of squared errors", DEPTH_CODE + "relu.py loss_relu"),
    "optimiser": (S, "full-batch gradient descent", "Sec 4, L118"),
    "learning rate": (S, 1e-3, TABLE1 + " (Step-Size 0.001)"),
    "dtype": (R, "float32", DEPTH_CODE + "relu.py (Jax default float32)"),
    "init": (R, "np.random.seed(seed), then N(0, std^2) per layer in order",
             DEPTH_CODE + "relu.py init_random_params_relu")}
#: the depth horizon: Table 1 gives 8000 epochs "for Sections 4, 5 and 6", but Sec 6 (L171) has
#: the contextual pathways appear at epoch 12000; the released code trains 30001
DEPTH = {
    "relu": dict(DEPTH_COMMON, **{
        "network": (R, "bias-free ReLU 11-420-420-60", DEPTH_CODE + "relu.py layer_sizes_relu"),
        "init std": (R, 6e-4, DEPTH_CODE + "relu.py param_scale_relu"),
        "horizon (epochs)": (R, 30001, DEPTH_CODE + "relu.py num_epochs"),
        "steps": (R, 30001, DEPTH_CODE + "relu.py: one update per epoch")}),
    "gdln": dict(DEPTH_COMMON, **{
        "network": (R, ("depth GDLN, 7 x 60 units in each hidden layer, 4 common modules and the "
                       "contexts {1,2}, {2,3}, {1,3} in layer 2"),
                    DEPTH_CODE + "gdln_off.py predict_gated_common/_context"),
        "init std": (R, (5.75e-4, 5.5e-4, 5.5e-4, 4e-3), DEPTH_CODE + "gdln_off.py param_scale_gated"),
        "init": (R, "np.random.seed(seed), then N(0, std^2) blocks per layer in order",
                 DEPTH_CODE + "gdln_off.py init_random_params_gated"),
        "schedule (epochs): frozen until, common pathway alone until": (
            R, (500, 12000), DEPTH_CODE + "gdln_off.py start_epoch, switch_epoch1"),
        "update": (R, ("split gradient: common units on the common loss, contextual units on the "
                      "joint loss"), DEPTH_CODE + "gdln_off.py update_gated"),
        "horizon (epochs)": (R, 30001, DEPTH_CODE + "gdln_off.py num_epochs"),
        "steps": (R, 30001, DEPTH_CODE + "gdln_off.py: one update per epoch")}),
    "shallow": dict(DEPTH_COMMON, **{
        "network": (R, "bias-free ReLU 11-700-60", SEC5_CODE + "relu3.py"),
        "init std": (R, 0.005 / 700, SEC5_CODE + "relu3.py param_scale_relu"),
        "init": (R, "np.random.seed(seed), then N(0, std^2) per layer in order",
                 SEC5_CODE + "relu3.py init_random_params_relu"),
        "horizon (epochs)": (R, 8001, SEC5_CODE + "relu3.py num_epochs"),
        "steps": (R, 8001, SEC5_CODE + "relu3.py: one update per epoch")})}
DEPTH_SEEDS = DEPTH_CODE + "run.sh, replot.py: run indices 1-99, np.random.seed(run index)"
ANY_SEED = ": np.random.randint(0, 100000) per run, so every seed is one of its draws"
SHALLOW_SEEDS = SEC5_CODE + "relu3.py" + ANY_SEED


# ------------------------------------------------------------------ Sec 4-5 and App E

SEC45_DATA = {
    None: (R, ("Sec 4 task gen_data3(8, diff_struct=True) (H, Ring, Cross blocks): 24 datapoints, "
              "24 distinct inputs"), REPO + "3_context_diff/gen_data.py"),
    **{C: (R, (f"hierarchical {C}-context task (context scale {scale}): {8 * C} datapoints, "
              f"{8 * C} distinct inputs"), SEC5_CODE + "gen_data.py")
       for C, scale in ((3, "1"), (4, "1.1"), (5, "1.35"))}}
BASE3 = 0.0005 / (100 * 7)
RELU700 = (S, "bias-free ReLU 11-700-60", TABLE1 + " (Num-Hidden (ReLU) 700)")
#: (network, C) -> (network, init std): Table 1 gives the widths and module counts, the code the
#: init (Table 1's "Init-Scale 1e-7" matches neither, MHS-E9)
SEC45_NETS = {
    ("relu", None): (RELU700, (R, 0.005 / 700, REPO + "3_context_diff/relu.py param_scale_relu")),
    ("relu", 3): (RELU700, (R, 0.005 / 700, SEC5_CODE + "relu3.py")),
    ("relu", 4): ((R, "bias-free ReLU 12-500-75", SEC5_CODE + "relu4.py"),
                  (R, 0.005 / 500, SEC5_CODE + "relu4.py")),
    ("relu", 5): ((R, "bias-free ReLU 13-600-90", SEC5_CODE + "relu5.py"),
                  (R, 0.005 / 600, SEC5_CODE + "relu5.py")),
    ("reln", None): ((S, "GDLN: common pathway + every 2-of-3-context pathway, 100 units each",
                      TABLE1 + "; Sec 4 L120"),
                     (R, (10 * BASE3, 20 * BASE3), REPO + "3_context_diff/gdln.py")),
    ("gdln k=1()", None): ((S, ("GDLN: common pathway + every 1-of-3-context pathway, 100 units "
                               "each"), TABLE1 + " (GDLN Single Modules, 4); Fig 4a"),
                           (R, (10 * BASE3, 20 * BASE3), REPO + "3_context_diff/gdln_single.py")),
    ("gdln k=2(1,)", None): ((S, ("GDLN: common pathway + every 2-of-3 and 1-of-3-context pathway, "
                                 "100 units each"),
                              TABLE1 + " (GDLN Single and Double Modules, 7); App E L586"),
                             (R, (10 * BASE3, 20 * BASE3), REPO + "3_context_diff/gdln.py")),
    ("reln", 3): ((S, "GDLN: common pathway + every 2-of-3-context pathway, 100 units each",
                   TABLE1 + "; Sec 5 L153"), (R, (10 * BASE3, 20 * BASE3), SEC5_CODE + "gdln3.py")),
    **{("reln", C): ((S, (f"GDLN: common pathway + every {C - 1}-of-{C}-context pathway, 100 units "
                         "each"), TABLE1 + f" (GDLN {name} Modules, {C + 1}); Sec 5 L153"),
                     (R, (10 * 0.0005 / (100 * (C + 1)),) * 2, SEC5_CODE + f"gdln{C}.py"))
       for C, name in ((4, "Triple"), (5, "Quad"))}}
#: the settings common to every Sec 4-5 network, by the released script (Sec 4 or Sec 5)
SEC45_COMMON = {
    script: {"init": (R, "np.random.seed(seed), then N(0, std^2) per weight",
                      REPO + script + " init_random_params_relu"),
             "loss": (R, "1/2 sum of squared errors", REPO + script + " loss_relu"),
             "optimiser": (S, "full-batch gradient descent", "Sec 4, L118"),
             "learning rate": (S, 1e-3, TABLE1 + " (Step-Size 0.001)"),
             "horizon (epochs)": (S, 8000, TABLE1 + " (Num-Epochs 8000)"),
             "steps": (S, 8000, TABLE1 + ": 8000 epochs of full-batch steps"),
             "dtype": (R, "float32", REPO + script + " (Jax default float32)")}
    for script in ("3_context_diff/relu.py", "diff_context_num/relu3.py")}
SEC45_UPDATE = (R, ("split gradient: common pathway on its own loss, the others on the "
                            "residual"), REPO + "3_context_diff/gdln.py update_gated")
#: App B leaves the number of runs pooled, the range of k and the GDLNs' init open
GATES = {"data": SEC45_DATA[None],
         "ReLU runs pooled": None,
         "sampled every (epochs)": (S, 100, "App B, Algorithm 1 (j mod 100 = 0)"),
         "k": None,
         "clustering": (S, "K-means on every stacked binary sample", "App B, Algorithm 1"),
         "GDLN units per module": (S, 100, TABLE1 + " (Num-Hidden (GDLN) 100)"),
         "GDLN init std": None,
         "learning rate": (S, 1e-3, TABLE1 + " (Step-Size 0.001)"),
         "horizon (epochs)": (S, 8000, TABLE1 + " (Num-Epochs 8000)"),
         "dtype": (R, "float32", REPO + "3_context_diff/relu.py (Jax default float32)")}

#: Fig 2 (no released code for App C) states the width, init and step size only
XOR = {"network": (S, "bias-free ReLU 3-128-1", ("Fig 2 caption (N_h = 128); App C has no "
                                                        "bias")),
       "init variance": (S, 4e-8 / 128, "Fig 2 caption (4e-8 / N_h)"),
       "learning rate": (S, 0.4, "Fig 2 caption (1/tau = .4)"),
       "loss": (S, "1/(2N) mean squared error (Eq. 2)", "Sec 2, Eq. (2), L55"),
       "steps": None, "Delta grid": None, "seeds": None, "dtype": None}

#: Fig 7 gives the data and the network only ("the exact setting and dynamics are from Saxe et
#: al. 2019")
FIG7 = {"data": (S, "4-item hierarchy: 4 one-hot items, 7 features", "App A, L359 (Fig 7a)"),
        "network": (S, "two-layer linear, 4 in, 7 out", "App A, L359-L367"),
        "hidden units": None, "init std": None, "learning rate": None, "horizon t/tau": None,
        "dtype": None, "seeds": None}

#: the tasks whose statistics MHS-Asm2.1 checks
TASKS = {"data": (S, ("Sec 4 task and hierarchical C = 3, 4, 5 tasks (unit and code context "
                            "scales): 192 datapoints, 192 distinct inputs"),
                  "L296 ('the tasks considered in this work'); datasets of the released code")}

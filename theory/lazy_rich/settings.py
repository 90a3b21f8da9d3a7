"""The settings "From lazy to rich" gives for each experiment (LR-), and where: what a run is
compared with (``verify.setup.Setup``, through ``verify.settings_tables``).  Each table maps a
setting, keyed as the runner reports it (``numerics.lazy_rich``'s ``Ran``), to
``("stated", value, where)`` (the paper gives it), ``("released", value, "owner/repo/file")``
(the authors' released code fixes it where the paper is silent) or None (neither gives it: most
of App D-E's sizes and schedules are masked in the text and absent from the repository).
Written from the paper and the code, never from the configurations that ran."""

REPO = "Nico31415/LinearNetworkDynamics"
NOTEBOOK = f"{REPO}/qqt_dynamics_figure.ipynb"
UTILS = f"{REPO}/utils.py"

#: the released regression task and Algorithm 1's init, in the runner's words
RELEASED_TASK = "whitened (centred, PCA) N(0,1) inputs, independent Gaussian targets"
ALG1 = "Algorithm 1: Gaussian N(0, sigma^2) layers, SVD of W2W1, random rotation, rebalanced to lambda"
#: App E.2.2's hierarchy (Eq. 188), in the runner's words
HIERARCHY = "8-item hierarchy, Eq. (188) labels, X = sqrt(8) I (whitened)"

#: LR-Framing, Fig. 1B: the released notebook's run
FRAMING = {
    "dims": ("released", (3, 3, 3), NOTEBOOK), "n_samples": ("released", 10, NOTEBOOK),
    "task": ("released", RELEASED_TASK, f"{UTILS} get_random_regression_task"),
    "target_variances": None, "lambdas": ("released", (-50.0, 0.01, 50.0), NOTEBOOK),
    "init": ("released", ALG1, f"{UTILS} get_lambda_balanced"),
    "init_scale": ("released", 1.0, f"{UTILS} get_lambda_balanced (sigma=1)"),
    "lr": ("released", 2e-4, NOTEBOOK), "steps": ("released", 50_000, NOTEBOOK),
    "horizon": ("released", 10.0, NOTEBOOK),
    "optimiser": ("stated", "full-batch GD", "Sec 3 l.28"), "batch_size": ("released", 10, NOTEBOOK),
    "loss": ("released", "1/2-mean squared error",
             f"{REPO}/linear_network.py (gradient (1/P) W2^T E X^T)"),
    "dtype": ("released", "float64", f"{REPO}/linear_network.py (numpy)"), "seeds": None}

#: LR-Fig1C: the LeCun draws of App A.3
FIG1C = {"dims": ("stated", (40, 120, 250), "App E.3 l.693 (symbols lost; read in the Ni, Nh, No "
                                            "order of every other protocol)"),
         "init": ("stated", "LeCun: N(0, 1/fan-in) per layer", "App A.3 l.264"),
         "seeds": None, "draws_per_seed": ("stated", 1, "Fig. 1C: one heat map")}

#: LR-Sec5-Arch, Fig. 5B/C: App E.7 gives the lambda count only
ARCHITECTURES = {
    "architectures": None, "n_samples": None, "task": None,
    "lambda_count": ("stated", 11, "App E.7 l.706"), "lambda_max": None, "init": None,
    "init_scale": None, "lr": None, "horizon": None, "curve_horizon": None, "early": None,
    "dtype": None, "seeds": None}

#: LR-A.4, Figs. 8-10: masked in the text, no script released
SCALE_MAP = dict.fromkeys(("architectures", "n_samples", "task", "absolute_scales", "lambdas",
                           "init", "training", "horizon", "dtype", "seeds"))

#: LR-D.3, Fig. 13
TRANSFER = {
    "task": ("stated", HIERARCHY, "App E.2.2 l.686-687"), "label_perturbation": None,
    "lambdas": None, "pretraining": None,
    "trained_item": ("stated", "fish1", "App D.3 l.662 ('the goldfish')"), "new_row_init": None,
    "new_row_training": ("stated", "GD on the trained item alone, W1 frozen", "App D.3 l.662"),
    "dtype": None}

#: LR-D.4, Fig. 14
FINE_TUNING = {
    "task": ("stated", HIERARCHY, "App E.2.2 l.686-687"),
    "fine_tuning_tasks": ("stated", ("T1 feature added", "T2 reversal", "T3 singular values x2"),
                          "App D.4 l.672"),
    "pretraining": None, "rebalancing": ("stated", "Thm 5.2 maps (function kept)", "App D.4 l.671"),
    "lam_news": None, "budget": None, "lam_init": None, "training": None, "dtype": None}

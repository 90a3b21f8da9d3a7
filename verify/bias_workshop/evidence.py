"""The workshop paper's (BA) toy-task sentences, bound to the one rule per kind of sentence of
``verify.bias.evidence`` (its Figs 1-3 and 5 are the long paper's Figs 2, 6 and 9, run on the
same simulations and decided by the same statistics)."""
from __future__ import annotations

from functools import partial

import numpy as np

from verify.bias import evidence as ev
from verify.bias import symbolic as sym
from verify.measurement import exact, measure, reading
from verify.properties import search
from verify.strategies import bias_strengths, equal_overlap_labels, unbalanced_classes


def bias_augmented_spectrum(printed):
    """BA-D1 (Prop. 1, 001 Sec. 2): the measurements under the equal-overlap condition and the
    one without it, of the printed eigenpairs, Eq. (5)'s image identity, the printed s0 values
    and s0 as the top singular value of the augmented correlation."""
    eig = all(all(sym.eigen_statements(printed, P).values()) for P in (2, 4))
    # Eq. (5): the top right vector maps onto sqrt(c^2 + 1/P) ybar, which makes s0 its value
    image = all(sym.image_identity(printed, P, n_out) for P, n_out in ((2, 1), (3, 2)))
    s0, sigma1, speed = sym.tree_spectra(printed["s0"])
    gap = partial(sym.top_singular_gap, printed["s0"])
    under = search(gap, ("<=", 1e-10), Y=equal_overlap_labels(), c=bias_strengths)
    without = search(gap, ("<=", 1e-10),
                     examples=[dict(Y=np.array([[1, 1, 1, 0], [0, 0, 0, 1.0]]), c=1.0)],
                     Y=unbalanced_classes(), c=bias_strengths)
    svd = reading("float64 SVD of a 15 x 9 matrix")
    printed_digits = reading("the catalogue prints 4 decimals")
    return ([measure("sympy eigenpairs of Prop. 1 (P = 2, 4)", bool(eig), "==", True,
                     source=exact("sympy simplify")),
             measure("Eq. (5) Syx~ v~0/||v~0|| = sign(c) sqrt(c^2+1/P) ybar, symbolic Y, "
                     "(P, N_out) = (2, 1), (3, 2)", image, "==", True, source=exact("sympy simplify")),
             measure("|s0 - 1.4790|, 4-item tree, c = 1", abs(s0[2] - 1.4790), "<=", 5e-5,
                     source=printed_digits),
             measure("|s0 - 1.4524|, 8-item tree, c = 1", abs(s0[3] - 1.4524), "<=", 5e-5,
                     source=printed_digits),
             measure("max |s0 - sigma_1(Syx~)|, 4- and 8-item trees",
                     max(abs(s0[k] - sigma1[k]) for k in s0), "<=", 1e-12, source=svd),
             measure("|mean-mode speed-up - sqrt(1 + c^2 P)|, 4-item tree",
                     abs(speed - np.sqrt(5)), "<=", 1e-12, source=svd),
             measure("worst |s0 - sigma_1| / sigma_1, equal-overlap labels", under, source=svd)],
            measure("worst |s0 - sigma_1| / sigma_1, unbalanced classes", without, source=svd))


def fig1b(pair):
    return ev.tracking(pair, "001 L57", "ReLU networks with bias terms closely track the dynamics "
                       "of their linear counterparts, so much so that exact solutions developed "
                       "for linear networks (see Appendix A) provide an excellent match",
                       "when removing bias terms the connection breaks down and dynamics diverge",
                       phrase="closely tracks", closed_form_phrase="excellent agreement")


def fig1d(pair):
    return ev.transient(pair, "001 L59", "even for non-linear problems bias-ReLU and bias-linear "
                        "network dynamics are exactly matched in early training", "As before, the "
                        "correspondence breaks down when bias terms are ablated", phrase="exactly")


def fig2b(pair):
    return (ev.rsa_to_linear(pair, "001 L61", "hidden representations evolve in an orderly fashion "
                             "in bias ReLU networks that show excellent agreement with linear "
                             "networks")
            + ev.separation(pair, "001 L61", "with the representations for the different classes "
                            "separating at the very beginning of learning"))


def fig3b(pair):
    return (ev.early_transient(pair, "001 L70", "bias-ReLU networks are aligned to linear networks "
                               "in early training", phrase="aligned")
            + ev.linear_first(pair, "001 L70", "initially only learn the linear problem")
            + ev.saddle(pair, "001 L70", "ReLU networks without bias also appear to learn slower "
                        "after learning the linear task. However, the corresponding saddle point "
                        "is less pronounced in these models"))


def fig3c(pair):
    return ev.variance_explained_r2(pair, "001 L72", "while solving both tasks with zero loss",
                                    "ReLU networks with bias represent the linear task more "
                                    "strongly than their bias-free counterparts",
                                    "less overall representational variance is explained when "
                                    "fitting a regression that contains regressor for both linear "
                                    "and non-linear features in bias-free ReLU networks")


def app_b(hierarchy, xor):
    """BA App B / Fig 5 (L142): the same rule as BL Fig 9 (``ev.both_layers``)."""
    return ev.both_layers(hierarchy, xor, where="001 L142", words="Dynamics appear preserved but "
                          "under slightly different time constants", phrase="preserve",
                          size_phrase="slightly", xor_where="001 L142")


def contributions(hierarchy, xor, parallel):
    """Contributions (i), (ii), (iii) (L44) and (v) (L85); (iv), image data, is BA-T6."""
    lin, relu = hierarchy.linear, hierarchy.relu
    kb, kn = lin.select(1.0), lin.select(0.0)
    return (ev.aligned("(i) ReLU with bias vs linear with bias on the hierarchy",
                       relu.loss[:, kb], lin.loss[:, kb], lin.t, "001 L44", "ReLU networks and "
                       "linear networks have equivalent learning dynamics when equipped with bias "
                       "terms", "equivalent", lin_modes=ev.loss_modes(lin, kb),
                       contrast=(relu.loss[:, kn], lin.loss[:, kn]))
            + ev.early_transient(xor, "001 L44", "This phenomenon also persists for non-linear "
                                 "task, where dynamics are aligned in early learning",
                                 phrase="aligned")
            + ev.rsa_to_linear(hierarchy, "001 L44", "bias-ReLU networks learn representations in "
                               "a structured, linear-like fashion")
            + ev.simple_features(parallel, "001 L44", "the alignment increases representational "
                                 "biases such that simple features are strongly overrepresented")
            + ev.linear_first(parallel, "001 L85", "This bias towards early linearity also "
                              "induces strict linear before non-linear learning"))


def only_in(texts, has: str, lacks: str, items: dict):
    """For each item (what -> words), the words occur in paper ``has``'s text and not in paper
    ``lacks``'s (case-insensitive, whitespace collapsed): what one paper has that the other lacks,
    read from the two texts."""
    out = []
    for what, words in items.items():
        counts = [texts[key].lower().count(words.lower()) for key in (has, lacks)]
        out.append(measure(f"{what}: occurrences of '{words}' in {has} and in {lacks}", counts[0]
                           > 0 and counts[1] == 0, "==", True,
                           source=exact("string search of the two texts"),
                           details={f"in {has}": counts[0], f"in {lacks}": counts[1]}))
    return out

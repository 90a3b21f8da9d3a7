"""The bias mode: BL-Def-BiasMode, BL-Prop1, BL-Claim-cIndep, BL-Claim-ybar.

§5.2 L205-L221 and App F.1 L666-L696.  One-hot inputs ``X = I_P`` augmented with a constant row
``c``: ``X~ = [c 1^T; I_P]``.  The builders take a concrete sample count ``P`` and return explicit
sympy matrices in the symbol ``c`` (and, for labels, any sympy matrix ``Y``).
"""
from __future__ import annotations

import sympy as sp

from theory.registry import register
from theory.validation import InvalidArgument

c = sp.Symbol("c", nonzero=True)
P_sym = sp.Symbol("P", integer=True, positive=True)
ybar_norm = sp.Symbol("ybar_norm", nonnegative=True)


def _samples(P) -> int:
    if isinstance(P, bool) or not isinstance(P, (int, sp.Integer)) and int(P) != P or P < 1:
        raise InvalidArgument(f"P={P!r} must be a positive integer")
    return int(P)


def _labels(Y) -> sp.Matrix:
    if not isinstance(Y, sp.MatrixBase):
        raise InvalidArgument(f"Y must be a sympy Matrix of labels (N_out x P), got {type(Y).__name__}")
    if Y.shape[1] < 1:
        raise InvalidArgument(f"Y must have at least one sample (column), got shape {Y.shape}")
    return Y


def augmented_inputs(P: int, c_value=c) -> sp.Matrix:
    """``X~ = [c 1^T; I_P]`` ((P+1) x P), F.1 L668."""
    P = _samples(P)
    return sp.Matrix.vstack(sp.Matrix([[c_value] * P]), sp.eye(P))


def sigma_x(P: int, c_value=c) -> sp.Matrix:
    X = augmented_inputs(P, c_value)
    return X * X.T / P


def sigma_yx(Y: sp.Matrix, c_value=c) -> sp.Matrix:
    Y = _labels(Y)
    return Y * augmented_inputs(Y.shape[1], c_value).T / Y.shape[1]


def mean_label(Y: sp.Matrix) -> sp.Matrix:
    Y = _labels(Y)
    return Y * sp.ones(Y.shape[1], 1) / Y.shape[1]


def top_eigenvector(P: int, c_value=c) -> sp.Matrix:
    """As printed (Prop. 1 / F.1 L674): ``v~_0 = [1; 1/(cP) 1]`` (unnormalised)."""
    P = _samples(P)
    return sp.Matrix.vstack(sp.Matrix([[1]]), sp.ones(P, 1) / (c_value * P))


def null_vector(P: int, c_value=c) -> sp.Matrix:
    """F.1 L684: ``v~_perp = [1; -c 1]`` with eigenvalue 0."""
    P = _samples(P)
    return sp.Matrix.vstack(sp.Matrix([[1]]), -c_value * sp.ones(P, 1))


#: Prop. 1 as printed: the spectrum of Sigma~x (value: multiplicity), the top eigenvector, the
#: image of v~_0 / ||v~_0|| under Sigma~yx (a multiple of ybar) and the first singular value.
proposition = {
    "eigenvalues": {c ** 2 + 1 / P_sym: 1, 1 / P_sym: P_sym - 1, sp.Integer(0): 1},
    "top_eigenvector": top_eigenvector,
    "image_factor": sp.sqrt(c ** 2 + 1 / P_sym),          # Sigma~yx v0/||v0|| = factor * ybar
    "s0": sp.sqrt(c ** 2 + 1 / P_sym) * ybar_norm,        # first singular value of Sigma~yx
}

CONDITION = ("Y^T Y 1 = lambda 1 with lambda the largest eigenvalue of Y^T Y (e.g. non-negative "
             "labels whose items all have the same summed overlap with the others: balanced "
             "hierarchies, one-hot classes of equal size); then v~_0 is the top right singular "
             "vector; otherwise sqrt(c^2+1/P)||ybar|| is only a lower bound on the first singular "
             "value")

PROP1 = register(
    id="BL-Prop1", paper="bias", where="Sec 5.2, Prop. 1, Eq. (5), L209-L211; proof App F.1",
    kind="identity", title="the bias mode leads",
    statement=r"X = I_P: \tilde\Sigma^x has eigenvalues {c^2 + 1/P, 1/P (x P-1), 0}, top "
              r"eigenvector \tilde v_0 \propto [1; \frac{1}{cP}1]; with s_0 the first singular "
              r"value of \tilde\Sigma^{yx}: \tilde\Sigma^{yx}\tilde v_0/||\tilde v_0|| = "
              r"\sqrt{c^2+1/P}\bar y and s_0 = \sqrt{c^2+1/P}||\bar y||",
    printed=proposition, expected="holds-if", condition=CONDITION,
    notes="The eigen-statements and the image identity hold for every Y and c != 0.  F.1 L678's "
          "intermediate entry 1^T(1/(cP))1 lacks a factor c (= c^2 P + 1/c, not c^2 P + 1); the "
          "end value is right.")

BIAS_MODE = register(
    id="BL-Def-BiasMode", paper="bias", where="Sec 5.2, L207; L181", kind="definition",
    title="the bias mode",
    statement=r"the singular mode of \tilde\Sigma^{yx} tied to the bias coordinate: right vector "
              r"\tilde v_0 \propto [1; (1/(cP))1], left vector \propto \bar y",
    printed={"right": top_eigenvector, "left": mean_label}, expected="defined")

#: BL-Claim-cIndep (L221): the bias mode is the leading one "for any c != 0"; its rate
#: 2 s_0 / tau does depend on c through s_0 = sqrt(c^2 + 1/P) ||ybar||.
C_INDEPENDENCE = register(
    id="BL-Claim-cIndep", paper="bias", where="Sec 5.2, L221", kind="identity",
    title="bias-mode ordering does not depend on c",
    statement=r"'early learning of the bias mode is not dependent on bias magnitude c since it "
              r"contributes to the largest direction in \tilde\Sigma^{yx} for any c \neq 0'",
    printed=proposition["s0"], expected="holds-if",
    condition=CONDITION + "; read as the ordering of the modes: the bias mode's rate 2 s_0/tau "
              "grows with |c|, so its hitting time does depend on c",
    notes="For signed labels the ordering flips with c (pinned example in verify).")

#: BL-Claim-ybar (L221, Fig 3D caption L175): the bias mode at its plateau a_0 = s_0/d_0 maps
#: every input to ybar.  With u_0 = Sigma~yx v^_0 / s_0 that map is Sigma~yx v^_0 v^_0^T / d_0.
def saturated_bias_mode_outputs(Y: sp.Matrix, c_value=c) -> sp.Matrix:
    """Outputs ``u_0 (s_0/d_0) v^_0^T X~`` (N_out x P) of the bias mode alone at its plateau."""
    P = _labels(Y).shape[1]
    v0 = top_eigenvector(P, c_value)
    v_hat = v0 / sp.sqrt((v0.T * v0)[0])
    d0 = c_value ** 2 + sp.Rational(1, P)
    return sigma_yx(Y, c_value) * v_hat * v_hat.T * augmented_inputs(P, c_value) / d0


MEAN_OUTPUT = register(
    id="BL-Claim-ybar", paper="bias", where="Sec 5.2, L221; Fig 3D caption L175",
    kind="identity", title="the bias mode outputs the mean label",
    statement=r"'early ReLU and linear network functions output \bar y for all inputs i' "
              r"(the optimal constant solution)",
    printed=saturated_bias_mode_outputs, expected="holds-if",
    condition="the first learned mode is the bias mode, i.e. BL-Prop1's condition (Y^T Y 1 = "
              "lambda 1, lambda top); with one-hot classes of unequal size the linear network's "
              "first plateau outputs the top singular direction of Y instead of ybar",
    notes="At a_0 = s_0/d_0 the bias mode alone maps every x~_i to ybar for every c != 0 and "
          "every Y; the plateau loss is 1/2(||Y||^2 - P||ybar||^2).")

"""App A of Make haste slowly beyond the mode law (MHS-A-Loss, MHS-A-SVD, MHS-A-CoV,
MHS-A-NonDiag, MHS-A-C1, MHS-A-C2, MHS-Fig7); the mode law itself is theory.haste_slowly.mode_law."""
import sympy as sp

from theory import mode_law as ml
from theory.registry import register

eps, P_ = sp.symbols("epsilon P", positive=True)
#: sign of the learning step as printed (Delta W = +eps dL/dW, L277) and corrected (MHS-E10)
STEP_SIGN_PRINTED, STEP_SIGN = sp.Integer(1), sp.Integer(-1)
#: time to reach a fraction f of the plateau, from Eq. (7): depends on delta through r0 (MHS-E12)
f = sp.Symbol("f", positive=True)
T_FRACTION = ml.tau / (2 * ml.s) * sp.log(f * (1 - ml.a0 * ml.d / ml.s)
                                         / (ml.a0 * ml.d / ml.s * (1 - f)))

P = "haste_slowly"
register(id="MHS-A-Loss", paper=P, where="App A, L265-L290", kind="identity",
         title="loss and learning rules",
         statement=r"L = \sum_i \frac12\|Y_i - W^2W^1X_i\|^2; \Delta W^1 = \epsilon \frac{d}{dW^1}L "
                   r"= \epsilon P W^{2T}(\Sigma^{yx} - W^2W^1\Sigma^x), ...; \tau = 1/(P\epsilon)",
         printed=STEP_SIGN_PRINTED, corrected=STEP_SIGN,
         corrected_statement="Delta W = -eps dL/dW (descent); the displayed right-hand sides are "
                             "those of -eps dL/dW (MHS-E10)",
         expected="erratum")
register(id="MHS-A-SVD", paper=P, where="App A, L294-L296", kind="identity",
         title="learned map from the correlation SVDs; top n_h modes when n_h < rank",
         statement=r"\Sigma^{yx} = USV^T, \Sigma^x = VDV^T; with n_h < rank the model learns the "
                   r"top n_h singular values", expected="holds")
register(id="MHS-A-CoV", paper=P, where="App A, L300-L320", kind="identity",
         title="change of variables W2 = U W2bar R^T, W1 = R W1bar V^T",
         statement=r"\tau \dot{\bar W}^1 = \bar W^2(S - \bar W^2\bar W^1 D), "
                   r"\tau \dot{\bar W}^2 = \bar W^1(S - \bar W^2\bar W^1 D) (all diagonal)",
         expected="holds")
register(id="MHS-A-NonDiag", paper=P, where="App A, L322-L324", kind="identity",
         title="reduction without mutual diagonalisability",
         statement=r"\tau \dot{\bar W}^1 = \bar W^2(S\hat V^TV - \bar W^2\bar W^1D), "
                   r"\tau \dot{\bar W}^2 = \bar W^1(S\hat V^TV - \bar W^2\bar W^1D)",
         corrected_statement=r"\tau \dot{\bar W}^1 = \bar W^{2T}(S\hat V^TV - \bar W^2\bar W^1D), "
                             r"\tau \dot{\bar W}^2 = (S\hat V^TV - \bar W^2\bar W^1D)\bar W^{1T} "
                             "(MHS-E11)",
         corrected="transposes restored, W1bar^T on the right", expected="erratum")
register(id="MHS-A-C1", paper=P, where="App A, L353", kind="identity",
         title="network map in the SVD basis",
         statement=r"W^2W^1 = UA(t)V^T = \sum_\alpha \pi_\alpha(t) u^\alpha v^{\alpha T}, "
                   r"\pi_\alpha: \pi_0 \to \lambda_\alpha/\delta_\alpha", expected="holds")
register(id="MHS-A-C2", paper=P, where="App A, L353", kind="identity",
         title="time-course depends only on the Sigma^yx singular values",
         statement=r"the time-course of the trajectory is only dependent on the \Sigma^{yx} "
                   r"singular values; \Sigma^x affects the stable point but not the time-course",
         printed=sp.diff(T_FRACTION, ml.d), corrected=T_FRACTION,
         corrected_statement="only the exponential rate 2 lambda/tau is independent of delta; the "
                             "time to a fraction f of the plateau, (tau/2lambda) ln[f(1-r0)/"
                             "(r0(1-f))] with r0 = pi0 delta/lambda, depends on delta (MHS-E12)",
         expected="erratum")
register(id="MHS-Fig7", paper=P, where="App A, Fig 7 caption, L370", kind="empirical",
         title="Saxe et al. (2019) hierarchy: closed form vs training",
         statement="Initially all modes begin at 0 but increase to their final values where they "
                   "have learned the dataset statistics.", expected="holds",
         clauses={"Initially all modes begin at 0": "largest mode strength at the start",
                  "but increase to their final values where they have learned the dataset "
                  "statistics": "largest |mode strength at the end"})

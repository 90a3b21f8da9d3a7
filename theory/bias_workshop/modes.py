"""The sigmoidal mode law as the workshop paper prints it: BA-Eq(3)."""
from theory import mode_law as ml
from theory.registry import register

MODE_TRAJECTORY = register(
    id="BA-Eq(3)", paper="bias_workshop", where="App A, Eq. (3), L131-L133",
    kind="ode-solution", title="sigmoidal mode trajectory",
    statement=r"a_\alpha(t) = \frac{s_\alpha/d_\alpha}{1 - (1 - \frac{s_\alpha}{d_\alpha a_0})"
              r"e^{-2 s_\alpha t/\tau}}; 'if V diagonalizes \Sigma^x the full evolution ... can be "
              r"described as W^2W^1 = U A(t) V^T'; a_0 'the singular values at initialization'",
    printed=ml.trajectory, expected="holds-if",
    condition="the initialisation is aligned (W2 W1(0) = U A0 V^T) and balanced (w1 = w2 per "
              "mode), so that a_0 = u^T W2 W1(0) v > 0; the paper states neither (BA-E8, BA-E9)")

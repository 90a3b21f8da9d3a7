"""Linear mode dynamics in the bias paper: BL-Eq(7) (= Eq. 22) and BL-Eq(13)."""
from theory import mode_law as ml
from theory.registry import register

MODE_TRAJECTORY = register(
    id="BL-Eq(7)", paper="bias", where="Sec 5.2, Eq. (7), L219; App B Eq. (22), L572",
    kind="ode-solution", title="Saxe sigmoidal mode trajectory",
    statement=r"a_\alpha(t) = \frac{s_\alpha/d_\alpha}{1 - (1 - \frac{s_\alpha}{d_\alpha a_0}) "
              r"\exp(-2 s_\alpha t/\tau)}, \tau = 1/(P\epsilon)",
    printed=ml.trajectory, expected="holds",
    notes="Assumes Eq. (4), weights aligned to U, V and balanced layers (App B, Eq. 21).")

HITTING_TIME = register(
    id="BL-Eq(13)", paper="bias", where="Sec 5.4, Eq. (13), L249; App F.3, L708-L728",
    kind="identity", title="hitting time of a mode",
    statement=r"\hat t = \frac{\tau}{2 s_\alpha}\log\frac{s_\alpha\rho - d_\alpha a_0\rho}"
              r"{s_\alpha a_0 - d_\alpha a_0 \rho}; 'the term inside the log is always greater "
              r"than 1 as \rho \ge a_0' (L728)",
    printed=ml.hitting_time_bl, expected="holds-if",
    condition="a_0 <= rho < s_alpha/d_alpha (the threshold must lie below the plateau s/d)")

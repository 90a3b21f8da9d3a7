"""App A of Make haste slowly: the linear-network background (MHS-A-*)."""
from theory import mode_law as ml
from theory.registry import Forms, register

MODE_ODE = register(
    id="MHS-A-Mode", paper="haste_slowly", where="App A, L326-L335", kind="conserved",
    title="per-mode ODE and balanced product",
    statement=r"\tau \dot\omega^1 = \omega^2(\lambda - \omega^2\omega^1\delta), "
              r"\tau\dot\omega^2 = \omega^1(\lambda - \omega^2\omega^1\delta); balanced "
              r"\omega^1=\omega^2, \omega=\omega^2\omega^1: \tau\dot\omega = 2\omega(\lambda-\omega\delta)",
    printed=Forms(dw1=ml.layer_rhs[0], dw2=ml.layer_rhs[1], rhs=ml.rhs), expected="holds",
    notes="Balance is exact when started balanced: (w1)^2 - (w2)^2 is conserved.")

TIME_TO_REACH = register(
    id="MHS-A-Time", paper="haste_slowly", where="App A, L345", kind="identity",
    title="time to reach omega^f",
    statement=r"t = \frac{\tau}{2\lambda}\ln\frac{\omega^f(\lambda-\omega^0\delta)}"
              r"{\omega^0(\lambda-\omega^f\delta)}",
    printed=ml.hitting_time_mhs, expected="holds")

MODE_TRAJECTORY = register(
    id="MHS-A-Eq(7)", paper="haste_slowly", where="App A, Eq. (7), L349", kind="ode-solution",
    title="mode trajectory",
    statement=r"\pi_\alpha(t) = \frac{\lambda_\alpha/\delta_\alpha}{1-(1-\frac{\lambda_\alpha}"
              r"{\delta_\alpha\pi_0})\exp(-2\lambda_\alpha t/\tau)}",
    printed=ml.trajectory, expected="holds")

"""BL Fig 10 (App C.4): ReLU and linear networks on the hierarchical task over the bias strength
c (grid not given: 0, 0.1, 0.5, 1, 2, 5, and 0, 0.05, 0.2, 0.3, 3 beside it at paper scale),
hidden 64, sigma^2 = 2e-4, full-batch GD on the 1/2-sum loss, 30 t/tau; 8 seeds per c at ci
(lr 5e-3), 16 at paper scale (lr 2e-4).  The effective bias is c b, learned at rate c^2 lr."""
import pytest

from verify.bias import evidence as ev
from verify.bias import figures


@pytest.mark.claim("BL-Fig10")
def test_bias_strength_sweep(claim, report_figure, c_sweep):
    ms, setups = ev.toy_setup(c_sweep, ev.c_sweep, cs=ev.UNKNOWN)
    claim.reproduced(*ms, setup=setups)
    report_figure(figures.c_sweep_figure(c_sweep.base), "BL Fig 10 reproduced on the hierarchy "
                  "over bias strength c (red: c = 0): losses, and fractions of always-on, gating "
                  "and dead units (markers: seed means of ReLU simulations; lines: linear).")

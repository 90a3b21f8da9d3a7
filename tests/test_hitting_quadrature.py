"""numerics.closed_forms.hitting_time_by_quadrature: the 30-digit reference of the hitting-time
closed forms (BL-Eq(13), MHS-A-Time) against the closed form, and bad input."""
import mpmath
import numpy as np
import pytest

from numerics.closed_forms import hitting_time, hitting_time_by_quadrature
from numerics.validation import InvalidArgument


@pytest.mark.parametrize("rho, s, d, a0, tau", [(0.3, 1.0, 1.0, 1e-3, 2.0),
                                                (2.0, 1.3, 0.7, 3.0, 2.0),
                                                (0.26, 0.5, 2.0, 0.5, 7.0)])
def test_quadrature_equals_the_closed_form_on_both_sides_of_the_plateau(rho, s, d, a0, tau):
    reference = hitting_time_by_quadrature(rho, s, d, a0, tau)
    assert isinstance(reference, mpmath.mpf)
    assert float(reference) == pytest.approx(float(hitting_time(rho, s, d, a0, tau)), rel=1e-13)


def test_rho_at_a0_takes_no_time_and_digits_are_kept():
    assert hitting_time_by_quadrature(1e-3, 1.0, 1.0, 1e-3) == 0
    with mpmath.workdps(40):
        exact = mpmath.mpf(2.0) / 2 * mpmath.log(mpmath.mpf(0.3) * (1 - mpmath.mpf(1e-3))
                                                  / (mpmath.mpf(1e-3) * (1 - mpmath.mpf(0.3))))
    reference = hitting_time_by_quadrature(0.3, 1.0, 1.0, 1e-3, 2.0, digits=30)
    assert abs(reference - exact) / exact < 1e-25      # beyond float64's 16 digits


@pytest.mark.parametrize("kwargs, message", [
    (dict(rho=2.0), r"\brho must lie between a0 and the plateau"),
    (dict(s=0.0), r"\bs=0.0 must be positive"),
    (dict(tau=np.nan), r"\btau=nan must be finite"),
    (dict(a0=-1.0), r"\ba0=-1.0 must be positive"),
    (dict(digits=5), r"\bdigits=5 must be an integer >= 15"),
])
def test_bad_input_names_the_argument(kwargs, message):
    args = dict(rho=0.5, s=1.0, d=1.0, a0=0.1, tau=1.0) | kwargs
    with pytest.raises(InvalidArgument, match=message):
        hitting_time_by_quadrature(**args)

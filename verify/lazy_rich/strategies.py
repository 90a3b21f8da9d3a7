"""Hypothesis strategies for lambda-balanced problems, built from drawn numbers only (shapes, a
balance, an absolute scale, matrix entries, a rotation angle) so hypothesis can shrink every part.
``numerics.lazy_rich.experiments.problem_from_numbers`` turns a draw into a task and an init."""
import math

from hypothesis import strategies as st

from verify.strategies import log_uniform

#: (Ni, No) up to 6, square, funnel and inverted funnel alike
shapes = st.tuples(st.integers(1, 6), st.integers(1, 6))
def _zero_or_signed(lo: float, hi: float):
    """Exactly 0, or a number of either sign with magnitude in [lo, hi] (magnitudes far below
    ``lo`` only probe float underflow, not the claims)."""
    return st.one_of(st.just(0.0), st.tuples(st.sampled_from([1.0, -1.0]), st.floats(lo, hi))
                     .map(lambda sign_size: sign_size[0] * sign_size[1]))


#: balances of both signs, including exactly 0
balances = _zero_or_signed(1e-3, 10.0)
#: absolute scale of the initial weights
scales = log_uniform(1e-3, 10.0)
#: one matrix entry: exactly 0 (rank deficiency) or a standard-normal-sized number
entries = _zero_or_signed(1e-3, 3.0)


def matrix_entries(rows: int, cols: int):
    return st.lists(entries, min_size=rows * cols, max_size=rows * cols)


@st.composite
def balanced_problems(draw):
    """Arguments of ``problem_from_numbers``: shapes, lambda, scale, entries of W1, W2 and Syx, an angle."""
    n_in, n_out = draw(shapes)
    nh = min(n_in, n_out)
    return dict(n_in=n_in, n_out=n_out, lam=draw(balances), scale=draw(scales),
                w1=draw(matrix_entries(nh, n_in)), w2=draw(matrix_entries(n_out, nh)),
                syx=draw(matrix_entries(n_out, n_in)), rot=draw(st.floats(0.0, 2 * math.pi)))

"""Hypothesis strategies for lambda-balanced problems: shapes, balances, scales, seeds."""
from hypothesis import strategies as st

from verify.strategies import log_uniform

#: (Ni, No) up to 6, square, funnel and inverted funnel alike
shapes = st.tuples(st.integers(1, 6), st.integers(1, 6))
#: balances of both signs, including exactly 0
balances = st.one_of(st.just(0.0), st.floats(-10.0, 10.0, allow_nan=False))
#: absolute scale of the initial weights
scales = log_uniform(1e-3, 10.0)
seeds = st.integers(0, 2 ** 31 - 1)


@st.composite
def balanced_problems(draw):
    n_in, n_out = draw(shapes)
    return dict(n_in=n_in, n_out=n_out, lam=draw(balances), scale=draw(scales), seed=draw(seeds))

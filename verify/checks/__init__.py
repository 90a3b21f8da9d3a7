"""Check functions: each takes the object under test (a sympy expression, a callable) as an
argument, so ``tests/`` can hand it a perturbed claim and show the check rejects it."""

"""Claims of "Bias-mediated early linearization drives simplicity bias in ReLU networks" (BL-)."""
from theory.bias import definitions, modes  # noqa: F401  (importing registers the claims)

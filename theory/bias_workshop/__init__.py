"""Claims of "Bias-driven alignment of linear and ReLU networks" (BA-)."""
from theory.bias_workshop import modes  # noqa: F401

"""The runs of "Bias-driven alignment of linear and ReLU networks" (claims BA-) that are the
workshop paper's own; its other experiments are the long paper's (``numerics.bias``)."""

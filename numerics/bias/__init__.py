"""Simulation and closed-form engines for "Bias-mediated early linearization drives simplicity
bias in ReLU networks" (claims BL-): tasks, two-layer ensembles with a bias pixel, linear flows,
mode fits, image runs."""

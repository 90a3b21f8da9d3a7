"""Simulation: gradient-flow ODEs (scipy), batched torch training, datasets, metrics, and
vectorised evaluations of ``theory``'s closed forms."""

"""Simulation and closed-form engines for "From lazy to rich" (Domine et al., claims LR-)."""

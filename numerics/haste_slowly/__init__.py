"""Simulation code of "Make haste slowly" (Jarvis et al., MHS-): datasets, gated deep linear
networks (GDLN) and ReLU networks as one batched gated-network program, race ODEs, gate finding."""

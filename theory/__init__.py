"""Every claim of the five papers, symbolically (sympy), in one registry.

``theory`` knows nothing of ``numerics`` or ``verify``.  Import :func:`load_all` to register every
paper's claims; ``python -m theory`` lists them with their expected verdicts.
"""
from theory.registry import PAPERS, REGISTRY, Claim, RegistryError, load_all, register

__all__ = ["PAPERS", "REGISTRY", "Claim", "RegistryError", "load_all", "register"]

"""Claims of "Make haste slowly" (Jarvis et al., MHS-)."""
from theory.haste_slowly import appendix_a  # noqa: F401

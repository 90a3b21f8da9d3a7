"""Claims of the lazy_rich paper."""

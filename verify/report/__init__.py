"""Writers of ``reports/``: ``claims.json``, one PDF per paper and ``summary.pdf``."""

"""Evidence of GRQ-Exp-Fig6b's kernel: Eq. (129)'s Laplacian, which Eq. (128) scores filters with
(App. D.3, Fig. 11).  The kernels under test are handed in, so a perturbed one can be fed."""
from __future__ import annotations

import numpy as np

from numerics.rich_quick import image_nets as inet
from verify.measurement import exact, measure, reading


def eq129_kernel(printed, corrected, used) -> dict:
    """A Laplacian kernel annihilates constants: the sums of the ``printed`` and ``corrected``
    (centre-3) kernels and Eq. (128)'s score of a constant 5x5 filter under each; ``used`` is
    the kernel the filter runs score with, which must be the printed one:
    {'printed', 'corrected', 'counterexample'}."""
    printed, corrected = np.array(printed, dtype=float), np.array(corrected, dtype=float)
    if not np.array_equal(printed, used):
        raise ValueError(f"used={np.asarray(used).tolist()}: the filter runs must score with the "
                         f"printed Eq. (129) kernel {printed.tolist()}")
    score = {k: float(inet.smoothness(np.ones((1, 5, 5)), K)[0])
             for k, K in (("printed", printed), ("corrected", corrected))}
    annihilates = exact("a Laplacian kernel annihilates constants")
    smooth = reading("a constant filter is perfectly smooth; 1e-20 is float64 round-off")
    return {"printed": [measure("sum of the printed Eq. (129) kernel", printed.sum(), "==", 0,
                                source=annihilates),
                        measure("Eq. (128) of a constant 5x5 filter, printed kernel",
                                score["printed"], "<=", 1e-20, source=smooth)],
            "corrected": [measure("sum of the centre-3 kernel", corrected.sum(), "==", 0,
                                  source=annihilates),
                          measure("Eq. (128) of a constant 5x5 filter, centre-3 kernel",
                                  score["corrected"], "<=", 1e-20, source=smooth)],
            "counterexample": f"a constant filter scores {score['printed']:.3g} under the printed "
                              "kernel"}

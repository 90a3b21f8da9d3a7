"""What the last session of the suite in a process does with the heap it leaves: freezes it
(``gc.freeze``), so the collections that follow -- pytest's at its cleanup, the interpreter's at
exit -- skip it.  They walked it for about 3 s at the end of a whole ``pytest verify``, on one
core, after the reports were written.  A later session in the same process unfreezes it first.
Sessions nest (pytester runs one inside another), so only the last one to close freezes."""
from __future__ import annotations

import gc

#: the sessions of the suite's own folder open in this process
_OPEN = [0]


def opened() -> None:
    if not _OPEN[0]:
        gc.unfreeze()  # an earlier session in this process froze what it held
    _OPEN[0] += 1


def closed() -> None:
    _OPEN[0] -= 1
    if not _OPEN[0]:
        gc.freeze()

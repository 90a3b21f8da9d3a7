"""The papers' settings tables (``theory/<paper>/settings.py``) as the paper's side of a
``verify.setup.Setup``, one rule for every paper: an entry ``("stated", value, where)`` is a
setting the paper gives, ``("released", value, "owner/repo/file")`` one the authors' released
code fixes where the paper is silent, and None one neither gives (``UNKNOWN``).  The tables are
plain data written from the papers and the code, never from the configurations that ran."""
from __future__ import annotations

from theory.validation import InvalidArgument
from verify.setup import UNKNOWN, released, stated

KINDS = {"stated": stated, "released": released}


def paper_side(table: dict, **more) -> dict:
    """``table`` (and ``more`` entries, which win) as {setting: Stated or UNKNOWN}."""
    entries = dict(table, **more)
    bad = sorted(k for k, v in entries.items() if v is not None and not (
        isinstance(v, tuple) and len(v) == 3 and v[0] in KINDS))
    if bad:
        raise InvalidArgument(f"table entries {bad} must be (kind, value, where) with kind in "
                              f"{sorted(KINDS)}, or None")
    return {k: UNKNOWN if v is None else KINDS[v[0]](v[1], v[2]) for k, v in entries.items()}

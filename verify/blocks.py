"""Claim blocks under pytest-xdist: the tests of claims that share tests, and their verdict items,
run in order on one worker, so every verdict item sees every check of its claim.

Workers order their collection block by block (:func:`order_blocks`): files joined by the claims
their tests share (so a module's fixtures run once), in the order of their first item, each
block's verdict items last, tests of no claim at the end.  The controller, which collects
nothing, finds the blocks again in the node IDs the workers report (:func:`block_scopes`: a block
ends with its verdict items) and sends each block to one worker through xdist's public
``pytest_xdist_make_scheduler`` hook (:func:`scheduler_class`).  xdist's own ``loadgroup`` cannot
serve: it renames items through a private pytest attribute that pytest 9 no longer reads.
"""
from __future__ import annotations

import re

#: the node ID of a verdict item: ``<path>::claim[ID]``
VERDICT_ID = re.compile(r"::claim\[.*\]$")
#: xdist distribution modes under which the claim blocks are kept together (not ``each``)
DISTRIBUTED = ("load", "loadscope", "loadfile", "loadgroup", "worksteal")


def order_blocks(items, ids_of, is_verdict) -> list:
    """``items`` block by block; ``ids_of(item)`` are an item's claims, ``is_verdict(item)`` says
    whether it is a verdict item."""
    parent: dict[str, str] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x
    first_file: dict[str, str] = {}
    for item in items:
        file = item.nodeid.split("::")[0]
        for cid in ids_of(item):
            a, b = find(file), find(first_file.setdefault(cid, file))
            if a != b:
                parent[max(a, b)] = min(a, b)
    blocks: dict[str, tuple[list, list]] = {}
    plain = []
    for item in items:
        if not ids_of(item):
            plain.append(item)
            continue
        tests, verdicts = blocks.setdefault(find(item.nodeid.split("::")[0]), ([], []))
        (verdicts if is_verdict(item) else tests).append(item)
    return [i for tests, verdicts in blocks.values() for i in tests + verdicts] + plain


def block_scopes(nodeids) -> dict[str, str]:
    """The xdist scope of each node ID of a collection ordered by :func:`order_blocks`: a block
    runs up to the verdict items that end it; the items after the last verdict item (tests of no
    judged claim) are a scope each."""
    nodeids = list(nodeids)
    last = max((k for k, n in enumerate(nodeids) if VERDICT_ID.search(n)), default=-1)
    out, scope, after_verdict = {}, 0, False
    for k, nodeid in enumerate(nodeids):
        verdict = bool(VERDICT_ID.search(nodeid))
        if (after_verdict and not verdict) or k > last:
            scope += 1
        out[nodeid] = f"claims-block-{scope}"
        after_verdict = verdict
    return out


def scheduler_class():
    """xdist's scope scheduling with a claim block as the scope (imported only under xdist)."""
    from xdist.scheduler import LoadScopeScheduling

    class ClaimBlockScheduling(LoadScopeScheduling):
        def schedule(self):
            if self.collection is None and self.registered_collections:
                self._claim_scopes = block_scopes(next(iter(self.registered_collections.values())))
            super().schedule()

        def _split_scope(self, nodeid):
            return self._claim_scopes.get(nodeid, nodeid)
    return ClaimBlockScheduling

"""Fixtures of the Make haste slowly checks: each calls a runner of ``numerics.haste_slowly``
once per process (the runners cache their results) for the configuration a test's ``scale``
picks."""
import hashlib
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

from numerics import models
from numerics.atomic import write_with
from numerics.haste_slowly import configs, equivalence, experiments, gate_finder, gated, race, xor
from numerics.haste_slowly import datasets as ds
from numerics.haste_slowly import depth as D
from numerics.haste_slowly.linear import linear_run
from numerics.mode_flows import scalar_mode_flow
from theory.haste_slowly import gdln as tg
from theory.registry import REGISTRY


#: a folder where the paper-scale depth runs (~1 h on one CPU thread) are kept between
#: processes, keyed by the configuration and the source of the code that trains them, so a record
#: can be re-decided without retraining (unset: every process trains its own)
DEPTH_STORE = "CLAIMS_MHS_DEPTH_STORE"


def _depth_key(kind: str, cfg) -> str:
    code = b"".join(Path(m.__file__).read_bytes() for m in (D, gated, models))
    return hashlib.sha256(repr((kind, cfg)).encode() + code).hexdigest()[:16]


def stored_depth_run(kind: str, cfg):
    """``numerics.haste_slowly.depth.depth_run(kind, cfg)``, read from (or written to) the folder
    named by :data:`DEPTH_STORE` when it is set."""
    root = os.environ.get(DEPTH_STORE)
    if not root:
        return D.depth_run(kind, cfg)
    path = Path(root) / f"{cfg.scale}-{kind}-{_depth_key(kind, cfg)}.pkl"
    if path.exists():
        with path.open("rb") as f:
            return pickle.load(f)
    run = D.depth_run(kind, cfg)
    write_with(path, lambda tmp: tmp.write_bytes(pickle.dumps(run)))
    return run


@pytest.fixture(scope="session")
def depth():
    """``depth(scale, kind)``: the Sec 6 run of network ``kind`` ('relu', 'gdln', 'shallow') at
    ``configs.DEPTH[scale]``, all seeds (a ``numerics.haste_slowly.depth.DepthRun``; kept in the
    folder :data:`DEPTH_STORE` names, when set)."""
    return lambda scale, kind: stored_depth_run(kind, configs.DEPTH[scale])


#: the Sec 4-5 networks by name: (k, extra_k, split) of ``experiments.reln_run``
GDLNS = {"reln": (None, (), True), "joint": (None, (), False), "single": (1, (), True),
         "single joint": (1, (), False), "six": (2, (1,), True)}


@pytest.fixture(scope="session")
def sec45():
    """``sec45(scale, network, C=None)``: the Sec 4 (``C=None``) or Sec 5 run of ``network``
    ('relu', or a GDLN of :data:`GDLNS`) at ``configs.SEC45[scale]``, all seeds."""
    def run(scale, network, C=None):
        if network == "relu":
            return experiments.relu_run(configs.SEC45[scale], C)
        k, extra, split = GDLNS[network]
        return experiments.reln_run(configs.SEC45[scale], C, k, extra, split)
    return run


@pytest.fixture(scope="session")
def gates():
    """``gates(scale)``: Algorithm B.1 and the GDLNs from its centroids at
    ``configs.GATES[scale]`` (a ``numerics.haste_slowly.gate_finder.GateRun``)."""
    return lambda scale: gate_finder.elbow_run(configs.GATES[scale])


@pytest.fixture(scope="session")
def xor_runs():
    """The Fig 2 ReLU sweep at ``configs.XOR``, the same in float32 (its dtype check) and over a
    1.5 x longer horizon (its steps check)."""
    return (xor.relu_sweep(configs.XOR), xor.relu_sweep(configs.XOR.replace(dtype="float32")),
            xor.relu_sweep(configs.XOR.replace(steps=round(1.5 * configs.XOR.steps))))


@pytest.fixture(scope="session")
def xor_gdlns():
    """The App C gated networks: the linear-gating GDLN at Delta 0.6 and 1.4 (lr 0.05: Eq. (22)
    is the flow, and this keeps GD's discretisation below the check's tolerance) and the
    XoR-gating GDLN at Delta 1 (Fig 2's lr 0.4), trajectories in t/tau."""
    return {"linear": {d: xor.train_gdln(d, xor.LINEAR_GATES, steps=1200, lr=0.05)
                       for d in (0.6, 1.4)},
            "xor": xor.train_gdln(1.0, xor.XOR_GATES, steps=400)}


@pytest.fixture(scope="session")
def linear_runs():
    """App A's linear nets (``numerics.haste_slowly.linear``): Fig 7's configuration, its
    variants (one per setting Fig 7 leaves open, ``configs.FIG7_VARIANTS``), and A-SVD's narrow
    4-2-7 net (lr 0.05, 600 steps)."""
    return {"fig7": linear_run(configs.FIG7),
            "variants": {k: linear_run(configs.FIG7.replace(**v))
                         for k, v in configs.FIG7_VARIANTS.items()},
            "narrow": linear_run(configs.FIG7.replace(width=2, std=1e-3, lr=0.05, steps=600,
                                                      record_every=600, seeds=(0,)))}


@pytest.fixture(scope="session")
def clock_runs():
    """MHS-Eq(3)'s clock: GD at lr 2e-3 on the mean loss Eq. (2) of a 3-4-2 linear net beside its
    flow with the printed tau = 1/(N eps) and with tau = 1/eps (both read through the registry);
    {'printed' | 'corrected': (GD's W2 W1 per step, the flow's at the same times)}."""
    form = REGISTRY["MHS-Eq(3)"]
    taus = {"printed": lambda e, n: float(form.printed.subs({tg.N: n, tg.eps: e})),
            "corrected": lambda e, n: float(form.corrected.subs({tg.eps: e}))}
    return {k: equivalence.gd_beside_flow(f, 2e-3, 1500) for k, f in taus.items()}


@pytest.fixture(scope="session")
def race_runs():
    """Two pathways into one node (``numerics.haste_slowly.race``): the full flow and the race
    ODE with the flow's own overlaps (shared U), with Eq. (6)'s overlap 1 (shared and apart,
    U_1^T U_2 = -I/2)."""
    shared, apart = race.two_pathway_case(1.0), race.two_pathway_case(-0.5)
    ones = np.ones((2, 2, 3))
    return {"own": race.flow_and_race(shared), "eq6 shared": race.flow_and_race(shared, ones),
            "eq6 apart": race.flow_and_race(apart, ones)}


@pytest.fixture(scope="session")
def relu_equivalence():
    """MHS-C3.1's runs (``numerics.haste_slowly.equivalence.equivalence_runs``)."""
    return equivalence.equivalence_runs()


@pytest.fixture(scope="session")
def contextual_races():
    """App F's contextual pathways on the C-context data (``numerics.haste_slowly.race``): the
    full flow against the race with the data's overlaps, C = 3, 4, 5, and with Eq. (6)'s overlap
    1 for C = 3 ('3 without overlaps'); each (flow modes, race modes, data overlaps)."""
    return {**{C: race.contextual_race(C) for C in (3, 4, 5)},
            "3 without overlaps": race.contextual_race(3, np.ones((3, 3, 7)))}


@pytest.fixture(scope="session")
def mode_flows():
    """App C Eq. (19)'s ODE integrated (``numerics.mode_flows.scalar_mode_flow``, rtol 1e-11) for
    three (Delta, a0, tau), a0 above the plateau in the last: {(Delta, a0, tau): (t, a(t))}."""
    out = {}
    for dl, a0, tau in ((0.3, 1e-4, 2.5), (1.7, 2e-2, 7.0), (0.9, 3.0, 1.0)):
        grid = np.linspace(0, 20 * tau / dl, 50)
        out[(dl, a0, tau)] = grid, scalar_mode_flow(dl / 2, dl ** 2 / 2, a0, tau, grid, rtol=1e-11)
    return out


@pytest.fixture(scope="session")
def tasks():
    """(the Sec 4-6 tasks by name, their Ran): ``ds.all_tasks(configs.TASKS)``."""
    return ds.all_tasks(configs.TASKS)

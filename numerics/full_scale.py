"""``python -m numerics.full_scale [--only grq-fig1b|mhs-depth] [--fraction F]``: wall time of the
suite's heaviest paper-scale experiments, through the same code paths as their ``full`` tests.

* ``grq-fig1b``: rich_quick Fig. 1(b) (GRQ-Fig1, App D.1): 16 seeds x 8 tau x 9 delta students
  (d = 100, h = 50, n = 1000), 1e5 GD steps, one batched program
  (``single_neuron_teacher_student.fig1b_sweep(FIG1B_FULL)``).
* ``mhs-depth``: haste_slowly Sec 6 (MHS-S6-C1..C3, MHS-Fig6): 100 seeds each of the 11-420-420-60
  ReLU net, its one-hidden-layer control and the depth-2 GDLN, 30,000 GD steps
  (``experiments.depth_runs(DEPTH_FULL)``).

``--fraction F`` trains only the first F of the steps.  The extrapolation to the full run is
``loop seconds / (steps run / full steps)`` plus, for grq-fig1b, the measured seconds per record
times the full run's number of records (a record costs the same at any step); for mhs-depth, whose
loss records are spread evenly over the steps, ``wall seconds / (steps run / full steps)``.
Writes ``reports/full_scale.json`` (generated, not committed; ``--only`` replaces that experiment's
entry and keeps the other's) and prints it.  Time units: GD steps.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from numerics.models import default_device

EXPERIMENTS = ("grq-fig1b", "mhs-depth")


def grq_fig1b(fraction: float) -> dict:
    from numerics.rich_quick import single_neuron_teacher_student as ts
    cfg = ts.FIG1B_FULL
    t0 = time.perf_counter()
    run, _, _ = ts.fig1b_sweep(cfg, fraction, progress=True)
    wall = time.perf_counter() - t0
    steps = int(run.steps[-1])
    full_marks = ts.fig1b_marks(cfg["steps"])
    per_record = run.seconds["records"] / len(run.steps)
    return {"experiment": "GRQ-Fig1 (b) full grid", "members": len(run.kernel_distance[0]),
            "dtype": f"training {cfg['dtype']}, diagnostics float64", "steps_run": steps,
            "full_steps": cfg["steps"], "fraction": steps / cfg["steps"], "wall_s": wall,
            "loop_s": run.seconds["loop"], "records_run": len(run.steps), "record_s": per_record,
            "extrapolated_full_s": run.seconds["loop"] * cfg["steps"] / steps
            + per_record * (len(full_marks) + 1) + (wall - run.seconds["loop"] - run.seconds["records"]),
            "method": "loop_s * full_steps / steps_run + record_s * full records + setup"}


def mhs_depth(fraction: float) -> dict:
    from numerics.haste_slowly import experiments as E
    cfg = E.DEPTH_FULL
    out, total = {}, 0.0
    for kind in E.DEPTH_KINDS:
        t0 = time.perf_counter()
        run = E.depth_runs(cfg, fraction, kinds=(kind,))[kind]
        out[kind] = time.perf_counter() - t0
        total += out[kind]
        steps = int(run.hist.steps[-1])
    return {"experiment": "MHS Sec 6 depth (100 runs x relu, shallow, gdln)", "members": len(cfg["seeds"]),
            "dtype": cfg["dtype"], "steps_run": steps, "full_steps": cfg["steps"],
            "fraction": steps / cfg["steps"], "wall_s": total, "wall_s_per_kind": out,
            "extrapolated_full_s": total * cfg["steps"] / steps,
            "method": "wall_s * full_steps / steps_run"}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=EXPERIMENTS)
    parser.add_argument("--fraction", type=float, default=1.0,
                        help="share of the GD steps to run, in (0, 1] (default 1: the full run)")
    parser.add_argument("--out", default="reports/full_scale.json")
    args = parser.parse_args(argv)
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction={args.fraction} must lie in (0, 1]")
    dev = default_device()
    machine = {"device": dev.type, "gpu": torch.cuda.get_device_name(0) if dev.type == "cuda" else None,
               "torch_threads": torch.get_num_threads(), "torch": torch.__version__}
    out = Path(args.out)
    # --only updates its own entry and keeps the other experiment's last measurement
    result = json.loads(out.read_text()) if out.is_file() else {"experiments": {}}
    for name, fn in (("grq-fig1b", grq_fig1b), ("mhs-depth", mhs_depth)):
        if args.only in (None, name):
            result["experiments"][name] = {**machine, "requested_fraction": args.fraction,
                                           "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                           **fn(args.fraction)}
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result, indent=1, default=lambda v: float(v) if np.isscalar(v) else str(v))
    out.write_text(text)
    print(text)
    return result


if __name__ == "__main__":
    main()

"""``python -m numerics.full_scale [--fraction F] [--dask ADDRESS] [--out PATH]``: time a fraction
of the Fig. 1(b) released grid (GRQ-Fig1) through the same sweep as its full test, and
extrapolate: ``seconds / fraction`` (every GD step costs the same; the records are a small share).
Writes the timing to ``--out`` (default ``reports/full_scale.json``, generated).  Time units: GD
steps, wall seconds.

Numerics times and returns data; it decides and records nothing: the paper-scale verdict records
are written by the verify plugin (``verify.report.paper_scale``), whose ``write_data`` also keeps
the figure data and FLOP/s of the heaviest full-scale tests.  :func:`timed` gives them the wall
time, start and machine in the records' field names (``wall_s``, ``started``, ``device``).
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import torch

from numerics.machine import device_name


def timed(fn) -> dict:
    """Run ``fn()``; its result under ``result``, with ``wall_s``, ``started`` (UTC) and the
    machine (``device``, ``torch_threads``, ``torch``)."""
    started = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
    t0 = time.perf_counter()
    result = fn()
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return {"result": result, "wall_s": time.perf_counter() - t0, "started": started,
            "device": device_name(), "torch_threads": torch.get_num_threads(),
            "torch": torch.__version__}


def grq_fig1b(fraction: float, address: str | None = None) -> dict:
    """A ``fraction`` of the Fig. 1(b) released grid's steps, all 4,624 runs, through the sweep
    (on the Dask scheduler at ``address`` when given)."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    cfg = ts.FIG1B_FULL
    record = timed(lambda: ts.fig1b_sweep(cfg, fraction, address=address, progress=True))
    steps = record.pop("result")[0]
    runs = len(cfg["seeds"]) * len(cfg["taus"]) * len(cfg["deltas"])
    flop = runs * int(steps[-1]) * ts.fig1b_flop_per_step(cfg)
    return {"experiment": "GRQ-Fig1 (b), released grid", "cost": ts.fig1b_cost(cfg),
            "steps_run": int(steps[-1]), "full_steps": int(cfg["steps"]),
            "fraction": float(steps[-1] / cfg["steps"]), "flop_run": float(flop),
            "flop_per_s": float(flop / record["wall_s"]),
            "extrapolated_full_s": float(record["wall_s"] * cfg["steps"] / steps[-1]),
            "method": "wall_s * full_steps / steps_run", **record}


def write(out: Path, text: str) -> None:
    """``text`` to the file ``out`` under a temporary name, then renamed: a reader never sees half
    a file (a device such as /dev/null is written as it is)."""
    if out.exists() and not out.is_file():
        out.write_text(text)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, out)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m numerics.full_scale",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--fraction", type=float, default=1e-3,
                        help="share of the GD steps to run, in (0, 1] (default 1e-3)")
    parser.add_argument("--dask", default=None, metavar="ADDRESS",
                        help="run the chunks on this Dask scheduler")
    parser.add_argument("--out", default="reports/full_scale.json")
    args = parser.parse_args(argv)
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction={args.fraction} must lie in (0, 1]")
    from numerics.sweep import SchedulerUnreachable
    try:
        entry = grq_fig1b(args.fraction, address=args.dask)
    except SchedulerUnreachable as exc:
        parser.error(f"--dask: {exc}")
    if args.dask:
        entry["executor"] = f"dask {args.dask}"
    result = {"experiments": {"grq-fig1b": entry}}
    text = json.dumps(result, indent=1)
    write(Path(args.out), text)
    print(text)
    return result


if __name__ == "__main__":
    main()

"""``python -m numerics.full_scale [--fraction F] [--out-dir DIR] [--walltime T] [--chunk I]
[--slurm FILE] [--dask ADDRESS] [--out PATH]``: run the Fig. 1(b) released grid (GRQ-Fig1), or a
fraction of its steps, through the same sweep as its full test.

Before it starts it prints the cost: this machine's measured seconds per network and GD step
(a few steps of one chunk), the whole grid's wall time and core-hours at that rate.  With
``--out-dir`` the sweep is resumable: chunks are written as they finish and, with ``--walltime``,
a running chunk is checkpointed (a tenth of the wall time, at most every 10 minutes), chunks are
sized to fit the wall time, and the plan is kept in ``DIR/plan.json`` so every later call (or
SLURM array task, ``--chunk I``) cuts the grid the same way.  ``--slurm FILE`` writes the job
script of a SLURM array over the chunks (:mod:`numerics.cluster`) and runs nothing.  Without
``--out-dir`` it times a fraction and extrapolates ``seconds / fraction`` (every GD step costs
the same).  Writes the timing to ``--out`` (default ``reports/full_scale.json``, generated).
Time units: GD steps, wall seconds.

Numerics times and returns data; it decides and records nothing: the paper-scale verdict records
are written by the verify plugin (``verify.report.paper_scale``), whose ``write_data`` also keeps
the figure data and FLOP/s of the heaviest full-scale tests.  :func:`timed` gives them the wall
time, start and machine in the records' field names (``wall_s``, ``started``, ``device``).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from numerics.atomic import write_text
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


def rate(cfg: dict, steps: int = 5) -> float:
    """This machine's seconds per network and GD step of ``cfg``'s trainer: its first seed's first
    tau row (one program of ``len(deltas)`` networks) for ``steps`` steps, the GD loop timed apart
    from the records (a row, not the whole grid: the records' kernels would cost more than the
    steps measured)."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    task = ts.make_task(cfg["seeds"][0], d=cfg["d"], h=cfg["h"], k=cfg["k"], n=cfg["n"],
                        n_test=cfg["n_test"])
    taus = np.full(len(cfg["deltas"]), cfg["taus"][0])
    run = ts.train([task], taus, np.asarray(cfg["deltas"]), lr=cfg["base_lr"] / taus ** 2,
                   steps=steps, record_steps=[], dtype=getattr(torch, cfg["dtype"]),
                   progress=False)
    return run.seconds["loop"] / (steps * len(taus))


def estimate(cfg: dict, member_step_s: float, fraction: float = 1.0) -> dict:
    """Wall time and core-hours of ``fraction`` of the grid ``cfg`` at ``member_step_s``."""
    runs = len(cfg["seeds"]) * len(cfg["taus"]) * len(cfg["deltas"])
    wall = runs * max(int(round(cfg["steps"] * fraction)), 1) * member_step_s
    return {"runs": runs, "seconds_per_network_step": member_step_s, "wall_s": wall,
            "core_hours": wall * torch.get_num_threads() / 3600,
            "threads": torch.get_num_threads()}


def chunk_plan(cfg: dict, out_dir: Path | None, walltime: str | None, member_step_s: float) -> dict:
    """How the grid is cut: the plan kept in ``out_dir/plan.json`` if one is there (so resumed
    runs and array tasks agree), else one sized for ``walltime`` (else one seed's grid a chunk)."""
    from numerics.cluster import checkpoint_every, walltime_seconds
    from numerics.sweep import chunk_cells_for, plan as chunks_of
    saved = out_dir / "plan.json" if out_dir is not None else None
    if saved is not None and saved.is_file():
        return json.loads(saved.read_text())
    cells, row = len(cfg["taus"]) * len(cfg["deltas"]), len(cfg["deltas"])
    # one tau row a program at most: a row's hidden activations (n x 17 h, 6.8 MB in float64)
    # stay in the L3 cache, a seed's 289 cells stream 115 MB each pass (1.24 against 1.72 ms per
    # network-step on one thread here; numerics.bench); the cell blocks agree within 1e-15
    plan = {"chunk_seeds": 1, "chunk_cells": row, "checkpoint_s": None, "walltime": walltime}
    if walltime:
        plan.update(chunk_cells=min(row, chunk_cells_for(walltime_seconds(walltime),
                                                         member_step_s, cfg["steps"], cells)),
                    checkpoint_s=checkpoint_every(walltime))
    plan["chunks"] = len(chunks_of(len(cfg["seeds"]), cells, plan["chunk_seeds"],
                                   plan["chunk_cells"]))
    if saved is not None:
        write(saved, json.dumps(plan, indent=1))
    return plan


def grq_fig1b(fraction: float, address: str | None = None, *, out_dir: Path | None = None,
              plan: dict | None = None, only=None) -> dict:
    """A ``fraction`` of the Fig. 1(b) released grid's steps, all 4,624 runs, through the sweep
    (on the Dask scheduler at ``address`` when given; resumable in ``out_dir`` with ``plan``)."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    cfg, plan = ts.FIG1B_FULL, plan or {}
    record = timed(lambda: ts.fig1b_sweep(
        cfg, fraction, address=address, progress=True, out_dir=out_dir,
        chunk_seeds=plan.get("chunk_seeds", 1), chunk_cells=plan.get("chunk_cells"),
        checkpoint_s=plan.get("checkpoint_s"), only=only))
    steps, _, _, sweep = record.pop("result")
    runs = len(cfg["seeds"]) * len(cfg["taus"]) * len(cfg["deltas"])
    flop = runs * int(steps[-1]) * ts.fig1b_flop_per_step(cfg)
    return {"experiment": "GRQ-Fig1 (b), released grid", "cost": ts.fig1b_cost(cfg),
            "steps_run": int(steps[-1]), "full_steps": int(cfg["steps"]),
            "fraction": float(steps[-1] / cfg["steps"]), "flop_run": float(flop),
            "flop_per_s": float(flop / record["wall_s"]),
            "extrapolated_full_s": float(record["wall_s"] * cfg["steps"] / steps[-1]),
            "method": "wall_s * full_steps / steps_run", "chunks_computed": sweep.computed,
            "complete": bool(sweep.arrays), **record}


def write(out: Path, text: str) -> None:
    """``text`` to the file ``out`` under a temporary name, then renamed: a reader never sees half
    a file (a device such as /dev/null is written as it is)."""
    if out.exists() and not out.is_file():
        out.write_text(text)
        return
    write_text(out, text)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m numerics.full_scale",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--experiment", default="grq-fig1b", choices=["grq-fig1b"])
    parser.add_argument("--fraction", type=float, default=1e-3,
                        help="share of the GD steps to run, in (0, 1] (default 1e-3)")
    parser.add_argument("--dask", default=None, metavar="ADDRESS",
                        help="run the chunks on this Dask scheduler")
    parser.add_argument("--out-dir", default=None, metavar="DIR",
                        help="resumable sweep folder (chunks, checkpoints, plan.json)")
    parser.add_argument("--walltime", default=None, metavar="[D-]HH:MM:SS",
                        help="one job's wall time: sizes the chunks and the checkpoints")
    parser.add_argument("--chunk", type=int, default=None, metavar="I",
                        help="run only chunk I (a SLURM array task); needs --out-dir")
    parser.add_argument("--slurm", default=None, metavar="FILE",
                        help="write the SLURM array job script to FILE and run nothing")
    parser.add_argument("--cpus", type=int, default=4, help="cores per SLURM task (default 4)")
    parser.add_argument("--out", default="reports/full_scale.json")
    args = parser.parse_args(argv)
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction={args.fraction} must lie in (0, 1]")
    if (args.chunk is not None or args.slurm) and not args.out_dir:
        parser.error("--chunk and --slurm need --out-dir: the folder every task resumes in")
    if args.slurm and not args.walltime:
        parser.error("--slurm needs --walltime: the job's wall time sizes its chunks")
    from numerics.cluster import slurm_array_script, walltime_seconds
    from numerics.rich_quick.single_neuron_teacher_student import FIG1B_FULL
    from numerics.sweep import SchedulerUnreachable
    if args.walltime:
        try:
            walltime_seconds(args.walltime)
        except ValueError as exc:
            parser.error(f"--walltime: {exc}")
    out_dir = Path(args.out_dir) if args.out_dir else None
    member_step_s = rate(FIG1B_FULL)
    cost = estimate(FIG1B_FULL, member_step_s, args.fraction)
    full = estimate(FIG1B_FULL, member_step_s)
    print(f"cost on this machine: {member_step_s * 1e3:.3g} ms per network-step on "
          f"{cost['threads']} threads; this run {cost['wall_s'] / 3600:.3g} h "
          f"({cost['core_hours']:.3g} core-hours), the whole grid {full['wall_s'] / 3600:.3g} h "
          f"({full['core_hours']:.3g} core-hours)", flush=True)
    plan = chunk_plan(FIG1B_FULL, out_dir, args.walltime, member_step_s)
    if args.chunk is not None and not 0 <= args.chunk < plan["chunks"]:
        parser.error(f"--chunk={args.chunk} must lie in [0, {plan['chunks'] - 1}]")
    if args.slurm:
        write(Path(args.slurm), slurm_array_script(out_dir=out_dir, chunks=plan["chunks"],
                                                   walltime=plan["walltime"] or args.walltime,
                                                   cpus=args.cpus, experiment=args.experiment))
        print(f"wrote {args.slurm}: {plan['chunks']} array tasks of {plan['chunk_cells']} cells; "
              f"submit with sbatch, resubmit to resume")
        return {"plan": plan, "estimate": full}
    try:
        entry = grq_fig1b(args.fraction, address=args.dask, out_dir=out_dir, plan=plan,
                          only=None if args.chunk is None else [args.chunk])
    except SchedulerUnreachable as exc:
        parser.error(f"--dask: {exc}")
    entry["estimate"] = cost
    if args.dask:
        entry["executor"] = f"dask {args.dask}"
    result = {"experiments": {args.experiment: entry}}
    text = json.dumps(result, indent=1)
    write(Path(args.out), text)
    print(text)
    return result


if __name__ == "__main__":
    main()

"""What a serial session computes ahead on its second core (:mod:`verify.ahead`): for each conftest
fixture behind the heavy ci tests, the runs it makes, as (runner's dotted name, positional
arguments[, keyword arguments]).  A run is one run however a call spells its arguments: they are
bound to the runner's signature, defaults filled in.  A runner named here is shared between the
session's two processes (``numerics.run_store.shared``) for the whole session.

Only the ci runs are listed (a full-scale run keeps its own stores): about 200 s of the serial
suite's 455 s on one core.
"""
from __future__ import annotations


def plan() -> dict[tuple[str, str], list[tuple]]:
    """(conftest module, fixture name) -> [(runner, args[, kwargs])]; a fixture that serves light
    and heavy tests alike is named by the test modules that need its runs, (test module, '')."""
    from numerics.bias import configs as BC
    from numerics.bias_workshop.runs import half_width_setting
    from numerics.haste_slowly import configs as HC
    from numerics.haste_slowly.experiments import RELU_WIDTH
    from numerics.lazy_rich import configs as LC
    from numerics.rich_quick import configs as RC

    mhs, grq, lr, bias = ("numerics.haste_slowly.", "numerics.rich_quick.", "numerics.lazy_rich.",
                          "numerics.bias.")
    sec45 = HC.SEC45.ci
    gdlns = [(None, (), True), (None, (), False), (1, (), True), (1, (), False), (2, (1,), True)]
    image = f"{bias}image_experiments.image_run"
    half, widths = half_width_setting("ci")
    toy = {name: [(f"{bias}experiments.toy_pair", (getattr(BC, name).ci,))]
           for name in ("HIERARCHY", "HIERARCHY8", "XOR", "PARALLEL", "MARGIN", "MARGIN_SWEEP",
                        "C_SWEEP")}
    return {
        ("verify.bias.conftest", "mnist"): [(image, (BC.MNIST.ci, a, BC.MNIST.ci.n_hid))
                                            for a in ("relu", "linear")],
        ("verify.bias.conftest", "mnist_standard"):
            [(image, (BC.MNIST_STANDARD.ci, a, BC.MNIST_STANDARD.ci.n_hid)) for a in ("relu", "linear")],
        **{("verify.bias.conftest", name.lower()): runs for name, runs in toy.items()},
        ("verify.bias.conftest", "both_layers"):
            [(f"{bias}experiments.toy_pair", (BC.BOTH_HIERARCHY.ci,)),
             (f"{bias}experiments.toy_pair", (BC.BOTH_XOR.ci,))],
        ("verify.bias.conftest", "gated_linear_runs"):
            [(f"{bias}linear_runs.linear_modes", (), {"seeds": range(32), "steps": 4000, "dead": dead})
             for dead in (0, 16, 32, 48)],
        ("verify.bias.conftest", "no_dead_unit_runs"): [(f"{bias}experiments.no_dead_unit_pair", ())],
        ("verify.bias_workshop.conftest", "half_width"):
            [(image, (half, "relu", half.n_hid))] + [(image, (half, "linear", w)) for w in widths],
        ("verify.haste_slowly.conftest", "sec45"):
            [(f"{mhs}experiments.relu_run", (sec45, C)) for C in (None, *sorted(RELU_WIDTH))]
            + [(f"{mhs}experiments.reln_run", (sec45, None, *g)) for g in gdlns]
            + [(f"{mhs}experiments.reln_run", (sec45, C, None, (), True)) for C in sorted(RELU_WIDTH)],
        ("verify.haste_slowly.conftest", "gates"): [(f"{mhs}gate_finder.elbow_run", (HC.GATES.ci,))],
        ("verify.haste_slowly.conftest", "depth"):
            [(f"{mhs}depth.depth_run", (kind, HC.DEPTH.ci)) for kind in ("relu", "gdln", "shallow")],
        ("verify.haste_slowly.conftest", "linear_runs"):
            [(f"{mhs}linear.linear_run", (cfg,)) for cfg in
             (HC.FIG7, *(HC.FIG7.replace(**v) for v in HC.FIG7_VARIANTS.values()),
              HC.FIG7.replace(width=2, std=1e-3, lr=0.05, steps=600, record_every=600, seeds=(0,)))],
        ("verify.lazy_rich.conftest", "framing"): [(f"{lr}empirical.framing", (LC.FRAMING.ci,))],
        ("verify.lazy_rich.conftest", "architectures"): [(f"{lr}empirical.architectures", (LC.ARCH,))],
        ("verify.lazy_rich.conftest", "architectures_alt"):
            [(f"{lr}empirical.architectures", (LC.ARCH_ALT,))],
        ("verify.lazy_rich.conftest", "lecun_balance"): [(f"{lr}empirical.lecun_balance", (LC.BALANCE.ci,))],
        ("verify.lazy_rich.conftest", "scale_map"): [(f"{lr}empirical.scale_map", (LC.SCALE_MAP,))],
        # the grq fixture serves every GRQ test: its runs are named by the files that use them
        ("verify.rich_quick.test_fig1", ""):
            [(f"{grq}single_neuron_teacher_student.fig1b", (RC.FIG1B.ci,)),
             (f"{grq}single_neuron_teacher_student.fig1a", (RC.FIG1A.ci,)),
             (f"{grq}single_neuron_teacher_student.fig1a", (RC.FIG1A_STEP,))],
        ("verify.rich_quick.test_fig6", ""):
            [(f"{grq}experiments.hierarchy", (RC.FIG6C.ci,)),
             (f"{grq}experiments.kernel", (RC.FIG6A.ci,)),
             (f"{grq}experiments.filters", (RC.FIG6B.ci,)),
             (f"{grq}experiments.grokking", (RC.FIG6D.ci,))],
    }

"""The workshop paper's own experiments (001): the linear networks of several widths against one
ReLU network (BA-T7), the matrix flow from aligned and random inits (BA-Eq(2)), and trained
linear networks for its clock and its effective a0 (BA-S3, BA-D2, BA-X1).  Time is in GD steps
where a run is trained, in t/tau for the flows."""
from __future__ import annotations

from numerics.bias import configs
from numerics.bias.linear_flows import decoupled_flow
from numerics.bias.linear_runs import LinearModes, linear_modes
from numerics.bias_workshop import configs as own


def half_width_setting(scale: str) -> tuple[configs.ImageConfig, tuple[int, ...]]:
    """BA-T7: the MNIST configuration at ``scale`` with c = 10 only, and the linear hidden widths
    a quarter, half and all of the ReLU network's, every member with the bias pixel."""
    config = configs.MNIST[scale].replace(cs=(own.HALF_WIDTH_C,))
    return config, (config.n_hid // 4, config.n_hid // 2, config.n_hid)


def decoupled_flows() -> dict[bool, list[dict]]:
    """BA-Eq(2): the matrix gradient flow (tau = 1, time in t/tau) from an aligned balanced init
    (True) and from a small random one of the same effective a0 (False), for each of
    ``numerics.bias_workshop.configs.FLOW_SHAPES`` (seed = its index)."""
    return {aligned: [decoupled_flow(aligned, *shape, seed=k) for k, shape in enumerate(own.FLOW_SHAPES)]
            for aligned in (True, False)}


def trained_linear() -> dict[str, LinearModes]:
    """Trained linear networks on the 4-item tree + bias (``numerics.bias.linear_runs``), time in
    GD steps: 'clock' (6 seeds, lr 2e-3), 'clock, data twice' and 'clock, lr 4e-3' (BA-S3); 'a0'
    (48 seeds of width 64, sigma^2 = 2e-4, lr 2e-3; BA-D2) and 'a0, half width' (width 32;
    BA-X1)."""
    return {name: linear_modes(seeds=c.seeds, n_hid=c.n_hid, std=c.std, lr=c.lr, steps=c.steps,
                               duplicate=c.duplicate)
            for name, c in (("clock", own.CLOCK), ("clock, data twice", own.CLOCK_DATA_TWICE),
                            ("clock, lr 4e-3", own.CLOCK_DOUBLE_RATE), ("a0", own.A0),
                            ("a0, half width", own.A0_HALF_WIDTH))}

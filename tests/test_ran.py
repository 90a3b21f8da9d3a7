"""Configurations, scales and run records (numerics.ran): a Scales pair holds one type at its own
scales with disjoint seeds; a Ran names its runner and every setting it used."""
from dataclasses import dataclass

import pytest

from numerics.ran import FULL_SEED_BASE, Config, Ran, Scales, seeds


@dataclass(frozen=True, kw_only=True)
class Toy(Config):
    width: int
    seeds: tuple = (0,)


def test_scales_pick_the_configuration_of_a_scale():
    pair = Scales(Toy(scale="ci", width=8, seeds=seeds("ci", 2)),
                  Toy(scale="full", width=64, seeds=seeds("full", 2)))
    assert pair["ci"].width == 8 and pair["full"].width == 64
    with pytest.raises(ValueError, match="scale='huge'"):
        pair["huge"]


@pytest.mark.parametrize("ci, full, message", [
    (Toy(scale="full", width=8), Toy(scale="full", width=64, seeds=(1,)), "ci must be"),
    (Toy(scale="ci", width=8, seeds=(0, 1)), Toy(scale="full", width=64, seeds=(1, 2)),
     "share the seeds"),
])
def test_scales_refuse_a_mislabelled_pair_or_shared_seeds(ci, full, message):
    with pytest.raises(ValueError, match=message):
        Scales(ci, full)


def test_full_seeds_are_disjoint_from_ci_seeds():
    assert set(seeds("ci", 100)).isdisjoint(seeds("full", 100))
    assert seeds("full", 2, offset=5) == (FULL_SEED_BASE + 5, FULL_SEED_BASE + 6)
    for bad in ({"n": 0}, {"n": -1}, {"n": 1.5}, {"n": 2, "offset": -1}):
        with pytest.raises(ValueError):
            seeds("ci", **bad)
    with pytest.raises(ValueError, match="reaches the full seeds"):
        seeds("ci", 10, offset=FULL_SEED_BASE)


def test_a_ran_record_names_its_runner_and_scale():
    run = Ran.of(Toy(scale="ci", width=8), test_a_ran_record_names_its_runner_and_scale,
                 width=8, steps=100)
    assert run.scale == "ci" and run["steps"] == 100
    assert run.runner.endswith("test_a_ran_record_names_its_runner_and_scale")
    with pytest.raises(TypeError, match="config must be"):
        Ran.of({"scale": "ci"}, "runner", width=8)

"""Every empirical claim of GRQ can fail: its decision (``verify.rich_quick.evidence``), fed a
synthetic result that violates the paper's statement, does not give ``holds``, and fed one that
satisfies it, does (the ``decide`` fixture: a faithful synthetic run)."""
from types import SimpleNamespace as NS

import numpy as np
import pytest

from numerics.trajectory import Trajectory
from verify.rich_quick import evidence as E

RNG = np.random.default_rng(0)


def noisy(mean, n=6, sd=0.01):
    return mean + sd * RNG.standard_normal(n)


# ---- Fig. 1 ----------------------------------------------------------------------------------

def fig1a_numbers(gain_up):
    """One network: S rich 0.1 vs lazy 1e-4; the upstream alignment gain ``gain_up`` vs 0.05."""
    return {"S": [[0.1, 1e-4, 0.08, 1e-3]], "gain": [[0.5, 0.0, gain_up, 0.05]],
            "move": [[0.5, 0.01, 1.0, 0.02]]}


def fig1b_run(corner_test, seeds=8, corner_test_end=None):
    """Cells (0.1, -1), (0.1, 0), (0.1, 1), (2, 0), (2, 1) at steps 0, 100, 1000, 1e5: the corner
    is rich and early; its test MSE from step 100 on is ``corner_test`` against 1.0 elsewhere
    (at the end ``corner_test_end`` where given)."""
    cells = ((0.1, -1.0), (0.1, 0.0), (0.1, 1.0), (2.0, 0.0), (2.0, 1.0))
    S_end = [0.5, 0.5, 0.5, 1e-3, 1e-3]
    S_early = [0.01, 0.05, 0.4, 1e-4, 1e-3]
    steps = np.array([0, 100, 1000, 100_000])
    S = np.zeros((4, seeds, 5))
    test = np.ones((4, seeds, 5))
    for j in range(5):
        S[1, :, j] = S[2, :, j] = noisy(S_early[j], seeds, 1e-3).clip(0)
        S[3, :, j] = noisy(S_end[j], seeds, 1e-3).clip(0)
    for k in (1, 2, 3):
        test[k, :, 2] = noisy(corner_test, seeds)
    if corner_test_end is not None:
        test[3, :, 2] = noisy(corner_test_end, seeds)
    T = Trajectory(steps, steps, "steps", test.reshape(4, -1),
                   {"S": S.reshape(4, -1), "test": test.reshape(4, -1)})
    return NS(trajectory=T, cells=cells, seeds=tuple(range(seeds)))


@pytest.mark.rejects("GRQ-Fig1")
def test_fig1_decision(decide):
    holds = E.fig1a_from(fig1a_numbers(0.6), (0, 1, 2, 3)) + E.fig1b(fig1b_run(0.5))
    assert decide(*holds) == "holds"
    assert decide(*E.fig1a_from(fig1a_numbers(0.02), (0, 1, 2, 3))) != "holds"   # no alignment
    assert decide(*E.fig1b(fig1b_run(1.2))) == "not-reproduced"   # corner's test loss not smallest
    assert decide(*E.fig1b(fig1b_run(1.0))) == "not-reproduced"   # a tie is not "smallest"
    # smallest at the early panels, a tie at the end: each panel time is a reading, they disagree
    assert decide(*E.fig1b(fig1b_run(0.5, corner_test_end=1.0))) == "inconclusive"


# ---- Fig. 5, Sec. 5, conclusion, Sec. 4 -------------------------------------------------------

def xor_numbers(dn_ham=0.01, up_t_ham=0.1):
    seeds = 4
    base = dict(t_fit=np.full(seeds, 0.5), ham_while_f_small=np.full(seeds, 0.3),
                S_end=np.full(seeds, 0.01), loss_end=np.full(seeds, 0.01))
    return {-1.0: dict(base, ham_at_fit=np.full(seeds, dn_ham), t_ham=np.full(seeds, np.inf),
                       pd_end=np.full(seeds, 0.1)),
            0.0: dict(base, ham_at_fit=np.full(seeds, 0.4), t_ham=np.full(seeds, 0.2),
                      pd_end=np.full(seeds, 1.0)),
            1.0: dict(base, ham_at_fit=np.full(seeds, 0.4), t_ham=np.full(seeds, up_t_ham),
                      pd_end=np.full(seeds, 0.2))}


@pytest.mark.rejects("GRQ-Fig5", "GRQ-Claim-PL-regimes")
def test_relu_regime_decisions(decide):
    for decision in (E.fig5, E.pl_regimes):
        assert decide(*decision(xor_numbers())) == "holds"
        assert decide(*decision(xor_numbers(dn_ham=0.6))) != "holds"    # downstream partition moves
        # 3% of the directions changed: 'fixed' at line width fails, at a twentieth passes
        assert decide(*decision(xor_numbers(dn_ham=0.03))) == "inconclusive"
    assert decide(*E.pl_regimes(xor_numbers(up_t_ham=0.3))) != "holds"  # upstream aligns later
    assert decide(*E.fig5(xor_numbers(up_t_ham=0.7))) != "holds"        # aligns after the fit


def regime_run(funnel_plus30=0.0, square_plus30=0.0, funnel_plus3=0.01, unbalanced_at_5=None):
    """Rows (S(0, end), S after the fast phase, rel. error, S(0, 1), S(0, 2)) per delta; S(0, 1)
    and S(0, 2) are the fast column unless ``unbalanced_at_5`` sets them at delta = +-30."""
    deltas = (-30.0, -10.0, -3.0, 0.0, 3.0, 10.0, 30.0)
    def row(S, fast, early=None):
        return [S, fast, 1e-6] + [fast if early is None else early] * 2
    late = unbalanced_at_5
    funnel = [row(0.2, 0.0, late), row(0.2, 0.02), row(0.3, 0.2), row(0.2, 0.2),
              row(funnel_plus3, funnel_plus3), row(3e-4, 3e-4), row(funnel_plus30, funnel_plus30, late)]
    inverted = [row(0.0, 0.0), row(2e-4, 2e-4), row(8e-3, 8e-3), row(0.12, 0.1), row(0.5, 0.3),
                row(0.48, 0.01), row(0.45, 2e-4)]
    square = [row(0.0, 0.0), row(1e-3, 1e-3), row(0.04, 0.04), row(0.19, 0.1), row(0.06, 0.06),
              row(4e-3, 4e-3), row(square_plus30, square_plus30)]
    return NS(table={"funnel": np.array(funnel), "inverted funnel": np.array(inverted),
                     "square": np.array(square)}, deltas=deltas)


@pytest.mark.rejects("GRQ-Claim-Funnel", "GRQ-Claim-Square", "GRQ-Concl")
def test_linear_regime_decisions(decide):
    assert decide(*E.funnel(regime_run())) == "holds"
    assert decide(*E.funnel(regime_run(funnel_plus30=0.5))) == "not-reproduced"   # not lazy
    # the far end keeps 3% of the kernel movement: lazy at a twentieth, not at a fiftieth
    assert decide(*E.funnel(regime_run(funnel_plus30=0.03, funnel_plus3=0.05))) == "inconclusive"
    assert decide(*E.square(regime_run(), 1e-12)) == "holds"
    assert decide(*E.square(regime_run(square_plus30=0.5), 1e-12)) != "holds"
    step = (np.zeros(3), np.full(3, 1e-6), np.full(3, 1e-6))
    assert decide(*E.conclusion(regime_run(), xor_numbers(), step)) == "holds"
    assert decide(*E.conclusion(regime_run(), xor_numbers(up_t_ham=0.3), step)) != "holds"
    no_change = (np.zeros(3), np.zeros(3), np.full(3, 1e-6))
    assert decide(*E.conclusion(regime_run(), xor_numbers(), no_change)) != "holds"
    # unbalanced nets move the kernel by 0.03 by t = 5: 'only balanced' depends on the reading
    assert decide(*E.conclusion(regime_run(unbalanced_at_5=0.03), xor_numbers(), step)) == \
        "inconclusive"
    assert decide(*E.conclusion(regime_run(unbalanced_at_5=0.15), xor_numbers(), step)) == \
        "not-reproduced"


# ---- Figs. 3, 4, 8 ----------------------------------------------------------------------------

def path_run(deltas, error=1e-10, swap=False):
    """Exact paths (mu, phi, S, beta, ...) shaped like Fig. 3; the 'flow' agrees to ``error``,
    D.2's simulation to 1e-6.  ``swap``: upstream S rises like balanced (violates Fig. 3)."""
    t = np.linspace(0, 20, 401)
    paths = {}
    for d in deltas:
        if d > 0:
            S = (0.5 if swap else 0.003) * (1 - np.exp(-t))
        elif d == 0:
            S = 0.4 * (1 - np.exp(-t))
        else:
            S = 0.9 / (1 + np.exp(-(t - 9)))
        mu = 1 - 0.5 * np.exp(-t) if d >= 0 else 1 - 0.9 * np.exp(-t)
        slow = {1: 1.0, 0: 2.0, -1: 20.0}[int(np.sign(d))]     # upstream straight, downstream wide
        beta = np.stack([-np.exp(-t / slow), 1 - np.exp(-t)])
        ex = dict(t=t, mu=mu, phi=1 - np.exp(-t), S=S, beta=beta, nu=mu, omega=mu, a=mu,
                  w=beta)
        idx = np.arange(0, 401, 20)
        flow = {k: (v[..., idx] if k != "t" else v[idx]) for k, v in ex.items()}
        flow = {k: v + (0 if k == "t" else error) for k, v in flow.items()}
        paper_flow = {k: v + (0 if k == "t" else 1e-6) for k, v in flow.items()}
        paths[(0, d)] = {"exact": ex, "flow": flow, "paper_flow": paper_flow}
    return NS(paths=paths, deltas=tuple(deltas), beta0s=((-1.0, 0.0),),
              ran={"beta_*": [0.0, 1.0]})


@pytest.mark.rejects("GRQ-Fig3", "GRQ-Fig8")
def test_single_neuron_path_decisions(decide):
    deltas = (-3.0, 0.0, 3.0)
    assert decide(*E.fig3(path_run(deltas))) == "holds"
    assert decide(*E.fig3(path_run(deltas, error=0.3))) == "not-reproduced"   # theory off the flow
    assert decide(*E.fig3(path_run(deltas, error=0.04))) == "inconclusive"  # 'agree' by reading
    assert decide(*E.fig3(path_run(deltas, swap=True))) != "holds"      # upstream not lazy
    assert decide(*E.fig8(path_run((0.5,)))) == "holds"
    assert decide(*E.fig8(path_run((0.5,), error=0.3))) == "not-reproduced"
    assert decide(*E.fig8(path_run((0.5,), error=0.04))) == "inconclusive"


@pytest.mark.rejects("GRQ-Fig4")
def test_fig4_decisions(decide):
    deltas = (3.0, 0.0, -3.0)
    assert decide(*E.fig4(path_run(deltas))) == "holds"
    # 'exactly': within D.2's own error (strict) or a line width (lenient)
    assert decide(*E.fig4(path_run(deltas, error=1e-3))) == "inconclusive"
    assert decide(*E.fig4(path_run(deltas, error=0.2))) == "not-reproduced"
    run = NS(limits=np.array([[1.0, 0.5], [0.9, 0.6]]), deltas=(-1.0, 1.0),
             beta0=np.array([0.4, 0.05]))
    run.paper_limits = run.limits + 1e-6
    assert decide(*E.fig4_lowrank(run, run.limits + 1e-12)) == "holds"
    assert decide(*E.fig4_lowrank(run, run.limits + 1e-3)) == "inconclusive"    # by reading
    assert decide(*E.fig4_lowrank(run, run.limits + 0.1)) == "not-reproduced"   # Eq. (72) off


# ---- Fig. 6 -----------------------------------------------------------------------------------

def kernel_run(S_hi=0.3):
    return NS(alphas=(0.3, 1.0, 3.0), S=np.array([noisy(0.01), noisy(0.1), noisy(S_hi)]),
              hamming=np.array([noisy(0.01), noisy(0.05), noisy(0.2)]),
              param=np.full((3, 6), 0.02))


def filters_run(rough):
    return NS(alphas=(0.3, 1.0, 3.0), rough_end=np.array([noisy(r) for r in rough]))


def hierarchy_run(acc_hi=0.9, conflicts=0):
    seeds, sizes = 6, (128, 256)
    acc = np.zeros((seeds, len(sizes), 3))
    for j in range(len(sizes)):
        for k, m in enumerate((0.3, 0.5, acc_hi)):
            acc[:, j, k] = noisy(m, seeds)
    checks = np.tile([512, 512, conflicts] + [64] * 8, (seeds, 1))
    return NS(alphas=(0.1, 1.0, 10.0), sizes=sizes, accuracy=acc, checks=checks,
              ran={"RHM levels L": 2, "RHM (n_c, m, s, v)": (8, 4, 2, 8)})


def grokking_run(steps_hi=1000.0):
    hit = np.array([[noisy(5000.0, 5, 100), noisy(4000.0, 5, 100), noisy(steps_hi, 5, 100)]])
    return NS(alphas=(0.3, 1.0, 3.0), taus=(1.0,), hit_test=hit, embedding_share=0.03,
              ran={"step budget": 30_000})


@pytest.mark.rejects("GRQ-Exp-Fig6a", "GRQ-Exp-Fig6b", "GRQ-Exp-Fig6c", "GRQ-Exp-Fig6d",
                     "GRQ-Fig6")
def test_fig6_decisions(decide):
    assert decide(*E.fig6a(kernel_run())) == "holds"
    assert decide(*E.fig6a(kernel_run(S_hi=0.05))) != "holds"           # upstream diminishes S
    # Fig. 11: both readings hold only if both sides are smoother than alpha = 1; a monotone
    # profile makes the readings disagree, no effect refutes both
    assert decide(*E.fig6b(filters_run((0.2, 0.5, 0.2)))) == "holds"
    assert decide(*E.fig6b(filters_run((0.2, 0.5, 0.8)))) != "holds"
    assert decide(*E.fig6b(filters_run((0.5, 0.5, 0.5)))) != "holds"
    assert decide(*E.fig6c_data(hierarchy_run()), *E.fig6c(hierarchy_run())) == "holds"
    assert decide(*E.fig6c(hierarchy_run(acc_hi=0.4))) != "holds"       # upstream learns worse
    assert decide(*E.fig6c_data(hierarchy_run(conflicts=3))) != "holds"  # inputs with two labels
    assert decide(*E.fig6d(grokking_run())) == "holds"
    assert decide(*E.fig6d(grokking_run(steps_hi=6000.0))) != "holds"   # groks later
    never = grokking_run()
    never.hit_test = np.full_like(never.hit_test, np.inf)              # no run groks: untestable
    assert E.fig6d_powerless(never) and not E.fig6d_powerless(grokking_run())
    assert not any(m.decisive for m in E.fig6d(never)[:-1])            # no powerless tie decides
    def panels(S_hi):
        return E.fig6_panels(kernel_run(S_hi), filters_run((0.6, 0.5, 0.2)),
                             hierarchy_run(), grokking_run())
    assert decide(*panels(0.3)) == "holds"
    assert decide(*panels(0.05)) != "holds"

"""Runs behind the ReLU-GDLN equivalence and the clock of Sec 2-3 (MHS-C3.1, MHS-Def3.1,
MHS-Eq(3)): a reference ReLU net trained with autograd, GDLNs whose gates are the ReLU
pre-activation signs (recomputed every step or fixed at init), and GD on the mean loss Eq. (2)
beside its gradient flow.  Time: GD steps; the flow's clock is t / tau with tau given per call."""
from __future__ import annotations

import numpy as np
import torch

from numerics.haste_slowly.gated import GatedNet
from numerics.ode import integrate_flow
from numerics.train import descend
from numerics.validation import integer, number
from theory.conventions import MEAN_HALF, SUM_HALF


def _relu_loss(Ws, X, Y):
    """The 1/2-sum loss of the bias-free ReLU net ``Ws`` (torch.relu between the layers)."""
    a = X
    for W in Ws[:-1]:
        a = torch.relu(W @ a)
    return 0.5 * ((Ws[-1] @ a - Y) ** 2).sum()


def relu_autograd_trajectory(weights, X, Y, lr, steps):
    """Reference: bias-free ReLU net (torch.relu, autograd), ``steps`` GD steps of size ``lr`` on
    the 1/2-sum loss from ``weights`` (the loop of :func:`numerics.train.descend`); the final
    weights."""
    Ws = [w.clone().requires_grad_(True) for w in weights]

    def step(X, Y, lr, loss):
        grads = torch.autograd.grad(_relu_loss(Ws, X, Y), Ws)
        with torch.no_grad():
            for W, g in zip(Ws, grads):
                W -= lr * g
    descend(step, lambda X, Y, loss: _relu_loss(Ws, X, Y).reshape(1), X, Y, lr=lr, loss=SUM_HALF,
            steps=steps, record_every=max(steps, 1))
    return [W.detach() for W in Ws]


def gate_preactivations(net: GatedNet, X):
    """The ReLU pre-activations of every hidden layer of ``net``'s weights on ``X``."""
    acts = [X.expand(net.K, *X.shape)]
    pre = []
    for l in range(len(net.weights) - 1):
        z = net._w(l) @ acts[-1]
        pre.append(z)
        acts.append(torch.relu(z))
    return pre


def step_gated_training(weights, X, Y, lr, steps, recompute: bool):
    """A GDLN from ``weights`` (leading ensemble axis of 1) gated by step(pre-activation):
    recomputed before every GD step (``recompute``) or fixed at init (Def. 3.1's G*(x)).
    Returns (final weights, number of gate flips the recomputed gates made)."""
    net = GatedNet([w.clone() for w in weights], [np.ones((w.shape[1], X.shape[1])) for w in weights[:-1]])
    net.gates = [(p > 0).to(X.dtype)[0] for p in gate_preactivations(net, X)]
    flips = 0

    def step(X, Y, lr, loss):
        nonlocal flips
        if recompute:
            gates = [(p > 0).to(X.dtype)[0] for p in gate_preactivations(net, X)]
            flips += sum(int((g != h).sum()) for g, h in zip(gates, net.gates))
            net.gates = gates
        net.step(X, Y, lr, loss)
    descend(step, net.losses, X, Y, lr=lr, loss=SUM_HALF, steps=steps, record_every=max(steps, 1))
    return net.weights, flips


def gd_beside_flow(tau_of_lr, lr: float, steps: int, seed: int = 1):
    """A 3-4-2 linear net, N = 6: GD with rate ``lr`` on the mean loss Eq. (2) and the flow
    tau dW/dt = -dL/dW with tau = tau_of_lr(lr, N), both from one init.  Returns (W2 W1 after
    every GD step, (m, d, steps); the flow's W2 W1 at flow times 1..steps, same shape)."""
    lr, steps = number(lr, "lr", positive=True), integer(steps, "steps")
    rng = np.random.default_rng(seed)
    N, d, h, m = 6, 3, 4, 2
    X, Y = rng.standard_normal((d, N)), rng.standard_normal((m, N))
    W1, W2 = 0.3 * rng.standard_normal((h, d)), 0.3 * rng.standard_normal((m, h))

    def neg_grad(w1, w2):
        E = (Y - w2 @ w1 @ X) / N
        return w2.T @ E @ X.T, E @ (w1 @ X).T

    W = {"W1": W1.copy(), "W2": W2.copy()}

    def step(X, Y, lr, loss):
        g1, g2 = neg_grad(W["W1"], W["W2"])
        W["W1"] += lr * g1
        W["W2"] += lr * g2

    def losses(X, Y, loss):
        return np.atleast_1d(loss.factor(N) * ((Y - W["W2"] @ W["W1"] @ X) ** 2).sum())
    # the product after every step (the record at step 0, the init, dropped), (m, d, steps)
    products = descend(step, losses, X, Y, lr=lr, loss=MEAN_HALF, steps=steps, record_every=1,
                       record=lambda: {"W2 W1": W["W2"] @ W["W1"]}).records["W2 W1"][1:]
    tau = float(tau_of_lr(lr, N))
    t_eval = np.arange(1, steps + 1, dtype=float)
    flow = integrate_flow(lambda t, p: dict(zip(("W1", "W2"), (v / tau for v in neg_grad(p["W1"], p["W2"])))),
                          {"W1": W1, "W2": W2}, float(steps), t_eval=t_eval)
    prods = np.einsum("ijT,jkT->ikT", flow.states["W2"], flow.states["W1"])
    return np.moveaxis(products, 0, -1), prods


def equivalence_runs(sizes_list=((5, 16, 3), (5, 12, 9, 3)), lr: float = 5e-3, steps: int = 1000,
                     std: float = 0.5):
    """MHS-C3.1's runs: for each layer sizes, ``steps`` GD steps from one init (seed 0, 10 random
    datapoints from seed 3) of an autograd ReLU net, of the GDLN gated by step(pre-activation)
    recomputed every step, and of the GDLN with the gates fixed at init; {sizes: (reference,
    recomputed, fixed final weights, gate flips)}."""
    lr, steps, std = number(lr, "lr", positive=True), integer(steps, "steps"), number(std, "std", positive=True)
    from numerics.haste_slowly.gated import init_weights
    out = {}
    for sizes in sizes_list:
        rng = np.random.default_rng(3)
        X = torch.tensor(rng.standard_normal((sizes[0], 10)))
        Y = torch.tensor(rng.standard_normal((sizes[-1], 10)))
        init = init_weights([0], list(zip(sizes[1:], sizes[:-1])), [std] * (len(sizes) - 1))
        ref = relu_autograd_trajectory([w[0] for w in init], X, Y, lr, steps)
        dynamic, flips = step_gated_training(init, X, Y, lr, steps, recompute=True)
        fixed, _ = step_gated_training(init, X, Y, lr, steps, recompute=False)
        out[tuple(sizes)] = (ref, dynamic, fixed, flips)
    return out


def reln_at_init_error(seed: int = 1) -> float:
    """max |GDLN(W, step(h(x)), x) - ReLU(W, x)| at init for a 5-16-3 net (weights from ``seed``,
    10 random inputs): a GDLN gated by the ReLU net's pre-activation signs outputs what it does."""
    from numerics.haste_slowly.gated import init_weights
    X = torch.tensor(np.random.default_rng(4).standard_normal((5, 10)))
    W = init_weights([seed], [(16, 5), (3, 16)], [0.5, 0.5])
    relu_net = GatedNet(W, [None])
    gdln = GatedNet(W, [(gate_preactivations(relu_net, X)[0][0] > 0).double()])
    return float((relu_net(X) - gdln(X)).abs().max())

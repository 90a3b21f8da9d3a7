"""The Random Hierarchy Model (Petrini et al.; GRQ App. D.3) and a bias-free MLP ensemble with
the alpha rescaling (first layer / alpha, readout * alpha), trained as one batched program.

RHM: vocabulary v at every level, L levels, n_c classes, m synonyms per symbol, tuples of length
s.  The rules are drawn as the released generator draws them (pcsl-epfl/hierarchy-learning
``datasets/hierarchical.py``, ``sample_hierarchical_rules``): at each level every symbol that
occurs at the level above gets m s-tuples of its own, all distinct across symbols (one shuffle
of the v^s tuples, the first m x symbols taken), so an input determines its label (D.3: "b and c
will each have m equivalent representations of their own").  Inputs are one-hot (s^L, v),
flattened.
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import torch
import torch.nn.functional as F

from numerics.rich_quick.checks import members as ensemble_members
from numerics.rich_quick.checks import size
from numerics.validation import InvalidArgument, number


def rhm_rules(L: int, n_c: int, m: int, s: int, v: int, seed: int):
    """The rules of one RHM, as ``sample_hierarchical_rules(v, L, m, n_c, s, seed)`` draws them
    (Python's ``random`` seeded with ``seed``, one shuffle of the v^s tuples per level).

    Returns ``top`` (n_c, m, s): each class's tuples of level-(L-1) symbols, and ``levels``, one
    (v, m, s) array per lower level: row ``sym`` holds that symbol's m tuples (-1 for a symbol
    that never occurs above, as the released code gives it no rules)."""
    for name, value in (("L", L), ("n_c", n_c), ("m", m), ("s", s), ("v", v)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InvalidArgument(f"seed={seed!r} must be an integer")
    draw = random.Random(int(seed))
    above = list(range(n_c))
    levels = []
    for _ in range(L):
        tuples = list(itertools.product(range(v), repeat=s))
        if len(tuples) < m * len(above):
            raise InvalidArgument(f"v^s = {len(tuples)} tuples cannot give {len(above)} symbols m = {m} "
                                  "distinct tuples each")
        draw.shuffle(tuples)
        chosen = np.array(tuples[:m * len(above)]).reshape(len(above), m, s)
        rules = np.full((max(v, n_c), m, s), -1)
        rules[above] = chosen
        levels.append(rules)
        above = sorted({int(x) for x in chosen.ravel()})
    return levels[0][:n_c], [r[:v] for r in levels[1:]]


def rhm_data_checks(X, y, n_c: int) -> dict:
    """What the generated data are, for validation against D.3: the number of inputs, of
    distinct inputs, of distinct inputs carrying more than one label, and the count of each
    class."""
    X, y = np.asarray(X), np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise InvalidArgument(f"X {X.shape} must be (inputs, features) and y {y.shape} (inputs,)")
    if len(y) == 0:
        raise InvalidArgument("X has no inputs: an RHM generates at least one")
    if not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= n_c:
        raise InvalidArgument(f"y must hold labels in [0, {n_c}) (integers), got {y.min()}..{y.max()}")
    _, inverse = np.unique(X, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    pairs = np.unique(inverse * (int(y.max()) + 1) + y) // (int(y.max()) + 1)
    conflicts = int((np.bincount(pairs) > 1).sum())
    return {"inputs": len(y), "distinct inputs": int(inverse.max() + 1),
            "distinct inputs with more than one label": conflicts,
            "class counts": np.bincount(y, minlength=n_c).tolist()}


def rhm_all_data(top, levels):
    """Every input the RHM can generate (one per choice of synonyms): X (P_max, s^L * v), y."""
    top = np.asarray(top)
    if top.ndim != 3 or top.size == 0:
        raise InvalidArgument(f"top {top.shape} must be (n_c, m, s): each class's m tuples of s symbols")
    n_c, m, s = top.shape
    v = levels[0].shape[0] if levels else int(top.max()) + 1
    seqs = [(c, top[c, j]) for c in range(n_c) for j in range(m)]
    for rules in levels:
        new = []
        for c, seq in seqs:
            for choice in itertools.product(range(m), repeat=len(seq)):
                new.append((c, np.concatenate([rules[sym, k] for sym, k in zip(seq, choice)])))
        seqs = new
    X = np.stack([np.eye(v)[seq].ravel() for _, seq in seqs])
    y = np.array([c for c, _ in seqs])
    return X, y


PARAMETRISATIONS = ("standard", "ntk")


def mlp_init(seeds, alphas, d_in: int, width: int, depth: int, n_out: int,
             parametrisation: str = "standard", dtype=torch.float32):
    """Bias-free MLP ensemble, member k = (seed, alpha) pair: list of (K, out, in); first layer /
    alpha, readout * alpha (D.3).  'standard': He-initialised weights; 'ntk': Petrini et al.'s
    ``DenseNet`` (pcsl-epfl/hierarchy-learning ``models/fcn.py``), N(0, 1) weights whose layer
    scales live in :func:`mlp_forward`."""
    if parametrisation not in PARAMETRISATIONS:
        raise InvalidArgument(f"parametrisation={parametrisation!r} is not one of {PARAMETRISATIONS}")
    seeds, alphas = ensemble_members(seeds, alphas)
    d_in, width, n_out = size(d_in, "d_in"), size(width, "width"), size(n_out, "n_out")
    depth = size(depth, "depth", 0)
    Ws = []
    for seed, alpha in zip(seeds, alphas):
        g = torch.Generator().manual_seed(int(seed))
        dims = [d_in] + [width] * depth + [n_out]
        gain = (lambda fan_in: np.sqrt(2 / fan_in)) if parametrisation == "standard" else (lambda _: 1.0)
        layer = [torch.randn(dims[i + 1], dims[i], generator=g, dtype=dtype) * gain(dims[i])
                 for i in range(len(dims) - 1)]
        layer[0] = layer[0] / alpha
        layer[-1] = layer[-1] * alpha
        Ws.append(layer)
    return [torch.stack([w[i] for w in Ws]).requires_grad_(True) for i in range(len(Ws[0]))]


def mlp_forward(Ws, X, parametrisation: str = "standard"):
    """X (B, d) shared by the K members, or (K, B, d) one batch each -> (K, B, n_out).  'ntk'
    divides each hidden layer's pre-activation by sqrt(fan-in) and the readout by its fan-in
    (the width), as Petrini et al.'s code does."""
    if X.shape[-1] != Ws[0].shape[-1]:
        raise InvalidArgument(f"X has {X.shape[-1]} features but the first layer takes {Ws[0].shape[-1]}")
    h = X.expand(Ws[0].shape[0], *X.shape) if X.ndim == 2 else X
    ntk = parametrisation == "ntk"
    for W in Ws[:-1]:
        h = F.relu(torch.bmm(h, W.transpose(1, 2)) / (W.shape[-1] ** 0.5 if ntk else 1.0))
    return torch.bmm(h, Ws[-1].transpose(1, 2)) / (Ws[-1].shape[-1] if ntk else 1.0)


def train_mlp(Ws, X, y, *, lr, epochs, batch, momentum, seed, decay_frac=1.0,
              parametrisation="standard", data_of=None, stop_loss=None, check_every=10):
    """SGD with momentum on the mean cross-entropy (Petrini et al.'s optimiser).  The learning rate
    follows torch's CosineAnnealingLR stepped once per epoch with T_max = ``decay_frac`` x epochs,
    as Petrini et al.'s code does (D.3: 'decayed with a cosine schedule down to 80% of epochs').

    ``X`` (n, d) and ``y`` (n,) are shared by the members, or (S, n, d) and (S, n) with member k
    training on data set ``data_of[k]``; every epoch draws one batch order for all.  With
    ``stop_loss``, a member stops (its weights freeze) at the first epoch count that is a
    multiple of ``check_every`` where its mean training loss over that epoch is below
    ``stop_loss`` (the released main.py: zero_loss_threshold 0.01, checked every 10 epochs).
    Returns (Ws, the epochs each member trained)."""
    lr, decay_frac = number(lr, "lr", positive=True), number(decay_frac, "decay_frac", positive=True)
    momentum = number(momentum, "momentum", nonnegative=True)
    epochs, batch, seed = size(epochs, "epochs"), size(batch, "batch"), size(seed, "seed", 0)
    check_every = size(check_every, "check_every")
    if stop_loss is not None:
        number(stop_loss, "stop_loss", positive=True)
    dev, dtype = Ws[0].device, Ws[0].dtype
    K = Ws[0].shape[0]
    X, y = torch.as_tensor(X, dtype=dtype, device=dev), torch.as_tensor(y, device=dev)
    if X.ndim == 2:
        X, y, data_of = X[None], y[None], np.zeros(K, dtype=int)
    data_of = torch.as_tensor(np.asarray(data_of, dtype=int), device=dev)
    if X.ndim != 3 or y.shape != X.shape[:2] or data_of.shape != (K,):
        raise InvalidArgument(f"X {tuple(X.shape)}, y {tuple(y.shape)} and data_of must be (n, d), (n,) "
                              "shared, or (S, n, d), (S, n) with data_of (K,) naming each member's set")
    n = X.shape[1]
    g = torch.Generator().manual_seed(seed)
    bufs = [torch.zeros_like(W) for W in Ws]
    active = torch.ones(K, dtype=dtype, device=dev)
    trained = np.full(K, epochs)
    for epoch in range(epochs):
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / (decay_frac * epochs)))
        order = torch.randperm(n, generator=g).to(dev)
        total, batches = torch.zeros(K, dtype=dtype, device=dev), 0
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            logits = mlp_forward(Ws, X[:, idx][data_of], parametrisation)        # (K, B, c)
            per_member = F.cross_entropy(logits.transpose(1, 2), y[:, idx][data_of],
                                         reduction="none").mean(1)               # (K,)
            grads = torch.autograd.grad(per_member.sum(), Ws)
            with torch.no_grad():
                total += per_member
                batches += 1
                for W, b, gr in zip(Ws, bufs, grads):
                    b.mul_(momentum).add_(gr)
                    W -= rate * b * active.view(-1, *([1] * (W.ndim - 1)))
        if stop_loss is not None and (epoch + 1) % check_every == 0:
            done = (active > 0) & (total / batches < stop_loss)
            trained[done.cpu().numpy()] = epoch + 1
            active[done] = 0
            if not active.any():
                break
    return Ws, trained


def mlp_accuracy(Ws, X, y, parametrisation: str = "standard", data_of=None) -> np.ndarray:
    """Per member: the share of (its own data set's, with ``data_of``) inputs classified right."""
    if np.shape(X)[:-1] != np.shape(y):
        raise InvalidArgument(f"X has {np.shape(X)[-2]} samples but y has {np.shape(y)[-1]}")
    X = torch.as_tensor(X, dtype=Ws[0].dtype, device=Ws[0].device)
    y = torch.as_tensor(y, device=Ws[0].device)
    with torch.no_grad():
        if data_of is not None:
            X, y = X[torch.as_tensor(data_of)], y[torch.as_tensor(data_of)]
        out = mlp_forward(Ws, X, parametrisation)
    return (out.argmax(-1) == y).to(Ws[0].dtype).mean(-1).cpu().numpy()

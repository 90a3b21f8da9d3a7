"""A one-layer transformer ensemble on modular addition for the GRQ Fig. 6(d) reduction:
token and position embeddings divided by alpha (D.3), logits multiplied by tau with the learning
rate divided by tau^2 (Kumar et al.), full-batch AdamW; members (seed, alpha, tau) form a leading
axis K of every weight, so one program trains them all.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from numerics.rich_quick.checks import members as ensemble_members
from numerics.rich_quick.checks import size
from numerics.validation import InvalidArgument, finite_array, number


def modular_addition(p: int, train_frac: float, seed: int):
    """All pairs (a, b) with label (a + b) mod p; inputs are token ids [a, b, p] ('=' is p);
    a share ``train_frac`` in (0, 1) of them (drawn with ``seed``) for training, the rest for
    testing."""
    p = size(p, "p", 2)
    train_frac = number(train_frac, "train_frac")
    if not 0 < train_frac < 1:
        raise InvalidArgument(f"train_frac={train_frac!r} must lie in (0, 1): both sets need pairs")
    seed = size(seed, "seed", 0)
    a, b = np.meshgrid(np.arange(p), np.arange(p), indexing="ij")
    X = np.stack([a.ravel(), b.ravel(), np.full(p * p, p)], 1)
    y = (a.ravel() + b.ravel()) % p
    perm = np.random.default_rng(seed).permutation(p * p)
    n = int(train_frac * p * p)
    return (X[perm[:n]], y[perm[:n]]), (X[perm[n:]], y[perm[n:]])


def init(seeds, alphas, vocab: int, d: int = 32, mlp: int = 64, seq: int = 3):
    """Weights with a leading member axis, one member per (seed, alpha); embeddings / alpha."""
    seeds, alphas = ensemble_members(seeds, alphas)
    vocab, d, mlp, seq = size(vocab, "vocab", 2), size(d, "d"), size(mlp, "mlp"), size(seq, "seq")
    members = []
    for seed, alpha in zip(seeds, alphas):
        g = torch.Generator().manual_seed(int(seed))
        def r(*s, scale):
            return torch.randn(*s, generator=g) * scale
        members.append({"tok": r(vocab, d, scale=1.0) / alpha, "pos": r(seq, d, scale=1.0) / alpha,
                        "q": r(d, d, scale=d ** -0.5), "k": r(d, d, scale=d ** -0.5),
                        "v": r(d, d, scale=d ** -0.5), "o": r(d, d, scale=d ** -0.5),
                        "m1": r(d, mlp, scale=d ** -0.5), "m2": r(mlp, d, scale=mlp ** -0.5),
                        "u": r(d, vocab - 1, scale=d ** -0.5)})
    return {k: torch.stack([m[k] for m in members]).requires_grad_(True) for k in members[0]}


def forward(P, X, tau, heads: int = 1):
    """Logits at the last position, (K, B, p), times the per-member ``tau`` (K,); ``heads``
    attention heads split the model width."""
    h = P["tok"][:, X] + P["pos"][:, None]                       # (K, B, seq, d)
    K, B, S, d = h.shape
    if heads < 1 or d % heads:
        raise InvalidArgument(f"heads={heads!r} must divide the model width {d}")
    q, k, v = (torch.einsum("kbsd,kde->kbse", h, P[n]).reshape(K, B, S, heads, d // heads)
               for n in "qkv")
    att = torch.softmax(torch.einsum("kbshe,kbthe->kbhst", q, k) / (d // heads) ** 0.5, -1)
    mixed = torch.einsum("kbhst,kbthe->kbshe", att, v).reshape(K, B, S, d)
    h = h + torch.einsum("kbsd,kde->kbse", mixed, P["o"])
    h = h + torch.einsum("kbsm,kmd->kbsd", F.relu(torch.einsum("kbsd,kdm->kbsm", h, P["m1"])), P["m2"])
    return torch.einsum("kbd,kdv->kbv", h[:, :, -1], P["u"]) * tau[:, None, None]


def embedding_fraction(P) -> float:
    """Share of the parameters held by the token and position embeddings."""
    if not {"tok", "pos"} <= set(P):
        raise InvalidArgument(f"P must hold 'tok' and 'pos' (the embeddings), got {sorted(P)}")
    total = sum(v[0].numel() for v in P.values())
    return (P["tok"][0].numel() + P["pos"][0].numel()) / total


def train(P, train_set, test_set, *, tau, lr, wd, steps, eval_every, threshold=0.99, heads=1,
          batch=None, seed=0):
    """AdamW (lr_k = lr / tau_k^2, weight decay wd), full batch or minibatches of ``batch``; returns
    the first step at which train and test accuracy reach ``threshold`` per member (inf if never)
    and the final accuracies."""
    steps, eval_every, seed = size(steps, "steps"), size(eval_every, "eval_every"), size(seed, "seed", 0)
    lr, wd = number(lr, "lr", positive=True), number(wd, "wd", nonnegative=True)
    if not 0 < number(threshold, "threshold") <= 1:
        raise InvalidArgument(f"threshold={threshold!r} must lie in (0, 1] (an accuracy)")
    if batch is not None:
        batch = size(batch, "batch")
    K = next(iter(P.values())).shape[0]
    tau_values = finite_array(tau, "tau", ndim=1)
    if tau_values.shape != (K,):
        raise InvalidArgument(f"tau has {tau_values.size} entries for {K} members")
    if np.any(tau_values <= 0):
        raise InvalidArgument(f"tau must be positive (the learning rate is lr / tau^2), got {tau_values}")
    dev = next(iter(P.values())).device
    (Xtr, ytr), (Xte, yte) = [(torch.as_tensor(a, device=dev), torch.as_tensor(b, device=dev))
                              for a, b in (train_set, test_set)]
    tau = torch.as_tensor(tau, dtype=torch.float32, device=dev)
    K = tau.shape[0]
    m = {k: torch.zeros_like(v) for k, v in P.items()}
    s = {k: torch.zeros_like(v) for k, v in P.items()}
    lr_k = (lr / tau ** 2).reshape(K, *[1] * 3)
    hit_train = np.full(K, np.inf)
    hit_test = np.full(K, np.inf)
    b1, b2 = 0.9, 0.98
    gen = torch.Generator().manual_seed(seed)
    for step in range(1, steps + 1):
        idx = (slice(None) if batch is None
               else torch.randint(len(ytr), (batch,), generator=gen).to(dev))
        logits = forward(P, Xtr[idx], tau, heads)
        loss = F.cross_entropy(logits.flatten(0, 1), ytr[idx].repeat(K),
                               reduction="sum") / logits.shape[1]
        grads = torch.autograd.grad(loss, list(P.values()))
        with torch.no_grad():
            for (name, w), g in zip(P.items(), grads):
                m[name].mul_(b1).add_((1 - b1) * g)
                s[name].mul_(b2).add_((1 - b2) * g * g)
                rate = lr_k.reshape(K, *[1] * (w.ndim - 1))
                w.mul_(1 - rate * wd)
                w.sub_(rate * (m[name] / (1 - b1 ** step)) / ((s[name] / (1 - b2 ** step)).sqrt() + 1e-8))
        if step % eval_every == 0 or step == steps:
            with torch.no_grad():
                acc_tr = (forward(P, Xtr, tau, heads).argmax(-1) == ytr).float().mean(1).cpu().numpy()
                acc_te = (forward(P, Xte, tau, heads).argmax(-1) == yte).float().mean(1).cpu().numpy()
            hit_train = np.where(np.isinf(hit_train) & (acc_tr >= threshold), step, hit_train)
            hit_test = np.where(np.isinf(hit_test) & (acc_te >= threshold), step, hit_test)
            if np.all(np.isfinite(hit_test)):
                break
    return hit_train, hit_test, acc_tr, acc_te

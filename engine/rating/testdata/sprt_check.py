#!/usr/bin/env python3
"""Independent check of the SPRT log-likelihood ratios in sprt.go.

It solves the maximum-likelihood equations that fastchess's sprt.cpp
solves (Van den Bergh: "Comparing the approximations for the generalized
log likelihood ratio of a multinomial distribution", eq. 1.2-1.3, and
"Comments on normalized Elo", sec. 4.1), but by plain bisection to machine
precision and a fixed point iterated to convergence, instead of
fastchess's ITP root finder with its tolerances. Standard library only:

    python3 engine/rating/testdata/sprt_check.py

prints Go rows for exactllr_test.go.
"""
import math

LN10 = math.log(10)


def reg(n):
    return 1e-3 if n == 0 else float(n)


def root(f, lo, hi):
    # f decreasing on (lo, hi), +inf at lo, -inf at hi.
    for _ in range(2000):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_logistic(scores, probs, s):
    th = root(lambda x: sum(p * (a - s) / (1 + x * (a - s)) for a, p in zip(scores, probs)),
              -1 / (scores[-1] - s), -1 / (scores[0] - s))
    return [p / (1 + th * (a - s)) for a, p in zip(scores, probs)]


def mle_normalized(scores, probs, t):
    n = len(scores)
    p = [1 / n] * n
    for _ in range(1000):
        mu = sum(a * q for a, q in zip(scores, p))
        sd = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p)))
        phi = [a - 0.5 - 0.5 * t * sd * (1 + ((a - mu) / sd) ** 2) for a in scores]
        th = root(lambda x: sum(q * f / (1 + x * f) for q, f in zip(probs, phi)),
                  -1 / max(phi), -1 / min(phi))
        new = [q / (1 + th * f) for q, f in zip(probs, phi)]
        done = max(abs(a - b) for a, b in zip(new, p)) < 1e-15
        p = new
        if done:
            break
    return p


def llr(total, probs, p0, p1):
    return total * sum(q * (math.log(b) - math.log(a)) for q, a, b in zip(probs, p0, p1))


def lscore(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def wdl(model, elo0, elo1, w, d, l):
    L, D, W = reg(l), reg(d), reg(w)
    total = L + D + W
    probs = [L / total, D / total, W / total]
    scores = [0, 0.5, 1]
    if model == "normalized":
        k = 800 / LN10
        return llr(total, probs, mle_normalized(scores, probs, elo0 / k), mle_normalized(scores, probs, elo1 / k))
    return llr(total, probs, mle_logistic(scores, probs, lscore(elo0)), mle_logistic(scores, probs, lscore(elo1)))


def penta(model, elo0, elo1, ll, ld, wl, dd, wd, ww):
    c = [reg(ll), reg(ld), reg(wl + dd), reg(wd), reg(ww)]
    total = sum(c)
    probs = [x / total for x in c]
    scores = [0, 0.25, 0.5, 0.75, 1]
    if model == "normalized":
        k = 800 / LN10 / math.sqrt(2)
        return llr(total, probs, mle_normalized(scores, probs, elo0 / k), mle_normalized(scores, probs, elo1 / k))
    return llr(total, probs, mle_logistic(scores, probs, lscore(elo0)), mle_logistic(scores, probs, lscore(elo1)))


def ll_direct(probs, t):
    # The largest log-likelihood of a distribution over (0, 1/2, 1) with
    # (mu - 1/2)/sigma = t, found without the fixed point: for each draw
    # rate on a grid, then refined around the best, the win rate that
    # makes it t (bisection: t rises with it), so it also holds where the
    # fixed point from the uniform distribution cannot start.
    def at(pd):
        def r(pw):
            pl = 1 - pd - pw
            mu = pw + 0.5 * pd
            var = pw * (1 - mu) ** 2 + pd * (0.5 - mu) ** 2 + pl * mu ** 2
            return (mu - 0.5) / math.sqrt(var)
        lo, hi = 1e-300, 1 - pd - 1e-15
        if not r(lo) <= t <= r(hi):
            return -math.inf
        for _ in range(200):
            mid = (lo + hi) / 2
            if r(mid) < t:
                lo = mid
            else:
                hi = mid
        pw = (lo + hi) / 2
        pl = 1 - pd - pw
        if pl <= 0:
            return -math.inf
        return probs[0] * math.log(pl) + probs[1] * math.log(pd) + probs[2] * math.log(pw)
    n = 2000
    best = max(range(1, n), key=lambda k: at(k / n))
    lo, hi = (best - 1) / n, (best + 1) / n
    for _ in range(200):  # golden-section refinement
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if at(a) < at(b):
            lo = a
        else:
            hi = b
    return at((lo + hi) / 2)


def wdl_direct(elo0, elo1, w, d, l):
    L, D, W = reg(l), reg(d), reg(w)
    total = L + D + W
    probs = [L / total, D / total, W / total]
    k = 800 / LN10
    return total * (ll_direct(probs, elo1 / k) - ll_direct(probs, elo0 / k))


def main():
    for model, e0, e1, (w, d, l) in [
        ("normalized", 0, 5, (76, 123, 89)),
        ("logistic", 0, 5, (76, 123, 89)),
        ("normalized", 0, 10, (136, 111, 96)),
        ("logistic", -5, 5, (30, 0, 10)),
        ("normalized", 0, 20, (120, 30, 50)),
    ]:
        v = wdl(model, e0, e1, w, d, l)
        print(f'\t{{SPRT{{Elo0: {e0}, Elo1: {e1}, Alpha: 0.05, Beta: 0.05, Model: "{model}"}}, '
              f'&WDL{{W: {w}, D: {d}, L: {l}}}, nil, {v:.6f}, 1e-3}},')
    # Bounds far from 0, where the fixed point needs another start.
    for e0, e1, (w, d, l) in [(0, 250, (139, 7, 54)), (0, 1000, (139, 7, 54)), (-1000, 0, (10, 2, 8)), (0, 400, (1, 0, 0))]:
        v = wdl_direct(e0, e1, w, d, l)
        print(f'\t{{SPRT{{Elo0: {e0}, Elo1: {e1}, Alpha: 0.05, Beta: 0.05, Model: "normalized"}}, '
              f'&WDL{{W: {w}, D: {d}, L: {l}}}, nil, {v:.6f}, 1e-3}},')
    for model, e0, e1, c in [
        ("normalized", 0, 5, (3, 20, 40, 30, 25, 6)),
        ("logistic", 0, 5, (3, 20, 40, 30, 25, 6)),
        ("normalized", 0, 10, (34, 54, 31, 32, 64, 75)),
        ("logistic", -10, 10, (0, 5, 10, 0, 12, 20)),
    ]:
        v = penta(model, e0, e1, *c)
        print(f'\t{{SPRT{{Elo0: {e0}, Elo1: {e1}, Alpha: 0.05, Beta: 0.05, Model: "{model}"}}, nil, '
              f'&Penta{{LL: {c[0]}, LD: {c[1]}, WL: {c[2]}, DD: {c[3]}, WD: {c[4]}, WW: {c[5]}}}, {v:.6f}, 1e-3}},')


main()

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

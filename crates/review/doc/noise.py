#!/usr/bin/env python3
"""How noisy `tengen review` is, from reviews it wrote (the `TGR` value of each position).

    noise.py spread A.sgf,B.sgf [C.sgf,D.sgf ...]
        Two reviews of one game at one budget with other seeds, pair by pair: how far
        the same position's win rate differs between them, in win rate and in binomial
        standard errors sqrt(w(1-w)/n) of the two evaluations (the model of
        `tengen_review::Noise`: its `scale` is the root mean square of that ratio, its
        `multiple` a high quantile of it over `scale`).

    noise.py shares GAME.sgf SCALE MULTIPLE THRESHOLD REVIEW.sgf ...
        The share of the game's moves each review marks BM and DO, by the rule before the
        noise model (a loss of THRESHOLD, half for DO) and by the rule with it (the loss
        also above MULTIPLE x SCALE x the binomial error of the difference), as
        `tengen_review::MoveJudgement` judges. GAME is the record reviewed (one line of
        moves, 19x19 coordinates).

Standard library only. Used for the measurement in `tengen_review::Noise::MEASURED`.
"""
import math
import re
import sys

FLOOR = 0.05  # tengen_review::Noise::FLOOR


def evals(path):
    """position -> colour, visits, preferred move, win rate, from a review's TGR values."""
    out = {}
    for m in re.finditer(r'p=(\d+) c=([BW]) n=(\d+) m=(\S+) w=([\d.]+)', open(path).read()):
        out[int(m[1])] = dict(c=m[2], n=int(m[3]), best=m[4], w=float(m[5]))
    return out


def moves(path):
    """The main line's moves of a record without variations: (colour, vertex)."""
    letters = 'ABCDEFGHJKLMNOPQRST'
    size = int((re.search(r'SZ\[(\d+)\]', open(path).read()) or [0, 19])[1])
    out = []
    for c, xy in re.findall(r';\s*([BW])\[(\w*)\]', open(path).read()):
        if xy == '' or (xy == 'tt' and size <= 19):
            out.append((c, 'pass'))
        else:
            out.append((c, f'{letters[ord(xy[0]) - 97]}{size - (ord(xy[1]) - 97)}'))
    return out


def binomial(e):
    w = min(max(e['w'], FLOOR), 1 - FLOOR)
    return math.sqrt(w * (1 - w) / max(e['n'], 1))


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def spread(pairs):
    d, r = [], []
    for pair in pairs:
        a, b = (evals(p) for p in pair.split(','))
        for p in sorted(set(a) & set(b)):
            dw = a[p]['w'] - b[p]['w']
            d.append(dw)
            r.append(dw / math.hypot(binomial(a[p]), binomial(b[p])))
    n = len(d)
    scale = math.sqrt(sum(x * x for x in r) / n)
    print(f'{len(pairs)} pairs, {n} positions: win rates differ by {math.sqrt(sum(x * x for x in d) / n):.4f} '
          f'(root mean square), {scale:.3f} binomial errors')
    for q in (0.5, 0.9, 0.95, 0.99, 0.995, 1.0):
        print(f'  quantile {q} of |difference|: {quantile([abs(x) for x in d], q):.4f} win rate, '
              f'{quantile([abs(x) for x in r], q) / scale:.2f} x {scale:.3f} binomial errors')


def shares(game, scale, multiple, threshold, reviews):
    mv = moves(game)
    for path in reviews:
        ev = evals(path)
        count = dict(bm0=0, do0=0, bm1=0, do1=0)
        for k, (c, played) in enumerate(mv):
            b, a = ev.get(k), ev.get(k + 1)
            if b is None or a is None or played == b['best']:
                continue
            wb = b['w'] if b['c'] == c else 1 - b['w']
            wa = a['w'] if a['c'] == c else 1 - a['w']
            loss = wb - wa
            margin = multiple * scale * math.hypot(binomial(b), binomial(a))
            count['bm0'] += loss >= threshold
            count['do0'] += threshold / 2 <= loss < threshold
            count['bm1'] += loss >= threshold and loss > margin
            count['do1'] += threshold / 2 <= loss < threshold and loss > margin
        n = len(mv)
        print(f"{path}: {n} moves; before: BM {count['bm0']} ({100 * count['bm0'] / n:.1f}%), "
              f"DO {count['do0']}; with the noise: BM {count['bm1']} ({100 * count['bm1'] / n:.1f}%), "
              f"DO {count['do1']}")


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == 'spread':
        spread(sys.argv[2:])
    elif len(sys.argv) > 6 and sys.argv[1] == 'shares':
        shares(sys.argv[2], *map(float, sys.argv[3:6]), sys.argv[6:])
    else:
        sys.exit(__doc__)

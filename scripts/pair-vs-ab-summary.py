#!/usr/bin/env python3
"""What scripts/pair-vs-ab.sh measured, per level and method.

    python3 scripts/pair-vs-ab-summary.py CAMPAIGN.csv [KEEP]

Per level (slow_b's extra turns) and method: campaigns, how many ended
regressed / improved / equivalent / inconclusive, the median ratio and the
median change each could have seen. With KEEP (the folder the script kept
every results file in), each level's ratio from all its runs pooled, the
long-run calibration: pair, the median of every process's crossover
estimate with its exact (sign test) 95 % interval; ab, the median of all
B runs over the median of all A runs.
"""
import csv
import glob
import json
import math
import statistics
import sys
from math import comb


def sign_interval(xs, conf=0.95):
    """The exact distribution-free interval of a median (order statistics)."""
    xs = sorted(xs)
    n = len(xs)
    k = 0
    # the largest k with P(Binomial(n, 1/2) < k+1) <= (1 - conf) / 2
    cum = 0.0
    for j in range(n + 1):
        cum += comb(n, j) / 2 ** n
        if cum > (1 - conf) / 2:
            k = j
            break
    return xs[max(k - 1, 0)], xs[min(n - k, n - 1)]


def pooled_pair(keep, level):
    logs = []
    for path in glob.glob(f"{keep}/pair-{level}-*.json"):
        doc = json.load(open(path))
        logs += [math.log(p["ratio"]) for p in doc["processes"]
                 if p.get("ratio")]
    if not logs:
        return None
    lo, hi = sign_interval(logs)
    return (math.exp(statistics.median(logs)), math.exp(lo), math.exp(hi),
            len(logs))


def arm_runs(path):
    doc = json.load(open(path))
    return [r["cpu_us_per_dispatch"] for c in doc["cells"] for r in c["runs"]
            if r.get("status") == "ok"]


def pooled_ab(keep, level):
    a, b = [], []
    for path in glob.glob(f"{keep}/ab-{level}-*-a.json"):
        a += arm_runs(path)
        b += arm_runs(path[:-len("a.json")] + "b.json")
    if not a or not b:
        return None
    return statistics.median(b) / statistics.median(a), len(a), len(b)


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    keep = sys.argv[2] if len(sys.argv) > 2 else None
    levels = sorted({int(r["spins"]) for r in rows})
    print("level,method,campaigns,regressed,improved,equivalent,"
          "inconclusive,median_ratio,median_could_see_pct,pooled_ratio,"
          "pooled_lo,pooled_hi,pooled_units")
    for level in levels:
        for method in ("pair", "ab"):
            rs = [r for r in rows if int(r["spins"]) == level and
                  r["method"] == method and r["verdict"]]
            if not rs:
                continue
            seen = [float(r["could_see"]) for r in rs
                    if r["could_see"] not in ("-", "inf", "")]
            count = {v: sum(r["verdict"] == v for r in rs) for v in
                     ("regressed", "improved", "equivalent", "inconclusive")}
            pooled = ",,,"
            if keep and method == "pair" and pooled_pair(keep, level):
                p = pooled_pair(keep, level)
                pooled = f"{p[0]:.4f},{p[1]:.4f},{p[2]:.4f},{p[3]}"
            elif keep and method == "ab" and pooled_ab(keep, level):
                p = pooled_ab(keep, level)
                pooled = f"{p[0]:.4f},,,{p[1]}+{p[2]}"
            print(f"{level},{method},{len(rs)},{count['regressed']},"
                  f"{count['improved']},{count['equivalent']},"
                  f"{count['inconclusive']},"
                  f"{statistics.median(float(r['ratio']) for r in rs):.4f},"
                  f"{statistics.median(seen) if seen else 'inf'},{pooled}")


if __name__ == "__main__":
    main()

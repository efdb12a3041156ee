#!/usr/bin/env python3
"""Reverse geocoding: Sepia's ReverseGeocoder (Benchmarks' PlacesBenchmark, release) against the peer,
PyPI's reverse_geocoder 1.5.1 (SciPy's cKDTree over the positions as Earth-centred coordinates), on the same
GeoNames table and the same positions, in one run; prints a Markdown table with the ratio.

    scripts/bench-places [--count N] [--rounds R]

The positions: half uniform over the globe, half within about 50 km of a random city of the table (where
photos are taken, and where the nearest city is contested), from a fixed seed. Sepia answers them one call at a
time in one thread, as an import does; the peer is given them as one batch (its fastest use: one vectorised
query in C), in one process (mode=1). Both trees are built from the same table, so their answers must agree; the
script counts the positions where they name different cities at different distances. Load times are reported
beside: both read and index the table once per process.
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, ".build", "places-peer-venv")
sys.path.insert(0, os.path.join(ROOT, "scripts", "generate"))
import corpus  # noqa: E402

PEER = ("reverse_geocoder", "reverse_geocoder-1.5.1.tar.gz", "2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c")
PINNED = ["numpy==2.4.6", "scipy==1.17.1"]
TABLE = os.environ.get("SEPIA_GEONAMES", "/usr/share/libtimezonemap/ui") + "/cities15000.txt"


def peer_python():
    """The venv's Python with the peer installed (made on first use)."""
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    probe = subprocess.run([python, "-c", "import reverse_geocoder, scipy"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q"] + PINNED, check=True)
        path = corpus.download(PEER[0], PEER[1], PEER[2], os.path.join(ROOT, ".build", "testdata-archives"))
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", path], check=True)
    return python


PEER_RUN = r"""
import io, json, sys, time
import reverse_geocoder as rg
table, positions, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = ["lat,lon,name,admin1,admin2,cc"]
for line in open(table, encoding="utf-8"):
    f = line.rstrip("\r\n").split("\t")
    rows.append(f"{f[4]},{f[5]},{f[0]},,,{f[8]}")
coords = [tuple(float(v) for v in line.split()) for line in open(positions)]
start = time.perf_counter()
geocoder = rg.RGeocoder(mode=1, verbose=False, stream=io.StringIO("\n".join(rows)))
load = time.perf_counter() - start
rates = []
for _ in range(rounds):
    start = time.perf_counter()
    answers = geocoder.query(coords)
    rates.append(len(coords) / (time.perf_counter() - start))
print(json.dumps({"loadSeconds": load, "lookupsPerSecond": rates, "ids": [int(a["name"]) for a in answers]}))
"""


def positions(count, seed):
    cities = []
    for line in open(TABLE, encoding="utf-8"):
        f = line.split("\t")
        cities.append((float(f[4]), float(f[5])))
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 2 == 0:
            z = rng.uniform(-1, 1)
            out.append((math.degrees(math.asin(z)), rng.uniform(-180, 180)))
        else:
            lat, lon = rng.choice(cities)
            lat = max(-90, min(90, lat + rng.uniform(-0.45, 0.45)))
            lon = (lon + rng.uniform(-0.45, 0.45) + 540) % 360 - 180
            out.append((lat, lon))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bin", required=True, help="the PlacesBenchmark executable")
    args = parser.parse_args()
    work = os.path.join(ROOT, ".build", "bench-places")
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "positions.txt")
    with open(path, "w") as out:
        out.write("\n".join(f"{lat:.6f} {lon:.6f}" for lat, lon in positions(args.count, 37)))
    sepia = json.loads(subprocess.run([args.bin, path, str(args.rounds)], check=True, capture_output=True, text=True).stdout)
    python = peer_python()
    script = os.path.join(work, "peer.py")
    open(script, "w").write(PEER_RUN)
    peer = json.loads(subprocess.run([python, script, TABLE, path, str(args.rounds)], check=True, capture_output=True,
                                     text=True).stdout)
    differ = sum(1 for a, b in zip(sepia["ids"], peer["ids"]) if a != b)
    # Both against the independent reference (a brute-force haversine search of every city in NumPy) on the first
    # 4 000 positions.
    sample = os.path.join(work, "sample.txt")
    with open(sample, "w") as out:
        out.write("\n".join(f"{lat:.6f} {lon:.6f}" for lat, lon in positions(args.count, 37)[:4000]))
    reference_python = os.path.join(ROOT, ".venv", "bin", "python")
    if not os.path.exists(reference_python):
        reference_python = python
    with open(sample) as stdin:
        reference = [int(line.split()[0]) for line in subprocess.run(
            [reference_python, os.path.join(ROOT, "scripts", "references", "nearest_cities.py"), TABLE], stdin=stdin,
            check=True, capture_output=True, text=True).stdout.split("\n") if line]
    sepia_wrong = sum(1 for a, b in zip(sepia["ids"], reference) if a != b)
    peer_wrong = sum(1 for a, b in zip(peer["ids"], reference) if a != b)
    s_rate = statistics.median(sepia["lookupsPerSecond"])
    p_rate = statistics.median(peer["lookupsPerSecond"])
    print(f"positions: {args.count} (half uniform, half within ~50 km of a city), table: {TABLE} ({sepia['cities']} cities), "
          f"rounds: {args.rounds}, medians")
    print()
    print("| | lookups per second | load (s) |")
    print("|---|---:|---:|")
    print(f"| Sepia ReverseGeocoder, one call per position, one thread | {s_rate:,.0f} | {sepia['loadSeconds']:.3f} |")
    print(f"| reverse_geocoder 1.5.1 (cKDTree), one batch, one process | {p_rate:,.0f} | {peer['loadSeconds']:.3f} |")
    print(f"| ratio (Sepia / peer) | {s_rate / p_rate:.2f}× | |")
    print()
    print(f"Answers that name a different city: {differ} of {args.count}. Against the brute-force haversine reference on "
          f"{len(reference)} of the positions: Sepia differs on {sepia_wrong}, the peer on {peer_wrong} (Sepia and the "
          "reference measure on a sphere; the peer by straight lines between points of the WGS84 ellipsoid, which ranks "
          "far or nearly equidistant cities differently).")


if __name__ == "__main__":
    main()

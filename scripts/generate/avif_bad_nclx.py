#!/usr/bin/env python3
"""An AVIF whose colour description (colr, nclx) names colour primaries that H.273 reserves (3), which libheif
refuses after handing the description over: Tests/Fixtures/hostile/avif-nclx-invalid-primaries.avif.

    scripts/generate/avif_bad_nclx.py OUT.avif [--size 64x48] [--primaries 3]

The picture is the landscape that imaging.py draws, encoded by libheif's heif-enc (AV1, libaom, quality 50);
then the colour primaries of every nclx box are set to the value given. Needs libheif-examples.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imaging  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--size", default="64x48")
    parser.add_argument("--primaries", type=int, default=3)
    args = parser.parse_args()
    w, h = map(int, args.size.split("x"))
    px = imaging.scene(w, h)
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "scene.png")
        avif = os.path.join(tmp, "scene.avif")
        with open(png, "wb") as f:
            f.write(imaging.png(w, h, 2, 8, lambda x, y: tuple(px[(y * w + x) * 3:(y * w + x + 1) * 3])))
        subprocess.run(["heif-enc", "-A", "-q", "50", "--no-alpha", "-o", avif, png], check=True, stdout=subprocess.DEVNULL)
        data = bytearray(open(avif, "rb").read())
    # colr box: size, 'colr', 'nclx', colour primaries (u16), transfer characteristics, matrix coefficients, range.
    i, patched = data.find(b"colrnclx"), 0
    while i >= 0:
        data[i + 8:i + 10] = struct.pack(">H", args.primaries)
        patched += 1
        i = data.find(b"colrnclx", i + 8)
    if not patched:
        sys.exit("heif-enc wrote no nclx colour description")
    with open(args.out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes small TIFF files whose headers declare buffers far larger than their images: tiles of 65536x65536 and
16384x16384 pixels over a 64x64 image, a strip of every row in a tall image, planar images with many planes,
many samples a pixel, 16- and 32-bit samples, YCbCr subsampling in tiles. Each is a few hundred bytes; each
must be refused by the decode memory budget before the buffers exist. They seed the RAW/TIFF fuzzer (its
mutations then explore the budget checks) and the measurements in BENCHMARKS.md. Standard library only.

    scripts/generate/tiff_budget_seeds.py OUT_DIR
"""
import os
import struct
import sys

SHORT, LONG = 3, 4


def tiff(width, height, bits=8, samples=3, photometric=2, planar=1, tile=None, rows_per_strip=None,
         subsampling=None, compression=1, data=b"\x80" * 64):
    """A little-endian TIFF: one IFD, its data (the same bytes for every strip or tile) after it."""
    entries = []  # (tag, type, values)
    entries.append((256, LONG, [width]))
    entries.append((257, LONG, [height]))
    entries.append((258, SHORT, [bits] * samples))
    entries.append((259, SHORT, [compression]))
    entries.append((262, SHORT, [photometric]))
    if tile is None:
        rps = rows_per_strip or height
        strips = (height + rps - 1) // rps
        chunks = strips * (samples if planar == 2 else 1)
        entries.append((273, LONG, None))  # StripOffsets, filled in below
        entries.append((277, SHORT, [samples]))
        entries.append((278, LONG, [rps]))
        entries.append((279, LONG, [len(data)] * chunks))
    else:
        across = (width + tile[0] - 1) // tile[0]
        down = (height + tile[1] - 1) // tile[1]
        chunks = across * down * (samples if planar == 2 else 1)
        entries.append((277, SHORT, [samples]))
    entries.append((284, SHORT, [planar]))
    if samples > (3 if photometric in (2, 6) else 1):
        extra = samples - (3 if photometric in (2, 6) else 1)
        entries.append((338, SHORT, [0] * extra))
    if tile is not None:
        entries.append((322, LONG, [tile[0]]))
        entries.append((323, LONG, [tile[1]]))
        entries.append((324, LONG, None))  # TileOffsets
        entries.append((325, LONG, [len(data)] * chunks))
    if subsampling is not None:
        entries.append((530, SHORT, list(subsampling)))
    entries.sort(key=lambda e: e[0])

    def pack(kind, values):
        return b"".join(struct.pack("<H" if kind == SHORT else "<I", v) for v in values)

    ifd_size = 2 + 12 * len(entries) + 4
    out_of_line_size = sum(len(p) + len(p) % 2 for p in (pack(k, v or [0] * chunks) for _, k, v in entries) if len(p) > 4)
    data_at = 8 + ifd_size + out_of_line_size  # every strip or tile points at the same bytes, after the values
    ifd = struct.pack("<H", len(entries))
    out_of_line = b""
    for tag, kind, values in entries:
        payload = pack(kind, [data_at] * chunks if values is None else values)
        if len(payload) <= 4:
            ifd += struct.pack("<HHI", tag, kind, len(payload) // (2 if kind == SHORT else 4)) + payload.ljust(4, b"\0")
        else:
            ifd += struct.pack("<HHII", tag, kind, len(payload) // (2 if kind == SHORT else 4), 8 + ifd_size + len(out_of_line))
            out_of_line += payload + b"\0" * (len(payload) % 2)
    ifd += struct.pack("<I", 0)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + out_of_line + data


FILES = {
    "tile-65536.tif": dict(width=64, height=64, tile=(65536, 65536)),
    "tile-16384.tif": dict(width=64, height=64, tile=(16384, 16384)),
    "tile-16384-rgb16.tif": dict(width=64, height=64, bits=16, tile=(16384, 16384)),
    "tile-4096-float32.tif": dict(width=64, height=64, bits=32, tile=(4096, 4096)),
    "tile-8192-planar.tif": dict(width=64, height=64, planar=2, tile=(8192, 8192)),
    "tile-8192-ycbcr.tif": dict(width=64, height=64, photometric=6, subsampling=(2, 2), tile=(8192, 8192)),
    "strip-tall.tif": dict(width=1, height=4_000_000, samples=3, rows_per_strip=0xFFFFFFFF),
    "strip-samples.tif": dict(width=64, height=64, samples=20000, photometric=1),
    "strip-planar-samples.tif": dict(width=64, height=4096, samples=3000, photometric=1, planar=2),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, shape in FILES.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(tiff(**shape))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a small HEIC laid out as phones write photos: a grid of HEVC tiles, rotated by `irot`, its output
cropped inside the right and bottom tiles. Used as a test fixture and a fuzz seed, so that the tile decoder
(libde265 per tile, assembly, rotation) is exercised without a multi-megabyte phone photo.

    scripts/generate/heic_grid.py SOURCE_IMAGE OUT.heic [--tiles 3x2] [--tile 64] [--size 180x120] [--turns 1]

Each tile is cut from SOURCE_IMAGE (a binary PPM, scaled to the grid by nearest neighbour; `scene:WxH` draws
imaging.py's scene instead) and encoded on its own by libheif's heif-enc (x265, quality 70); its coded data and
`hvcC` are then written into one file with a `grid` item that references the tiles (`dimg`), the grid
descriptor in `idat`, and `ispe`/`irot` on the grid. Needs libheif-examples.

The committed Tests/Fixtures/generated/heic-grid-3x2-irot1.heic was made with
    scripts/generate/heic_grid.py scene:192x128 OUT --size 181x121 --turns 1
"""
import argparse
import os
import struct
import subprocess
import tempfile

import imaging


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def children(data):
    """(type, payload) of each box in data."""
    out, i = [], 0
    while i + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        out.append((kind, data[i + 8:i + size]))
        i += size
    return out


def single_image(path):
    """The hvcC payload and the coded data of the primary (only) image of a heif-enc file."""
    data = open(path, "rb").read()
    meta = dict(children(data))[b"meta"][4:]
    boxes = dict(children(meta))
    ipco = dict(children(dict(children(boxes[b"iprp"]))[b"ipco"]))
    iloc = boxes[b"iloc"]
    version = iloc[0]
    sizes, base_sizes = iloc[4], iloc[5]
    base_size = base_sizes >> 4
    assert sizes == 0x44 and base_size in (0, 4), "unexpected iloc field sizes"
    count = struct.unpack(">H", iloc[6:8])[0]
    i = 8
    extents = {}
    for _ in range(count):
        item = struct.unpack(">H", iloc[i:i + 2])[0]
        i += 2 + (2 if version > 0 else 0) + 2
        base = struct.unpack(">I", iloc[i:i + 4])[0] if base_size else 0
        i += base_size
        n = struct.unpack(">H", iloc[i:i + 2])[0]
        i += 2
        parts = []
        for _ in range(n):
            offset, length = struct.unpack(">II", iloc[i:i + 8])
            parts.append(data[base + offset:base + offset + length])
            i += 8
        extents[item] = b"".join(parts)
    primary = struct.unpack(">H", boxes[b"pitm"][4:6])[0]
    return ipco[b"hvcC"], extents[primary]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--tiles", default="3x2")
    parser.add_argument("--tile", type=int, default=64)
    parser.add_argument("--size", default="180x120")
    parser.add_argument("--turns", type=int, default=1)
    args = parser.parse_args()
    columns, rows = map(int, args.tiles.split("x"))
    width, height = map(int, args.size.split("x"))
    t = args.tile
    assert (columns - 1) * t < width <= columns * t and (rows - 1) * t < height <= rows * t
    gw, gh = columns * t, rows * t
    if args.source.startswith("scene:"):
        w, h = map(int, args.source[6:].split("x"))
        channels, px = 3, imaging.scene(w, h)
    else:
        with open(args.source, "rb") as f:
            w, h, channels, px = imaging.read_pnm(f.read())

    def sample(x, y):
        sx, sy = x * w // gw, y * h // gh
        i = (sy * w + sx) * channels
        return tuple(px[i:i + 3]) if channels == 3 else (px[i],) * 3

    tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rows):
            for c in range(columns):
                png = os.path.join(tmp, "tile.png")
                heic = os.path.join(tmp, "tile.heic")
                with open(png, "wb") as f:
                    f.write(imaging.png(t, t, 2, 8, lambda x, y: sample(c * t + x, r * t + y)))
                subprocess.run(["heif-enc", "-q", "70", "--no-alpha", "-o", heic, png], check=True, stdout=subprocess.DEVNULL)
                tiles.append(single_image(heic))

    grid_id = 1
    tile_ids = list(range(2, 2 + len(tiles)))
    # Properties: one hvcC per tile, the tiles' ispe, the grid's ispe, the grid's irot.
    properties = [box(b"hvcC", hvcc) for hvcc, _ in tiles]
    tile_ispe = len(properties) + 1
    properties.append(full_box(b"ispe", 0, 0, struct.pack(">II", t, t)))
    grid_ispe = len(properties) + 1
    properties.append(full_box(b"ispe", 0, 0, struct.pack(">II", width, height)))
    irot = len(properties) + 1
    properties.append(box(b"irot", bytes([args.turns & 3])))
    ipco = box(b"ipco", b"".join(properties))
    entries = [struct.pack(">HB", grid_id, 2) + bytes([grid_ispe, 0x80 | irot])]
    for n, item in enumerate(tile_ids):
        entries.append(struct.pack(">HB", item, 2) + bytes([0x80 | (n + 1), tile_ispe]))
    ipma = full_box(b"ipma", 0, 0, struct.pack(">I", len(entries)) + b"".join(entries))
    iprp = box(b"iprp", ipco + ipma)

    infe = [full_box(b"infe", 2, 0, struct.pack(">HH", grid_id, 0) + b"grid" + b"\0")]
    infe += [full_box(b"infe", 2, 1, struct.pack(">HH", item, 0) + b"hvc1" + b"\0") for item in tile_ids]
    iinf = full_box(b"iinf", 0, 0, struct.pack(">H", len(infe)) + b"".join(infe))
    iref = full_box(b"iref", 0, 0, box(b"dimg", struct.pack(">HH", grid_id, len(tile_ids)) + b"".join(struct.pack(">H", i) for i in tile_ids)))
    descriptor = bytes([0, 0, rows - 1, columns - 1]) + struct.pack(">HH", width, height)
    idat = box(b"idat", descriptor)
    hdlr = full_box(b"hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full_box(b"pitm", 0, 0, struct.pack(">H", grid_id))

    def iloc(mdat_start):
        items = [struct.pack(">HHHH", grid_id, 1, 0, 1) + struct.pack(">II", 0, len(descriptor))]
        offset = mdat_start
        for item, (_, coded) in zip(tile_ids, tiles):
            items.append(struct.pack(">HHHH", item, 0, 0, 1) + struct.pack(">II", offset, len(coded)))
            offset += len(coded)
        return full_box(b"iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(items)) + b"".join(items))

    ftyp = box(b"ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    # The iloc's size does not depend on the offsets it holds, so measure it with a placeholder first.
    meta_size = len(full_box(b"meta", 0, 0, hdlr + pitm + iloc(0) + iinf + iref + iprp + idat))
    mdat_start = len(ftyp) + meta_size + 8
    meta = full_box(b"meta", 0, 0, hdlr + pitm + iloc(mdat_start) + iinf + iref + iprp + idat)
    mdat = box(b"mdat", b"".join(coded for _, coded in tiles))
    with open(args.out, "wb") as f:
        f.write(ftyp + meta + mdat)


if __name__ == "__main__":
    main()

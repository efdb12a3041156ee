#!/usr/bin/env python3
"""Writes the EXIF blocks (the TIFF structure after "Exif\\0\\0") of the test corpus's files as seeds for the EXIF
fuzzer: each JPEG's APP1 Exif segments, each WebP's EXIF chunk, and the TIFF block that follows "Exif\\0\\0" in
a HEIF or AVIF file (16 KB of it at most). Broken files give their broken blocks too, which is the point.
Identical blocks are written once. Standard library only.

    scripts/generate/exif_seeds.py CORPUS OUT_DIR
"""
import hashlib
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import imaging  # noqa: E402

TIFF_HEADERS = (b"MM\x00*", b"II*\x00")


def jpeg_blocks(data):
    try:
        segments, _ = imaging.jpeg_segments(data)
    except (AssertionError, IndexError, struct.error):
        return []
    return [p[6:] for m, p in segments if imaging.is_exif(m, p)]


def webp_blocks(data):
    blocks, i = [], 12
    while i + 8 <= len(data):
        kind, size = data[i:i + 4], struct.unpack("<I", data[i + 4:i + 8])[0]
        if kind == b"EXIF":
            payload = data[i + 8:i + 8 + size]
            blocks.append(payload[6:] if payload.startswith(b"Exif\0\0") else payload)
        i += 8 + size + (size & 1)
    return blocks


def marked_blocks(data, limit=1 << 14):
    """The TIFF blocks that follow "Exif\\0\\0" anywhere in the file (HEIF and AVIF keep it so in their Exif item),
    16 KB of each at most: the item's end is not looked up, and the reader ignores what follows the block."""
    blocks, i = [], data.find(b"Exif\0\0")
    while i >= 0:
        block = data[i + 6:i + 6 + limit]
        if block[:4] in TIFF_HEADERS:
            blocks.append(block)
        i = data.find(b"Exif\0\0", i + 6)
    return blocks


def blocks_of(data):
    if data[:2] == b"\xff\xd8":
        return jpeg_blocks(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return webp_blocks(data)
    if data[4:8] == b"ftyp":
        return marked_blocks(data)
    return []


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    seen = set()
    for parent, _, names in sorted(os.walk(corpus)):
        for name in sorted(names):
            with open(os.path.join(parent, name), "rb") as f:
                data = f.read()
            for n, block in enumerate(blocks_of(data)):
                digest = hashlib.sha256(block).hexdigest()
                if not block or digest in seen:
                    continue
                seen.add(digest)
                stem = os.path.splitext(name)[0]
                with open(os.path.join(out, "%s%s.tiff" % (stem, "-%d" % n if n else "")), "wb") as f:
                    f.write(block)
    print("%d EXIF blocks from %s" % (len(seen), corpus))


if __name__ == "__main__":
    main()

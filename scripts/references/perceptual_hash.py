"""The DCT perceptual hash, in NumPy: the independent reference for Sepia's PerceptualHash.

Reads images on standard input, one per line: "width height channels" and then the pixels' bytes as hexadecimal
(rows packed, 1 grey, 3 RGB or 4 RGBA channels per pixel). For each prints the 64-bit hash as 16 hexadecimal digits
and the 32 x 32 luma grid it was computed from (1 024 numbers), on one line. The steps are those of ImageHash's
`phash` (Zauner 2010), with the shrinking spelled out: luma by ITU-R BT.601 (0.299, 0.587, 0.114), each of the
32 x 32 cells the mean of the area of the image it covers (pixels cut by a cell's edge count by the part inside),
a DCT-II along each axis (SciPy's unnormalised form, written as a matrix product), the 8 x 8 lowest frequencies
compared with their median; bit 63 is the DC term's, rows first.

    python3 scripts/references/perceptual_hash.py < images
"""

import sys

import numpy as np

SIDE = 32


def area_matrix(length):
    """A SIDE x length matrix whose row i holds each source pixel's share of cell i's width (rows sum to 1)."""
    edges = np.arange(length + 1) * (SIDE / length)
    matrix = np.zeros((SIDE, length))
    for cell in range(SIDE):
        lo = np.clip(edges[:-1], cell, cell + 1)
        hi = np.clip(edges[1:], cell, cell + 1)
        matrix[cell] = hi - lo
    return matrix


def dct_matrix(n):
    k = np.arange(n)[:, None]
    x = np.arange(n)[None, :]
    return 2 * np.cos(np.pi * k * (2 * x + 1) / (2 * n))


def phash(pixels):
    height, width = pixels.shape[:2]
    if pixels.ndim == 2:
        luma = pixels.astype(np.float64)
    else:
        rgb = pixels[..., :3].astype(np.float64)
        luma = (299 * rgb[..., 0] + 587 * rgb[..., 1] + 114 * rgb[..., 2]) / 1000
    grid = area_matrix(height) @ luma @ area_matrix(width).T
    basis = dct_matrix(SIDE)
    low = (basis @ grid @ basis.T)[:8, :8]
    median = np.median(low)
    value = 0
    for bit in (low > median).flatten():
        value = value << 1 | int(bit)
    return value, grid


def main():
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        width, height, channels = int(fields[0]), int(fields[1]), int(fields[2])
        data = np.frombuffer(bytes.fromhex(fields[3]), dtype=np.uint8)
        shape = (height, width) if channels == 1 else (height, width, channels)
        value, grid = phash(data.reshape(shape))
        print(f"{value:016x} " + " ".join(f"{v:.9f}" for v in grid.flatten()))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reference outputs for Sepia's filters whose maths is defined, computed independently with NumPy/SciPy.

Each case applies one filter to the same input — the landscape that scripts/generate/imaging.py draws (the
project's own picture: a graded sky, a sun, striped hills, a house and a tree), drawn at 512×384 and reduced to 64×48
by averaging each 8×8 block so that its edges are soft as a photo's are, with a fixed grain of ±3/255 (NumPy's
default_rng(11)) so that neighbouring pixels differ as a sensor's do, then taken to linear-light sRGB with the
exact IEC 61966-2-1 formula — in Sepia's working space (linear light, premultiplied alpha; the input is
opaque). Blurs come from scipy.ndimage (gaussian_filter, uniform_filter, convolve1d, all with edge
clamping), the colour cube from map_coordinates, the tone curve from PchipInterpolator; the rest is written
out from the formulas in each filter's documentation. Outputs are float32 files next to index.json, which also states each case's tolerance.

Run: python3 scripts/references/filter_references.py   (needs numpy and scipy)
"""
import json
import math
import os

import sys

import numpy as np
from scipy import ndimage
from scipy.interpolate import PchipInterpolator

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "generate"))
import imaging  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures")
OUT = os.path.join(ROOT, "references", "filters")
LUMA = np.array([0.2126, 0.7152, 0.0722])


def to_linear(v):
    v = np.asarray(v, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def from_linear(v):
    v = np.asarray(v, dtype=np.float64)
    a = np.abs(v)
    e = np.where(a <= 0.0031308, a * 12.92, 1.055 * np.power(a, 1 / 2.4) - 0.055)
    return np.sign(v) * e


def load_input(width=64, height=48, factor=8):
    drawn = np.frombuffer(imaging.scene(width * factor, height * factor), dtype=np.uint8)
    drawn = drawn.reshape(height * factor, width * factor, 3).astype(np.float64)
    srgb = drawn.reshape(height, factor, width, factor, 3).mean(axis=(1, 3))
    srgb = np.clip(srgb + np.random.default_rng(11).uniform(-3, 3, srgb.shape), 0, 255) / 255.0
    lin = to_linear(srgb)
    return np.concatenate([lin, np.ones(lin.shape[:2] + (1,))], axis=2)


def matrix(img, rows, bias=(0, 0, 0, 0)):
    out = img @ np.asarray(rows, dtype=np.float64).T + np.asarray(bias)
    return out


def per_channel(img, fn):
    out = img.copy()
    for c in range(3):
        out[..., c] = fn(img[..., c])
    return out


def gaussian(img, sigma):
    return per_channel(img, lambda ch: ndimage.gaussian_filter(ch, sigma, mode="nearest", truncate=4.0))


def extended_box(variance):
    """The extended box of a variance (Gwosdek et al., "Theoretical foundations of Gaussian convolution by
    extended box filtering", 2011): the largest integer radius r whose plain box does not exceed it, and end taps
    at r + 1 weighing alpha that make up the rest. Returns the normalised taps, -(r + 1) to r + 1."""
    r = int(((12 * variance + 1) ** 0.5 - 1) / 2)
    while (r + 1) * (r + 2) / 3 <= variance:
        r += 1
    while r > 0 and r * (r + 1) / 3 > variance:
        r -= 1
    alpha = (2 * r + 1) * (r * (r + 1) / 3 - variance) / (2 * (variance - (r + 1) ** 2))
    taps = np.ones(2 * r + 3)
    taps[0] = taps[-1] = min(max(alpha, 0.0), 1.0)
    return taps / taps.sum()


def extended_boxes(img, sigma, passes=4):
    """A Gaussian of sigma as `passes` extended boxes of variance sigma² / passes along x, then along y, over the
    image extended once by repeating its edges."""
    taps = extended_box(sigma * sigma / passes)
    pad = passes * (len(taps) // 2)

    def blur(ch):
        ch = np.pad(ch, pad, mode="edge")
        for axis in (1, 0):
            for _ in range(passes):
                ch = ndimage.convolve1d(ch, taps, axis=axis, mode="constant")
        return ch[pad:-pad, pad:-pad]

    return per_channel(img, blur)


def ceil4(v):
    return math.ceil(v * 1e4) / 1e4


def lanczos3(x):
    x = np.abs(x)
    return np.where(x < 3, np.sinc(x) * np.sinc(x / 3), 0.0)


def lanczos_weights(n_in, n_out):
    """Sepia's convention: centres aligned, kernel widened when shrinking, taps beyond the edge folded onto it."""
    ratio = n_in / n_out
    scale = max(1.0, ratio)
    support = 3 * scale
    w = np.zeros((n_out, n_in))
    for i in range(n_out):
        c = (i + 0.5) * ratio - 0.5
        for j in range(math.ceil(c - support), math.floor(c + support) + 1):
            w[i, min(max(j, 0), n_in - 1)] += lanczos3((j - c) / scale)
        w[i] /= w[i].sum()
    return w


def catmull_rom(x):
    t = np.abs(x)
    return np.where(t < 1, 1.5 * t**3 - 2.5 * t**2 + 1, np.where(t < 2, -0.5 * t**3 + 2.5 * t**2 - 4 * t + 2, 0.0))


def affine(img, a, b, c, d, tx, ty):
    h, w, _ = img.shape
    det = a * d - b * c
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    itx, ity = (c * ty - d * tx) / det, (b * tx - a * ty) / det
    corners = [(0, 0), (w, 0), (0, h), (w, h)]
    xs = [a * x + c * y + tx for x, y in corners]
    ys = [b * x + d * y + ty for x, y in corners]
    x0, x1 = math.floor(min(xs) + 1e-6), math.ceil(max(xs) - 1e-6)
    y0, y1 = math.floor(min(ys) + 1e-6), math.ceil(max(ys) - 1e-6)
    spread = max(1.0, math.hypot(ia, ib), math.hypot(ic, id_))
    support = 2 * spread
    out = np.zeros((y1 - y0, x1 - x0, 4))
    for oy in range(y0, y1):
        for ox in range(x0, x1):
            px, py = ox + 0.5, oy + 0.5
            cx = ia * px + ic * py + itx - 0.5
            cy = ib * px + id_ * py + ity - 0.5
            jx = np.arange(math.ceil(cx - support), math.floor(cx + support) + 1)
            jy = np.arange(math.ceil(cy - support), math.floor(cy + support) + 1)
            wx = catmull_rom((jx - cx) / spread)
            wy = catmull_rom((jy - cy) / spread)
            inside_x = (jx >= 0) & (jx < w)
            inside_y = (jy >= 0) & (jy < h)
            if not inside_x.any() or not inside_y.any():
                continue
            patch = img[np.ix_(jy[inside_y], jx[inside_x])]
            acc = np.einsum("i,j,ijc->c", wy[inside_y], wx[inside_x], patch)
            out[oy - y0, ox - x0] = acc / (wx.sum() * wy.sum())
    return out, (x0, y0, x1 - x0, y1 - y0)


def pixellate(img, cx, cy, scale):
    h, w, _ = img.shape
    out = np.zeros_like(img)
    cell_x = np.floor((np.arange(w) + 0.5 - cx) / scale).astype(int)
    cell_y = np.floor((np.arange(h) + 0.5 - cy) / scale).astype(int)
    for j in np.unique(cell_y):
        for i in np.unique(cell_x):
            ys, xs = cell_y == j, cell_x == i
            out[np.ix_(ys, xs)] = img[np.ix_(ys, xs)].reshape(-1, 4).mean(axis=0)
    return out


def planckian_xy(t):
    """Kim et al. (2002): CIE 1931 xy of the Planckian locus at t kelvin."""
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    return np.array([x, y])


def xy_to_uv(xy):
    x, y = xy
    return np.array([4 * x, 6 * y]) / (-2 * x + 12 * y + 3)


def white_xyz(temperature, tint):
    """The white of (temperature, tint): the locus point moved tint / 3000 along the unit normal of the locus in
    CIE 1960 uv, on its green side; the tangent by a central difference of 0.01 K."""
    uv = xy_to_uv(planckian_xy(temperature))
    tangent = xy_to_uv(planckian_xy(temperature + 0.01)) - xy_to_uv(planckian_xy(temperature - 0.01))
    normal = np.array([tangent[1], -tangent[0]]) / np.hypot(*tangent)
    if normal[1] < 0:  # the green side is the one with the larger v
        normal = -normal
    u, v = uv + tint / 3000 * normal
    x, y = 3 * u / (2 * u - 8 * v + 4), 2 * v / (2 * u - 8 * v + 4)
    return np.array([x / y, 1, (1 - x - y) / y])


def srgb_to_xyz():
    prim = np.array([[0.64, 0.33], [0.30, 0.60], [0.15, 0.06]])
    cols = np.array([[x / y, 1, (1 - x - y) / y] for x, y in prim]).T
    white = np.array([0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290])
    return cols * np.linalg.solve(cols, white)


def temperature_matrix(neutral, target):
    bradford = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
    source, dest = bradford @ white_xyz(*neutral), bradford @ white_xyz(*target)
    xyz = np.linalg.inv(bradford) @ np.diag(dest / source) @ bradford
    m = srgb_to_xyz()
    return np.linalg.inv(m) @ xyz @ m


def pcg(v):
    """The PCG hash (Jarzynski and Olano 2020) on 32-bit unsigned integers, wrapping."""
    v = np.asarray(v, dtype=np.uint32)
    with np.errstate(over="ignore"):
        s = v * np.uint32(747796405) + np.uint32(2891336453)
        w = ((s >> ((s >> np.uint32(28)) + np.uint32(4))) ^ s) * np.uint32(277803737)
    return (w >> np.uint32(22)) ^ w


def grain_noise(w, h, size, seed):
    """SepiaFilmGrain's value noise at the pixel centres of a w×h image whose top-left pixel is at (0, 0):
    lattice values (⌊pcg(i + pcg(j + pcg(seed))) / 512⌋ + 0.5) / 2²² − 1, smoothstep-weighted bilinear mix,
    divided by the mix's standard deviation at that phase; float32 throughout, as the engine computes it."""
    f32 = np.float32
    inv = f32(1) / f32(size)
    u = (np.arange(w, dtype=f32) + f32(0.5)) * inv
    v = (np.arange(h, dtype=f32) + f32(0.5)) * inv
    u, v = np.meshgrid(u, v)
    fi, fj = np.floor(u), np.floor(v)
    i, j = fi.astype(np.int64), fj.astype(np.int64)

    def smooth(f):
        return f * f * (f32(3) - f32(2) * f)

    sx, sy = smooth(u - fi), smooth(v - fj)
    seed_hash = pcg(np.uint32(seed))

    def value(ii, jj):
        with np.errstate(over="ignore"):
            row = pcg(jj.astype(np.uint32) + seed_hash)
            hashed = pcg(ii.astype(np.uint32) + row)
        return (((hashed >> np.uint32(9)).astype(f32) + f32(0.5)) * f32(2.0 ** -22) - f32(1)).astype(f32)

    a, b, c, d = value(i, j), value(i + 1, j), value(i, j + 1), value(i + 1, j + 1)
    top, bottom = a + (b - a) * sx, c + (d - c) * sx

    def norm(s):
        return f32(1) / np.sqrt(s * s + (f32(1) - s) * (f32(1) - s))

    return (top + (bottom - top) * sy) * (norm(sx) * norm(sy))


def film_grain(img, amount, size, seed):
    """SepiaFilmGrain: the encoded channels move by δ = 0.15 · amount · a(size) · n · 4L(1 − L), L the encoded
    luma, a(g) = 1.22 g / √(1 + (1.22 g)²); the result is rgb + decode(e + δ) − decode(e)."""
    n = grain_noise(img.shape[1], img.shape[0], size, seed).astype(np.float64)
    k = 1.22 * size
    strength = 0.15 * amount * k / math.sqrt(1 + k * k)
    e = from_linear(img[..., :3])
    luma = e @ LUMA
    weight = np.where((luma > 0) & (luma < 1), 4 * luma * (1 - luma), 0)
    delta = (strength * n * weight)[..., None]
    rgb = img[..., :3] + to_signed_linear(e + delta) - to_signed_linear(e)
    return np.concatenate([rgb, img[..., 3:]], axis=2)


def to_signed_linear(v):
    return np.sign(v) * to_linear(np.abs(v))


def main():
    img = load_input()
    h, w, _ = img.shape
    cases = []

    def add(name, filt, params, out, tol_max, tol_mean=None, rect=None):
        out = np.asarray(out, dtype=np.float32)
        path = name + ".f32"
        out.astype("<f4").tofile(os.path.join(OUT, path))
        r = rect or (0, 0, out.shape[1], out.shape[0])
        cases.append({"name": name, "filter": filt, "parameters": params, "output": path,
                      "extent": list(r), "maxError": tol_max, "meanError": tol_mean or tol_max})

    os.makedirs(OUT, exist_ok=True)
    img.astype("<f4").tofile(os.path.join(OUT, "input.f32"))

    rows = [[0.8, 0.3, -0.1, 0], [0.1, 0.7, 0.2, 0], [0.05, -0.2, 1.1, 0], [0, 0, 0, 1]]
    bias = [0.02, -0.01, 0.03, 0]
    add("colormatrix", "CIColorMatrix", {"inputRVector": rows[0], "inputGVector": rows[1], "inputBVector": rows[2],
                                         "inputAVector": rows[3], "inputBiasVector": bias}, matrix(img, rows, bias), 2e-6)

    tint = to_linear(0.5 * np.array([1.351, 1.203, 0.937])) / to_linear(0.5)
    sepia = np.zeros((4, 4)); sepia[3, 3] = 1
    sepia[:3, :3] = np.outer(tint, LUMA)
    k = 0.7
    add("sepiatone", "CISepiaTone", {"inputIntensity": k}, img + k * (matrix(img, sepia) - img), 2e-6)

    ev = 0.8
    exposed = img.copy(); exposed[..., :3] *= 2 ** ev
    add("exposure", "CIExposureAdjust", {"inputEV": ev}, exposed, 2e-6)

    s, b, c, pivot = 1.4, 0.05, 1.2, float(to_linear(0.5))
    y = (img[..., :3] @ LUMA)[..., None]
    rgb = y + s * (img[..., :3] - y)
    rgb = (rgb + b - pivot) * c + pivot
    add("colorcontrols", "CIColorControls", {"inputSaturation": s, "inputBrightness": b, "inputContrast": c},
        np.concatenate([rgb, img[..., 3:]], axis=2), 2e-6)

    color, intensity = np.array([0.6, 0.45, 0.3]), 0.8
    e = from_linear(img[..., :3])
    l = (e @ LUMA)[..., None]
    tinted = np.where(l < 0.5, 2 * l * color, 1 - 2 * (1 - l) * (1 - color))
    mono = to_linear(e + intensity * (tinted - e))
    add("monochrome", "CIColorMonochrome", {"inputColor": [0.6, 0.45, 0.3, 1], "inputIntensity": intensity},
        np.concatenate([mono, img[..., 3:]], axis=2), 1e-4)

    add("invert", "CIColorInvert", {}, np.concatenate([to_linear(1 - e), img[..., 3:]], axis=2), 1e-4)

    levels = 5
    poster = to_linear(np.floor(e * levels + 0.5) / levels)
    add("posterize", "CIColorPosterize", {"inputLevels": levels}, np.concatenate([poster, img[..., 3:]], axis=2), 1e-4)

    add("gaussian-exact", "CIGaussianBlur", {"inputRadius": 1.5}, gaussian(img, 1.5), 1e-5)
    # Large Gaussians are four extended boxes (Gwosdek et al. 2011), which only approximate the Gaussian: the
    # scheme, computed here, must be matched closely, and the exact result within the scheme's own distance from
    # it on this input (1 % more, rounded up to 1e-4).
    boxes = extended_boxes(img, 6)
    far = np.abs(boxes - gaussian(img, 6)).max(axis=2)
    add("gaussian-boxes", "CIGaussianBlur", {"inputRadius": 6}, gaussian(img, 6), ceil4(far.max() * 1.01),
        ceil4(far.mean() * 1.01))
    add("gaussian-boxes-scheme", "CIGaussianBlur", {"inputRadius": 6}, boxes, 2e-5)

    add("box-integer", "CIBoxBlur", {"inputRadius": 3},
        per_channel(img, lambda ch: ndimage.uniform_filter(ch, size=7, mode="nearest")), 1e-5)
    weights = np.array([0.5, 1, 1, 1, 1, 1, 0.5]); weights /= weights.sum()
    add("box-fractional", "CIBoxBlur", {"inputRadius": 2.5}, per_channel(img, lambda ch: ndimage.convolve1d(
        ndimage.convolve1d(ch, weights, axis=1, mode="nearest"), weights, axis=0, mode="nearest")), 1e-5)

    radius, amount = 2.0, 0.8
    add("unsharp", "CIUnsharpMask", {"inputRadius": radius, "inputIntensity": amount},
        img + amount * (img - gaussian(img, radius)), 2e-5)

    sharpness, r = 0.6, 1.69
    delta = sharpness * ((img[..., :3] @ LUMA) - (gaussian(img, r)[..., :3] @ LUMA))
    sharp = img.copy(); sharp[..., :3] += delta[..., None]
    add("sharpen-luminance", "CISharpenLuminance", {"inputSharpness": sharpness, "inputRadius": r}, sharp, 2e-5)

    add("pixellate", "CIPixellate", {"inputCenter": [7, 5], "inputScale": 6}, pixellate(img, 7, 5, 6), 2e-6)

    scale = 0.37
    ow, oh = round(w * scale), round(h * scale)
    wx, wy = lanczos_weights(w, ow), lanczos_weights(h, oh)
    lanczos = np.einsum("oi,ijc,pj->opc", wy, img, wx)
    add("lanczos", "CILanczosScaleTransform", {"inputScale": scale}, lanczos, 2e-5)

    add("crop", "CICrop", {"inputRectangle": [5, 7, 30, 20]}, img[7:27, 5:35], 0, 0, rect=(5, 7, 30, 20))

    angle = 0.5
    ca, sa = math.cos(angle), math.sin(angle)
    rotated, rect = affine(img, ca, sa, -sa, ca, 10.0, -4.0)
    add("affine-rotation", "CIAffineTransform", {"inputTransform": [ca, sa, -sa, ca, 10.0, -4.0]}, rotated, 2e-5, rect=rect)

    rng = np.random.default_rng(7)
    n = 5
    cube = rng.uniform(0, 1, (n, n, n, 4)); cube[..., 3] = 1  # indexed [b, g, r]
    coords = np.clip(img[..., :3], 0, 1) * (n - 1)
    looked = np.stack([ndimage.map_coordinates(cube[..., ch], [coords[..., 2].ravel(), coords[..., 1].ravel(),
                                                                 coords[..., 0].ravel()], order=1).reshape(h, w)
                       for ch in range(4)], axis=2)
    add("colorcube", "CIColorCube", {"inputCubeDimension": n, "inputCubeData": cube.reshape(-1).tolist()}, looked, 2e-6)

    # Vibrance: Y + (1 + amount (1 − s)) (rgb − Y), s the HSV saturation.
    amount = 0.7
    rgb = img[..., :3]
    hi, lo = rgb.max(axis=2), rgb.min(axis=2)
    sat = np.where(hi > 0, np.clip((hi - lo) / np.where(hi > 0, hi, 1), 0, 1), 0)
    y = (rgb @ LUMA)[..., None]
    vib = y + (1 + amount * (1 - sat))[..., None] * (rgb - y)
    add("vibrance", "CIVibrance", {"inputAmount": amount}, np.concatenate([vib, img[..., 3:]], axis=2), 2e-6)
    add("vibrance-negative", "CIVibrance", {"inputAmount": -0.8},
        np.concatenate([y + (1 - 0.8 * (1 - sat))[..., None] * (rgb - y), img[..., 3:]], axis=2), 2e-6)

    # Temperature and tint: Bradford adaptation between white points on Kim et al.'s Planckian locus, moved by
    # tint / 3000 along the locus normal in CIE 1960 uv (towards green for positive tints).
    for name, neutral, target in [("temperature-warm", (6500, 0), (4200, 20)), ("temperature-cool", (3200, -30), (9000, 10))]:
        m = temperature_matrix(neutral, target)
        add(name, "CITemperatureAndTint", {"inputNeutral": list(neutral), "inputTargetNeutral": list(target)},
            np.concatenate([rgb @ m.T, img[..., 3:]], axis=2), 1e-6)

    # Tone curve: SciPy's PCHIP on sRGB-encoded values, straight lines with the end slopes outside the points.
    pts = np.array([[0.12, 0.03], [0.3, 0.2], [0.5, 0.55], [0.8, 0.85], [0.95, 1.0]])
    pchip = PchipInterpolator(pts[:, 0], pts[:, 1], extrapolate=False)
    slope = pchip.derivative()
    d0, d4 = float(slope(pts[0, 0])), float(slope(pts[-1, 0]))

    def curve(v):
        inside = pchip(np.clip(v, pts[0, 0], pts[-1, 0]))
        return np.where(v < pts[0, 0], pts[0, 1] + d0 * (v - pts[0, 0]),
                        np.where(v > pts[-1, 0], pts[-1, 1] + d4 * (v - pts[-1, 0]), inside))

    toned = np.sign(curve(e)) * to_linear(np.abs(curve(e)))
    add("tonecurve", "CIToneCurve", {f"inputPoint{i}": list(pts[i]) for i in range(5)},
        np.concatenate([toned, img[..., 3:]], axis=2), 1e-5, 1e-6)

    # Noise reduction: blend towards a Gaussian of sigma 1.5 where the sRGB-encoded luminance changes little in
    # the 3×3 neighbourhood, unsharp-mask where it changes much, with smoothstep(n/2, 3n/2, change) between.
    level, sharpness = 0.01, 0.8
    blurred = gaussian(img, 1.5)
    change = np.abs(from_linear(img[..., :3] @ LUMA) - from_linear(blurred[..., :3] @ LUMA))
    change = ndimage.maximum_filter(change, size=3, mode="nearest")
    u = np.clip((change - level / 2) / level, 0, 1)
    edge = u * u * (3 - 2 * u)
    reduced = blurred + (edge * (1 + sharpness))[..., None] * (img - blurred)
    reduced[..., 3] = img[..., 3]
    add("noisereduction", "CINoiseReduction", {"inputNoiseLevel": level, "inputSharpness": sharpness}, reduced, 1e-5, 1e-6)

    # Film grain (Sepia's own, SepiaFilmGrain): the PCG-hashed value noise written out again here, in float32
    # as the engine computes it, then the mid-tone-weighted offset of the encoded channels.
    for name, amount, size, seed in [("filmgrain", 0.8, 1.5, 0), ("filmgrain-coarse", 1.0, 3.7, 12345),
                                     ("filmgrain-fine", 0.6, 0.3, 4000000000)]:
        add(name, "SepiaFilmGrain", {"inputAmount": amount, "inputSize": size, "inputSeed": seed},
            film_grain(img, amount, size, seed), 1e-4, 1e-5)

    with open(os.path.join(OUT, "index.json"), "w") as f:
        json.dump({"input": {"file": "input.f32", "width": w, "height": h},
                   "generator": "scripts/references/filter_references.py (NumPy/SciPy)", "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()

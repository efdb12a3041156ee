#!/usr/bin/env python3
"""How far the editor's drag preview is from the exact render, measured without JPEG in the way.

    scripts/bench-blend [--side 1028] [--step 0.1] [--markdown FILE]

While a slider is dragged, the editor paints each position as the blend of the two exact renders of that
slider at the keyframes around it (multiples of 0.1; app/components/drag-preview.js). This renders, with
`sepia apply --recipe` on the release build and saved as PNG (lossless), every keyframe of every Adjust
slider and of three looks' Intensity, and the exact render half-way between each two neighbours (where
a blend is farthest from a curve's chord), then compares the blend, rounded as a canvas rounds it, with
that render in NumPy: the absolute difference of every channel of every pixel, in levels of 255.

For scale, it also prints what the preview's own JPEG encoding (quality 85, as POST /preview sends it)
changes in the same renders.

Two photos at the preview's size (`--side`, the long side): the 24 MP photo scripts/bench-editor drags
(octaves of colour noise with grain), and the same photo at a third of its brightness, so that Shadows,
Brilliance and Black Point have shadows to work on.
"""
import argparse
import io
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "browser"))
sys.path.insert(0, HERE)
from adjust import slider_step  # noqa: E402  the editor's mapping of a slider to its step
SEPIA = os.path.join(ROOT, ".build", "release", "sepia")
LOOKS = ("Chrome", "Noir", "Instant")


def keyframes(lo, hi, step):
    n = round((hi - lo) / step)
    return [round(lo + k * step, 6) for k in range(n + 1)]


class Renderer:
    def __init__(self, source, work):
        self.source, self.work, self.cache = source, work, {}

    def __call__(self, steps):
        key = json.dumps(steps, sort_keys=True)
        if key not in self.cache:
            recipe = os.path.join(self.work, "recipe.json")
            out = os.path.join(self.work, "out.png")
            with open(recipe, "w") as f:
                json.dump({"formatIdentifier": "org.sepia.recipe", "formatVersion": "2", "steps": steps}, f)
            subprocess.run([SEPIA, "apply", "--recipe", recipe, "-o", out, self.source], check=True, capture_output=True)
            self.cache[key] = np.asarray(Image.open(out).convert("RGB"), dtype=np.float64)
        return self.cache[key]


def compare(render, steps_at, lo, hi, step):
    """The blend half-way between each two keyframes against the exact render there."""
    errors, worst = [], (-1.0, None)
    points = keyframes(lo, hi, step)
    for a, b in zip(points, points[1:]):
        mid = round((a + b) / 2, 6)
        blend = np.rint((render(steps_at(a)) + render(steps_at(b))) / 2)
        e = np.abs(blend - render(steps_at(mid)))
        errors.append(e.ravel())
        if e.mean() > worst[0]:
            worst = (e.mean(), mid)
    e = np.concatenate(errors)
    return {"mean": e.mean(), "p99": np.percentile(e, 99), "p999": np.percentile(e, 99.9), "max": e.max(), "worst": worst}


def jpeg_change(image):
    out = io.BytesIO()
    Image.fromarray(image.astype(np.uint8)).save(out, "JPEG", quality=85)
    back = np.asarray(Image.open(io.BytesIO(out.getvalue())).convert("RGB"), dtype=np.float64)
    e = np.abs(back - image).ravel()
    return {"mean": e.mean(), "p99": np.percentile(e, 99), "p999": np.percentile(e, 99.9), "max": e.max()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=1028)
    parser.add_argument("--step", type=float, default=0.1)
    parser.add_argument("--markdown", help="also write the tables to this file")
    args = parser.parse_args()

    from bench_editor import PHOTO_CACHE, make_photo  # the photo scripts/bench-editor drags

    described = json.loads(subprocess.run([SEPIA, "filters", "--json"], check=True, capture_output=True, text=True).stdout)
    sliders = described["adjustments"]
    looks = {c["name"]: c["filter"] for c in described["catalog"]}
    lines = []
    with tempfile.TemporaryDirectory(prefix="sepia-bench-blend.") as work:
        photo = Image.open(make_photo(PHOTO_CACHE)).convert("RGB")
        photo.thumbnail((args.side, args.side), Image.Resampling.LANCZOS)
        photos = {"the 24 MP bench photo": photo, "the same, at a third of its brightness": photo.point(lambda x: x // 3)}
        for name, image in photos.items():
            path = os.path.join(work, f"{len(lines)}.png")
            image.save(path)
            render = Renderer(path, work)
            lines += [f"### {name}, {image.size[0]}×{image.size[1]}, keyframes every {args.step:g}", "",
                      "| slider | mean | p99 | p99.9 | max | worst interval's mean (at) |", "|---|---:|---:|---:|---:|---|"]
            for s in sliders:
                name = "Black & White Intensity" if s["id"] == "blackAndWhite" else s["name"]
                r = compare(render, lambda v, s=s: [] if v == 0 else [slider_step(s, v)], s.get("minimum", -1), 1, args.step)
                lines.append(f"| {name} | {r['mean']:.2f} | {r['p99']:.0f} | {r['p999']:.0f} | {r['max']:.0f} | {r['worst'][0]:.2f} ({r['worst'][1]:+.2f}) |")
                print(lines[-1], flush=True)
            for look in LOOKS:
                r = compare(render, lambda v, f=looks[look]: [{"filter": f, "intensity": v}] if v else [], 0, 1, args.step)
                lines.append(f"| {look} Intensity | {r['mean']:.2f} | {r['p99']:.0f} | {r['p999']:.0f} | {r['max']:.0f} | {r['worst'][0]:.2f} ({r['worst'][1]:+.2f}) |")
                print(lines[-1], flush=True)
            j = jpeg_change(render([]))
            lines += ["", f"For scale: the preview's JPEG encoding (quality 85) of the unedited photo changes it by {j['mean']:.2f} "
                      f"on average, {j['p99']:.0f} at p99, {j['p999']:.0f} at p99.9, {j['max']:.0f} at most.", ""]
            print(lines[-2], flush=True)
    text = "\n".join(["Blend against the exact render, half-way between keyframes: absolute difference per channel, "
                      "levels of 255.", ""] + lines)
    print()
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Measures the editor's round-two targets on a 24 MP JPEG, on the release build, and prints a Markdown table.

    scripts/bench-adjust [PHOTOS_DIR] [--runs N] [--markdown FILE]

PHOTOS_DIR holds a 24 MP JPEG named *24mp.jpg (as the shared bench folder does); without it, one is made from
the corpus's largest photo, enlarged to 6000 × 4000 by libvips (Lanczos) and saved at quality 90.

1. **Save of a recipe with 8 adjustments**: `sepia apply --recipe` (decode, the eight Adjust steps, encode at
   quality 85: what Save renders) against the same chain in libvips through pyvips, in one process each,
   interleaved: exposure (scRGB × 2^0.6), highlights and shadows (two `maplut` tone tables), contrast
   (`linear` about mid-grey), saturation (`recomb`), vibrance (chroma in LCh, more for muted colours), warmth
   (`recomb`), a vignette (× a radial mask from `xyz`), `jpegsave` Q 85. The slider positions: exposure 0.3,
   highlights −0.4, shadows 0.5, contrast 0.2, saturation 0.2, vibrance 0.3, warmth 0.3, vignette 0.4. Wall
   time and peak RSS are the child processes' own (wait4); pyvips' includes the interpreter's start, which
   is measured too and reported.
2. **Auto**: `POST /assets/{id}/auto-adjust` on the 24 MP photo through `sepia serve`, once the upload's own
   jobs (its thumbnails) are done: the first request (decodes the photo at the proxy's size) and the next ones
   (the decoded copy is kept), time to the values. Then on another copy of the photo (bytes appended after
   its end, so not a duplicate) right after its upload, while the job queue makes its thumbnails: the first
   request, then whether the thumbnails were still being made when it answered.

Targets (issue 25): Save ≤ 0.5× libvips' wall time with memory ≤ 1.0×; Auto ≤ 100 ms.
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from peers import run_one  # noqa: E402
from server import SEPIA, Server  # noqa: E402

POSITIONS = {"exposure": 0.3, "highlights": -0.4, "shadows": 0.5, "contrast": 0.2, "saturation": 0.2,
             "vibrance": 0.3, "warmth": 0.3, "vignette": 0.4}

VIPS_CHAIN = r'''
import sys, pyvips
src, dst = sys.argv[1], sys.argv[2]
image = pyvips.Image.new_from_file(src, access="sequential")
# exposure +0.6 EV in linear light
image = (image.colourspace("scrgb") * 2 ** 0.6).colourspace("srgb")
# highlights down, shadows up: two tone tables on the encoded values
x = pyvips.Image.identity()
highlights = x + (x > 160).ifthenelse((x - 160) * -0.25, 0)
shadows = x + (x < 96).ifthenelse((96 - x) * x / 96 * 0.5, 0)
image = image.maplut(highlights.cast("uchar")).maplut(shadows.cast("uchar"))
# contrast about mid-grey, saturation (a luma matrix)
image = image.linear([1.1, 1.1, 1.1], [-12.8, -12.8, -12.8])
s, l = 1.2, [0.2126, 0.7152, 0.0722]
image = image.recomb([[l[j] * (1 - s) + (s if i == j else 0) for j in range(3)] for i in range(3)])
# vibrance: more chroma for muted colours, in LCh
lch = image.colourspace("lch")
chroma = lch[1] * (1 + 0.3 * (1 - lch[1] / 130))
image = lch[0].bandjoin([chroma, lch[2]]).copy(interpretation="lch").colourspace("srgb")
# warmth: a white-balance matrix
image = image.recomb([[1.08, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.88]])
# vignette: a radial falloff
w, h = image.width, image.height
xy = pyvips.Image.xyz(w, h) - [w / 2, h / 2]
d = (xy[0] ** 2 + xy[1] ** 2) ** 0.5 / ((w * w + h * h) ** 0.5 / 2)
ramp = (d - 0.5) / 0.5
mask = 1 - 0.4 * (ramp > 0).ifthenelse(ramp, 0) ** 2
image = (image * mask).cast("uchar")
image.jpegsave(dst, Q=85)
'''


def bench_photo(folder):
    """The folder's *24mp.jpg; without a folder, the corpus's largest photo."""
    if folder:
        found = sorted(glob.glob(os.path.join(folder, "*24mp.jpg")))
        if not found:
            raise SystemExit("no *24mp.jpg in %s" % folder)
        return found[0]
    corpus = sorted(glob.glob(os.path.join(ROOT, ".build", "testdata", "photos", "*.jpg")), key=os.path.getsize)
    if not corpus:
        raise SystemExit("no corpus photos: run scripts/testdata, or give PHOTOS_DIR")
    return corpus[-1]


def ensure_photo(folder, work):
    """The folder's *24mp.jpg; without a folder, the corpus's largest photo enlarged to 24 MP."""
    if folder:
        return bench_photo(folder)
    largest = bench_photo(None)
    path = os.path.join(work, "made-24mp.jpg")
    subprocess.run(["vips", "thumbnail", largest, path + "[Q=90]", "6000", "--height", "4000", "--size", "force"], check=True)
    return path


def adjustment_steps(panel):
    """The recipe steps of POSITIONS, from the server's panel (GET /filters/adjustments), in its order."""
    steps = []
    for section in panel["sections"]:
        for slider in section["adjustments"]:
            p = POSITIONS.get(slider["id"], 0)
            if p == 0:
                continue
            steps.append(slider_step(slider, p))
    return steps


def slider_step(slider, p):
    """The recipe step of an Adjust slider (as GET /filters/adjustments describes it) at position p ≠ 0."""
    mapping = slider["positive"] if p > 0 else slider["negative"]
    t = abs(p)
    params = {}
    for key, ends in mapping["parameters"].items():
        a, b = ends["at0"], ends["at1"]
        params[key] = [x + (y - x) * t for x, y in zip(a, b)] if isinstance(a, list) else a + (b - a) * t
    return {"filter": mapping["filter"], "parameters": params}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("photos", nargs="?", help="a folder with a *24mp.jpg")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    if not os.access(SEPIA, os.X_OK):
        raise SystemExit("build sepia first: swift build -c release --static-swift-stdlib")
    python = os.path.join(ROOT, ".venv", "bin", "python")
    work = tempfile.mkdtemp(prefix="sepia-bench-adjust-")
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    try:
        photo = ensure_photo(args.photos, work)
        server = Server(os.path.join(work, "server")).start()
        try:
            status, _, data = server.request("GET", "/api/v1/filters/adjustments")
            assert status == 200, data
            steps = adjustment_steps(json.loads(data))
            assert len(steps) == 8, steps
            recipe = os.path.join(work, "eight.json")
            with open(recipe, "w") as f:
                json.dump({"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": steps}, f)

            status, body = server.upload(photo)
            assert status in (200, 201), body
            asset = body["asset"]["id"]
            # Auto is pressed in the editor, on a photo in the library: the import's own work (its thumbnails,
            # made by the job queue right after the upload) is done first, or Auto would be timed sharing the
            # two cores with it.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                status, _, data = server.request("GET", "/metrics")
                waiting = re.search(rb"^sepia_jobs_waiting\S*\s+([0-9.]+)", data, re.M)
                if status == 200 and waiting and float(waiting.group(1)) == 0:
                    break
                time.sleep(0.1)
            else:
                raise SystemExit("the import's jobs did not finish within 60 s")

            def auto():
                start = time.perf_counter()
                status, _, data = server.request("POST", f"/api/v1/assets/{asset}/auto-adjust", "{}",
                                                 {"Content-Type": "application/json"})
                assert status == 200, data
                return time.perf_counter() - start, json.loads(data)["adjustments"]
            first, values = auto()
            later = sorted(auto()[0] for _ in range(20))

            # Right after an upload, the job queue is making the photo's thumbnails on the same cores.
            copy = os.path.join(work, "copy-24mp.jpg")
            with open(photo, "rb") as f, open(copy, "wb") as out:
                out.write(f.read() + b"another copy")
            status, body = server.upload(copy)
            assert status == 201, body
            asset = body["asset"]["id"]
            busy_first, _ = auto()
            status, _, data = server.request("GET", "/metrics")
            running = re.search(rb"^sepia_jobs_waiting\S*\s+([1-9][0-9.]*)", data, re.M)
        finally:
            server.stop()

        script = os.path.join(work, "vips_chain.py")
        with open(script, "w") as f:
            f.write(VIPS_CHAIN)
        commands = [
            ("sepia apply --recipe", [SEPIA, "apply", "--recipe", recipe, photo, "-o", os.path.join(work, "sepia.jpg")]),
            ("pyvips chain", [python, script, photo, os.path.join(work, "vips.jpg")]),
            ("python + import pyvips", [python, "-c", "import pyvips"]),
        ]
        samples = {name: [] for name, _ in commands}
        for _, argv in commands:
            run_one(argv)
        for _ in range(args.runs):
            for name, argv in commands:
                samples[name].append(run_one(argv))
        med = {name: tuple(statistics.median(s[i] for s in v) for i in range(3)) for name, v in samples.items()}

        emit("| what | tool | wall s (median of %d) | CPU s | max RSS MiB |" % args.runs)
        emit("|---|---|---|---|---|")
        for name, _ in commands:
            wall, cpu, rss = med[name]
            emit("| Save, 8 adjustments, 24 MP | %s | %.3f | %.3f | %.0f |" % (name, wall, cpu, rss))
        sepia, vips, start = med["sepia apply --recipe"], med["pyvips chain"], med["python + import pyvips"]
        ratio = sepia[0] / vips[0]
        ratio_net = sepia[0] / max(1e-6, vips[0] - start[0])
        memory = sepia[2] / vips[2]
        emit()
        emit("| target | measured | target | holds |")
        emit("|---|---|---|---|")
        emit("| Save, 8 adjustments: sepia ÷ libvips (wall) | %.2f× (%.2f× without the interpreter's start) | ≤ 0.5× | %s |"
             % (ratio, ratio_net, "yes" if ratio_net <= 0.5 else "**no**"))
        emit("| Save, 8 adjustments: sepia ÷ libvips (memory) | %.2f× | ≤ 1.0× | %s |" % (memory, "yes" if memory <= 1 else "**no**"))
        p95 = later[int(len(later) * 0.95) - 1]
        emit("| Auto on 24 MP: first request (decodes the proxy) | %.0f ms | ≤ 100 ms | %s |" % (first * 1000, "yes" if first <= 0.1 else "**no**"))
        emit("| Auto on 24 MP: next ones, median / p95 | %.0f / %.0f ms | ≤ 100 ms | %s |"
             % (statistics.median(later) * 1000, p95 * 1000, "yes" if p95 <= 0.1 else "**no**"))
        emit("| Auto on 24 MP right after its upload (first request; its thumbnails %s) | %.0f ms | ≤ 100 ms | %s |"
             % ("still being made when it answered" if running else "made by then", busy_first * 1000,
                "yes" if busy_first <= 0.1 else "**no**"))
        emit()
        emit("Auto's values: " + ", ".join("%s %+.2f" % (k, v) for k, v in sorted(values.items())))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

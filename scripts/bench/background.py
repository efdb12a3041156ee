#!/usr/bin/env python3
"""Measures editing while the server's job queue works: previews and Auto on a photo while an import's
thumbnails are being made, against the same on a quiet server, on the release build; prints a Markdown table.

    scripts/bench-background [PHOTOS_DIR] [--copies N] [--seconds S] [--markdown FILE]

PHOTOS_DIR holds a 24 MP JPEG named *24mp.jpg (as the shared bench folder does); without it, the corpus's
largest photo is used as it is.

1. The photo and N + 1 copies of it (bytes appended after each one's end, so none is a duplicate) are uploaded
   to a server started with `--job-workers 0`: N + 2 jobs making their 1440 px previews wait in the queue.
2. The server is started again with its job worker, and the first photo is opened in the editor: its first
   preview is made (not timed), so its decoded copy is kept.
3. **Busy**: for S seconds, previews of that photo at 1024 px, one after the other, Exposure stepping by 0.05
   as a slider's keyframes do; then Auto on a copy (its first request, which decodes it); then the time the
   queue takes to empty.
4. **Quiet**: the same S seconds of previews, and Auto on another copy.

What Sepia promises: background work (the job queue's renders, a video's playable version) makes way for the
renders a person waits for (RenderPriority), so the busy numbers stay close to the quiet ones, while the queue
still empties.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from adjust import bench_photo  # noqa: E402
from server import SEPIA, Server  # noqa: E402


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, int(round(p * len(ordered))) - 1))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("photos", nargs="?", help="a folder with a *24mp.jpg")
    parser.add_argument("--copies", type=int, default=96, help="photos uploaded to fill the job queue")
    parser.add_argument("--seconds", type=float, default=3, help="how long previews are asked for, each time")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    if not os.access(SEPIA, os.X_OK):
        raise SystemExit("build sepia first: scripts/build-release")
    photo = bench_photo(args.photos)
    with open(photo, "rb") as f:
        original = f.read()
    work = tempfile.mkdtemp(prefix="sepia-bench-background-")
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    def upload(tag):
        path = os.path.join(work, "copy-%s.jpg" % tag)
        with open(path, "wb") as f:
            f.write(original + b"copy " + tag.encode())
        status, body = server.upload(path)
        assert status == 201, body
        return body["asset"]["id"]

    def timed(method, path, body):
        start = time.perf_counter()
        status, _, data = server.request(method, path, json.dumps(body), {"Content-Type": "application/json"})
        assert status == 200, data[:300]
        return (time.perf_counter() - start) * 1000

    position = [0.0]

    def preview(asset):
        # A slider's keyframes: Exposure 0.05 apart, back and forth between -1 and 1.
        position[0] = position[0] + 0.05 if position[0] < 1 else -1.0
        recipe = {"formatIdentifier": "org.sepia.recipe", "formatVersion": "1",
                  "steps": [{"filter": "CIExposureAdjust", "parameters": {"inputEV": round(position[0], 2)}}]}
        return timed("POST", "/api/v1/assets/%s/preview" % asset, {"recipe": recipe, "size": "1024x1024"})

    def previews_for(asset, seconds):
        samples = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            samples.append(preview(asset))
        return samples

    def auto(asset):
        return timed("POST", "/api/v1/assets/%s/auto-adjust" % asset, {})

    try:
        # The uploads queue their jobs on a server that does none, so that each build faces the same backlog.
        server = Server(os.path.join(work, "server"), options=["--job-workers", "0"]).start()
        try:
            edited = upload("edited")
            copies = [upload("busy-%d" % i) for i in range(args.copies)]
            quiet_auto_asset = upload("quiet-auto")
            queued = server.jobs_waiting()
        finally:
            server.stop()
        server = Server(os.path.join(work, "server"), token=server.token).start()
        try:
            preview(edited)  # the editor is opened: the photo's decoded copy is made (not timed)
            busy = previews_for(edited, args.seconds)
            busy_auto = auto(copies[0])
            left = server.jobs_waiting()
            start = time.monotonic()
            server.wait_for_jobs()
            drained = time.monotonic() - start
            quiet = previews_for(edited, args.seconds)
            quiet_auto = auto(quiet_auto_asset)
        finally:
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    emit("Photo: %s (%.1f MB); %d copies uploaded to fill the job queue; previews at 1024 px for %g s each time."
         % (os.path.basename(photo), len(original) / 1e6, args.copies, args.seconds))
    emit()
    emit("| what | quiet server | while the queue makes thumbnails | busy ÷ quiet |")
    emit("|---|---:|---:|---:|")
    for name, q, b in (
        ("preview, median ms", statistics.median(quiet), statistics.median(busy)),
        ("preview, p95 ms", percentile(quiet, 0.95), percentile(busy, 0.95)),
        ("Auto, first request, ms", quiet_auto, busy_auto),
    ):
        emit("| %s | %.0f | %.0f | %.2f× |" % (name, q, b, b / q))
    emit("| previews made | %d | %d | |" % (len(quiet), len(busy)))
    emit()
    emit("Jobs queued: %d; still queued when the busy previews and Auto were done: %d; the queue was empty %.1f s"
         " later." % (queued, left, drained))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

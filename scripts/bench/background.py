#!/usr/bin/env python3
"""Measures editing while the server's job queue works: previews and Auto on a photo while an import's
thumbnails are being made (and, with --faces, while its faces are found), against the same on a quiet server, on
the release build; prints a Markdown table.

    scripts/bench-background [PHOTOS_DIR] [--copies N] [--seconds S] [--markdown FILE]
    scripts/bench-background [PHOTOS_DIR] --faces [--count N] [--megapixels MP] [--seconds S] [--markdown FILE]

PHOTOS_DIR holds a 24 MP JPEG named *24mp.jpg (as the shared bench folder does); without it, the corpus's
largest photo is used as it is.

1. The photo and N + 1 copies of it (bytes appended after each one's end, so none is a duplicate) are uploaded
   to a server started with `--job-workers 0`: N + 2 jobs making their 1440 px previews wait in the queue.
   Faces are turned off for the library first (`PUT /people/settings`), so that the queue holds renditions only.
2. The server is started again with its job worker, and the first photo is opened in the editor: its first
   preview is made (not timed), so its decoded copy is kept.
3. **Busy**: for S seconds, previews of that photo at 1024 px, one after the other, Exposure stepping by 0.05
   as a slider's keyframes do; then Auto on a copy (its first request, which decodes it); then the time the
   queue takes to empty.
4. **Quiet**: the same S seconds of previews, and Auto on another copy.

With **--faces**, the import is N photos with faces (default 1 000 distinct JPEGs of 3 MP with 1 to 5 faces each,
made at bench time by scripts/bench/face_photos.py, seeded), uploaded with faces on, besides the photo and three
copies of it: the queue holds their previews and the library's `faces` job. Once the server has its job worker,
the busy previews and Auto are measured twice: at once (previews and faces being made) and again once the
previews are all made and the `faces` job alone works. Then the time until `GET /api/v1/people/status` says
every item was searched (`assetsToIndex` 0), from the start of the server with its job worker: the time a
1 000-photo import's faces take on this machine, which the issue asks to state; and the server's peak memory.

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
import face_photos  # noqa: E402
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
    parser.add_argument("--faces", action="store_true", help="import photos with faces, faces on")
    parser.add_argument("--count", type=int, default=1000, help="with --faces: the photos with faces imported")
    parser.add_argument("--megapixels", type=float, default=3.0, help="with --faces: their size")
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

    def people_status():
        status, _, data = server.request("GET", "/api/v1/people/status")
        assert status == 200, data[:300]
        return json.loads(data)

    def set_faces(enabled):
        status, _, data = server.request("PUT", "/api/v1/people/settings", json.dumps({"enabled": enabled}),
                                         {"Content-Type": "application/json"})
        assert status == 200, data[:300]

    def upload_file(path):
        status, body = server.upload(path)
        assert status == 201, body
        return body["asset"]["id"]

    def wait_until(condition, what, timeout):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError("%s did not happen within %d s" % (what, timeout))
            time.sleep(0.25)

    face_files = []
    if args.faces:
        folder = os.path.join(ROOT, ".build", "bench-faces", "%dx%gmp-seed2" % (args.count, args.megapixels))
        print("Making %d photos with faces in %s…" % (args.count, folder), file=sys.stderr, flush=True)
        face_files = [os.path.join(folder, f) for f in face_photos.make(folder, args.count, args.megapixels, seed=2)]
    faces = None
    try:
        # The uploads queue their jobs on a server that does none, so that each build faces the same backlog.
        server = Server(os.path.join(work, "server"), options=["--job-workers", "0"]).start()
        try:
            set_faces(args.faces)
            edited = upload("edited")
            if args.faces:
                copies = [upload("busy-auto"), upload("faces-auto")]
                start = time.monotonic()
                for n, path in enumerate(face_files):
                    upload_file(path)
                    if (n + 1) % 200 == 0:
                        print("  %d of %d uploaded" % (n + 1, len(face_files)), file=sys.stderr, flush=True)
                uploaded = time.monotonic() - start
            else:
                copies = [upload("busy-%d" % i) for i in range(args.copies)]
            quiet_auto_asset = upload("quiet-auto")
            queued = server.jobs_waiting()
        finally:
            server.stop()
        server = Server(os.path.join(work, "server"), token=server.token).start()
        started = time.monotonic()
        try:
            preview(edited)  # the editor is opened: the photo's decoded copy is made (not timed)
            busy = previews_for(edited, args.seconds)
            busy_auto = auto(copies[0])
            left = server.jobs_waiting()
            if args.faces:
                # The previews are made first; the faces job then runs alone (it waits behind the jobs due).
                wait_until(lambda: server.jobs_waiting() <= 1, "the previews of the import", 3600)
                previews_done = time.monotonic() - started
                searched_before = people_status()["indexedAssets"]
                faces_busy = previews_for(edited, args.seconds)
                faces_auto = auto(copies[1])
                progress = [time.monotonic()]

                def faces_done():
                    status = people_status()
                    if time.monotonic() - progress[0] > 60:
                        progress[0] = time.monotonic()
                        print("  faces: %d of %d items searched" % (
                            status["indexedAssets"], status["indexedAssets"] + status["assetsToIndex"]),
                            file=sys.stderr, flush=True)
                    return status["assetsToIndex"] == 0

                wait_until(faces_done, "the faces of the import", 4 * 3600)
                faces_time = time.monotonic() - started
                faces = people_status()
                faces_peak = server.peak_rss_mb()
            start = time.monotonic()
            server.wait_for_jobs(timeout=3600)
            drained = time.monotonic() - start
            quiet = previews_for(edited, args.seconds)
            quiet_auto = auto(quiet_auto_asset)
        finally:
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    if args.faces:
        emit("Photo edited: %s (%.1f MB); imported: %d photos with faces (%g MP, made by scripts/bench/face_photos.py, "
             "seed 2) and 3 copies of the edited photo, uploaded in %.0f s to a server without job workers; previews at "
             "1024 px for %g s each time; %d cores." % (
                 os.path.basename(photo), len(original) / 1e6, len(face_files), args.megapixels, uploaded, args.seconds,
                 os.cpu_count() or 1))
    else:
        emit("Photo: %s (%.1f MB); %d copies uploaded to fill the job queue (faces off); previews at 1024 px for %g s "
             "each time." % (os.path.basename(photo), len(original) / 1e6, args.copies, args.seconds))
    emit()
    columns = [("while the queue makes thumbnails" + (" (and faces)" if args.faces else ""), busy, busy_auto)]
    if args.faces:
        columns.append(("while the faces job runs alone", faces_busy, faces_auto))
    emit("| what | quiet server | " + " | ".join("%s | busy ÷ quiet" % name for name, _, _ in columns) + " |")
    emit("|---|---:|" + "---:|---:|" * len(columns))
    for name, measure in (
        ("preview, median ms", statistics.median),
        ("preview, p95 ms", lambda samples: percentile(samples, 0.95)),
    ):
        q = measure(quiet)
        emit("| %s | %.0f | " % (name, q) + " | ".join("%.0f | %.2f×" % (measure(b), measure(b) / q)
                                                      for _, b, _ in columns) + " |")
    emit("| Auto, first request, ms | %.0f | " % quiet_auto + " | ".join("%.0f | %.2f×" % (a, a / quiet_auto)
                                                                        for _, _, a in columns) + " |")
    emit("| previews made | %d | " % len(quiet) + " | ".join("%d | " % len(b) for _, b, _ in columns) + " |")
    emit()
    if args.faces:
        items = faces["indexedAssets"]
        emit("Jobs queued: %d. The previews were all made %.0f s after the server started with its job worker (%d "
             "items' faces searched by then); every item's faces were found %.0f s after it started: %d items, %.2f "
             "items/s, %d faces, %d people (%d faces not yet anyone's). The server's peak memory: %.0f MiB."
             % (queued, previews_done, searched_before, faces_time, items, items / faces_time, faces["faces"],
                faces["people"], faces["unassignedFaces"], faces_peak))
    else:
        emit("Jobs queued: %d; still queued when the busy previews and Auto were done: %d; the queue was empty %.1f s"
             " later." % (queued, left, drained))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

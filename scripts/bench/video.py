#!/usr/bin/env python3
"""Times sepia's video poster and probe against ffmpegthumbnailer, ffmpeg and ffprobe, in one interleaved run.

The clips are made here by Debian's ffmpeg from its synthetic source (testsrc2) and kept in a cache folder:
a 10 s 1080p H.264 clip and a 4 s 4K HEVC 10-bit HLG clip (as an iPhone records), both with a keyframe every
second, as phones write them. Every tool runs as a whole process, as a user or a job queue would run it:

    poster 256   sepia thumbnail CLIP --size 256 -o OUT.jpg
                 ffmpegthumbnailer -i CLIP -o OUT.jpg -s 256             (its default: 10 % in)
                 ffmpeg -ss 1 -i CLIP -frames:v 1 -vf scale=256:-1 OUT.jpg
    probe        sepia info --json CLIP
                 ffprobe -show_format -show_streams CLIP

    playable     sepia playable CLIP -o OUT.mp4        (a 10 s 1080p HEVC clip with AAC audio)
                 ffmpeg -i CLIP -c:v libx264 -preset veryfast -crf 23 -c:a copy -movflags +faststart OUT.mp4

Targets, as ratios of sepia's median wall time to the peer's in the same run: the poster at most 0.5x both
peers, the probe at most 0.3x ffprobe, the playable version at most 1.05x ffmpeg (and faster than real time).

Then the import of a camera roll (`--only-import`; left out with `--no-import`): 24 photos of 12 MP (JPEG), 4 Live
Photos (a JPEG and a 3 s MOV with the same name and capture time) and 6 clips of 10 s at 1080p (3 H.264, 3 HEVC),
all distinct. sepia imports it into a new library (hashing, copying, a 1440 px preview and a 256 px thumbnail of
each item, the database); the peers' way makes the same two sizes without a library, two processes at a time as
sepia uses both cores: vipsthumbnail at 1440, then at 256 from that, for each still, and one ffmpeg per video
(poster at 1 s, split to 1440 and 256). Target: sepia at most 0.6x the peers' wall time.

Then an upload of a 2 GB clip (Motion JPEG of noise, made once by ffmpeg and kept in the cache folder) through
`POST /api/v1/assets` of a `sepia serve` on loopback, streamed from disk a megabyte at a time: the server's peak
RSS (VmHWM) may grow by less than 50 MB, and the clip must be imported. `--no-upload` leaves it out.

    scripts/bench-video [--runs N] [--markdown FILE] [--no-import] [--only-import] [--no-upload] [--only-upload]
                        [--upload-bytes N]
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from peers import run_one  # noqa: E402  (the same timing: posix_spawn, wait4's rusage)

SEPIA = os.path.join(ROOT, ".build", "release", "sepia")
SEPIA_LIBRARY = os.path.join(ROOT, ".build", "release", "sepia-library")
CACHE = os.path.join(tempfile.gettempdir(), "sepia-bench-video")

CLIPS = {
    "1080p H.264, 10 s": ("h264-1080p.mp4", [
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10",
        "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p",
        "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]),
    "1080p HEVC, 10 s": ("hevc-1080p.mov", [
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10", "-f", "lavfi", "-i", "sine=duration=10",
        "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=30", "-pix_fmt", "yuv420p",
        "-tag:v", "hvc1", "-c:a", "aac", "-shortest"]),
    "4K HEVC 10-bit HLG, 4 s": ("hevc-4k-hlg.mov", [
        "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30:duration=4",
        "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=30", "-pix_fmt", "yuv420p10le",
        "-tag:v", "hvc1", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc"]),
}


def make_clips():
    os.makedirs(CACHE, exist_ok=True)
    paths = {}
    for label, (name, arguments) in CLIPS.items():
        path = os.path.join(CACHE, name)
        if not os.path.exists(path):
            print("making %s (%s)…" % (name, label), file=sys.stderr, flush=True)
            partial = path + ".part" + os.path.splitext(name)[1]
            subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments + [partial], check=True)
            os.rename(partial, path)
        paths[label] = path
    return paths


def make_large_clip(size):
    """A Motion JPEG QuickTime movie of noise, about `size` bytes (ffmpeg stops writing at that size)."""
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, "upload-%d.mov" % size)
    if not os.path.exists(path):
        print("making a %.1f GB clip for the upload…" % (size / 1e9), file=sys.stderr, flush=True)
        partial = path + ".part.mov"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                        "testsrc2=size=1920x1080:rate=30:duration=3600", "-vf", "noise=alls=40:allf=t+u", "-c:v", "mjpeg",
                        "-q:v", "2", "-fs", str(size), partial], check=True)
        os.rename(partial, path)
    return path


def bench_upload(size, emit):
    sys.path.insert(0, HERE)
    from server import Server  # noqa: E402  (the benchmark's sepia serve on a library of its own)
    clip = make_large_clip(size)
    work = tempfile.mkdtemp(prefix="sepia-bench-upload-")
    server = Server(work).start()
    try:
        baseline = server.peak_rss_mb()
        length = os.path.getsize(clip)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=3600, blocksize=1 << 20)
        start = time.monotonic()
        with open(clip, "rb") as f:
            connection.request("POST", "/api/v1/assets?filename=" + os.path.basename(clip), body=f,
                               headers={"Authorization": "Bearer " + server.token, "Content-Length": str(length)})
            response = connection.getresponse()
            answer = response.read()
        seconds = time.monotonic() - start
        connection.close()
        peak = server.peak_rss_mb()
        created = response.status == 201 and json.loads(answer).get("asset", {}).get("mediaType") == "video"
        growth = peak - baseline
        emit()
        emit("| upload | bytes | seconds | MB/s | server peak RSS before → after | growth | imported | target | holds |")
        emit("|---|---|---|---|---|---|---|---|---|")
        emit("| %s through POST /api/v1/assets | %d | %.1f | %.0f | %.0f → %.0f MiB | %.1f MiB | %s | < 50 MB | %s |" % (
            os.path.basename(clip), length, seconds, length / seconds / 1e6, baseline, peak, growth,
            "yes" if created else "no (%d: %s)" % (response.status, answer[:200]), "yes" if created and growth < 50 else "**no**"))
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def make_roll():
    """The camera roll: made once by ffmpeg and exiftool, kept in the cache folder."""
    roll = os.path.join(CACHE, "roll")
    done = os.path.join(roll, ".complete")
    if os.path.exists(done):
        return roll
    shutil.rmtree(roll, ignore_errors=True)
    os.makedirs(roll)
    print("making a camera roll (24 photos, 4 Live Photos, 6 clips)…", file=sys.stderr, flush=True)
    quiet = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
    def photo(path, hue):
        subprocess.run(quiet + ["-f", "lavfi", "-i", "testsrc2=size=4032x3024:rate=1:duration=1", "-vf", "hue=h=%d" % hue,
                                "-frames:v", "1", "-q:v", "2", path], check=True)
    for i in range(24):
        photo(os.path.join(roll, "IMG_%04d.JPG" % (1000 + i)), i * 13)
    for i in range(4):
        stem = os.path.join(roll, "IMG_%04d" % (2000 + i))
        photo(stem + ".JPG", 200 + i * 17)
        when = "2024:05:0%d 09:30:%02d" % (i + 1, 10 + i)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=" + when, "-OffsetTimeOriginal=+02:00",
                        stem + ".JPG"], check=True)
        subprocess.run(quiet + ["-f", "lavfi", "-i", "testsrc2=size=1920x1440:rate=30:duration=3,hue=h=%d" % (200 + i * 17),
                                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                                "-movflags", "use_metadata_tags", "-metadata",
                                "com.apple.quicktime.creationdate=2024-05-0%dT09:30:%02d+0200" % (i + 1, 10 + i), stem + ".MOV"], check=True)
    for i in range(6):
        hevc = i >= 3
        codec = ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=30", "-tag:v", "hvc1"] if hevc \
            else ["-c:v", "libx264", "-preset", "veryfast", "-g", "30"]
        subprocess.run(quiet + ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10,hue=h=%d" % (i * 50),
                                "-f", "lavfi", "-i", "sine=duration=10:frequency=%d" % (300 + i * 40), "-pix_fmt", "yuv420p"]
                       + codec + ["-c:a", "aac", "-shortest", os.path.join(roll, "IMG_%04d.%s" % (3000 + i, "MOV" if hevc else "MP4"))],
                       check=True)
    open(done, "w").close()
    return roll


def bench_import(runs, emit):
    roll = make_roll()
    files = sorted(os.path.join(roll, f) for f in os.listdir(roll) if not f.startswith("."))
    stills = [f for f in files if f.endswith(".JPG")]
    videos = [f for f in files if not f.endswith(".JPG")]

    def peers():
        out = tempfile.mkdtemp(prefix="sepia-bench-peers-")
        def still(path):
            name = os.path.join(out, os.path.basename(path))
            subprocess.run(["vipsthumbnail", path, "-s", "1440", "-o", name + "-1440.jpg[Q=85]"], check=True)
            subprocess.run(["vipsthumbnail", name + "-1440.jpg", "-s", "256", "-o", name + "-256.jpg[Q=85]"], check=True)
        def video(path):
            name = os.path.join(out, os.path.basename(path))
            subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-ss", "1", "-i", path, "-filter_complex",
                            "[0:v]split=2[a][b];[a]scale=1440:-2[x];[b]scale=256:-2[y]", "-map", "[x]", "-frames:v", "1",
                            name + "-1440.jpg", "-map", "[y]", "-frames:v", "1", name + "-256.jpg"], check=True)
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for f in [pool.submit(still, p) for p in stills] + [pool.submit(video, p) for p in videos]:
                f.result()
        seconds = time.monotonic() - start
        made = len([n for n in os.listdir(out) if n.endswith(".jpg")])
        shutil.rmtree(out, ignore_errors=True)
        return seconds, made

    def sepia():
        library = tempfile.mkdtemp(prefix="sepia-bench-import-")
        start = time.monotonic()
        result = subprocess.run([SEPIA, "import", roll, "--library", library, "--json"], capture_output=True, text=True)
        seconds = time.monotonic() - start
        shutil.rmtree(library, ignore_errors=True)
        if result.returncode != 0:
            raise SystemExit("sepia import failed (%d): %s" % (result.returncode, result.stderr[-2000:]))
        lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
        statuses = [line.get("status") for line in lines if "file" in line or "path" in line]
        return seconds, statuses

    peers()  # warm-up: the file cache and the binaries
    sepia()
    peer_times, sepia_times = [], []
    statuses = []
    for _ in range(runs):
        seconds, made = peers()
        peer_times.append(seconds)
        seconds, statuses = sepia()
        sepia_times.append(seconds)
    peer, ours = statistics.median(peer_times), statistics.median(sepia_times)
    counts = {s: statuses.count(s) for s in sorted(set(filter(None, statuses)))}
    emit()
    emit("| camera roll | sepia import (wall, median) | peers' way (wall, median) | sepia ÷ peers | sepia's outcomes | target | holds |")
    emit("|---|---|---|---|---|---|---|")
    emit("| %d files: %d photos, %d clips (4 of them Live Photo movies) | %.2f s | %.2f s (%d images) | %.2f× | %s | ≤ 0.6× | %s |" % (
        len(files), len(stills), len(videos), ours, peer, made, ours / peer,
        ", ".join("%s %d" % kv for kv in counts.items()), "yes" if ours / peer <= 0.6 else "**no**"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--markdown", help="also write the tables to this file")
    parser.add_argument("--no-upload", action="store_true", help="leave out the upload of a large clip")
    parser.add_argument("--upload-bytes", type=int, default=2 * 1000 ** 3, help="the large clip's size (default 2 GB)")
    parser.add_argument("--only-upload", action="store_true", help="only the upload of a large clip")
    parser.add_argument("--no-import", action="store_true", help="leave out the import of a camera roll")
    parser.add_argument("--only-import", action="store_true", help="only the import of a camera roll")
    args = parser.parse_args()
    if not os.access(SEPIA, os.X_OK):
        raise SystemExit("build sepia first: swift build -c release --static-swift-stdlib")
    for tool in ("ffmpeg", "ffprobe", "ffmpegthumbnailer"):
        if shutil.which(tool) is None:
            raise SystemExit("%s is missing; run scripts/setup --peers" % tool)
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    if args.only_upload:
        bench_upload(args.upload_bytes, emit)
        return
    if args.only_import:
        bench_import(max(1, min(args.runs, 3)), emit)
        return
    clips = make_clips()

    out = tempfile.mkdtemp(prefix="sepia-bench-video-")
    j = lambda name: os.path.join(out, name)
    verdicts = []
    emit("| clip | operation | tool | wall s (median) | CPU s | max RSS MiB | sepia ÷ tool (wall) |")
    emit("|---|---|---|---|---|---|---|")
    try:
        for label, clip in clips.items():
            operations = [
                ("poster 256 px", 0.5, [
                    ("sepia", [SEPIA, "thumbnail", clip, "--size", "256", "-o", j("s.jpg")]),
                    ("ffmpegthumbnailer", ["ffmpegthumbnailer", "-i", clip, "-o", j("t.jpg"), "-s", "256"]),
                    ("ffmpeg", ["ffmpeg", "-v", "error", "-nostdin", "-y", "-ss", "1", "-i", clip, "-frames:v", "1",
                                "-vf", "scale=256:-1", j("f.jpg")]),
                ]),
                ("probe", 0.3, [
                    ("sepia", [SEPIA, "info", "--json", clip]),
                    ("ffprobe", ["ffprobe", "-v", "error", "-show_format", "-show_streams", clip]),
                ]),
            ]
            if label.startswith("1080p HEVC"):
                # The playable version: the same encoder and settings as ffmpeg's command line.
                operations.append(("playable version", 1.05, [
                    ("sepia", [SEPIA_LIBRARY, "playable", clip, "-o", j("p.mp4")]),
                    ("ffmpeg", ["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", clip, "-c:v", "libx264", "-preset", "veryfast",
                                "-crf", "23", "-profile:v", "high", "-pix_fmt", "yuv420p", "-c:a", "copy", "-movflags", "+faststart",
                                j("f.mp4")]),
                ]))
            for name, target, commands in operations:
                samples = {tool: [] for tool, _ in commands}
                for _, argv in commands:  # warm-up: file cache and binaries
                    run_one(argv)
                for _ in range(args.runs):
                    for tool, argv in commands:
                        samples[tool].append(run_one(argv))
                medians = {tool: tuple(statistics.median(x[i] for x in v) for i in range(3)) for tool, v in samples.items()}
                sepia_wall = medians["sepia"][0]
                for tool, _ in commands:
                    wall, cpu, rss = medians[tool]
                    ratio = "" if tool == "sepia" else "%.2f" % (sepia_wall / wall)
                    emit("| %s | %s | %s | %.3f | %.3f | %.0f | %s |" % (label, name, tool, wall, cpu, rss, ratio))
                    if tool != "sepia":
                        verdicts.append((label, name, tool, sepia_wall / wall, target))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    emit()
    emit("| clip | operation | against | sepia ÷ peer (wall) | target | holds |")
    emit("|---|---|---|---|---|---|")
    for label, name, tool, ratio, target in verdicts:
        emit("| %s | %s | %s | %.2f× | ≤ %.2f× | %s |" % (label, name, tool, ratio, target, "yes" if ratio <= target else "**no**"))
    if not args.no_import:
        bench_import(max(1, min(args.runs, 3)), emit)
    if not args.no_upload:
        bench_upload(args.upload_bytes, emit)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

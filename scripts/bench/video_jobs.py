#!/usr/bin/env python3
"""The cost of a hostile video upload to the server's job queue, as issue 34 reported it, on the release build
(or SEPIA_BIN); prints a Markdown table.

    scripts/bench-video-jobs [--seconds S] [--samples N] [--markdown FILE]

The file (scripts/sample-table-video): an MP4 branded `3gp5` (so the server makes a playable version) holding
two frames of H.264 4:4:4 at 7680x4320; its sample table then declares 399 000 samples (3 h 41 min at 29.97
fps), all after the first pointing at the second frame's 14 bytes. About 3.3 MB.

1. **Upload**: `sepia serve` on a new library; the file is uploaded with an add-only token; the answer's status
   and time. When it is accepted, the server is watched for S seconds (default 120): its CPU seconds, its peak
   memory (VmHWM), the encode's progress as /metrics shows it, whether a second clip (2 s of HEVC) uploaded
   meanwhile gets its playable version, and how long SIGTERM then takes to stop the server. When it is refused,
   a plausible 2-minute 720p clip (one second of testsrc2 repeated) is uploaded instead, and the same is
   measured during its encode for 30 s.
2. **Encode**: `sepia playable` of the same file cut to N samples (default 1500, 50 s of video): its CPU seconds
   and peak memory, and what the whole file would cost at that rate (CPU per frame × 399 000).
3. **Variants**: the same frames with every sample its own copy of the bytes (sound offsets, 5.6 MB for 3 h
   41 min of 8K): `sepia info` on it, and a 30 s 640x360 H.264 4:2:0 clip in a `3gp5` MP4 made by repeating
   one second (plausible): `sepia playable` on it, which the CPU budget lets run, with its CPU seconds.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from server import SEPIA, Server  # noqa: E402

GENERATOR = os.path.join(ROOT, "scripts", "sample-table-video")
CACHE = os.path.join(tempfile.gettempdir(), "sepia-bench-video-jobs")


def movie(name, *arguments):
    """A file scripts/sample-table-video makes, kept in the cache folder."""
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, name)
    if not os.path.exists(path):
        subprocess.run([GENERATOR, path] + list(arguments), check=True)
    return path


def run(argv):
    """Runs argv; its exit status, wall seconds, CPU seconds and peak RSS in MiB (wait4's rusage) and output."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return (process.returncode, time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
            output.strip())


class AttackServer(Server):
    """A server the cheapest credential that uploads (an add-only token) attacks."""

    def upload_as(self, token, path, name):
        with open(path, "rb") as f:
            body = f.read()
        start = time.perf_counter()
        status, _, data = self.request("POST", "/api/v1/assets?filename=" + name, body, {"Authorization": "Bearer " + token},
                                       bearer=False)
        return status, time.perf_counter() - start, json.loads(data or b"{}")

    def metric(self, name):
        _, _, data = self.request("GET", "/metrics")
        match = re.search(r"^" + re.escape(name) + r" ([\d.e+-]+)$", data.decode(), re.M)
        return float(match.group(1)) if match else None

    def progress(self):
        """The encode's progress on /metrics: by lane since issue 34, one value before."""
        values = [self.metric('sepia_video_encode_progress_ratio{lane="%s"}' % lane) for lane in ["quick", "long"]]
        values = [v for v in values if v] or [self.metric("sepia_video_encode_progress_ratio")]
        return max(v or 0 for v in values) if values != [None] else None

    def watch(self, seconds, other, emit):
        """Watches the encode in hand for `seconds` while a second clip is uploaded; reports CPU, memory,
        progress, and when the second clip's playable version was made."""
        time.sleep(2)
        _, _, body = self.upload_as(self.token, other, "other.mov")
        other_id = body.get("id")
        start = time.monotonic()
        progress = []
        other_ready = None
        cpu_start = self.cpu_seconds()
        while time.monotonic() - start < seconds:
            value = self.progress()
            if value is not None:
                progress.append(value)
            if other_ready is None and other_id:
                state, _, _ = self.request("HEAD", "/api/v1/assets/%s/video" % other_id)
                if state == 200:
                    other_ready = time.monotonic() - start
            time.sleep(1)
        elapsed = time.monotonic() - start
        cpu = self.cpu_seconds() - cpu_start
        waiting = self.metric("sepia_jobs_waiting")
        emit("| server CPU while encoding | %.0f CPU s in %.0f s (%.2f cores) |" % (cpu, elapsed, cpu / elapsed))
        emit("| server peak memory (VmHWM) | %.0f MiB |" % self.peak_rss_mb())
        emit("| encode progress on /metrics | first %s, after %.0f s %s |" % (
            progress[0] if progress else "absent", elapsed, progress[-1] if progress else "absent"))
        emit("| a second clip's playable version (2 s of HEVC) | %s; jobs waiting then %s |" % (
            "made %.0f s after its upload" % other_ready if other_ready is not None else "not made in %.0f s" % elapsed,
            "%.0f" % waiting if waiting is not None else "?"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120, help="how long an accepted upload's encode is watched")
    parser.add_argument("--samples", type=int, default=1500, help="the samples of the cut file `sepia playable` encodes whole")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    if not os.access(SEPIA, os.X_OK):
        raise SystemExit("build sepia first: scripts/build-release")
    attack = movie("attack-8k444-399000.3gp", "--size", "7680x4320", "--samples", "399000")
    cut = movie("attack-8k444-%d.3gp" % args.samples, "--size", "7680x4320", "--samples", str(args.samples))
    copies = movie("copies-8k444-399000.3gp", "--layout", "copies", "--size", "7680x4320", "--samples", "399000")
    long_clip = movie("repeat-720p-3600.3gp", "--layout", "repeat", "--size", "1280x720", "--samples", "3600", "--rate", "30",
                      "--pix-fmt", "yuv420p", "--clip-frames", "30")
    plausible = movie("repeat-360p-900.3gp", "--layout", "repeat", "--size", "640x360", "--samples", "900", "--rate", "30",
                      "--pix-fmt", "yuv420p", "--clip-frames", "30")
    hevc = os.path.join(CACHE, "other-hevc.mov")
    if not os.path.exists(hevc):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                        "testsrc2=size=320x240:rate=30:duration=2", "-c:v", "libx265", "-x265-params", "log-level=error",
                        "-tag:v", "hvc1", hevc], check=True)
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    emit("| measurement | result |")
    emit("|---|---|")
    emit("| the file | %.1f MB, 7680x4320 H.264 4:4:4, 399 000 samples (3:41:53) |" % (os.path.getsize(attack) / 1e6))

    work = tempfile.mkdtemp(prefix="sepia-bench-video-jobs-")
    try:
        server = AttackServer(os.path.join(work, "server")).start()
        cpu0 = server.cpu_seconds()
        status, seconds, body = server.upload_as(server.new_token("add-only"), attack, "attack.3gp")
        emit("| upload (add-only token) | %d in %.2f s%s |" % (
            status, seconds, "" if status < 300 else ": " + (body.get("detail") or body.get("message") or "")))
        if status < 300:
            server.watch(args.seconds, hevc, emit)
        else:
            # Refused: the encode of a long, plausible clip stands in for it, to time the lanes and SIGTERM.
            status, seconds, body = server.upload_as(server.new_token("add-only"), long_clip, "long.3gp")
            emit("| upload of a plausible 2-minute 720p clip (%.0f MB) | %d in %.2f s |" % (
                os.path.getsize(long_clip) / 1e6, status, seconds))
            deadline = time.monotonic() + 120
            while (server.progress() or 0) <= 0 and time.monotonic() < deadline:
                time.sleep(0.2)
            server.watch(min(args.seconds, 30), hevc, emit)
        emit("| server CPU from the upload on | %.0f CPU s |" % (server.cpu_seconds() - cpu0))
        stop = time.perf_counter()
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=120)
            emit("| SIGTERM to exit | %.1f s (status %d) |" % (time.perf_counter() - stop, server.process.returncode))
        except subprocess.TimeoutExpired:
            server.process.kill()
            emit("| SIGTERM to exit | more than 120 s (killed) |")

        status, wall, cpu, rss, output = run([SEPIA, "playable", cut, "-o", os.path.join(work, "cut.mp4")])
        if status == 0:
            frames = args.samples
            emit("| `sepia playable` of %d samples | %.1f CPU s, %.0f MiB peak, %.1f s wall |" % (frames, cpu, rss, wall))
            emit("| the whole file at that rate | %.0f CPU s (%.1f CPU hours) |" % (cpu / frames * 399000, cpu / frames * 399000 / 3600))
        else:
            emit("| `sepia playable` of %d samples | refused in %.2f s, %.2f CPU s, %.0f MiB: %s |" % (
                args.samples, wall, cpu, rss, output.splitlines()[-1] if output else status))

        status, wall, cpu, rss, output = run([SEPIA, "info", copies])
        emit("| `sepia info` of the copies variant (%.1f MB) | %s in %.2f s%s |" % (
            os.path.getsize(copies) / 1e6, "refused" if status else "read", wall,
            ": " + output.splitlines()[-1] if status and output else ""))
        status, wall, cpu, rss, output = run([SEPIA, "playable", plausible, "-o", os.path.join(work, "plausible.mp4")])
        emit("| `sepia playable` of a plausible 30 s 640x360 clip | %s, %.1f CPU s, %.0f MiB peak |" % (
            "made" if status == 0 else "failed: " + output.splitlines()[-1], cpu, rss))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

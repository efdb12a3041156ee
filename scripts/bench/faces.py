#!/usr/bin/env python3
"""Times indexing a folder of photos for faces: `sepia faces index` against the `face_recognition` package's own
command, on the same photos, in one interleaved run, and prints a Markdown table with Sepia's ratios.

    scripts/bench-faces [--count N] [--megapixels MP] [--rounds R] [--photos DIR] [--only KEYS] [--no-matched]
                        [--markdown FILE]

The photos: N camera-sized JPEGs (default 48 of 12 MP) with 1 to 5 faces each, made at bench time, seeded,
from the corpus's face photos (scripts/bench/face_photos.py says how), plus the seven face photos themselves.
They are imported once into a fresh library with `sepia import` (not timed: it makes the renditions, not faces).

Each round runs, one after the other (the order turns each round, so that a busy moment of a shared machine
falls on every command alike):

- **Sepia**: `sepia faces index` on that library, after `sepia faces off --yes` and `sepia faces on` (not timed)
  forgot what the previous round found: its default, one item at a time per processor (`--jobs` 2 on two
  cores), and `--jobs 1`;
- **face_recognition 1.3.0**: `face_recognition --cpus 1 KNOWN PHOTOS` with KNOWN an empty folder (so it only
  computes the face prints of every photo in PHOTOS: detection, five landmarks, the 128-value print), its
  default; and `--cpus -1`, a process per processor.

Every command is one process tree, started from here and waited for: wall time, CPU time (user + system) and peak
memory. For a single process (every command but one) they are wait4's: its CPU time and its maximum resident set
(ru_maxrss). `--cpus -1` does its work in a pool of processes (forkserver), which the process started does not
wait for: its peak memory is the peak of the sum of the tree's proportional set sizes (PSS, which counts the pages
the processes share once) and its CPU time the sum of each process's, both sampled every 50 ms.

What each side searches, by default: face_recognition's command scales a photo larger than 1600 pixels down to
1600 (Lanczos, after decoding it whole) and searches it at twice that size (dlib's HOG detector, one pyramid_up):
7.7 megapixels of a 12 MP photo, faces from about 100 pixels of the photo. Sepia searches at most 16 megapixels
(12 MP at 1.15 times: faces from 70 pixels). Both use dlib 19.24, the same HOG detector, the same five-landmark
model and the same ResNet from face_recognition_models 0.3.0; the table gives the faces each found.

The same commands then run on the same photos scaled down to 1600 pixels as face_recognition's command scales
them (Pillow, Lanczos; saved at quality 95), so that both sides search the same 7.7 megapixels of each: the
engines compared on equal work (--no-matched leaves this out).

Targets (issue 36): Sepia's wall time at most 0.5× face_recognition's, peak memory no higher (1.0×), both at their
defaults, on the camera-sized photos.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import face_photos  # noqa: E402

SEPIA = os.environ.get("SEPIA_BIN") or os.path.join(ROOT, ".build", "release", "sepia")
VENV = os.path.join(ROOT, ".venv")
PEER = os.path.join(VENV, "bin", "face_recognition")


def descendants(pid):
    """pid and every process below it."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def pss_kib(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def run(argv, tree=False, env=None):
    """Runs argv, its output kept: (wall s, CPU s, peak MiB, stdout). With `tree`, the peak is the sampled peak
    of the sum of the process tree's PSS, and the CPU time the sum of each process's last sample (a pool's workers
    are not waited for by the process started); else the process's max RSS and CPU time, from wait4."""
    out = tempfile.TemporaryFile()
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, env=env)
    peak = [0]
    cpu = {}
    done = threading.Event()

    def sample():
        while not done.wait(0.05):
            pids = descendants(process.pid)
            peak[0] = max(peak[0], sum(pss_kib(p) for p in pids))
            for p in pids:
                cpu[p] = max(cpu.get(p, 0.0), cpu_seconds(p))

    sampler = threading.Thread(target=sample, daemon=True) if tree else None
    if sampler:
        sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    if sampler:
        sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode(errors="replace")
    if process.returncode != 0:
        raise RuntimeError("%s failed with %d: %s" % (" ".join(argv), process.returncode, errors[-2000:]))
    out.seek(0)
    text = out.read().decode(errors="replace")
    waited = usage.ru_utime + usage.ru_stime
    if tree:
        cpu[process.pid] = max(cpu.get(process.pid, 0.0), waited)
        return wall, sum(cpu.values()), peak[0] / 1024, text
    return wall, waited, usage.ru_maxrss / 1024, text


def sepia(*arguments):
    return subprocess.run([SEPIA, *arguments], check=True, capture_output=True, text=True).stdout


def peer_versions():
    code = ("import dlib, numpy, PIL; from importlib.metadata import version; "
            "print(dlib.__version__, version('face_recognition'), version('face_recognition_models'), "
            "numpy.__version__, PIL.__version__, dlib.DLIB_USE_BLAS, dlib.USE_AVX_INSTRUCTIONS)")
    values = subprocess.run([os.path.join(VENV, "bin", "python"), "-c", code], check=True, capture_output=True,
                            text=True).stdout.split()
    return dict(zip(["dlib", "face_recognition", "face_recognition_models", "numpy", "pillow", "blas", "avx"], values))


def matched(photos, out):
    """The photos of `photos` as face_recognition's command searches them: each larger than 1600 pixels scaled down
    to 1600 (Pillow, Lanczos, as the command does), saved at quality 95. Made once."""
    from PIL import Image
    stamp = os.path.join(out, ".stamp")
    names = sorted(f for f in os.listdir(photos) if f.lower().endswith((".jpg", ".jpeg")))
    if os.path.exists(stamp) and open(stamp).read() == "\n".join(names):
        return out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for name in names:
        image = Image.open(os.path.join(photos, name)).convert("RGB")
        if max(image.size) > 1600:
            image.thumbnail((1600, 1600), Image.LANCZOS)
        image.save(os.path.join(out, name), quality=95)
    with open(stamp, "w") as f:
        f.write("\n".join(names))
    return out


def measure(photos, keys, rounds, work):
    """Runs the commands named by `keys` on `photos`, round after round; returns the medians (wall, CPU, peak,
    faces) by key, and the labels."""
    files = sorted(f for f in os.listdir(photos) if f.lower().endswith((".jpg", ".jpeg")))
    cores = os.cpu_count() or 1
    library = os.path.join(work, "library")
    known = os.path.join(work, "known")
    shutil.rmtree(library, ignore_errors=True)
    os.makedirs(known, exist_ok=True)
    print("Importing %s into a fresh library (not timed)…" % photos, file=sys.stderr, flush=True)
    sepia("import", photos, "--library", library)

    def sepia_index(jobs):
        def command():
            sepia("faces", "off", "--yes", "--library", library)
            sepia("faces", "on", "--library", library)
            argv = [SEPIA, "faces", "index", "--json", "--library", library] + (["--jobs", str(jobs)] if jobs else [])
            wall, cpu, rss, out = run(argv)
            report = json.loads(out[out.index("{"):])
            if report["indexed"] != len(files) or report["failed"]:
                raise RuntimeError("sepia indexed %d of %d photos: %s" % (report["indexed"], len(files), report["failed"]))
            return wall, cpu, rss, report["faces"]
        return command

    def peer_index(cpus):
        # Unbuffered, so that the lines of a pool's processes, written to one file, are each written whole.
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        answer = re.compile(re.escape(photos.rstrip("/")) + r"/([^,\n]+),(unknown_person|no_persons_found)")

        def command():
            wall, cpu, rss, out = run([PEER, "--cpus", str(cpus), known, photos], tree=cpus != 1, env=env)
            results = answer.findall(out)
            if {name for name, _ in results} != set(files):
                raise RuntimeError("face_recognition answered for %d of %d photos" % (len({n for n, _ in results}), len(files)))
            return wall, cpu, rss, sum(1 for _, what in results if what != "no_persons_found")
        return command

    commands = [
        ("sepia", "Sepia `faces index` (default: --jobs %d)" % cores, sepia_index(None)),
        ("sepia-1", "Sepia `faces index --jobs 1`", sepia_index(1)),
        ("peer", "face_recognition `--cpus 1` (default)", peer_index(1)),
        ("peer-all", "face_recognition `--cpus -1` (%d processes)" % cores, peer_index(-1)),
    ]
    commands = [c for c in commands if c[0] in keys]
    samples = {key: [] for key, _, _ in commands}
    for r in range(rounds):
        turn = commands[r % len(commands):] + commands[:r % len(commands)]
        for key, label, command in turn:
            print("  round %d: %s…" % (r + 1, label), file=sys.stderr, flush=True)
            samples[key].append(command())
            print("    %.1f s, %.1f CPU s, %.0f MiB, %d faces" % samples[key][-1], file=sys.stderr, flush=True)
    medians = {key: tuple(statistics.median(s[i] for s in v) for i in range(4)) for key, v in samples.items()}
    return medians, {key: label for key, label, _ in commands}, len(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=48, help="photos made (besides the seven originals)")
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--photos", help="the folder of photos (default: made in .build/bench-faces/)")
    parser.add_argument("--only", default="sepia,sepia-1,peer,peer-all",
                        help="the commands run: sepia, sepia-1, peer, peer-all (default: all)")
    parser.add_argument("--no-matched", action="store_true", help="leave out the run on the photos at 1600 pixels")
    parser.add_argument("--markdown", help="also write the tables to this file")
    args = parser.parse_args()
    if not os.access(SEPIA, os.X_OK):
        raise SystemExit("build sepia first: scripts/build-release")
    if not os.access(PEER, os.X_OK):
        raise SystemExit("face_recognition is not installed in .venv: run scripts/bench-faces")
    lines = []

    def emit(line=""):
        print(line, flush=True)
        lines.append(line)

    photos = args.photos
    if not photos:
        photos = os.path.join(ROOT, ".build", "bench-faces", "%dx%gmp-seed%d" % (args.count, args.megapixels, args.seed))
        print("Making the photos in %s…" % photos, file=sys.stderr, flush=True)
        face_photos.make(photos, args.count, args.megapixels, args.seed, originals=True)
    keys = args.only.split(",")
    sets = [("photos", photos)]
    if not args.no_matched:
        sets.append(("the same photos scaled down to 1600 pixels", matched(photos, photos.rstrip("/") + "-1600px")))
    work = tempfile.mkdtemp(prefix="sepia-bench-faces-")
    try:
        results = [(name, folder) + measure(folder, keys, args.rounds, work) for name, folder in sets]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    cores = os.cpu_count() or 1
    versions = peer_versions()
    emit("Peer: face_recognition %s, face_recognition_models %s, dlib %s (its Python module built from PyPI's sdist; "
         "BLAS %s, AVX %s), NumPy %s, Pillow %s. Sepia: %s, its face engine over Debian's dlib 19.24. %d cores; load "
         "average before the run %s, after it %s; %d rounds, medians."
         % (versions["face_recognition"], versions["face_recognition_models"], versions["dlib"], versions["blas"],
            versions["avx"], versions["numpy"], versions["pillow"], os.path.relpath(SEPIA, ROOT), cores, LOAD_BEFORE,
            "%.2f %.2f %.2f" % os.getloadavg(), args.rounds))
    for n, (name, folder, medians, labels, count) in enumerate(results):
        megabytes = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)
                        if f.lower().endswith((".jpg", ".jpeg"))) / 1e6
        emit()
        if n == 0 and not args.photos:
            emit("**%d photos** (%d made at %g MP, seed %d, and the 7 originals; %.0f MB):"
                 % (count, args.count, args.megapixels, args.seed, megabytes))
        elif n == 0:
            emit("**%d photos** of %s (%.0f MB):" % (count, args.photos, megabytes))
        else:
            emit("**%s** (%.0f MB): both sides search the same 7.7 megapixels of each photo (a 1600-pixel photo at "
                 "twice its size), the peer's search of the photos above:" % (name[0].upper() + name[1:], megabytes))
        emit()
        emit("| command | wall s | CPU s | peak memory MiB | faces found | photos/s |")
        emit("|---|---:|---:|---:|---:|---:|")
        for key, label in labels.items():
            wall, cpu, rss, faces = medians[key]
            emit("| %s | %.1f | %.1f | %.0f | %d | %.2f |" % (label, wall, cpu, rss, faces, count / wall))
        pairs = [("sepia", "peer", "both at their defaults"), ("sepia-1", "peer", "one photo at a time each"),
                 ("sepia", "peer-all", "each on every core")]
        rows = [(s, p, what) for s, p, what in pairs if s in medians and p in medians]
        if rows:
            emit()
            emit("| Sepia ÷ face_recognition | wall | CPU | peak memory |%s" % (" target |" if n == 0 else ""))
            emit("|---|---:|---:|---:|%s" % ("---|" if n == 0 else ""))
            for s, p, what in rows:
                wall = medians[s][0] / medians[p][0]
                cpu = medians[s][1] / medians[p][1]
                memory = medians[s][2] / medians[p][2]
                verdict = ""
                if n == 0:
                    verdict = " |"
                    if s == "sepia" and p == "peer":
                        verdict = " wall ≤ 0.5×: %s; memory ≤ 1.0×: %s |" % (
                            "met" if wall <= 0.5 else "**missed**", "met" if memory <= 1.0 else "**missed**")
                emit("| %s: %s ÷ %s | %.2f× | %.2f× | %.2f× |%s" % (what, labels[s], labels[p], wall, cpu, memory, verdict))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


LOAD_BEFORE = "%.2f %.2f %.2f" % os.getloadavg()

if __name__ == "__main__":
    main()

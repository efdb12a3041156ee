#!/usr/bin/env python3
"""One Pillow operation per process, as the peer comparison times it: python3 pillow_op.py OP IN OUT."""
import sys

from PIL import Image, ImageFilter

SEPIA = (0.393, 0.769, 0.189, 0, 0.349, 0.686, 0.168, 0, 0.272, 0.534, 0.131, 0)


def main():
    op, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    im = Image.open(src)
    if op == "thumb256":
        im.draft("RGB", (512, 512))
        im.thumbnail((256, 256), Image.LANCZOS)
    elif op == "resize1024":
        im.thumbnail((1024, 1024), Image.LANCZOS)
    elif op == "sepia":
        im = im.convert("RGB", SEPIA)
    elif op == "blur10":
        im = im.filter(ImageFilter.GaussianBlur(10))
    else:
        raise SystemExit("unknown operation " + op)
    im.save(dst, quality=85)


if __name__ == "__main__":
    main()

"""Tiles invented on piles of face-down tiles: the reader must read none sure.

    .venv/bin/python scripts/pile_eval.py [--seeds LO HI] [--back light|dark|blue|all] [--json]

Each pile (``vision.devtools.synthetic.face_down_pile``, 30 backs over each other) is read
as drawn and degraded 8 ways: blurred 0, 0.7, 1.0 and 1.5 px, each clean and with noise and
JPEG 55 (``degraded``). Prints each image that read a tile (pips, centre, sure), then the
total of invented tiles, how many of them sure, and of images with any. Light backs are the
hard case (their overlaps look like a double blank's bar). Run it in each checkout: it reads
the ``vision`` package beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BACKS = {"light": (235, 235, 235), "dark": (20, 20, 20), "blue": (30, 30, 160)}
SIGMAS = (0.0, 0.7, 1.0, 1.5)
JPEGS = (0, 55)


def main(argv: list[str]) -> int:
    import cv2

    from vision.devtools.synthetic import degraded, face_down_pile
    from vision.recognition import identify

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 13), metavar=("LO", "HI"))
    parser.add_argument("--back", choices=[*BACKS, "all"], default="light")
    parser.add_argument("--json", action="store_true", help="one JSON object per image read")
    args = parser.parse_args(argv)
    lo, hi = args.seeds
    if not 0 <= lo < hi:
        parser.error("--seeds needs 0 <= LO < HI")
    backs = BACKS if args.back == "all" else {args.back: BACKS[args.back]}
    cv2.setNumThreads(1)
    invented = sure = images = read_any = 0
    for seed in range(lo, hi):
        for name, back in backs.items():
            pile = face_down_pile(back, seed)
            for sigma in SIGMAS:
                for jpeg in JPEGS:
                    tiles = identify(degraded(pile, sigma, jpeg)).tiles
                    images += 1
                    if not tiles:
                        continue
                    invented += len(tiles)
                    sure += sum(t.sure for t in tiles)
                    read_any += 1
                    found = [[list(t.pips), [round(c) for c in t.center], t.sure] for t in tiles]
                    where = {"seed": seed, "back": name, "sigma": sigma, "jpeg": jpeg}
                    if args.json:
                        print(json.dumps({**where, "tiles": found}), flush=True)
                    else:
                        print(where, found, flush=True)
    print(f"{invented} tiles invented ({sure} sure) in {read_any} of {images} images")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""The tile reader's readings of a fixed set of images, hashed: a change meant to keep every
reading (a speed-up) must print the same hash before and after.

    .venv/bin/python scripts/reader_golden.py [OUT.json]

The set: the bench's 20 synthetic 28-tile scenes, every 23rd scene of the still sweeps of
seeds 1, 2 and 40, and 6 plain stills of seed 3 (107 images, about a minute). Run it in each
checkout (it reads the ``vision`` package beside it); ``OUT.json`` keeps the readings to diff.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    import cv2

    from vision.devtools.render.stills import still_scene
    from vision.devtools.synthetic import render_scene
    from vision.recognition import identify

    cv2.setNumThreads(1)
    out: dict[str, object] = {}
    for seed in range(20):
        out[f"syn{seed}"] = identify(render_scene(seed, n_tiles=28).image).to_json()
    for seed in (1, 2, 40):
        for i in range(0, 600, 23):
            out[f"sw{seed}/{i}"] = identify(still_scene(i, seed=seed).image).to_json()
    for i in range(6):
        out[f"plain{i}"] = identify(still_scene(i, seed=3, sweep=False).image).to_json()
    text = json.dumps(out, sort_keys=True)
    if argv:
        Path(argv[0]).write_text(text + "\n", encoding="utf-8")
    print(len(out), hashlib.sha1(text.encode()).hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A/B timing of the tile reader: another checkout's ``reader.py`` against this one's.

    .venv/bin/python scripts/reader_ab.py OLD/vision/recognition/reader.py [ROUNDS]

Both readers are loaded in one process (the old module beside the new, sharing the rest of
the package) and read the bench's 20 synthetic 28-tile scenes alternately, scene by scene, so
a machine whose speed drifts slows both alike. Prints the median CPU time of each and their
ratio. Speed is never asserted in tests; this is how a change to the reader is measured.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    if not argv or not Path(argv[0]).is_file():
        print(__doc__, file=sys.stderr)
        return 2
    import cv2

    import vision.recognition.reader as new
    from vision.recognition.synthetic import render_scene

    spec = importlib.util.spec_from_file_location("old_reader", argv[0])
    if spec is None or spec.loader is None:
        print(f"cannot load {argv[0]}", file=sys.stderr)
        return 2
    old = importlib.util.module_from_spec(spec)
    sys.modules["old_reader"] = old  # dataclasses look their module up
    spec.loader.exec_module(old)
    rounds = int(argv[1]) if len(argv) > 1 else 5
    cv2.setNumThreads(1)
    scenes = [render_scene(seed, n_tiles=28).image for seed in range(20)]
    for image in scenes[:2]:  # warm-up
        old.identify(image)
        new.identify(image)
    cpu: dict[str, list[float]] = {"old": [], "new": []}
    for r in range(rounds):
        for image in scenes:
            pairs = (("old", old), ("new", new)) if r % 2 == 0 else (("new", new), ("old", old))
            for name, module in pairs:
                c0 = time.process_time()
                module.identify(image)
                cpu[name].append(time.process_time() - c0)
    a, b = statistics.median(cpu["old"]), statistics.median(cpu["new"])
    print(f"old {1000 * a:.2f} ms  new {1000 * b:.2f} ms  new/old {b / a:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

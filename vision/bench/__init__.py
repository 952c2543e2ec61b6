"""vision's benchmarks for ``domino-table bench``: the reader (:mod:`vision.bench.recognition`)
and the scene side, motion and tracking (:mod:`vision.bench.scene`). Each module has
``run_benchmarks(quick)`` and imports OpenCV only when it runs."""

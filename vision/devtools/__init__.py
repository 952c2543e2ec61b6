"""Development tooling, apart from what the table runs: the fixture renderer
(:mod:`vision.devtools.render`), the fixture writer (:mod:`vision.devtools.fixture_writer`), the
recognition evaluation (:mod:`vision.devtools.evaluation`), the synthetic scenes it and the
benchmarks read (:mod:`vision.devtools.synthetic`) and the tracking sweep
(:mod:`vision.devtools.track_sweep`).

Used by the ``fixture`` and ``vision eval`` sub-commands, the benchmarks and the tests; the
running system (the controller's table, runtime, live side and journal, vision's reader and
tracker, the seat-device link) imports none of it (``.importlinter``).
"""

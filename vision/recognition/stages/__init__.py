"""The tile reader (``vision.recognition.identify``), as stages.

A short pipeline of explicit stages with typed values between them, every length in units of
the scene's pip diameter so that one set of parameters serves tiles 20 to 300 px wide:

1. :mod:`.scale`: image -> :class:`~.scale.Scale` (pip diameter in pixels, from round dark
   blobs, or from the dividing bars when too few pips show) and the working resolution.
2. :mod:`.ink`: working image -> :class:`~.ink.Ink` (ink contrast over the face with pips and
   bars closed away, the face image itself, and the thin ink where bars are looked for).
3. :mod:`.bars`: thin ink -> straight :class:`~.bars.Bar` segments (a tile's dividing bar),
   and a bar guessed across each lone face shaped like a tile (a small blurred tile's bar
   may not show).
4. :mod:`.outline`: each bar -> a :class:`~.outline.Proposal` (an oriented rectangle): the
   tile's edges are the nearest strong steps of the face image across and along the bar; a
   second proposal guesses them from the bar's length alone (edges that do not show).
5. :mod:`.halves`: each proposal's two ``w x w`` halves read on the 3x3 pip grid against the
   standard layouts, with a margin between the ink at pip and at free positions; then each
   count is settled with the learned half reader (:func:`~.pipeline.settle`).
6. :mod:`.arbitrate`: one arbitration keeps the non-overlapping proposals that explain most,
   and doubts a tile beside pips no tile explains.

:func:`~vision.recognition.stages.pipeline.identify` runs them and returns a
:class:`~vision.types.SceneReading` in the input image's pixels. Thresholds live in
:class:`~.params.StagedParams`.
"""

from vision.recognition.stages.params import StagedParams
from vision.recognition.stages.pipeline import identify

__all__ = ["StagedParams", "identify"]

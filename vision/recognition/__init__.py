"""Tile and pip recognition.

``identify(image, params=None, *, max_pips=6) -> SceneReading`` reads every tile in a frame
taken roughly from above, calibrated or not, by the stages of
:mod:`vision.recognition.stages`. Thresholds live in :class:`StagedParams`.
"""

from vision.recognition.stages import StagedParams, identify

__all__ = ["StagedParams", "identify"]

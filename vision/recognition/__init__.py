"""Tile and pip recognition.

``identify(image, params=None) -> SceneReading`` reads every tile in a frame taken roughly from
above, calibrated or not. Thresholds live in :class:`RecognitionParams`.
"""

from vision.recognition.params import RecognitionParams
from vision.recognition.reader import identify

__all__ = ["RecognitionParams", "identify"]

"""Scene tracking: from settled readings to typed events.

- :mod:`vision.tracking.tracker`: the pure :class:`SceneTracker` (the line, its ends, the
  reveal zones) and its :class:`TrackerParams`;
- :mod:`vision.tracking.occlusion`: :class:`SkinOcclusion`, is a hand over the table;
- :mod:`vision.tracking.watcher`: the stream shell :class:`SceneWatcher` (motion, settling,
  recognition of settled frames only), :func:`watch`, :func:`table_region`;
- :mod:`vision.tracking.truth`: the truth oracle of rendered fixtures and the comparison of
  tracked events with their truth;
- :mod:`vision.tracking.replay`: :func:`track_fixture`, tracking over a fixture directory.

The names below are those the controller's runtime takes from here.
"""

from vision.tracking.occlusion import SkinOcclusion
from vision.tracking.tracker import SceneTracker, TrackerParams
from vision.tracking.truth import TruthOracle
from vision.tracking.watcher import SceneWatcher, table_region

__all__ = [
    "SceneTracker",
    "SceneWatcher",
    "SkinOcclusion",
    "TrackerParams",
    "TruthOracle",
    "table_region",
]

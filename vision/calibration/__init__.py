"""Table geometry and camera calibration: ArUco corner markers give image pixels -> table mm.

- :mod:`vision.calibration.geometry`: :class:`TableGeometry` (table, zones, markers in
  millimetres; the image->table mapping), :func:`default_geometry`, :func:`parse_table`;
- :mod:`vision.calibration.tablefile`: ``table.json`` read (validated) and written;
- :mod:`vision.calibration.markers`: ArUco markers drawn and found, :func:`calibrate`;
- :mod:`vision.calibration.lens`: optional ChArUco lens calibration;
- :mod:`vision.calibration.drawing`: the calibration drawn for a check by eye, the printable
  marker sheet (PNG or PDF).

The names below are those the controller's runtime and the recogniser take from here.
"""

from vision.calibration.geometry import default_geometry
from vision.calibration.markers import detect_markers
from vision.calibration.tablefile import load_table, save_table

__all__ = ["default_geometry", "detect_markers", "load_table", "save_table"]

"""Models shipped with the reader: ``halves.onnx`` (see :mod:`vision.recognition.halfnet`)."""

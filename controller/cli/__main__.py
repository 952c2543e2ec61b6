"""``python -m controller.cli``: the ``domino-table`` command without the console script."""

import sys

from controller.cli import main

sys.exit(main())

"""``python -m azgames``: see :mod:`azgames.cli`."""

import sys

from .cli import main

sys.exit(main())

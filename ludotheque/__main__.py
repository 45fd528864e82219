"""``python -m ludotheque`` runs the ``ludotheque`` command."""

import sys

from .cli import main

sys.exit(main())

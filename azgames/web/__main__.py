"""``python -m azgames.web``: the browser app's server (as ``python -m azgames serve``)."""

import argparse
import sys

from .cli import add_arguments, run

parser = argparse.ArgumentParser(prog="python -m azgames.web", description=__doc__)
add_arguments(parser)
sys.exit(run(parser.parse_args()))

"""``python -m perceptron_bounds``: the command line, as the ``perceptron-bounds`` script."""

import sys

from .cli import main

if __name__ == "__main__":  # importing this module (e.g. walking the package) runs nothing
    sys.exit(main())

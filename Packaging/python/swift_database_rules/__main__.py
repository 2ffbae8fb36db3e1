"""python -m swift_database_rules ARGS: the same as `rules ARGS`."""
import sys

from swift_database_rules import main

sys.exit(main())

"""`python -m albedo_skills_ls.cli`: the same as the `albedo-skills` script."""

import sys

from .app import main

sys.exit(main())

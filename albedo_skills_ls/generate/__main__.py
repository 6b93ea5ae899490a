"""`python -m albedo_skills_ls.generate [--check]`: see the package's docstring."""

from . import main

raise SystemExit(main())

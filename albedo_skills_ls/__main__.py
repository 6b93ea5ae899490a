"""`python -m albedo_skills_ls` starts the language server on stdio."""

import sys

from .lsp.main import main

sys.exit(main())

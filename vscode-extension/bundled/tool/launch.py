"""Start the language server bundled with the VS Code extension, with whatever Python runs this file.

The extension runs `python -I -X utf8 launch.py`: isolated mode keeps PYTHONPATH, the user's site-packages
and the working folder from shadowing the bundled packages in ../libs, which go first on sys.path. Written
for any Python 3 so that an old interpreter gets a message rather than a syntax error (the extension probes
the version before it gets here; this is the second line of defence for a hand-run launcher).
"""

import os
import sys

MINIMUM = (3, 11)

if sys.version_info < MINIMUM:
    sys.stderr.write(
        "ERROR albedo-skills-ls needs Python %d.%d or newer; %s is %d.%d\n"
        % (MINIMUM[0], MINIMUM[1], sys.executable, sys.version_info[0], sys.version_info[1])
    )
    sys.exit(2)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs"))

from albedo_skills_ls.lsp.main import main  # noqa: E402 - the bundled libs must be on sys.path first

sys.exit(main())

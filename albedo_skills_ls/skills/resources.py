"""`skills.resources` and `skills.read`: list and page through the files beneath one skill's folder.

Both functions take the skill's folder (the directory holding its `SKILL.md`) and its discovery root from
the caller, which has already looked the skill up in the catalog; neither trusts that lookup as proof of a
path (docs/design.md#8-trust-boundaries, confinement.py). Everything here is plain Python: stat, lstat, scandir and one
read of one regular file. Nothing is executed, imported, fetched or written (spec "Trust and execution").

Safety rules shared by both functions:
- At every request the skill folder is resolved with `os.path.realpath` and must lie strictly inside its
  resolved discovery root; "inside the skill" always means inside that resolved folder. Each folder the
  listing walks is re-resolved just before it is scanned, and a read opens its file from the resolved
  root down without following links.
- A link may point anywhere inside the skill folder. A link that resolves outside it is never followed:
  listing reports it (`symlink-escape`), reading refuses it.
- Only regular files are resources. FIFOs, sockets and devices are reported, never opened.

`skills.resources` lives in resource_listing.py, `skills.read` in resource_paging.py, and what both do first
(re-confine the folder, check the arguments) in resource_folder.py; this module is their public name.
"""

from __future__ import annotations

from .resource_listing import list_resources
from .resource_paging import EncodingVerdicts, read_resource

__all__ = ["EncodingVerdicts", "list_resources", "read_resource"]

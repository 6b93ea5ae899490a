"""Help for writing a `SKILL.md`, one module per editor feature.

- `fields`: what each frontmatter field means, where the frontmatter is, the name a folder implies
- `completion`: frontmatter completion; `hover`: field documentation under the cursor
- `fixes`: quick fixes for the codes the registry marks fixable; `outline`: document symbols
- `folding`: folding ranges; `selection`: Expand Selection's ranges, from the word to the document

The language server shows these; it decides none of them. Everything takes the document's text (an
editor buffer) and returns plain values with engine positions (0-based lines, code-point characters).
The names below are the surface the language server uses (`from ..skills import authoring`).
"""

from .completion import Suggestion, complete_frontmatter
from .fields import field_documentation, folder_name_of, frontmatter_lines, name_for_folder, name_range, template
from .fixes import Edit, Fix, Rename, folder_fixes, quick_fixes, text_at
from .hover import hover_field, key_at
from .outline import OutlineItem, outline

__all__ = [
    "Edit",
    "Fix",
    "OutlineItem",
    "Rename",
    "Suggestion",
    "complete_frontmatter",
    "field_documentation",
    "folder_fixes",
    "folder_name_of",
    "frontmatter_lines",
    "hover_field",
    "key_at",
    "name_for_folder",
    "name_range",
    "outline",
    "quick_fixes",
    "template",
    "text_at",
]

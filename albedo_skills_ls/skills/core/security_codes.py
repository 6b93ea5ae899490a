"""The registry's security codes (category `security`): what the skill would have the model or a script do,
read from SKILL.md and every file the skill bundles, never run (skills/security/; docs/security.md says what
each one means). Registered in codes.CODES like every code when this module is imported, in the order the
docs list them; emitted as `security_codes.SECURITY_HIDDEN_TEXT.at(...)`."""

from __future__ import annotations

from .codes import SECURITY, register
from .model import WARNING

SECURITY_HIDDEN_TEXT = register(
    "security-hidden-text", WARNING,
    "Invisible or deceptive characters: text a reader does not see but a model or shell reads.",
    "a bidirectional control (U+202A-202E, U+2066-2069), a zero-width character outside an emoji sequence, a "
    "Unicode tag character (U+E0000-E007F; the message decodes the hidden text), or a letter from another "
    "script that looks like a Latin one inside a command or URL (the message names each character)",
    "Read the text the message shows made visible; remove the characters unless you know why they are there.",
    category=SECURITY, security_severity="8.0",
)
SECURITY_FETCH_AND_RUN = register(
    "security-fetch-and-run", WARNING,
    "Code is downloaded and run in one step.",
    "a download piped into a shell or interpreter (`curl URL | sh`), a download later made executable or "
    "run (`wget URL` ... `chmod +x` ... `./file`, up to 20 lines apart), `iex (iwr URL)`, `eval` of a "
    "download or of base64-decoded text; in prose, code spans and code fences alike; a line that warns "
    "against it (`never`, `don't`, `avoid`) is not one",
    "Check that you trust the source named; prefer a pinned release with a checksum, or vendor the script "
    "into the skill where it can be read.",
    category=SECURITY, security_severity="8.0",
)
SECURITY_ENCODED_PAYLOAD = register(
    "security-encoded-payload", WARNING,
    "A long base64 or hex string decodes to a script, a shell command or an executable.",
    "a base64 (at least 40 characters) or hex (at least 40 digits) run whose decoded start (at most 64 KiB "
    "decoded, never run) is an executable header (ELF, PE `MZ`, Mach-O), a `#!` line, or shell or "
    "PowerShell commands; the message shows the start of the decoded text",
    "Decode it yourself and read it; a skill has no reason to hide a script from its reader.",
    category=SECURITY, security_severity="7.5",
)
SECURITY_CREDENTIAL_READ = register(
    "security-credential-read", WARNING,
    "The text reads credentials or secrets.",
    "a path to SSH keys (`~/.ssh/id_*`), cloud credentials (`~/.aws/credentials`, gcloud, `~/.kube/config`, "
    "`~/.docker/config.json`, `~/.netrc`, `~/.npmrc`, `~/.pypirc`), browser profiles or the keychain, a "
    "`.env` file being read, or an environment variable named like a token, secret, password or key being "
    "read; a line that warns against it is not one",
    "Check why the skill needs that secret and where it goes next.",
    category=SECURITY, security_severity="6.0",
)
SECURITY_EXFILTRATION = register(
    "security-exfiltration", WARNING,
    "The text sends local data out: a file or the environment uploaded, or data to a collection endpoint.",
    "a file or the environment posted or uploaded (`curl -d @file`, `-F x=@file`, `--upload-file`, "
    "`nc host port <`, `Invoke-RestMethod -InFile`), any request to a webhook, paste or request-catcher "
    "site, or a lookup of a host name built from a variable (DNS exfiltration)",
    "Check what is sent and to whom; a skill should say so to its user.",
    category=SECURITY, security_severity="6.5",
)
SECURITY_CREDENTIAL_EXFILTRATION = register(
    "security-credential-exfiltration", WARNING,
    "One skill both reads credentials and sends data out.",
    "a secret followed through a Python script to a network call or command, or a skill with a credential "
    "read and an exfiltration (on the call or sending line; related information points at the read)",
    "Treat the skill as stealing secrets until you have read both places and know they are unrelated.",
    category=SECURITY, security_severity="9.0",
)
SECURITY_MODEL_OVERRIDE = register(
    "security-model-override", WARNING,
    "Text tells the model to act against its user.",
    "text addressed to the model that tells it to ignore earlier or system instructions, hide a step from "
    "the user, skip confirmation, disable safety checks, or pretend to be something else; a line that "
    "quotes such text as an example of an attack is not one",
    "Read the instruction: a skill may set a tone, but not take control away from the user.",
    category=SECURITY, security_severity="7.0",
)
SECURITY_AGENT_EXFILTRATION = register(
    "security-agent-exfiltration", WARNING,
    "Text tells the model to send the user's data out with its own tools.",
    "a sentence of prose whose imperative tells the model to send, upload, post or share secrets or private "
    "data (credentials, tokens, `.env`, the environment, configuration, the conversation) to an address, a "
    "server or a web-fetch or browser tool, or to fetch an address carrying them; or a Markdown image or link "
    "to a remote address built from data (a placeholder in it or its query), which rendering sends",
    "Remove the instruction: a skill's data leaves through code the reader can see, to the service it names.",
    category=SECURITY, security_severity="8.0",
)
SECURITY_FALSE_REPORT = register(
    "security-false-report", WARNING,
    "Text tells the model to report an outcome whatever actually happened.",
    "a sentence whose imperative tells the model to report, say or mark success, passing tests, approval or "
    "completion unconditionally (\"whatever happened\", \"regardless\", \"even if\", \"always\")",
    "Have the skill report what happened; a user decides on what the model tells them.",
    category=SECURITY, security_severity="7.0",
)
SECURITY_CREDENTIAL_INSTRUCTION = register(
    "security-credential-instruction", WARNING,
    "Text tells the model to read a credential the skill's description gives no purpose for.",
    "a sentence whose imperative tells the model to read, copy, get or use a credential (a token, a key, a "
    "password, `.env`, `~/.aws/credentials`...) in a skill whose description names no purpose for one (an API, "
    "signing in, deploying, a token or key); information when it does",
    "Say in the description what the credential is for, or remove the instruction.",
    category=SECURITY, security_severity="6.5",
)
SECURITY_BROAD_TOOLS = register(
    "security-broad-tools", WARNING,
    "`allowed-tools` grants an unrestricted shell.",
    "`allowed-tools` names `Bash`, `Bash(*)`, `Shell`, `PowerShell` or another shell tool without a command "
    "pattern, so every command the skill asks for runs without the agent asking the user",
    "Narrow it to the commands the skill needs, such as `Bash(git status:*)`, or remove it so the agent asks.",
    category=SECURITY, security_severity="5.0",
)
SECURITY_BUNDLED_BINARY = register(
    "security-bundled-binary", WARNING,
    "The skill bundles an executable or compiled file no one can read.",
    "a file whose first bytes are an executable header (ELF, PE `MZ`, Mach-O, Java class, WebAssembly, "
    "Python bytecode) or named `.exe`, `.dll`, `.so`, `.dylib`, `.jar`, `.class`, `.pyc`, `.wasm`, `.msi`",
    "Replace it with source the reader can check, or with a documented install step from a trusted source.",
    category=SECURITY, security_severity="6.0",
)
SECURITY_NOT_FULLY_READ = register(
    "security-not-fully-read", WARNING,
    "Part of the skill was not read by the security reading, so it was not checked.",
    "a file over 1 MiB (the rest is unread), a file that is not UTF-8 text and not a known image, font or "
    "document format, an archive, or the skill over 512 files, 2,048 entries or 16 levels; the message says "
    "what was left out and why",
    "Read the part named yourself, or keep the skill's files small, textual and few.",
    category=SECURITY, security_severity="5.0",
)
# silencing (skills/security/suppression.py): a marker that silences nothing says why
SECURITY_IGNORE_INVALID = register(
    "security-ignore-invalid", WARNING,
    "An `albedo-skills-ignore` marker names no security code or gives no reason, so it silences nothing.",
    "a comment holding `albedo-skills-ignore` names no code, a code that is not a security code, or no reason "
    "after a `:`; the finding it meant to silence is still reported",
    "Write `albedo-skills-ignore CODE: why this is safe` (in Markdown inside `<!-- -->`, in a script after "
    "`#`), with the code of the finding on the next line or block.",
    category=SECURITY, security_severity="3.0",
)

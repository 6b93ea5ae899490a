"""What names a secret, for the readings that follow values through a script (python_flow.py, shell_secrets.py, js_flow.py):
an environment variable named like one, a credential file or store's path, a CLI's token store. The text
reading (secrets.py) matches the same things in prose and one-line commands with its own expressions, and
takes `NOT_THE_SECRET` from here."""

from __future__ import annotations


from ..core import programs

SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY",
                "CREDENTIAL")
# a name ending so holds where a secret is or what it is called, not the secret
NOT_THE_SECRET = ("_FILE", "_PATH", "_DIR", "_URL", "_NAME", "_ENV", "_ID")
# a credential file or store named in a string (lower-cased), as secrets.py names them
SECRET_PATH = programs.compile(
    r"\.ssh/(?:id_[a-z0-9_]+|identity)(?![\w.])|\.ssh/?$|\.aws/credentials|\.config/gcloud|"
    r"application_default_credentials\.json|\.kube/config|\.docker/config\.json|\.netrc|\.git-credentials|"
    r"\.pypirc|\.npmrc|\.gnupg|login data|logins\.json|key[34]\.db|cookies\.binarycookies|library/keychains|"
    r"login\.keychain|\.config/gh/hosts\.yml|wallet\.dat"
)
# commands that print a stored token (the last word is a prefix: `security find-generic-password`)
TOKEN_COMMANDS = (("gh", "auth", "token"), ("gcloud", "auth", "print-access-token"), ("security", "find-"),
                  ("aws", "configure", "get"), ("secret-tool", "lookup"), ("az", "account", "get-access-token"))


def secret_name(name: str) -> bool:
    """An environment variable's name that says it holds a secret (`GITHUB_TOKEN`, not `TOKEN_FILE`)."""
    upper = name.upper()
    return any(word in upper for word in SECRET_WORDS) and not upper.endswith(NOT_THE_SECRET)


def token_command(words: list[str]) -> tuple[str, ...] | None:
    """The token store a command's words run (`gh auth token`), wherever it stands among them."""
    for command in TOKEN_COMMANDS:
        for i in range(len(words) - len(command) + 1):
            if words[i : i + len(command) - 1] == list(command[:-1]) and words[i + len(command) - 1].startswith(
                command[-1]
            ):
                return command
    return None

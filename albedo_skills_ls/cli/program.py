"""The program's name and its exit statuses, named once (docs/cli.md lists the same)."""

PROG = "albedo-skills"

EXIT_OK = 0
EXIT_FINDINGS = 1  # `check` found an error, or the engine refused a request
EXIT_USAGE = 2  # the command line names something unusable
EXIT_BUG = 3  # an unexpected exception: a bug, reported in one line
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT

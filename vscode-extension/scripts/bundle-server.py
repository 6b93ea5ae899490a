#!/usr/bin/env python3
"""Build `bundled/libs`: the language server and its pure-Python dependencies, for the universal .vsix.

The dependencies come from `bundled/requirements.txt` (pinned, hash-checked, wheels only); our own package
is copied from the repository. The result must hold no compiled module: it runs on any Python >= 3.11, on any
platform, started by `bundled/tool/launch.py`. Built fresh beside the target and renamed into place, so an
interrupted build never leaves a half-filled folder behind. Not committed (see .gitignore).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1]
REPOSITORY = EXTENSION.parent
REQUIREMENTS = EXTENSION / "bundled" / "requirements.txt"
PACKAGE = "albedo_skills_ls"
COMPILED_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")


def build(out: Path, python: str) -> None:
    staging = out.with_name(out.name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    subprocess.run(
        [
            python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
            "--no-warn-script-location", "--root-user-action=ignore", "--target", str(staging),
            "--require-hashes", "--only-binary=:all:", "--no-deps", "-r", str(REQUIREMENTS),
        ],
        check=True,
    )
    shutil.copytree(REPOSITORY / PACKAGE, staging / PACKAGE, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.rmtree(staging / "bin", ignore_errors=True)  # console scripts pointing at the build's interpreter

    compiled = sorted(str(path.relative_to(staging)) for path in staging.rglob("*") if path.suffix in COMPILED_SUFFIXES)
    if compiled:
        shutil.rmtree(staging)
        sys.exit(f"bundle-server: compiled modules would tie the package to one platform: {', '.join(compiled)}")

    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=EXTENSION / "bundled" / "libs", help="the folder to fill")
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose pip installs the wheels")
    args = parser.parse_args(argv)
    build(args.out.resolve(), args.python)
    files = sum(1 for path in args.out.rglob("*") if path.is_file())
    print(f"bundle-server: {files} files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

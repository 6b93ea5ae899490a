"""A local wheelhouse, so what pre-commit and the Action install comes from this machine, online or not.

pre-commit builds a virtualenv for the hook and pip-installs this repository into it; the Action's install
step does the same. Both need, besides the source: a build backend for the isolated build (setuptools) and
the package's dependencies. Downloading them works only online, so the wheelhouse is made from what is here:
- each installed distribution of the package's dependency closure (markers evaluated for this interpreter)
  is packed back into a wheel from its own installed files (the files its RECORD lists inside
  site-packages, its metadata, its tags from WHEEL), as pip would have unpacked it;
- setuptools is the wheel virtualenv embeds (virtualenv comes with pre-commit), since the one installed here
  may be older than the build's `setuptools>=N`.
Pointing pip at it with PIP_NO_INDEX=1, PIP_FIND_LINKS and PIP_CONFIG_FILE=/dev/null (no machine-wide index or
constraints) makes the install the same on every machine.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import re
import zipfile
from pathlib import Path, PurePosixPath

from packaging.markers import default_environment
from packaging.requirements import Requirement

PROJECT = "albedo-skills-ls"
# Metadata pip writes at install time; a wheel does not carry them.
_INSTALL_ONLY = frozenset({"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"})


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_closure(project: str = PROJECT) -> list[importlib.metadata.Distribution]:
    """The installed distributions `project` needs at run time (no extras), found by walking Requires-Dist."""
    environment = default_environment()
    seen: dict[str, importlib.metadata.Distribution] = {}
    pending = [project]
    while pending:
        name = pending.pop()
        for line in importlib.metadata.distribution(name).requires or []:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate({**environment, "extra": ""}):
                continue
            key = _normal(requirement.name)
            if key not in seen:
                seen[key] = importlib.metadata.distribution(requirement.name)
                pending.append(requirement.name)
    return sorted(seen.values(), key=lambda dist: _normal(dist.metadata["Name"]))


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def repack(dist: importlib.metadata.Distribution, folder: Path) -> Path:
    """`dist`, installed, as a wheel in `folder`: its files inside site-packages (scripts and other files
    installed elsewhere are left out: pip makes the scripts again from entry_points.txt)."""
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    version = dist.version
    wheel_metadata = dist.read_text("WHEEL") or ""
    tags = re.findall(r"^Tag:\s*(\S+)\s*$", wheel_metadata, re.M)
    if not tags:
        raise RuntimeError(f"{dist.metadata['Name']} {version} has no Tag in its WHEEL file: cannot pack it")
    target = folder / f"{name}-{version}-{tags[0]}.whl"
    records: list[str] = []
    dist_info = None
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for file in dist.files or []:
            path = PurePosixPath(file.as_posix())
            if path.parts[0] == ".." or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            if path.parent.name.endswith(".dist-info"):
                dist_info = path.parent
                if path.name in _INSTALL_ONLY:
                    continue
            data = Path(str(dist.locate_file(file))).read_bytes()
            wheel.writestr(str(path), data)
            records.append(f"{path},{_record_hash(data)},{len(data)}")
        if dist_info is None:
            raise RuntimeError(f"{dist.metadata['Name']} {version} lists no .dist-info files: cannot pack it")
        records.append(f"{dist_info}/RECORD,,")
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    return target


def embedded_setuptools() -> Path:
    """The newest setuptools wheel virtualenv embeds (its seed wheels, used offline by design)."""
    import virtualenv.seed.wheels.embed as embed

    wheels = sorted(
        Path(embed.__file__).parent.glob("setuptools-*.whl"),
        key=lambda path: tuple(int(part) for part in re.findall(r"\d+", path.name.split("-")[1])),
    )
    if not wheels:
        raise RuntimeError(f"virtualenv embeds no setuptools wheel in {Path(embed.__file__).parent}")
    return wheels[-1]


def build_wheelhouse(folder: Path) -> Path:
    """Fill `folder` with the wheels installing PROJECT from source needs; returns `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for dist in dependency_closure():
        repack(dist, folder)
    setuptools = embedded_setuptools()
    (folder / setuptools.name).write_bytes(setuptools.read_bytes())
    return folder


def offline_pip_env(wheelhouse: Path) -> dict[str, str]:
    """The variables that make pip install from `wheelhouse` alone, whatever the machine's pip config says."""
    return {
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheelhouse),
        "PIP_CONFIG_FILE": "/dev/null",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }

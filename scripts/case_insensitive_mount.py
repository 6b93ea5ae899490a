"""Mount a folder again, with names looked up regardless of letter case, as macOS's APFS and Windows's NTFS do
by default: `SKILL.md` opens a stored `skill.md`, while a listing shows each name as stored. For running
`albedo-skills` (or the server) over a case-insensitive file system on Linux, where none is built in here
(docs/server.md, "Portability: what was run"). Needs FUSE (`/dev/fuse`, `apt-get install fuse3`) and
`pip install mfusepy`; not part of the suite.

    python scripts/case_insensitive_mount.py BACKING_DIR MOUNT_POINT     # stays in the foreground
    fusermount3 -u MOUNT_POINT                                           # unmount
"""

from __future__ import annotations

import errno
import os
import sys

from mfusepy import FUSE, FuseOSError, Operations


class CaseInsensitive(Operations):
    def __init__(self, backing: str) -> None:
        self.backing = os.path.realpath(backing)

    def _real(self, path: str) -> str:
        """The backing path, each component matched exactly if stored so, else regardless of letter case."""
        real = self.backing
        for part in [p for p in path.split("/") if p]:
            candidate = os.path.join(real, part)
            if not os.path.lexists(candidate):
                try:
                    same = [name for name in os.listdir(real) if name.casefold() == part.casefold()]
                except OSError:
                    same = []
                if same:
                    candidate = os.path.join(real, same[0])
            real = candidate
        return real

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._real(path))
        except OSError as exc:
            raise FuseOSError(exc.errno) from None
        keys = ("st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime", "st_mtime", "st_ctime", "st_ino")
        return {key: getattr(st, key) for key in keys}

    def readdir(self, path, fh):
        # each entry with its attributes (its inode number among them), the names as stored
        real = self._real(path)
        entries = [(".", self.getattr(path), 0), ("..", None, 0)]
        for name in os.listdir(real):
            st = os.lstat(os.path.join(real, name))
            entries.append((name, {"st_ino": st.st_ino, "st_mode": st.st_mode}, 0))
        return entries

    def readlink(self, path):
        return os.readlink(self._real(path))

    def open(self, path, flags):
        try:
            return os.open(self._real(path), flags)
        except OSError as exc:
            raise FuseOSError(exc.errno) from None

    def read(self, path, size, offset, fh):
        os.lseek(fh, offset, os.SEEK_SET)
        return os.read(fh, size)

    def release(self, path, fh):
        os.close(fh)

    def rename(self, old, new):
        os.rename(self._real(old), os.path.join(self._real(os.path.dirname(new)), os.path.basename(new)))

    def statfs(self, path):
        st = os.statvfs(self._real(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag",
                "f_frsize", "f_namemax")
        return {key: getattr(st, key) for key in keys}

    def access(self, path, amode):
        if not os.access(self._real(path), amode):
            raise FuseOSError(errno.EACCES)


def main() -> None:
    backing, mount_point = sys.argv[1:3]
    # use_ino: one file keeps one inode number under every spelling of its name, as on APFS and NTFS
    FUSE(CaseInsensitive(backing), mount_point, foreground=True, allow_other=False, use_ino=True)


if __name__ == "__main__":
    main()

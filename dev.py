#!/usr/bin/env python3
"""Set up paperkg and run its main job or its tests, on a machine with only python3.

    python3 dev.py build   # create .venv, install paperkg, build the graph of seeds/ into output/
    python3 dev.py test    # create .venv, install paperkg and test tools, run the test suite

Both are idempotent: the virtualenv is reused while pyproject.toml is unchanged.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".paperkg-installed"

#: Debian packages the test suite drives: raptor's rapper (independent Turtle parser) and Chromium.
APT_PACKAGES = {"rapper": "raptor2-utils", "chromium": "chromium"}


def run(*cmd: str | Path, **kw) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kw)


def ensure_venv(extras: str = "test") -> None:
    """Create .venv and install paperkg (editable) with ``extras``, unless already done for this pyproject."""
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want and PY.exists():
        return
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PY, "-m", "pip", "install", "--quiet", "-e", f".[{extras}]")
    STAMP.write_text(want)


def ensure_apt() -> None:
    """Install the Debian packages the tests need, if missing (needs root or sudo)."""
    missing = [pkg for tool, pkg in APT_PACKAGES.items() if shutil.which(tool) is None]
    if not missing:
        return
    prefix = [] if os.geteuid() == 0 else ["sudo"]
    if prefix and shutil.which("sudo") is None:
        sys.exit(f"the tests need the Debian packages {' '.join(missing)}; install them as root "
                 f"(apt-get install -y {' '.join(missing)}) and run again")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(*prefix, "apt-get", "update", "-qq", env=env)
    run(*prefix, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing, env=env)


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "build"
    if command == "build":
        ensure_venv()
        run(BIN / "kg", "build", "seeds/", "--output", "output/", *argv[2:])
    elif command == "test":
        ensure_venv()
        ensure_apt()
        run(PY, "-m", "pytest", "-q", *argv[2:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode or 1)

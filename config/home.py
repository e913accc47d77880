"""The home folder of an installed Bordpunt (`bordpunt run`): where a club's data lives.

    <home>/db.sqlite3    the database
    <home>/secret_key    signs the sessions; made on first run, readable by its owner only
    <home>/uploads/      uploaded files
    <home>/backups/      `bordpunt backup`, and the backups made before an upgrade or restore
    <home>/logs/         the server's log
    <home>/lexicons/     the club's own word lists (`bordpunt lexicon`)
    <home>/bordpunt.lock held by the `bordpunt` that serves or restores (bordpunt/home_lock.py)

The home is BORDPUNT_HOME, or else the platform's user data folder (platformdirs: e.g.
~/.local/share/bordpunt, %LOCALAPPDATA%\\bordpunt). Nothing is ever written into the
installed package. No Django here: the command reads this before Django is set up, and
config/settings.py reads it when BORDPUNT_HOME names a home.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

HOME_VARIABLE = "BORDPUNT_HOME"
CONFIG_DIR = Path(__file__).resolve().parent

#: The templates, static files and translations: at the top of a checkout (`make run`),
#: inside the `bordpunt` package once installed from the wheel (setup.py puts them there).
SHARED_DIR = (
    CONFIG_DIR.parent / "bordpunt"
    if (CONFIG_DIR.parent / "bordpunt" / "templates").is_dir()
    else CONFIG_DIR.parent
)


def default_home() -> Path:
    """BORDPUNT_HOME, or else the platform's user data folder for bordpunt."""
    if os.environ.get(HOME_VARIABLE, "").strip():
        return Path(os.environ[HOME_VARIABLE]).expanduser()
    import platformdirs  # only here: settings need it only when a home is named

    return Path(platformdirs.user_data_dir("bordpunt", appauthor=False))


class Home:
    """The files and folders of one home (see the module's docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).expanduser().resolve()

    @property
    def database(self) -> Path:
        return self.root / "db.sqlite3"

    @property
    def secret_key_file(self) -> Path:
        return self.root / "secret_key"

    @property
    def uploads(self) -> Path:
        return self.root / "uploads"

    @property
    def backups(self) -> Path:
        return self.root / "backups"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def lexicons(self) -> Path:
        return self.root / "lexicons"

    @property
    def lock_file(self) -> Path:
        return self.root / "bordpunt.lock"

    def prepare(self) -> None:
        """Make the folders and the secret key (OSError when the home cannot be written)."""
        for folder in (self.root, self.uploads, self.backups, self.logs):
            folder.mkdir(parents=True, exist_ok=True)
        # Written and checked even when everything exists: a read-only home fails here,
        # before the server starts, not at the first save of an evening.
        probe = self.root / ".write-test"
        probe.write_text("ok")
        probe.unlink()
        self.secret_key()

    def secret_key(self) -> str:
        """The home's secret key, made on first use: a file only its owner may read."""
        if not self.secret_key_file.exists():
            # O_EXCL: two first runs at once keep one key; 0o600 from the start (on
            # Windows the mode is ignored: the user's data folder is private already).
            try:
                fd = os.open(self.secret_key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                pass
            else:
                with os.fdopen(fd, "w") as key_file:
                    key_file.write(secrets.token_urlsafe(50))
        return self.secret_key_file.read_text().strip()

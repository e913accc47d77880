"""A server process warms up before its first request (config/warmup.py): the views
imported, every template of ours compiled, the word lists loaded, no database opened.

Runs the WSGI module as gunicorn loads it, in a fresh Python: a test process has long
done all of this before."""

import json
from pathlib import Path

from tests.config.test_production import production, run_python

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

LOADED = """
import json, sys
import config.wsgi
from django.db import connections
from django.template import engines
from config.warmup import project_templates
from rules.dawg import _load_default as dawgs
from rules.lexicon import _load_default as lexicons
cached = engines["django"].engine.template_loaders[0].get_template_cache
print(json.dumps({
    "templates": project_templates(),
    "compiled": sorted(name for name in cached if name in set(project_templates())),
    "views": sorted(name for name in sys.modules if name.endswith(".views")),
    "word_lists": [dawgs.cache_info().currsize, lexicons.cache_info().currsize],
    "connected": [alias for alias in connections if connections[alias].connection],
}))
"""


def test_the_wsgi_application_is_warm_before_its_first_request(tmp_path):
    done = run_python(["-c", LOADED], **production(DATABASE_URL=f"sqlite:///{tmp_path}/db"))
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert {"games/board.html", "base.html", "competition/round_results.html"} <= set(
        loaded["templates"]
    )
    # Ours only: the libraries' (Django's admin, crispy's bootstrap5) are not compiled, but
    # our own override of the admin's base_site.html is.
    ours = {path.relative_to(TEMPLATES).as_posix() for path in TEMPLATES.rglob("*.html")}
    assert set(loaded["templates"]) == ours
    assert "admin/base_site.html" in ours and "admin/index.html" not in ours
    assert loaded["compiled"] == loaded["templates"]
    assert {"games.views", "competition.views", "duplicate.views"} <= set(loaded["views"])
    assert loaded["word_lists"] == [2, 2]  # gouds8 and standard, as DAWG and as lexicon
    assert loaded["connected"] == []

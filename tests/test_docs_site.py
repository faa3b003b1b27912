"""The documentation site is strict (issue 40 items 4 and 5).

The site is built once per session (``sphinx-build -W``: any warning, those located in docstrings
included, fails the build), or read from ``LABELDP_DOCS_HTML`` where ``.ci/run`` has just built it. Then:

* no page carries a docutils "problematic" node (markup docutils could not resolve, such as an ``|x|``
  read as a substitution) or a system message;
* every internal link resolves: its target file exists and, where it has an ``#anchor``, that page has an
  element with that id (no dangling ``#idN``);
* scikit-learn's generated ``set_*_request`` methods are not documented;
* in headless Chromium (where it is installed), the index, the verdict board, one theory page (an experiment's,
  with its figures), one API page and the findings page load without console errors, every image has loaded
  (``naturalWidth > 0``), every formula is typeset where MathJax is served locally, and no "problematic" span
  is left.

Without the ``docs`` extra (Sphinx, MyST, the theme) the build-based tests skip with one reason; without Chromium the browser
test skips with one reason.
"""

from __future__ import annotations

import html.parser
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the build must stay within this many CPU seconds (issue 40: 60 s on 2 cores; the build is one process)
BUILD_BUDGET_S = 60
#: the pages the browser opens (relative to the site root)
BROWSER_PAGES = ("index.html", "generated/verdict_board.html", "generated/theory/experiments/rates_table.html",
                 "generated/api/limits.rates.html", "generated/findings.html")


@pytest.fixture(scope="session")
def site(tmp_path_factory, pytestconfig):
    """The built site's root folder (built here unless ``LABELDP_DOCS_HTML`` names one).

    Built once per test run: the xdist workers share one build (the first to need it builds it under a file
    lock, as ``tests/conftest.py`` shares the smoke runs).
    """
    given = os.environ.get("LABELDP_DOCS_HTML")
    if given:
        return Path(given)
    missing = [m for m in ("sphinx", "myst_parser", "pydata_sphinx_theme", "numpydoc")
               if importlib.util.find_spec(m) is None]  # numpydoc (the test extra) brings sphinx alone
    if missing:
        pytest.skip(f"the docs extra is not installed ({', '.join(missing)} missing: pip install -e '.[docs]' "
                    "to build the documentation)")
    import resource  # Unix; the docs are built on Linux in CI

    from filelock import FileLock

    root = tmp_path_factory.getbasetemp()
    if hasattr(pytestconfig, "workerinput"):  # an xdist worker: share the run's root
        root = root.parent
    out, log = root / "docs_html", root / "docs_html.log"
    with FileLock(str(out) + ".lock"):
        if not (out / ".build_seconds").is_file() and not log.is_file():
            env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(ROOT / "docs"),
                                   str(out)], env=env, capture_output=True, text=True, timeout=900)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode == 0:  # CPU seconds of the build: its wall time depends on the machine's load
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                (out / ".build_seconds").write_text(f"{cpu:.1f}")
            else:
                log.write_text(done.stderr[-6000:])
    assert not log.is_file(), "sphinx-build -W failed:\n" + log.read_text()
    return out


class _Page(html.parser.HTMLParser):
    """Ids, links, images and problematic markup of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.links, self.images, self.problems = set(), [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.ids.add(a[key])
        classes = (a.get("class") or "").split()
        if "problematic" in classes or "system-message" in classes:
            self.problems.append(f"<{tag} class={a.get('class')!r} id={a.get('id')!r}>")
        if tag == "a" and a.get("href") is not None:
            self.links.append(a["href"])
        if tag == "img" and a.get("src"):
            self.images.append(a["src"])


def _pages(site: Path, at_least: int = 100) -> dict[Path, _Page]:
    parsed = {}
    for path in sorted(site.rglob("*.html")):
        if "_static" in path.parts or "_sources" in path.parts:
            continue
        p = _Page()
        p.feed(path.read_text(encoding="utf-8"))
        parsed[path] = p
    assert len(parsed) >= at_least, f"only {len(parsed)} pages in {site}"
    return parsed


@pytest.fixture(scope="session")
def pages(site):
    return _pages(site)


def test_build_within_budget(site):
    """One build process: its CPU seconds are the wall seconds on an idle core (the load does not move them much)."""
    stamp = site / ".build_seconds"
    if not stamp.is_file():
        pytest.skip("the site was built outside this test session (LABELDP_DOCS_HTML)")
    cpu = float(stamp.read_text())
    assert cpu <= BUILD_BUDGET_S, f"sphinx-build used {cpu} CPU-s (goal {BUILD_BUDGET_S})"


def test_no_problematic_markup(pages, site):
    bad = {p.relative_to(site).as_posix(): pg.problems for p, pg in pages.items() if pg.problems}
    n = sum(map(len, bad.values()))
    assert not bad, f"{n} problematic nodes on {len(bad)} pages: {dict(list(bad.items())[:10])}"


def _dangling(pages, site) -> list[str]:
    dangling = []
    for path, page in pages.items():
        for href in page.links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith("mailto:"):
                continue
            target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
            if not target.exists():
                dangling.append(f"{path.relative_to(site)}: {href} (no such file)")
                continue
            if parts.fragment and target.suffix == ".html":
                if target not in pages:
                    continue  # _static or _sources: not checked for anchors
                if unquote(parts.fragment) not in pages[target].ids:
                    dangling.append(f"{path.relative_to(site)}: {href} (no such anchor)")
    return dangling


def test_the_checks_find_what_they_look_for(tmp_path):
    (tmp_path / "a.html").write_text('<p id="top"><a href="#top">ok</a> <a href="#id3">dangling</a> '
                                     '<a href="b.html#x">ok</a> <a href="c.html">missing</a> '
                                     '<span class="problematic" id="id4">|x|</span></p>')
    (tmp_path / "b.html").write_text('<h1 id="x">x</h1><a href="a.html#nowhere">dangling</a>')
    pages = _pages(tmp_path, at_least=2)
    assert sorted(_dangling(pages, tmp_path)) == ["a.html: #id3 (no such anchor)", "a.html: c.html (no such file)",
                                                  "b.html: a.html#nowhere (no such anchor)"]
    assert pages[tmp_path / "a.html"].problems == ["<span class='problematic' id='id4'>"]


def test_every_internal_link_resolves(pages, site):
    dangling = _dangling(pages, site)
    assert not dangling, f"{len(dangling)} dangling links, e.g.:\n" + "\n".join(dangling[:25])


def test_every_image_file_exists(pages, site):
    missing = [f"{p.relative_to(site)}: {src}" for p, pg in pages.items() for src in pg.images
               if not urlsplit(src).scheme and not (p.parent / unquote(urlsplit(src).path)).exists()]
    assert not missing, missing[:20]


def test_sklearn_metadata_routing_not_documented(site):
    hits = [p.name for p in (site / "generated" / "api").glob("*.html")
            if "set_fit_request" in p.read_text(encoding="utf-8") or "get_metadata_routing" in p.read_text(
                encoding="utf-8")]
    assert not hits, hits


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


#: run in each page after load: console errors are collected by a listener installed before the page's scripts
_PROBE = """
(async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const imgs = Array.from(document.images);
  return JSON.stringify({
    errors: window.__labeldpErrors || [],
    images: imgs.length,
    broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src')),
    problematic: document.querySelectorAll('.problematic, .system-message').length,
    math: document.querySelectorAll('.math').length,
    typeset: document.querySelectorAll('mjx-container').length,
    local_mathjax: !!document.querySelector('script[src*="_static/mathjax/"]'),
    title: document.title,
  });
})()
"""


def _chromium_or_skip() -> str:
    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return chromium


def test_the_browser_check_sees_what_it_looks_for(tmp_path):
    """A page with a broken local image, a console error and a problematic span is caught on all three counts."""
    chromium = _chromium_or_skip()
    from tests._cdp import open_pages

    page = tmp_path / "bad.html"
    page.write_text('<html><head><title>bad</title></head><body><img src="missing.png">'
                    '<span class="problematic">|x|</span><script>console.error("boom")</script></body></html>')
    raw = open_pages(chromium, [page], _PROBE, tmp_path / "profile")[page]
    r = json.loads(raw["probe"])
    assert r["broken"] == ["missing.png"] and r["problematic"] == 1
    errors = " ".join(raw["console_errors"] + r["errors"])
    assert "boom" in errors and "missing.png" in errors


def test_pages_render_in_headless_chromium(site, tmp_path):
    chromium = _chromium_or_skip()
    from tests._cdp import open_pages  # the small DevTools client used only here

    results = open_pages(chromium, [site / p for p in BROWSER_PAGES], _PROBE, tmp_path,
                         screenshots=os.environ.get("LABELDP_SCREENSHOTS"))
    for page, raw in results.items():
        r = json.loads(raw["probe"])
        errors = raw["console_errors"] + r["errors"]
        assert not errors, f"{page}: console errors {errors}"
        assert not r["broken"], f"{page}: images not loaded {r['broken']}"
        assert r["problematic"] == 0, f"{page}: {r['problematic']} problematic spans"
        assert r["title"], page
        if r["local_mathjax"]:  # math renders without a network (sphinx-mathjax-offline, the docs extra)
            assert r["typeset"] >= r["math"], f"{page}: {r['math']} formulas, {r['typeset']} typeset"
    api = json.loads(results[site / BROWSER_PAGES[3]]["probe"])
    assert api["math"] > 0 and (api["typeset"] > 0 or not api["local_mathjax"])
    assert json.loads(results[site / BROWSER_PAGES[2]]["probe"])["images"] > 0  # the experiment's figures

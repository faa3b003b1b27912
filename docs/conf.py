"""Sphinx configuration of the labeldp-suite site.

Build (reads committed files, runs no experiment)::

    pip install -e ".[docs]"
    sphinx-build -W -b html docs docs/_build/html

Generated at every build (git-ignored): ``docs/generated/`` (theory guide, findings, API root, by
``_ext/labeldp_pages.py``) and ``docs/generated/api/`` (autosummary stubs).
"""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "labeldp-suite"
author = "labeldp-suite contributors"
copyright = "2026, labeldp-suite contributors"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "labeldp_pages",
    "labeldp_claims",
]
# Math without a network: sphinx-mathjax-offline (in the docs extra) copies MathJax 3 into _static and points
# the pages at it; where it is not installed, MathJax is loaded from its CDN (formulas then need a network).
if importlib.util.find_spec("sphinx-mathjax-offline") is not None:
    extensions.append("sphinx-mathjax-offline")

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
html_static_path = ["_static"]
html_css_files = ["labeldp.css"]

# API reference: _ext/labeldp_pages.py writes one page per public module (found by walking the
# packages), with autosummary tables of the names in each module's __all__.
autosummary_generate = True
autosummary_ignore_module_all = False
autosummary_imported_members = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"          # numpydoc's Parameters sections carry the types
# The optional torch path (simulations/torch_path) is documented from a mock when torch is not
# installed, so the docs extra alone builds the whole site.
autodoc_mock_imports = [m for m in ("torch",) if importlib.util.find_spec(m) is None]

# numpydoc: no class-member tables (the module template lists members itself), no cross-ref guessing
# of free-text types (which would warn on "float > 0").
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()  # validation is tests/test_docstrings.py's job

# MyST: the hand-written pages (getting started, usage, notes, extending, design) are Markdown; headings
# get anchors down to level 3 so that pages can link to a section.
myst_heading_anchors = 3
# $...$ math in the results notes that the theory guide includes (figures/<name>/results.json)
myst_enable_extensions = ["dollarmath"]


# Strict: under -W every warning is an error, those located in Python docstrings included.

html_theme = "pydata_sphinx_theme"
# The theme's light/dark switch reads this; without it a first visit logs "Got invalid theme mode" to the console.
html_context = {"default_mode": "auto"}
html_title = "labeldp-suite"
html_theme_options = {
    "navigation_depth": 2,
    "collapse_navigation": True,
    "show_toc_level": 1,
    "navbar_align": "left",
}
html_show_sourcelink = False
# The API module pages and the theory guide's experiment pages have no primary sidebar: a navigation tree of
# ~150 modules on each of ~150 pages was half of the build time (the experiment pages: 8 of 46 CPU-s); the API
# index and the paper pages of the theory guide list them all.
html_sidebars = {"generated/api/**": [], "generated/theory/experiments/**": []}
numpydoc_show_inherited_class_members = False

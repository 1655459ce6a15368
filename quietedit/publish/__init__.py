"""The static site: ``build_site`` renders the archive, ``serve`` previews it locally.

Modules: ``build`` (orchestration), ``buildcache`` (the build cache), ``documents`` (one
document's pages), ``batches`` (rendering in parallel), ``sitewide`` (listings, sources,
stats, feeds, sitemap), ``pages``, ``diffview``, ``listing`` and ``text`` (page models,
pure), ``charts`` (inline SVG, pure), ``changes`` (the adapter to ``quietedit.analysis``),
``render`` (Jinja2, URLs), ``atom`` (Atom and RSS), ``api`` (the JSON API), ``search``
(Pagefind), ``serve`` (the preview server) and ``paths`` (output path containment).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quietedit.lazy import lazy_exports

if TYPE_CHECKING:
    from quietedit.publish.build import BuildOptions, BuildReport, build_site

__all__ = ["BuildOptions", "BuildReport", "build_site"]

# loaded on first use: a pure page model (``pages``) never loads the build
__getattr__ = lazy_exports(__name__, dict.fromkeys(__all__, "quietedit.publish.build"))

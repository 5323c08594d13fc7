"""One self-contained HTML file: inline CSS, inline SVG, no script, no external resource."""

from __future__ import annotations

from importlib.resources import files

from jinja2 import Environment, select_autoescape
from markupsafe import Markup

from cardroom.analysis.dossier.model import Dossier


def render(dossier: Dossier) -> str:
    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["svg"] = Markup  # charts are produced on the server by matplotlib, never input
    template = files("cardroom.analysis.dossier").joinpath("dossier.html").read_text("utf-8")
    return env.from_string(template).render(d=dossier)

"""What a figure of `companion.plots` shows, read from its data as its hover shows it. A figure given as the
function that makes it (an odds card's) is made first."""
from __future__ import annotations


def made(figure):
    return figure() if callable(figure) else figure


def data(figure, layer: int = 0) -> dict[str, list]:
    """The columns of one layer (renderer) of a figure."""
    return dict(made(figure).renderers[layer].data_source.data)


def exactly(figure) -> dict[str, str]:
    """A hits_bars figure: P(exactly k) for each k, as an exact fraction."""
    bars = data(figure)
    return dict(zip(bars["k"], bars["exactly_fraction"]))


def outcomes(figure) -> dict[str, float]:
    """An outcome_bars figure: each outcome's whole name and its probability."""
    bars = data(figure)
    return dict(zip(bars["name"], bars["probability"]))


def series(figure) -> dict[str, dict[int, str]]:
    """A curves figure: each curve's name and its exact value at each count."""
    return {layer.data_source.data["series"][0]: dict(zip(layer.data_source.data["n"],
                                                          layer.data_source.data["exact"]))
            for layer in made(figure).renderers if layer.data_source.data["series"]}

"""A determinised Monte Carlo search bot for c8league, installed as a player plugin."""

from c8league_montecarlo.player import MonteCarloPlayer

__version__ = "0.1.0"

__all__ = ["MonteCarloPlayer", "__version__"]

"""Duels: is bot A better than bot B? Paired matches on duplicate deals, summarised by
the statistics in :mod:`c8league.duel.stats` and stopped by a sequential test."""

"""Events: pairing rounds (:mod:`~c8league.events.pairing`), running bot matches
(:mod:`~c8league.events.running`), status, standings and balance
(:mod:`~c8league.events.status`), and a league's season table
(:mod:`~c8league.events.season`).

The flow is one way: stored entrants and results → a schedule (pure functions in
``c8league.schedule``) → match rows → the runner → results and ratings in storage.

The package re-exports nothing: import each name from its module
(``from c8league.events.status import event_standings``), so that reading the standings
does not load the runner behind ``run_event``.
"""

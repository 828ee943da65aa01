"""Checks run by CI beside the tests (see ``.ci/run``)."""

"""Playing matches: the match loop, and (later) executors that run many of them."""

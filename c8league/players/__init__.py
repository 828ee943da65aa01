"""Players: the player protocol, the plugin registry and the built-in players."""

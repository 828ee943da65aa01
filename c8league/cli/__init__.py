"""The command line: one Typer sub-app per noun. The only package that imports typer."""

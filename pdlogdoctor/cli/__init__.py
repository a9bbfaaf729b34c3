"""The command line: arguments in; reports on stdout and files, and an exit code, out.

`main.py` is the entry point (a plain `analyze` read without typer), `commands.py` the typer
app, `behaviour.py` what each command does; the only place that writes files or exits.
"""

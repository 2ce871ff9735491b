"""The ``kg`` command line. Each command lives in its own module and is registered here."""
from __future__ import annotations

import importlib

import click

from kg import __version__

#: command name -> "module:attribute" (imported lazily so ``kg --help`` stays fast)
COMMANDS: dict[str, str] = {
    "build": "kg.cli.build:build",
    "stats": "kg.cli.stats:stats",
    "similar": "kg.cli.similar:similar",
    "compare": "kg.cli.compare:compare",
    "trends": "kg.cli.trends:trends",
    "path": "kg.cli.path:path",
    "report": "kg.cli.report:report",
    "viz": "kg.cli.viz:viz",
    "query": "kg.cli.query:query",
    "export": "kg.cli.export:export",
    "validate": "kg.cli.validate:validate",
    "serve": "kg.cli.serve:serve",
}


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported only when used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kg")
def cli() -> None:
    """paperkg: build, query and explore knowledge graphs of paper abstracts."""


def main() -> None:
    """Entry point of the ``kg`` console script: click's usage errors as click prints them, and Ctrl-C at
    any point (start-up included) a one-line message and exit status 130, never a traceback."""
    import signal
    import sys

    from kg.errors import raise_interrupt

    signal.signal(signal.SIGINT, raise_interrupt)
    try:
        cli.main(standalone_mode=False)
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.secho("interrupted", fg="yellow", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)

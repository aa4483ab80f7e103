"""Command-line tools: ``flask --app tracker export FILE`` and ``flask --app tracker import FILE``."""

from __future__ import annotations

import json
import sys

import click
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy.exc import OperationalError, ProgrammingError

from . import archive, service
from .db import db
from .rules.errors import RuleError


def _database() -> str:
    """The database a command read or wrote, its password hidden (a backup run in a shell
    without ``DATABASE_URL`` read the SQLite file and said only "exported 0 game(s)": a tester)."""
    return db.engine.url.render_as_string(hide_password=True)


def register(app: Flask) -> None:
    """Add the ``export`` and ``import`` commands to ``flask``."""

    @app.cli.command("export")
    @click.argument("path", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
    def export_command(path: str) -> None:
        """Write every game (a full backup) as one JSON file; '-' writes to standard output.
        A database that cannot be read (not migrated, out of reach) or a file that cannot be
        written is a one-line error (exit 1), and no file is left behind."""
        try:
            data = service.export_history()
        except (ProgrammingError, OperationalError) as exc:
            raise click.ClickException(
                "could not read the games: " + str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
                + " (a new database needs `flask --app tracker db upgrade`; is DATABASE_URL right?)") from None
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if path == "-":
            sys.stdout.write(text + "\n")
        else:
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text + "\n")
            except OSError as exc:
                raise click.ClickException(f"could not write {path}: {exc.strerror or exc}") from None
        click.echo(f"exported {len(data['games'])} game(s) from {_database()}", err=True)

    @app.cli.command("import")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
    def import_command(path: str) -> None:
        """Import a game log or a whole backup; games already stored are skipped (a stored game the
        file has more entries of gets them). A database without the app's tables (a fresh one to
        restore into) gets them first, as ``flask db upgrade`` makes them."""
        upgrade()
        try:
            with click.open_file(path, "rb") as f:
                data = archive.read_json(f.read())  # as the API and History read it
        except (ValueError, RecursionError) as exc:
            raise click.ClickException(f"{path} is not JSON: {exc}") from exc
        try:
            # (no cap on the entries: a backup of any size restores, as ``export`` wrote it)
            done = service.import_any(data, capped=False)
        except RuleError as err:
            raise click.ClickException(f"refused ({err.code}): {err.message}") from err
        click.echo(f"imported {done.created} game(s)"
                   + (f" ({done.created_deleted} of them deleted, as in the file)" if done.created_deleted else "")
                   + f", {done.existing} already stored"
                   + (f" ({done.earlier} of them as they stood before entries undone here: kept as they are here)"
                      if done.earlier else "")
                   + (f" ({done.deleted} of them deleted: restore them in History)" if done.deleted else "")
                   + (f", {done.extended} stored game(s) continued with later entries" if done.extended else "")
                   + (f", {done.differ} stored game(s) with other entries than the file's kept as they are"
                      if done.differ else "")
                   + f" into {_database()}")

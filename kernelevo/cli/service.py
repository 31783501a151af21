"""``kernelevo serve`` and ``kernelevo token``: the API server and the tokens that let a client change things.

    kernelevo serve [--host 127.0.0.1] [--port 8321]    the REST API (OpenAPI at /docs)
                    [--unsafe-local]                    start without every protection of sandboxed children
    kernelevo token create NAME                         a new token, shown once
    kernelevo token list | revoke ID
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table

from kernelevo.cli.run import EXIT_BAD_INPUT, EXIT_OK, database, fail
from kernelevo.settings import Settings


def serve(args: argparse.Namespace, console: Console) -> int:
    import uvicorn

    from kernelevo.api import create_app

    # The server runs what clients upload (a spec's code when it is checked, kernels in the runs it
    # starts): a probe child says which protections a sandboxed child gets here, before anything is served.
    missing = contained_enough(unsafe_local=args.unsafe_local)
    if missing is not None:
        print(missing, file=sys.stderr)
        return EXIT_BAD_INPUT
    settings = Settings()
    host, port = args.host or settings.api_host, args.port or settings.api_port
    settings = settings.model_copy(update={"api_host": host})  # the Host allow-list includes the bound address
    db = database(args)
    console.print(f"kernelevo API on http://{host}:{port} (OpenAPI: http://{host}:{port}/docs), database "
                  f"{db.describe()}", highlight=False)
    uvicorn.run(create_app(db, settings, launch_runs=not args.no_launch), host=host, port=port, log_level="warning")
    return EXIT_OK


def contained_enough(*, unsafe_local: bool) -> str | None:
    """None when sandboxed children get every protection here (or ``unsafe_local`` accepts less, with a
    warning), else the one line ``kernelevo serve`` refuses to start with."""
    import logging

    from kernelevo.isolation.probe import probe

    missing = probe().missing()
    if not missing:
        return None
    names = "; ".join(str(p) for p in missing)
    if unsafe_local:
        logging.getLogger(__name__).warning("serving with --unsafe-local: sandboxed children run without %s", names)
        return None
    return (f"kernelevo serve: uploaded specs and kernels would run without {names}. Fix that (README: Trusting "
            "the evaluator, Containment), or pass --unsafe-local for a server only you reach")


def token(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.storage.tokens import create_token, list_tokens, revoke_token

    db = database(args, write=args.action != "list")
    with db.session() as session:
        if args.action == "create":
            if not args.name:
                return fail("kernelevo token create NAME: name the token (who or what uses it)")
            row, secret = create_token(session, args.name)
            console.print(f"token {row.id} ({row.name}); shown this once, keep it:", highlight=False)
            print(secret)
            return EXIT_OK
        if args.action == "revoke":
            if args.name is None or not args.name.isdigit():
                return fail("kernelevo token revoke ID: the token's id (kernelevo token list)")
            revoked = revoke_token(session, int(args.name))
            if revoked is None:
                return fail(f"no token {args.name}")
            console.print(f"token {revoked.id} ({revoked.name}) revoked", highlight=False)
            return EXIT_OK
        table = Table(title="API tokens")
        for column in ("id", "name", "created", "revoked"):
            table.add_column(column)
        for row in list_tokens(session):
            table.add_row(str(row.id), row.name, row.created_at.strftime("%Y-%m-%d %H:%M"),
                          row.revoked_at.strftime("%Y-%m-%d %H:%M") if row.revoked_at else "-")
        console.print(table)
    return EXIT_OK if args.action == "list" else EXIT_BAD_INPUT

"""What every route depends on: the database session, and who is asking.

The database is only ever touched from FastAPI's thread pool (the routes that read it are plain
``def``), never on the event loop: a pool checkout or a query that waits there would stall every
request, the event streams and the run launcher with it. The checks below that need the database
are plain ``def`` too; the one that needs it only when reads are closed (:func:`reader`) is
``async`` and hands off to a thread only then, so an open read costs no extra thread hop.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from kernelevo.settings import Settings
from kernelevo.storage.database import Database
from kernelevo.storage.tokens import verify_token

bearer = HTTPBearer(auto_error=False, description="a token from `kernelevo token create NAME`")


async def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def settings(request: Request) -> Settings:
    found: Settings = request.app.state.settings
    return found


def session(db: Annotated[Database, Depends(database)]) -> Iterator[Session]:
    with db.session() as s:
        yield s


DatabaseDep = Annotated[Database, Depends(database)]
SettingsDep = Annotated[Settings, Depends(settings)]
# scope="function": the session commits before the response is sent, so a client that reads what it has just
# written (POST /api/runs, then GET /api/runs/ID) finds it (with the default, it committed after the response)
SessionDep = Annotated[Session, Depends(session, scope="function")]


def _token_name(db: Database, scheme: str, secret: str) -> str | None:
    if scheme.lower() != "bearer" or not secret:
        return None
    with db.session() as s:
        row = verify_token(s, secret)
        return row.name if row is not None else None


def writer(db: DatabaseDep, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    """The token's name; every mutating route needs one (401 without, or with a revoked or unknown one)."""
    name = _token_name(db, credentials.scheme, credentials.credentials) if credentials is not None else None
    if name is None:
        raise HTTPException(401, "a valid bearer token is needed (kernelevo token create NAME)",
                            headers={"WWW-Authenticate": "Bearer"})
    return name


async def reader(request: Request, db: DatabaseDep, config: SettingsDep) -> None:
    """Reads are open (the default, on a server bound to loopback) or need a token too.

    The header is read here, not through :data:`bearer`, so that the OpenAPI document declares no
    security on reads while they are open (``create_app`` declares it when they are not)."""
    if config.api_reads_open:
        return
    scheme, _, secret = request.headers.get("authorization", "").partition(" ")
    if await run_in_threadpool(_token_name, db, scheme, secret.strip()) is None:
        raise HTTPException(401, "this server needs a bearer token for reads too",
                            headers={"WWW-Authenticate": "Bearer"})


WriterDep = Annotated[str, Depends(writer)]
ReadDep = Depends(reader)

MAX_ID = 2**63 - 1  # the databases' integer ids are 64-bit
IdPath = Annotated[int, Path(ge=1, le=MAX_ID)]
OptionalId = Annotated[int | None, Query(ge=1, le=MAX_ID)]
After = Annotated[int, Query(ge=0, le=MAX_ID)]

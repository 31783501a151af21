"""API tokens: made once and shown once, stored as their SHA-256, revocable."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from kernelevo.storage.database import utcnow
from kernelevo.storage.tables import TokenRow

PREFIX = "kev_"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(session: Session, name: str) -> tuple[TokenRow, str]:
    """A new token for ``name``: its row and the token itself (not stored: show it now or never)."""
    token = PREFIX + secrets.token_urlsafe(32)
    row = TokenRow(name=name, digest=digest(token), created_at=utcnow())
    session.add(row)
    session.flush()
    return row, token


def list_tokens(session: Session) -> list[TokenRow]:
    return list(session.scalars(select(TokenRow).order_by(TokenRow.id)))


def revoke_token(session: Session, token_id: int) -> TokenRow | None:
    row = session.get(TokenRow, token_id)
    if row is not None and row.revoked_at is None:
        row.revoked_at = utcnow()
    return row


def verify_token(session: Session, token: str) -> TokenRow | None:
    """The token's row if it is known and not revoked."""
    row = session.scalar(select(TokenRow).where(TokenRow.digest == digest(token)))
    return row if row is not None and row.revoked_at is None else None

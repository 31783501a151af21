"""``/api/hardware`` and ``/api/health``."""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import text

import kernelevo
from kernelevo.api.deps import DatabaseDep, ReadDep, SessionDep
from kernelevo.api.schemas import Health
from kernelevo.storage import queries

router = APIRouter(prefix="/api", tags=["service"])


@router.get("/hardware", response_model=list[str], dependencies=[ReadDep])
def list_hardware(session: SessionDep) -> list[str]:
    """The hardware types any run was evaluated on ("cpu-interpreter": Triton's interpreter, not a GPU)."""
    return queries.hardware_of(session)


@router.get("/health", response_model=Health)
def health(db: DatabaseDep, session: SessionDep) -> Health:
    session.execute(text("SELECT 1"))  # the database answers
    return Health(status="ok", version=kernelevo.__version__, database=db.describe())

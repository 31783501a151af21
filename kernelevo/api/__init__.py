"""The REST API: ``create_app(db)``; ``kernelevo serve`` runs it with uvicorn."""

from kernelevo.api.app import create_app

__all__ = ["create_app"]

"""The island actor's side (see :mod:`kernelevo.distributed.island` for who runs what): one island's
:class:`~kernelevo.search.island.IslandEmitter` in a Ray actor of one CPU, with its own LLM clients,
rebuilt from storage whenever Ray (re)starts it; or the same body in the driver's own process
(:class:`InDriver`), where the host has no core for the driver beside every island's actor."""

from __future__ import annotations

import inspect
import logging
import os
import random
import socket
from typing import Any

from kernelevo.distributed.island_channel import packed, unpacked
from kernelevo.records.run_config import RunConfig
from kernelevo.search.island import Asked, IslandEmitter
from kernelevo.spec import Spec
from kernelevo.utils.collector import collect_less

log = logging.getLogger(__name__)


def model_keys(config: RunConfig) -> dict[str, str]:
    """The environment variables that hold the run's model keys, as the driver has them: each island calls
    the models itself, on whichever node Ray placed it (the actor's runtime environment carries them)."""
    names = {m.api_key_env or f"{m.model.split('/')[0].upper()}_API_KEY" for m in config.llm_models()}
    return {name: os.environ[name] for name in sorted(names) if name in os.environ}


class IslandActor:
    """Ray actor body: one island, rebuilt from storage when Ray (re)starts it."""

    def __init__(self, spec: Spec, config: RunConfig, island: int, db_url: str | None = None,
                 run_id: int | None = None, *, in_driver: bool = False) -> None:
        llm = None
        models = config.llm_models()
        if models:  # its own clients: its own connections and rate limits
            from kernelevo.variation.llm.models import ModelPool

            llm = ModelPool(models, rng=random.Random(config.seed * 1009 + island))
        self.body = IslandEmitter(spec, config, island, llm=llm)
        self.rebuilt = 0  # evaluations replayed from storage
        if db_url is not None and run_id is not None:
            self._rebuild(db_url, run_id, island)
        if not in_driver:  # (the driver's loop collects less itself: kernelevo.utils.collector)
            collect_less()  # this process is the island's alone: it allocates as the driver does, per candidate

    def _rebuild(self, db_url: str, run_id: int, island: int) -> None:
        from kernelevo.storage.database import Database
        from kernelevo.storage.island_view import island_view

        db = Database(db_url)
        try:
            stored, elites = island_view(db, run_id, island)
        finally:
            db.dispose()
        self.body.rebuild(stored.candidates, stored.evaluations, elites, stored.prompts)
        self.rebuilt = len(self.body._told)
        log.info("island %d rebuilt from storage: %d evaluations, %d stored elites", island, self.rebuilt,
                 len(elites))

    def ready(self) -> dict[str, Any]:
        return {"island": self.body.island, "incarnation": self.body.incarnation, "host": socket.gethostname(),
                "pid": os.getpid(), "rebuilt": self.rebuilt}

    async def ask(self, instant: bool = False) -> Asked:
        return await self.body.ask(instant=instant)

    async def ask_many(self, instants: list[bool]) -> bytes:
        """One answer per ask (:class:`Asked`, :func:`packed`), made one after the other (instant edits hold this
        island's one CPU)."""
        return packed([await self.body.ask(instant=instant) for instant in instants])

    def tell(self, messages: bytes) -> tuple[str, list[int]]:
        """:meth:`IslandEmitter.tell` of the :class:`Message` list :func:`packed` in ``messages``."""
        return self.body.tell(unpacked(messages))

    async def drain(self) -> Asked:
        """The run ends: the island's asks under way cut short, and what it recorded since its last answer
        (those included), with no candidate."""
        return await self.body.cut_short()

    def elite_ids(self) -> dict[str, list[int]]:
        return self.body.elite_ids()

    def instant_cost(self) -> tuple[int, float]:
        """How many candidates this island's instant operators drew, and their CPU seconds (benchmarks read it)."""
        cost = self.body.emitter.producer.instant_cost
        return cost.produced, cost.cpu_s

    def prompt_ids(self) -> list[int]:
        return [p.id for p in self.body.state.prompts.prompts]


class InDriver:
    """An island's :class:`IslandActor` in the driver's own process, called as a Ray actor handle is
    (``island.method.remote(...)``, awaited) where speed does not matter: its start, its end, what tests and
    benchmarks read. Its asks and tells go to its emitter directly (:attr:`IslandChannel.home`), unpickled."""

    def __init__(self, body: IslandActor) -> None:
        self.body = body

    def __getattr__(self, name: str) -> _Method:
        return _Method(getattr(self.body, name))


class _Method:
    def __init__(self, method: Any) -> None:
        self.method = method

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        return _called(self.method, args, kwargs)


async def _called(method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    result = method(*args, **kwargs)
    return await result if inspect.isawaitable(result) else result


__all__ = ["InDriver", "IslandActor", "model_keys"]

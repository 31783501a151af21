"""LLM calls through litellm: any provider by model string, retries, tokens and dollars.

The key and base URL come from the configuration or from litellm's usual environment
variables (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ...). Rate limits (429), server
errors (5xx), timeouts and dropped connections are retried with exponential backoff;
a missing or wrong key, an unknown model or a bad request fail at once with a message
that says what to do. Every call reports its tokens and cost (litellm's cost map where
it knows the model; zero and flagged where it does not). A call cut short (the run stops,
an island goes) reports its prompt's tokens, counted here, on the CancelledError
(:func:`spent_before_cancel`): the provider has them whether or not the reply is read.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from dataclasses import dataclass
from typing import Any

from kernelevo.records.candidate import OperatorFailure, Usage
from kernelevo.records.run_config import LLMConfig

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list at import

log = logging.getLogger(__name__)


class LLMError(Exception):
    """A call that failed for good: ``kind`` names why (auth, not_found, bad_request, rate_limit, ...)."""

    def __init__(self, kind: str, message: str, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message
        self.usage = usage or Usage()


_SPENT = "kernelevo_llm_usage"  # the attribute a cancelled call's usage rides on, up its task


def spent_before_cancel(cancelled: BaseException) -> Usage:
    """What the LLM call under way when ``cancelled`` was raised had spent (no call: nothing)."""
    return getattr(cancelled, _SPENT, None) or Usage()


def cut_short(operator: str, cancelled: BaseException, parent_ids: list[int] | None = None) -> OperatorFailure | None:
    """What an ask of ``operator`` that ``cancelled`` cut short is recorded as: a ``cut_short`` failure charged
    its prompt, or None where no call had gone out."""
    spent = spent_before_cancel(cancelled)
    if not spent.calls:
        return None
    return OperatorFailure(operator=operator, kind="cut_short", parent_ids=parent_ids or [], usage=spent,
                           message="the run stopped while the LLM answered (the prompt's tokens counted, "
                                   "the reply's unknown)")


@dataclass(frozen=True)
class LLMReply:
    text: str
    usage: Usage


_RETRYABLE = ("RateLimitError", "Timeout", "APIConnectionError", "ServiceUnavailableError", "InternalServerError",
              "BadGatewayError")
_KINDS = {
    "AuthenticationError": "auth",
    "PermissionDeniedError": "auth",
    "NotFoundError": "not_found",
    "BadRequestError": "bad_request",
    "ContextWindowExceededError": "context_window",
    "RateLimitError": "rate_limit",
    "Timeout": "timeout",
    "APIConnectionError": "connection",
    "ServiceUnavailableError": "server",
    "InternalServerError": "server",
    "BadGatewayError": "server",
}


def quiet_litellm() -> Any:
    """litellm, imported with its own console output off (a red "Provider List" banner and a
    "Give Feedback" one would land, colour codes and all, in the user's terminal or log)."""
    import litellm

    litellm.suppress_debug_info = True
    return litellm


def missing_key_message(config: LLMConfig) -> str | None:
    """Why calls to ``config.model`` cannot work yet, or None: checked before a run starts."""
    litellm = quiet_litellm()

    if config.api_key_env:
        return None if os.environ.get(config.api_key_env) else (
            f"the model {config.model} needs its key in ${config.api_key_env}, which is not set")
    if config.api_base:  # a local or self-hosted server may need no key
        return None
    env = litellm.validate_environment(config.model)
    missing = env.get("missing_keys") or []
    if missing:
        return (f"the model {config.model} needs {', '.join(missing)} in the environment; set it, or pass "
                "--api-base for a local OpenAI-compatible server")
    return None


class LLMClient:
    """Async chat completions with retries and accounting."""

    def __init__(self, config: LLMConfig, *, quiet: bool = False) -> None:
        quiet_litellm()
        self.config = config
        self.quiet = quiet  # no warning per retry (a preflight reports its outcome itself)
        self.total = Usage(model=config.model)

    async def complete(self, messages: list[dict[str, str]]) -> LLMReply:
        """One completion; retries what is worth retrying, raises :class:`LLMError` otherwise."""
        import litellm

        from kernelevo.utils.aio import guard_hand_offs

        guard_hand_offs()  # a call cancelled while litellm builds it in a thread leaves no coroutine unawaited
        cfg = self.config
        api_key = os.environ.get(cfg.api_key_env) if cfg.api_key_env else None
        attempt = 0
        while True:
            sent: list[bool] = []  # litellm's logger_fn runs as it hands the request to the provider
            try:
                response = await litellm.acompletion(
                    model=cfg.model, messages=messages, api_base=cfg.api_base, api_key=api_key,
                    temperature=cfg.temperature, max_tokens=cfg.max_tokens, timeout=cfg.timeout_s, num_retries=0,
                    logger_fn=lambda details, mark=sent.append: mark(True),
                )
            except asyncio.CancelledError as cancelled:
                if sent:  # the prompt went out: count it, and go on cancelling
                    usage = self.prompt_usage(messages).model_copy(update={"calls": attempt + 1})
                    self.total = self.total + usage
                    setattr(cancelled, _SPENT, usage)
                raise
            except Exception as exc:
                name = type(exc).__name__
                kind = _kind(name, exc)
                if name in _RETRYABLE and kind not in ("no_key", "auth") and attempt < cfg.max_retries:
                    delay = min(60.0, cfg.backoff_s * 2**attempt) * (0.5 + random.random() / 2)
                    (log.debug if self.quiet else log.warning)(
                        "LLM call failed (%s), retry %d/%d in %.1f s", kind, attempt + 1, cfg.max_retries, delay)
                    attempt += 1
                    await asyncio.sleep(delay)
                    continue
                raise LLMError(kind, _explain(kind, exc, cfg), Usage(calls=attempt + 1, model=cfg.model)) from None
            usage = self._usage(response).model_copy(update={"calls": attempt + 1})  # retries are calls too
            self.total = self.total + usage
            text = response.choices[0].message.content or ""
            return LLMReply(text=text, usage=usage)

    def prompt_usage(self, messages: list[dict[str, str]]) -> Usage:
        """One call's usage counted from its prompt alone (litellm's tokenizer for the model, or
        cl100k; the reply's tokens unknown): what a call cut short is charged."""
        import litellm

        cfg = self.config
        try:
            prompt = int(litellm.token_counter(model=cfg.model, messages=messages))
        except Exception:  # a tokenizer that cannot load: about four characters a token
            prompt = sum(len(m.get("content") or "") for m in messages) // 4
        if cfg.input_usd_per_mtok is not None or cfg.output_usd_per_mtok is not None:
            return Usage(calls=1, prompt_tokens=prompt, cost_usd=prompt * (cfg.input_usd_per_mtok or 0.0) / 1e6,
                         model=cfg.model)
        try:
            cost, known = float(litellm.cost_per_token(model=cfg.model, prompt_tokens=prompt,
                                                       completion_tokens=0)[0]), True
        except Exception:  # a model missing from litellm's cost map
            cost, known = 0.0, False
        return Usage(calls=1, prompt_tokens=prompt, cost_usd=cost, cost_known=known, model=cfg.model)

    def _usage(self, response: object) -> Usage:
        import litellm

        counts = getattr(response, "usage", None)
        prompt = int(getattr(counts, "prompt_tokens", 0) or 0)
        completion = int(getattr(counts, "completion_tokens", 0) or 0)
        cfg = self.config
        if cfg.input_usd_per_mtok is not None or cfg.output_usd_per_mtok is not None:  # the user's price first
            cost = (prompt * (cfg.input_usd_per_mtok or 0.0) + completion * (cfg.output_usd_per_mtok or 0.0)) / 1e6
            return Usage(calls=1, prompt_tokens=prompt, completion_tokens=completion, cost_usd=cost,
                         model=cfg.model)
        try:
            cost, known = float(litellm.completion_cost(completion_response=response)), True
        except Exception:  # litellm raises for models missing from its cost map
            cost, known = 0.0, False
        return Usage(calls=1, prompt_tokens=prompt, completion_tokens=completion, cost_usd=cost, cost_known=known,
                     model=self.config.model)


def _kind(name: str, exc: Exception) -> str:
    """The named kind of a litellm error; a missing key is told apart (litellm reports it in many ways)."""
    text = str(exc).lower()
    if "missing credentials" in text or "api_key client option must be set" in text or "no api key" in text:
        return "no_key"
    if name == "BadRequestError" and ("llm provider not provided" in text or "provider list" in text):
        return "not_found"
    if "connection error" in text or "connection refused" in text or "name or service not known" in text:
        return "connection"  # litellm reports a refused connection as a server error
    return _KINDS.get(name, "llm_error")


def _explain(kind: str, exc: Exception, cfg: LLMConfig) -> str:
    detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
    hints = {
        "auth": f"the API key was refused by {cfg.api_base or 'the provider'}: check "
                f"{'$' + cfg.api_key_env if cfg.api_key_env else 'the provider key variable'}",
        "no_key": f"no API key was sent to {cfg.api_base or 'the provider'}: put the key in an environment variable "
                  "and name it with --api-key-env (a server that needs no key: give it any value)",
        "not_found": f"the model {cfg.model!r} was not found: check the model string (litellm's provider/model, "
                     "e.g. openai/gpt-4o-mini)",
        "rate_limit": f"still rate-limited after {cfg.max_retries} retries",
        "timeout": f"no answer within {cfg.timeout_s:g} s, {cfg.max_retries} retries included",
        "server": f"the provider kept failing after {cfg.max_retries} retries",
        "connection": f"cannot reach {cfg.api_base or 'the provider'} after {cfg.max_retries} retries "
                      "(is the server running, and is the URL right?)",
        "bad_request": f"{cfg.api_base or 'the provider'} refused the request",
        "context_window": "the prompt is longer than the model's context window",
    }
    return f"{hints.get(kind, 'the LLM call failed')} ({detail})"

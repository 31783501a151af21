"""What pydantic says of bad settings, as the one line the command line prints: the field named."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from kernelevo.cli.checks import RUN_FLAGS, device_problem, validation_message
from kernelevo.records.run_config import Budget, RunConfig
from kernelevo.settings import Settings


def message(settings: dict[str, object], **options: str) -> str:
    with pytest.raises(ValidationError) as caught:
        RunConfig.model_validate(settings)
    return validation_message(caught.value, flags=RUN_FLAGS if not options else {}, **options)


def test_a_flag_is_named_as_the_user_gave_it() -> None:
    assert message({"workers": 0}) == "--workers 0: input should be greater than or equal to 1"
    assert message({"in_flight": 0}) == "--in-flight 0: input should be greater than or equal to 1"
    assert message({"budget": {"minutes": float("nan")}}) == "--budget minutes=nan: input should be a finite number"
    assert message({"evaluation": {"device": 3}}) == "--device 3: input should be a valid string"


def test_a_file_field_is_named_by_its_path_with_the_value_given() -> None:
    assert message({"budget": {"minutes": -1}}, where="--config run.toml: ") == \
        "--config run.toml: budget.minutes: input should be greater than 0 (got -1)"
    assert message({"workers": 0, "islands": 0}, where="") == \
        "workers: input should be greater than or equal to 1 (got 0) (and 1 more problem)"
    assert message({"exploitation": 0, "exploration": 0, "random_pick": 0}, where="") == \
        "RunConfig: exploitation, exploration and random_pick cannot all be 0"


def test_a_setting_from_the_environment_is_named_by_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KERNELEVO_API_PORT", "0")
    with pytest.raises(ValidationError) as caught:
        Settings()
    assert validation_message(caught.value) == "KERNELEVO_API_PORT=0: input should be greater than or equal to 1"


@pytest.mark.parametrize(("text", "problem"), [
    ("", "--budget '': use evals=N"), (" , ", "--budget ' , ': use evals=N"),
    ("evals=nan", "evals takes a finite number"), ("minutes=inf", "minutes takes a finite number"),
    ("evals=3,evals=4", "evals is given twice"), ("hours=3", "hours is not a budget"),
    ("evals=", "evals needs a value"), ("evals=2.5", "evals takes a whole number"),
])
def test_a_bad_budget_names_its_part(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=r"^--budget ") as caught:
        Budget.parse(text)
    assert problem in str(caught.value)


def test_a_budget_of_any_parts() -> None:
    assert Budget.parse("evals=5,").evaluations == 5 and Budget.parse("minutes = 3").minutes == 3.0
    assert Budget.parse("tokens=2e6").evaluations is None  # what is not given is unlimited


def test_devices() -> None:
    assert device_problem("auto") is None and device_problem("cpu") is None
    assert device_problem("gpu") == "--device gpu: use auto, cpu, cuda or cuda:N"
    assert device_problem("cuda:x") == "--device cuda:x: use auto, cpu, cuda or cuda:N"
    assert device_problem("cuda", remote_gpus=True) is None  # a Ray cluster's GPUs are not seen from here


def test_the_pool_flags_reach_the_run_config() -> None:
    from kernelevo.cli.main import _parser
    from kernelevo.cli.run import _new_config

    config = _new_config(_parser().parse_args(["run", "spec.py", "--pool", "shared", "--weight", "3"]))
    assert (config.pool, config.weight) == ("shared", 3.0)
    assert (RunConfig().pool, RunConfig().weight) == ("per-run", 1.0)
    assert message({"weight": 0}) == "--weight 0: input should be greater than 0"
    assert message({"pool": "shared", "ray": False}, where="") == \
        "RunConfig: pool 'shared' is a pool of Ray actors: it needs ray (drop --no-ray, or use pool 'per-run')"
    assert "targets need pool 'per-run'" in message({"pool": "shared", "targets": ["H100"]}, where="")


def test_the_island_flags_reach_the_run_config() -> None:
    from kernelevo.cli.main import _parser
    from kernelevo.cli.run import _new_config

    args = ["run", "spec.py", "--islands", "4", "--migration", "random", "--migrate-every", "25"]
    config = _new_config(_parser().parse_args(args))
    assert (config.islands, config.migration, config.migration_every) == (4, "random", 25)
    assert (RunConfig().migration, RunConfig().migration_every) == ("ring", 40)
    assert message({"migration_every": 0}) == "--migrate-every 0: input should be greater than or equal to 1"

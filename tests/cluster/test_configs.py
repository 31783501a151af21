"""The cluster configs reference what exists: entrypoints that parse, images we build, resources we route on."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from kernelevo.cli.main import _parser
from kernelevo.distributed.cluster import ACCELERATOR_PREFIX

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = ROOT / "cluster"
DOCKER = ROOT / "docker"
IMAGES = {"ghcr.io/kernelevo/kernelevo-head:0.1.0": DOCKER / "Dockerfile.head",
          "ghcr.io/kernelevo/kernelevo-gpu:0.1.0": DOCKER / "Dockerfile.gpu"}


def load(name: str) -> dict:
    return yaml.safe_load((CLUSTER / name).read_text())


def images_in(node: object) -> list[str]:
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("image", "head_image", "worker_image") and isinstance(value, str):
                found.append(value)
            found += images_in(value)
    elif isinstance(node, list):
        for item in node:
            found += images_in(item)
    return found


def accelerator_resources(node: object) -> list[str]:
    text = json.dumps(node)
    return re.findall(re.escape(ACCELERATOR_PREFIX) + r"([A-Za-z0-9]+)", text)


@pytest.mark.parametrize("name", ["aws-gpu.yaml", "kuberay/raycluster.yaml", "kuberay/rayjob.yaml"])
def test_images_are_the_ones_docker_builds(name: str) -> None:
    images = images_in(load(name))
    assert images, f"{name} names no image"
    for image in images:
        assert image in IMAGES and IMAGES[image].is_file(), f"{name}: {image} is not built by docker/"


@pytest.mark.parametrize("name", ["aws-gpu.yaml", "kuberay/raycluster.yaml", "kuberay/rayjob.yaml"])
def test_gpu_workers_carry_the_accelerator_label_kernelevo_routes_on(name: str) -> None:
    labels = accelerator_resources(load(name))
    assert labels and set(labels) == {"H100"}


def test_rayjob_entrypoint_is_a_valid_kernelevo_command() -> None:
    job = load("kuberay/rayjob.yaml")
    argv = shlex.split(job["spec"]["entrypoint"])
    assert argv[0] == "kernelevo"
    args = _parser().parse_args(argv[1:])  # raises SystemExit on an unknown flag
    assert args.command == "run" and (ROOT / args.spec).is_file()
    assert args.targets == "H100" and accelerator_resources(job) == ["H100"]


def test_kuberay_gpu_workers_request_gpus_and_token_auth() -> None:
    for name in ("kuberay/raycluster.yaml", "kuberay/rayjob.yaml"):
        doc = load(name)
        spec = doc["spec"].get("rayClusterSpec", doc["spec"])
        assert spec["authOptions"]["mode"] == "token"
        for group in spec["workerGroupSpecs"]:
            container = group["template"]["spec"]["containers"][0]
            assert int(container["resources"]["limits"]["nvidia.com/gpu"]) >= 1


def test_launcher_starts_ray_with_token_auth_and_ships_the_token() -> None:
    config = load("aws-gpu.yaml")
    assert all("RAY_AUTH_MODE=token ray start" in " ".join(config[k])
               for k in ("head_start_ray_commands", "worker_start_ray_commands"))
    assert "/root/.ray/auth_token" in config["file_mounts"]
    assert config["head_node_type"] in config["available_node_types"]


def test_gpu_nodes_start_ray_workers_at_the_nodes_priority() -> None:
    """Ray's default niceness 15 puts an evaluator's judge barely above its own compiles ahead."""
    workers = " ".join(load("aws-gpu.yaml")["worker_start_ray_commands"])
    assert "RAY_worker_niceness=0 " in workers
    assert re.search(r"^ENV (.*\\\n)*\s*RAY_worker_niceness=0 ", (DOCKER / "Dockerfile.gpu").read_text(), flags=re.M)


def test_readme_commands_use_real_flags() -> None:
    text = (CLUSTER / "README.md").read_text()
    commands = re.findall(r"kernelevo run [^\n\\]*(?:\\\n[^\n\\]*)*", text)
    assert commands
    for command in commands:
        argv = shlex.split(command.replace("\\\n", " "), comments=True)
        assert len(argv) > 3, command
        _parser().parse_args(argv[1:])

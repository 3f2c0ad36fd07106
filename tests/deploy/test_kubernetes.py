"""The Kubernetes base (``deploy/kubernetes``), checked offline: rendered as ``kustomize build`` would
(``tools/kustomize_subset.py``, compared with ``kubectl kustomize`` where installed), validated against the
Kubernetes API schemas (``kubernetes-validate --strict``) and by ``checkov`` (0 failed checks; each skipped
check justified in its manifest), then read for what the service needs: probes, a read-only root filesystem
whose only writable paths are volumes, the database URL from the Secret, the Job, CronJob, HPA, PDB and
NetworkPolicy aimed at the right pods. Last, the server runs as a pod would, and every file it opens for
writing is checked to lie in a mounted volume.

The validators live in ``.venv-tools`` (``make tools``). Without them their tests skip, unless
``MANACALC_REQUIRE_DEPLOY_TOOLS`` is set (CI sets it): then a missing tool fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.deploy.support import REPO, child_env, free_port, is_postgres, manacalc_command, running

BASE = REPO / "deploy" / "kubernetes"
KUBERNETES_VERSIONS = (
    "1.30.0",
    "1.37.0",
)  # the oldest we support (CronJob timeZone is GA since 1.27), and now

_spec = importlib.util.spec_from_file_location("kustomize_subset", REPO / "tools" / "kustomize_subset.py")
assert _spec is not None and _spec.loader is not None
kustomize_subset = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kustomize_subset)


def tool(name: str) -> str:
    """The validator's path: ``.venv-tools/bin`` first, then PATH; absent, skip (or fail in CI)."""
    candidate = REPO / ".venv-tools" / "bin" / name
    found = str(candidate) if candidate.is_file() else shutil.which(name)
    if found:
        return found
    message = f"{name} is not installed: `make tools` puts it in .venv-tools"
    if os.environ.get("MANACALC_REQUIRE_DEPLOY_TOOLS"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def objects() -> list[dict[str, Any]]:
    return kustomize_subset.render(BASE)


@pytest.fixture(scope="module")
def rendered(objects: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kustomize") / "manacalc.yaml"
    path.write_text(yaml.safe_dump_all(objects, sort_keys=False), encoding="utf-8")
    return path


def one(objects: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [o for o in objects if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)]
    assert len(found) == 1, f"{kind} {name or ''}: {len(found)} found"
    return found[0]


def pod_spec(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj["spec"]["jobTemplate"]["spec"] if obj["kind"] == "CronJob" else obj["spec"]
    pod: dict[str, Any] = spec["template"]["spec"]
    return pod


def pod_labels(obj: dict[str, Any]) -> dict[str, str]:
    spec = obj["spec"]["jobTemplate"]["spec"] if obj["kind"] == "CronJob" else obj["spec"]
    labels: dict[str, str] = spec["template"]["metadata"]["labels"]
    return labels


def pod_ports(container: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["containerPort"] for p in container["ports"]}


def count(rendered: Path) -> int:
    return sum(1 for doc in yaml.safe_load_all(rendered.read_text(encoding="utf-8")) if doc)


def workloads(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in objects if o["kind"] in {"Deployment", "Job", "CronJob"}]


# --- the kustomization --------------------------------------------------------------------------------


def test_every_resource_listed_exists_and_every_manifest_is_listed() -> None:
    listed = {path.name for path in kustomize_subset.resource_files(BASE)}
    on_disk = {path.name for path in BASE.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == on_disk, (listed ^ on_disk, "a manifest not in kustomization.yaml is never applied")


def test_the_renderer_refuses_what_it_does_not_render(tmp_path: Path) -> None:
    (tmp_path / "kustomization.yaml").write_text("kind: Kustomization\npatches: []\nresources: [a.yaml]\n")
    with pytest.raises(kustomize_subset.KustomizeError, match="patches"):
        kustomize_subset.render(tmp_path)
    (tmp_path / "kustomization.yaml").write_text("kind: Kustomization\nresources: [missing.yaml]\n")
    with pytest.raises(kustomize_subset.KustomizeError, match=r"missing\.yaml"):
        kustomize_subset.render(tmp_path)


def test_the_renderer_agrees_with_kubectl_kustomize(objects: list[dict[str, Any]]) -> None:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed (the renderer's own tests above still ran)")
    done = subprocess.run([kubectl, "kustomize", str(BASE)], capture_output=True, text=True, timeout=60)
    if done.returncode != 0 and "unknown command" in done.stderr:
        pytest.skip("this kubectl has no kustomize")
    assert done.returncode == 0, done.stderr

    def keyed(items: list[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, Any]]:
        return {(o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]): o for o in items}

    # kustomize orders by kind; the objects themselves must be the same.
    assert keyed(list(yaml.safe_load_all(done.stdout))) == keyed(objects)


# --- the validators -----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_kubernetes_validate_strict(rendered: Path, version: str) -> None:
    validator = tool("kubernetes-validate")
    done = subprocess.run(
        [validator, "--strict", "--kubernetes-version", version, str(rendered)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "ERROR" not in output and "WARN" not in output, output  # a kind without a schema is a WARN
    assert output.count("passed for resource") == count(rendered)


def test_checkov_finds_nothing_unjustified(rendered: Path) -> None:
    checkov = tool("checkov")
    done = subprocess.run(
        # --skip-download: offline (no Prisma Cloud guidelines); the rendered file is what a cluster gets.
        [
            checkov,
            "--framework",
            "kubernetes",
            "--skip-download",
            "--output",
            "json",
            "--file",
            str(rendered),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "BC_SKIP_MAPPING": "TRUE", "CHECKOV_RUN_SCA_PACKAGE_SCAN_V2": "false"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(done.stdout)
    report = report[0] if isinstance(report, list) else report
    summary = report["summary"]
    assert summary["failed"] == 0 and summary["parsing_errors"] == 0, summary
    assert summary["passed"] > 100, summary  # it did check the objects
    assert summary["resource_count"] >= count(rendered)  # (it adds the pods of Jobs as resources)
    for skipped in report["results"].get("skipped_checks", []):
        reason = skipped.get("suppress_comment") or skipped["check_result"].get("suppress_comment") or ""
        assert len(reason) >= 20, f"{skipped['check_id']} skipped without a reason in the manifest"


# --- what the service needs ---------------------------------------------------------------------------


def test_api_pods_have_probes_resources_and_no_privilege(objects: list[dict[str, Any]]) -> None:
    deployment = one(objects, "Deployment", "manacalc")
    (api,) = pod_spec(deployment)["containers"]
    assert api["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert api["readinessProbe"]["httpGet"]["path"] == "/readyz"
    ports = pod_ports(api)
    assert api["args"][:1] == ["serve"] and str(ports["http"]) in api["args"]
    env = {e["name"]: e.get("value") for e in api["env"]}
    assert env["MANACALC_METRICS_PORT"] == str(ports["metrics"])  # /metrics off the API's port
    assert env["MANACALC_MIGRATE_ON_START"] == "false"  # the Job migrates, once per release


@pytest.mark.parametrize("kind", ["Deployment", "Job", "CronJob"])
def test_every_pod_runs_non_root_on_a_read_only_root(objects: list[dict[str, Any]], kind: str) -> None:
    workload = one(objects, kind)
    pod = pod_spec(workload)
    assert pod["automountServiceAccountToken"] is False
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == 10001  # the image's user (Dockerfile: USER 10001:10001)
    for container in pod["containers"]:
        security = container["securityContext"]
        assert security["readOnlyRootFilesystem"] is True
        assert security["allowPrivilegeEscalation"] is False
        assert security["capabilities"]["drop"] == ["ALL"]
        for bound in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(container["resources"][bound]), (kind, bound)


@pytest.mark.parametrize("kind", ["Deployment", "Job", "CronJob"])
def test_writable_paths_are_volumes_and_urls_come_from_the_secret(
    objects: list[dict[str, Any]], kind: str
) -> None:
    """What the app writes (``tempfile``'s /tmp: the workers' metrics files, a card file being downloaded;
    the catalogue snapshot) lies under an emptyDir, and the database is PostgreSQL from the Secret's files,
    never SQLite on the (read-only) image."""
    workload = one(objects, kind)
    pod = pod_spec(workload)
    secret = one(objects, "Secret", "manacalc-urls")
    volumes = {v["name"]: v for v in pod["volumes"]}
    (container,) = pod["containers"]
    mounts = {m["mountPath"]: volumes[m["name"]] for m in container["volumeMounts"]}
    assert "emptyDir" in mounts["/tmp"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert "MANACALC_DATABASE_URL" not in env and "valueFrom" not in str(container["env"])
    secrets_dir = env["MANACALC_SECRETS_DIR"]
    assert mounts[secrets_dir]["secret"]["secretName"] == "manacalc-urls"
    keys = set(secret["stringData"])
    assert {"manacalc_database_url", "manacalc_redis_url"} <= keys
    assert secret["stringData"]["manacalc_database_url"].startswith("postgresql+psycopg://")
    if kind == "Deployment":
        snapshot = env["MANACALC_CATALOGUE_SNAPSHOT_DIR"]
        assert any(snapshot.startswith(path + "/") and "emptyDir" in v for path, v in mounts.items())


def test_the_secret_files_are_read_as_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Secret's keys are what ``Settings`` reads from MANACALC_SECRETS_DIR (a mounted Secret)."""
    from app.config import Settings, get_settings

    secret = yaml.safe_load((BASE / "secret.yaml").read_text(encoding="utf-8"))
    for key, value in secret["stringData"].items():
        (tmp_path / key).write_text(value, encoding="utf-8")
    monkeypatch.setenv("MANACALC_SECRETS_DIR", str(tmp_path))
    monkeypatch.delenv("MANACALC_DATABASE_URL", raising=False)
    monkeypatch.delenv("MANACALC_REDIS_URL", raising=False)
    get_settings.cache_clear()
    try:
        settings = get_settings()
    finally:
        get_settings.cache_clear()
    assert settings.database_url == secret["stringData"]["manacalc_database_url"]
    assert settings.redis_url == secret["stringData"]["manacalc_redis_url"]
    # The image's environment names a SQLite file (Dockerfile ENV): the mounted Secret replaces it.
    monkeypatch.setenv("MANACALC_DATABASE_URL", "sqlite:////var/lib/manacalc/manacalc.db")
    monkeypatch.setenv("MANACALC_LOG_LEVEL", "ERROR")  # no file for it: the environment's
    both = Settings()
    assert both.database_url == secret["stringData"]["manacalc_database_url"]
    assert both.log_level == "ERROR"


def test_jobs_migrate_and_update_the_catalogue(objects: list[dict[str, Any]]) -> None:
    (migrate,) = pod_spec(one(objects, "Job", "manacalc-migrate"))["containers"]
    assert migrate["args"] == ["migrate"]
    cron = one(objects, "CronJob", "manacalc-update-cards")
    (update,) = pod_spec(cron)["containers"]
    assert update["args"] == ["update-cards"]
    assert cron["spec"]["concurrencyPolicy"] == "Forbid"  # two imports at once would only race
    images = {c["image"] for o in workloads(objects) for c in pod_spec(o)["containers"]}
    assert len(images) == 1, images  # the Job migrates for the image the pods run


def test_hpa_pdb_service_and_policies_select_the_right_pods(objects: list[dict[str, Any]]) -> None:
    deployment = one(objects, "Deployment", "manacalc")
    api_labels = pod_labels(deployment)
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= api_labels.items()
    hpa = one(objects, "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "manacalc",
    }
    assert hpa["spec"]["minReplicas"] >= 2
    # Connections: each worker pools up to 15 (app.db.session); PostgreSQL allows 100 by default.
    workers = int(pod_spec(deployment)["containers"][0]["args"][-1])
    assert hpa["spec"]["maxReplicas"] * workers * 15 < 100
    assert "replicas" not in deployment["spec"]  # the autoscaler's to set
    pdb = one(objects, "PodDisruptionBudget")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= api_labels.items()
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]  # a drain can still move a pod
    service = one(objects, "Service")
    assert service["spec"]["selector"].items() <= api_labels.items()
    policies = [o for o in objects if o["kind"] == "NetworkPolicy"]
    assert any(p["spec"]["podSelector"] == {} for p in policies)  # default deny
    for workload in workloads(objects):
        labels = pod_labels(workload)
        chosen = [
            p
            for p in policies
            if p["spec"]["podSelector"] and p["spec"]["podSelector"]["matchLabels"].items() <= labels.items()
        ]
        assert len(chosen) == 1, workload["metadata"]["name"]
        ports = {
            rule_port["port"] for rule in chosen[0]["spec"].get("egress", []) for rule_port in rule["ports"]
        }
        assert {53, 5432} <= ports
        assert (443 in ports) == (workload["kind"] == "CronJob")  # only update-cards reaches Scryfall


# --- the pod's filesystem, for real ---------------------------------------------------------------------

AUDIT = """
import os, sys

_ALLOWED = tuple(p for p in os.environ["MANACALC_TEST_WRITABLE"].split(os.pathsep) if p)
_LOG = os.environ["MANACALC_TEST_WRITES_LOG"]
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _outside(path, dir_fd=None):
    if not isinstance(path, (str, bytes, os.PathLike)):
        return False
    path = os.fsdecode(path)
    if isinstance(dir_fd, int) and not os.path.isabs(path):  # shutil.rmtree's relative names
        path = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), path)
    full = os.path.realpath(path)
    inside = [
        full.startswith(a[:-1]) if a.endswith("*") else full == a or full.startswith(a + os.sep)
        for a in _ALLOWED
    ]
    return not any(inside) and full != os.devnull


def _hook(event, args):
    target, dir_fd = None, None
    if event == "open" and args:
        mode, flags = args[1], args[2]
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            mode is None and isinstance(flags, int) and flags & _WRITE_FLAGS
        ):
            target = args[0]
    elif event in ("os.mkdir", "os.remove", "os.rmdir"):
        target, dir_fd = args[0], args[-1]
    elif event in ("os.rename", "os.symlink", "os.link", "os.truncate"):
        target, dir_fd = args[0], args[2] if event == "os.rename" else None
    elif event == "sqlite3.connect" and args:
        target = args[0]
    if target is not None and _outside(target, dir_fd):
        with open(_LOG, "a") as log:  # inside an allowed directory: no recursion
            log.write(f"{os.getpid()} {event} {os.fsdecode(target)}\\n")


sys.addaudithook(_hook)
"""


def test_the_server_writes_only_to_the_pods_volumes(
    tmp_path: Path, fresh_database_url: str, objects: list[dict[str, Any]]
) -> None:
    """``manacalc serve`` as the Deployment runs it (its args and environment, each volume a local
    directory, HOME on the read-only image, migrations by a separate ``migrate``) with an audit hook in
    every process: no file is opened for writing, created, renamed or removed anywhere else. SQLite needs a
    writable file, so on SQLite runs the database file counts as a volume too (pods use PostgreSQL)."""
    (api,) = pod_spec(one(objects, "Deployment", "manacalc"))["containers"]
    local = tmp_path / "volumes"
    mounts = {m["mountPath"]: local / m["name"] for m in api["volumeMounts"]}
    for directory in mounts.values():
        directory.mkdir(parents=True)

    def here(value: str) -> str:
        """A pod path as the same place under the local volumes."""
        for path, directory in mounts.items():
            if value == path or value.startswith(path + "/"):
                return str(directory) + value[len(path) :]
        return value

    pod_env = {e["name"]: here(e["value"]) for e in api["env"]}
    hook_dir = tmp_path / "hook"
    hook_dir.mkdir()
    (hook_dir / "sitecustomize.py").write_text(textwrap.dedent(AUDIT), encoding="utf-8")
    log = Path(here("/tmp/writes.log"))
    writable = [str(local.resolve())]
    if not is_postgres(fresh_database_url):
        writable.append(str(tmp_path.resolve() / "fresh.db") + "*")  # the file, its journal and migrate lock
    read_only_home = tmp_path / "home"  # not in the writable list: the image's /var/lib/manacalc
    read_only_home.mkdir()
    # The database URL comes as the pod gets it, from the Secret's files, over the image's environment
    # naming a SQLite file in that read-only home (which the hook would catch being written).
    Path(pod_env["MANACALC_SECRETS_DIR"], "manacalc_database_url").write_text(fresh_database_url)
    port, metrics = free_port(), free_port()
    env = child_env(
        f"sqlite:///{read_only_home / 'manacalc.db'}",
        **{**pod_env, "MANACALC_METRICS_PORT": str(metrics)},  # a free port here
        HOME=str(read_only_home),
        TMPDIR=here("/tmp"),
        PYTHONPATH=str(hook_dir),
        PYTHONDONTWRITEBYTECODE="1",  # as the image's ENV
        MANACALC_TEST_WRITABLE=os.pathsep.join(writable),
        MANACALC_TEST_WRITES_LOG=str(log),
    )
    env.pop("XDG_DATA_HOME", None)
    # The hook sees a write outside the volumes (so an empty log below means something).
    probe = read_only_home / "probe"
    subprocess.run([sys.executable, "-c", f"open({str(probe)!r}, 'w')"], env=env, check=True)
    assert f"open {probe}" in log.read_text(encoding="utf-8")
    log.unlink()
    migrate = subprocess.run(
        [*manacalc_command(), "migrate"], env=env, cwd=read_only_home, capture_output=True, timeout=300
    )
    assert migrate.returncode == 0, migrate.stderr.decode()[-2000:]
    args = [str(port) if a == str(pod_ports(api)["http"]) else a for a in api["args"]]
    args = ["127.0.0.1" if a == "0.0.0.0" else a for a in args]
    with running([*manacalc_command(), *args], env, port, tmp_path / "serve.log") as server:
        server.wait_ready(timeout=180)
        deck = {"decklist": "4 Llanowar Elves\n20 Forest", "format": "modern"}
        answer = httpx.post(server.base_url + "/v1/decks/analyze", json=deck, timeout=30)
        assert answer.status_code == 200, answer.text
        # The chart too: its plotting library's font cache goes to MPLCONFIGDIR (the pod's /tmp), not HOME.
        chart = httpx.post(
            server.base_url + "/v1/decks/analyze", json=deck, headers={"Accept": "image/svg+xml"}, timeout=60
        )
        assert chart.status_code == 200 and chart.headers["content-type"].startswith("image/svg+xml")
        assert httpx.get(server.base_url + "/v1/cards/named", params={"exact": "Forest"}).status_code == 200
        assert httpx.get(f"http://127.0.0.1:{metrics}/metrics", timeout=10).status_code == 200
    snapshot = Path(pod_env["MANACALC_CATALOGUE_SNAPSHOT_DIR"])
    assert list(snapshot.glob("catalogue-*"))  # the snapshot went where the pod keeps it
    outside = log.read_text(encoding="utf-8") if log.exists() else ""
    assert outside == "", f"written outside the pod's volumes:\n{outside}"


def test_the_edge_is_an_ingress_nginx_ingress_with_timeouts_and_limits(objects: list[dict[str, Any]]) -> None:
    """Issue 36: production has an edge. The Ingress sends everything to the API's Service through
    ingress-nginx, with body, buffer, upstream-timeout and connection limits; the controller-wide head,
    body, send and keep-alive timeouts are in the ConfigMap beside it (the controller's to apply)."""
    ingress = one(objects, "Ingress", "manacalc")
    assert ingress["spec"]["ingressClassName"] == "nginx"
    (rule,) = ingress["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    service = one(objects, "Service", "manacalc")
    assert path["backend"]["service"] == {"name": "manacalc", "port": {"name": "http"}}
    assert "http" in [port["name"] for port in service["spec"]["ports"]]
    prefix = "nginx.ingress.kubernetes.io/"
    annotations = {
        key.removeprefix(prefix): value
        for key, value in ingress["metadata"]["annotations"].items()
        if key.startswith(prefix)
    }
    assert annotations["proxy-body-size"] == "1m"
    assert annotations["proxy-request-buffering"] == "on"
    assert annotations["proxy-next-upstream"] == "off"
    for key in ("proxy-send-timeout", "proxy-read-timeout", "limit-connections", "limit-rps"):
        assert int(annotations[key]) > 0, key
    assert not any("snippet" in key for key in annotations)  # snippets are off in current controllers
    configmap = yaml.safe_load(
        (BASE / "ingress-nginx" / "controller-configmap.yaml").read_text(encoding="utf-8")
    )
    data = configmap["data"]
    assert data["client-header-timeout"] == "5"
    assert data["client-body-timeout"] == "10"
    assert data["send-timeout"] == "10"
    assert data["large-client-header-buffers"] == "4 16k"
    assert int(data["upstream-keepalive-timeout"]) < 5  # below manacalc's keep-alive
    assert data["use-forwarded-headers"] == "false"

"""Render a kustomization the way ``kustomize build`` does, for the few fields ``deploy/kubernetes`` uses.

CI has no ``kustomize`` binary (nor ``kubectl kustomize``), yet the validators must see what a cluster would
receive: the resources with the kustomization's namespace and labels applied. This renders exactly that
subset and refuses anything else (a field it does not know is an error, never silently skipped), so the
base cannot grow a feature this renderer would get wrong. ``tests/deploy/test_kubernetes.py`` compares it
with ``kubectl kustomize`` where that is installed.

Supported: ``resources`` (files beside the kustomization, one or more YAML documents each), ``namespace``
(set on every namespaced object) and ``labels`` (``pairs`` added to ``metadata.labels``; with
``includeSelectors`` also to selectors and pod templates, with ``includeTemplates`` to pod templates).

    python tools/kustomize_subset.py deploy/kubernetes > manacalc.yaml
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

KNOWN_FIELDS = frozenset({"apiVersion", "kind", "namespace", "labels", "resources"})
LABEL_FIELDS = frozenset({"pairs", "includeSelectors", "includeTemplates"})
# Kinds that are not namespaced among those a base like ours holds (kustomize knows them from the API).
CLUSTER_SCOPED = frozenset(
    {"Namespace", "ClusterRole", "ClusterRoleBinding", "PersistentVolume", "StorageClass"}
)
# Kinds whose spec.template is a pod template (and spec.jobTemplate.spec.template for a CronJob).
WORKLOADS = frozenset({"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"})


class KustomizeError(ValueError):
    """The kustomization uses what this subset does not render, or names a file that is not there."""


def load_kustomization(directory: Path) -> dict[str, Any]:
    path = directory / "kustomization.yaml"
    if not path.is_file():
        raise KustomizeError(f"{path}: no kustomization.yaml")
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(spec, dict) or spec.get("kind") != "Kustomization":
        raise KustomizeError(f"{path}: not a Kustomization")
    unknown = set(spec) - KNOWN_FIELDS
    if unknown:
        raise KustomizeError(f"{path}: this renderer does not support {sorted(unknown)}")
    return spec


def resource_files(directory: Path) -> list[Path]:
    """The files ``resources`` lists, each checked to exist (a directory or URL is refused)."""
    spec = load_kustomization(directory)
    files = []
    for entry in spec.get("resources") or []:
        path = directory / str(entry)
        if not path.is_file():
            raise KustomizeError(
                f"{directory / 'kustomization.yaml'}: resource {entry!r} is not a file there"
            )
        files.append(path)
    return files


def _add(mapping: dict[str, Any], key: str, pairs: dict[str, str]) -> None:
    target = mapping.setdefault(key, {})
    if target is None:
        mapping[key] = target = {}
    target.update(pairs)


def _pod_templates(obj: dict[str, Any]) -> list[dict[str, Any]]:
    spec = obj.get("spec") or {}
    if obj.get("kind") == "CronJob":
        spec = (spec.get("jobTemplate") or {}).get("spec") or {}
    template = spec.get("template")
    return [template] if isinstance(template, dict) else []


def _apply_labels(obj: dict[str, Any], rule: dict[str, Any]) -> None:
    unknown = set(rule) - LABEL_FIELDS
    if unknown:
        raise KustomizeError(f"labels: this renderer does not support {sorted(unknown)}")
    pairs = {str(k): str(v) for k, v in (rule.get("pairs") or {}).items()}
    _add(obj["metadata"], "labels", pairs)
    selectors = bool(rule.get("includeSelectors"))
    if selectors or rule.get("includeTemplates"):
        for template in _pod_templates(obj):
            _add(template.setdefault("metadata", {}), "labels", pairs)
    if selectors and obj.get("kind") in WORKLOADS - {"Job", "CronJob"}:
        _add(obj["spec"].setdefault("selector", {}), "matchLabels", pairs)
    if selectors and obj.get("kind") == "Service":
        _add(obj["spec"], "selector", pairs)
    if selectors and obj.get("kind") in {"PodDisruptionBudget", "NetworkPolicy"}:
        key = "podSelector" if obj["kind"] == "NetworkPolicy" else "selector"
        _add(obj["spec"].setdefault(key, {}), "matchLabels", pairs)


def render(directory: Path) -> list[dict[str, Any]]:
    """The objects ``kustomize build directory`` gives (in the kustomization's order of files)."""
    spec = load_kustomization(directory)
    namespace = spec.get("namespace")
    objects: list[dict[str, Any]] = []
    for path in resource_files(directory):
        for obj in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if obj is None:
                continue
            if not isinstance(obj, dict) or "kind" not in obj or "metadata" not in obj:
                raise KustomizeError(f"{path}: a document is not a Kubernetes object")
            if obj["kind"] == "List":
                raise KustomizeError(f"{path}: a List is not supported; write one document per object")
            if namespace and obj["kind"] not in CLUSTER_SCOPED:
                obj["metadata"]["namespace"] = namespace
            for rule in spec.get("labels") or []:
                _apply_labels(obj, rule)
            objects.append(obj)
    keys = [(o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"]) for o in objects]
    duplicates = {k for k in keys if keys.count(k) > 1}
    if duplicates:
        raise KustomizeError(f"{directory}: objects defined twice: {sorted(map(str, duplicates))}")
    return objects


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: kustomize_subset.py DIRECTORY", file=sys.stderr)
        return 2
    try:
        objects = render(Path(argv[0]))
    except KustomizeError as exc:
        print(f"kustomize_subset: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(yaml.safe_dump_all(objects, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Ray Serve's status (`serve status`, a RayService's `kubectl get -o yaml`) read as evidence (round
129's excerpts-e 06): a deployment HEALTHY is its replicas up, as a ready line is a server's; an
application or a deployment DEPLOY_FAILED or UNHEALTHY failed, whatever else the status says."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from tests.conftest import analysed_lines

# ray-project/ray#38185: `serve status` of a running deployment, and of one whose constructor failed.
RUNNING = [
    "proxies:",
    "  090fe807117c1d14aa3eedfe734467aaa95915f893a80a4b01016588: HEALTHY",
    "applications:",
    "  default:",
    "    status: RUNNING",
    "    message: ''",
    "    deployments:",
    "      default_Hello:",
    "        status: HEALTHY",
    "        replica_states:",
    "          RUNNING: 3",
]
FAILED = [
    "proxies:",
    "  a82df9b78f4a8db4de9d4af5ea455d4be4f3ec8bed95fe2acb130c79: HEALTHY",
    "applications:",
    "  default:",
    "    status: DEPLOY_FAILED",
    "    message: The deployments ['default_Hello'] are UNHEALTHY.",
    "    deployments:",
    "      default_Hello:",
    "        status: UNHEALTHY",
    "        replica_states: {}",
]


def test_a_healthy_deployment_shows_the_replicas_up(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, RUNNING, "serve-status.txt")
    assert report.verdict.id == "healthy"
    assert "status: HEALTHY" in report.verdict.summary


def test_a_failed_deployment_is_never_healthy_though_its_proxies_are(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, FAILED, "serve-status.txt")
    assert report.verdict.id == "inconclusive"
    assert int(exit_code_for(report)) != 0
    assert "status: DEPLOY_FAILED" in report.verdict.summary

"""docs/deployment.md: `scripts/check_deploy` passes on the repository's deploy files and fails
on broken ones, and the `cardroom` commands the page documents run as written (paths moved to a
temporary folder), on SQLite and PostgreSQL."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from typer.testing import CliRunner

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_deploy"


def check_deploy_module() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("check_deploy", str(SCRIPT))
    spec = importlib.util.spec_from_loader("check_deploy", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def run_check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(root / "scripts" / "check_deploy")],
                          capture_output=True, text=True, check=False, timeout=300)


def test_check_deploy_passes_on_the_repository() -> None:
    done = run_check(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("deploy checked: 3 systemd units")


def test_check_deploy_fails_on_broken_files(tmp_path: Path) -> None:
    for name in ("src", "pyproject.toml", "README.md"):
        (tmp_path / name).symlink_to(ROOT / name)
    for name in ("scripts", "deploy", "docs"):
        shutil.copytree(ROOT / name, tmp_path / name)
    unit = tmp_path / "deploy" / "cardroom.service"
    unit.write_text(unit.read_text().replace("--secure-cookies", "--secure-cookie"))
    (tmp_path / "Dockerfile").write_text((ROOT / "Dockerfile").read_text()
                                         .replace("USER cardroom", "USER root")
                                         .replace("COPY src ./src", "COPY lib ./lib"))
    site = tmp_path / "deploy" / "nginx-cardroom.conf"
    site.write_text(site.read_text().replace("location /ws/ {", "location /ws/"))
    done = run_check(tmp_path)
    assert done.returncode == 1
    out = done.stdout
    assert "`cardroom serve` takes no option --secure-cookie" in out
    assert "Dockerfile: the server must run as a user other than root (USER)" in out
    assert "COPY lib: no such file in the repository" in out
    assert "nginx-cardroom.conf: braces do not balance" in out


def test_the_documented_commands_run(db_url: str, tmp_path: Path) -> None:
    """Each `cardroom` line of docs/deployment.md but `serve` and the head office's (checked
    by their --help), in the page's order, with /etc/cardroom and /var/lib/cardroom moved
    into `tmp_path`."""
    lines = [w for w in check_deploy_module().doc_commands() if w[:1] != ["serve"]
             and w[0] not in ("headoffice", "patrons") and "--head-office" not in w]
    # the head office's commands need PostgreSQL's logical replication between two servers:
    # tests/room/test_head_office.py runs them through the console script
    assert [w[:2] if w[0] in ("tables", "audit", "report") else w[:1] for w in lines] == [
        ["audit", "seal"], ["tables", "create"], ["backup"], ["restore"],
        ["audit", "verify"], ["audit", "verify"], ["report", "jackpot"]]
    (tmp_path / "var" / "backups").mkdir(parents=True)
    (tmp_path / "var" / "anchors").mkdir()
    (tmp_path / "etc").mkdir()
    moved = {"/etc/cardroom": str(tmp_path / "etc"), "/var/lib/cardroom": str(tmp_path / "var")}
    runner = CliRunner()
    for words in lines:
        args = []
        for w in words:
            for old, new in moved.items():
                w = w.replace(old, new)
            args.append(w)
        if args[0] == "backup":  # the timer names the file by the time; the page shows one
            backup = Path(args[args.index("--out") + 1])
        r = runner.invoke(app, args, env={"CARDROOM_DATABASE": db_url})
        assert r.exit_code == 0, (args, r.output, r.exception)
    key = tmp_path / "etc" / "audit.key"  # 32 random bytes as 64 hex digits, mode 0600
    assert backup.stat().st_size > 0 and len(key.read_text().strip()) == 64
    assert key.stat().st_mode & 0o777 == 0o600

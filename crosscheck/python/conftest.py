"""Shared fixtures of the Python cross-check: a simulated fleet's dataset,
analyze's figures on it, and the SQL engines that run `ttftrace sql`.

The fleet is made once per session (TTFTRACE_XCHECK_REQUESTS requests,
default 2000) with the repository's own binaries; analysis.json is the
expected side of every comparison.
"""

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# BY are the breakdowns the fleet is analysed and the views printed with: a
# column, two crossed keys one of which is an attribute, and the status.
BY = ["model", "host+region", "endpoint", "status"]
WINDOW = "10s"
TIMINGS = []  # (what, seconds), printed in the terminal summary


def run(*args, cwd=None):
    """Runs a command, failing the test with its standard error."""
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr}")
    return p.stdout


class Fleet:
    """A simulated fleet: its dataset folder, analysis and binary."""

    def __init__(self, root: Path, requests: int):
        self.root = root
        self.bin = root / "ttftrace"
        run("go", "build", "-o", str(self.bin), "./cmd/ttftrace", cwd=REPO)
        run("go", "build", "-o", str(root / "gen"), "./cmd/ttftrace-gen", cwd=REPO)
        logs = root / "logs"
        run(str(root / "gen"), "-n", str(requests), "-o", str(logs))
        inputs = sorted(str(p) for p in logs.iterdir() if "format" not in p.name)
        self.dataset = root / "dataset"
        run(str(self.bin), "ingest", "-q", "--log-format", f"nginx=@{logs}/nginx.log_format",
            "--log-format", f"envoy=@{logs}/envoy.format.json", "-o", str(self.dataset), *inputs)
        self.requests_out = root / "requests.parquet"
        by = [a for k in BY for a in ("--by", k)]
        t0 = time.process_time()
        run(str(self.bin), "analyze", "-q", str(self.dataset), "--window", WINDOW, *by,
            "--requests-out", str(self.requests_out), "-o", str(root / "analysis.json"))
        self.analysis = json.loads((root / "analysis.json").read_text())
        self.requests = requests

    def sql(self, dialect, dataset=None, approx=False):
        """Returns the views `ttftrace sql` prints for dialect."""
        args = [str(self.bin), "sql", "--dialect", dialect, "--window", WINDOW]
        args += [a for k in BY for a in ("--by", k)]
        if dataset:
            args += ["--dataset", str(dataset)]
        if approx:
            args.append("--approx")
        return run(*args)


@pytest.fixture(scope="session")
def fleet(tmp_path_factory):
    n = int(os.environ.get("TTFTRACE_XCHECK_REQUESTS", "2000"))
    return Fleet(tmp_path_factory.mktemp("fleet"), n)


@pytest.fixture(scope="session")
def spark_session(tmp_path_factory):
    import engines

    s = engines.spark_session(tmp_path_factory.mktemp("spark-warehouse"))
    yield s
    s.stop()


@pytest.fixture(scope="session")
def spark_views(spark_session, fleet):
    """The exact Spark views over the fleet, registered once per session:
    each registration analyses every view's plan, and three in one 2 GB
    driver ran it out of heap."""
    import engines

    return engines.Spark(spark_session, fleet)


def statements(script):
    """Splits a views script into its statements, dropping comment-only
    parts (the header)."""
    out = []
    for part in script.split(";\n"):
        code = [l for l in part.splitlines() if l.strip() and not l.lstrip().startswith("--")]
        if code:
            out.append(part.strip().rstrip(";"))
    return out


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.section("engine timings")
        for what, sec in TIMINGS:
            terminalreporter.write_line(f"{what}: {sec:.2f} s")

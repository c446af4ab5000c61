"""The views of `ttftrace sql` on DuckDB and on a local Spark give the
figures analyze gives on a simulated fleet: metrics and errors of every
--by group, and the time series."""

import pytest

import compare
import conftest
import engines


@pytest.fixture(scope="session", params=["duckdb", "spark"])
def engine(request, fleet):
    if request.param == "duckdb":
        return engines.DuckDB(fleet)
    return request.getfixturevalue("spark_views")


def timed(engine, fleet, what, query):
    import time

    t0 = time.perf_counter()
    rows = engine.rows(query)
    conftest.TIMINGS.append((f"{engine.name} {what} ({fleet.requests} requests)", time.perf_counter() - t0))
    return rows


def test_metric_summary(engine, fleet):
    rows = timed(engine, fleet, "metric_summary", "SELECT * FROM metric_summary")
    n, worst, problems = compare.metrics(fleet.analysis, rows)
    assert not problems, "\n".join(problems[:20])
    groups = {(r["group_key"]) for r in rows}
    assert groups == {""} | set(conftest.BY), groups
    assert n > 100, f"only {n} metrics compared"
    print(f"{engine.name}: {n} metrics equal analyze's, largest relative difference {worst:.3g}")


def test_error_counts(engine, fleet):
    rows = timed(engine, fleet, "error_counts", "SELECT * FROM error_counts")
    problems = compare.errors(fleet.analysis, rows)
    assert not problems, "\n".join(problems[:20])
    assert len(rows) > 10


def test_timeseries(engine, fleet):
    lat = timed(engine, fleet, "timeseries_latency", "SELECT * FROM timeseries_latency")
    req = engine.rows("SELECT * FROM timeseries_requests")
    err = engine.rows("SELECT * FROM timeseries_errors")
    n, problems = compare.series(fleet.analysis, lat, req, err)
    assert not problems, "\n".join(problems[:20])
    assert n > 100, f"only {n} points compared"


def test_throughput(engine, fleet):
    rows = timed(engine, fleet, "throughput", "SELECT * FROM throughput")
    problems = compare.throughput(fleet.analysis, rows)
    assert not problems, "\n".join(problems[:20])
    assert len(rows) == 3


def test_timeseries_throughput(engine, fleet):
    rows = timed(engine, fleet, "timeseries_throughput", "SELECT * FROM timeseries_throughput")
    n, problems = compare.throughput_series(fleet.analysis, rows)
    assert not problems, "\n".join(problems[:20])
    assert n > 100 and sum(r["in_flight"] for r in rows) > fleet.requests, f"only {n} points compared"

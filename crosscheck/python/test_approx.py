"""--approx: each engine's mergeable percentiles stay within their stated
rank error of the exact samples; every other figure stays exact."""

import bisect

import pytest

import compare
import engines

# RANK_ERROR is the rank error each engine's approximation is allowed, as
# the views' header states it: Spark's percentile_approx with accuracy
# 10000 guarantees 1/10000; DuckDB's t-digest has no bound, 1% is what the
# header promises.
RANK_ERROR = {"duckdb": 0.01, "spark": 1e-4}


@pytest.fixture(scope="module")
def exact(fleet):
    """The sorted samples of every metric of group {}, from DuckDB running
    the exact views."""
    db = engines.DuckDB(fleet)
    out = {}
    for r in db.rows("""SELECT source, metric, list(value ORDER BY value) AS xs FROM
        (SELECT source, metric, value FROM (SELECT *, unnest(range(weight)) FROM metric_samples)
         WHERE success AND group_key = '') GROUP BY source, metric"""):
        out[(r["source"], r["metric"])] = r["xs"]
    return out


def rank_error(xs, v, q):
    """How far q lies outside the ranks the value v takes in sorted xs."""
    n = len(xs)
    lo, hi = bisect.bisect_left(xs, v) / n, bisect.bisect_right(xs, v) / n
    return 0.0 if lo <= q <= hi else min(abs(q - lo), abs(q - hi))


@pytest.mark.parametrize("name", ["duckdb", "spark"])
def test_approx(name, fleet, exact, request):
    if name == "duckdb":
        eng = engines.DuckDB(fleet, approx=True)
    else:
        eng = engines.Spark(request.getfixturevalue("spark_session"), fleet, approx=True, joins=False)
    rows = eng.rows("SELECT * FROM metric_summary WHERE group_key = ''")
    assert len(rows) == len(exact)
    worst = 0.0
    want = {(m["source"], m["metric"]): m for m in fleet.analysis["metrics"] if not m["group"]}
    for r in rows:
        k = (r["source"], r["metric"])
        xs, m = exact[k], want[k]
        assert r["count"] == m["count"] == len(xs), k
        for f in ("mean", "std", "min", "max"):
            assert compare.close(r[f], m[f]), (k, f, r[f], m[f])
        for f, q in (("p50", 0.5), ("p90", 0.9), ("p95", 0.95), ("p99", 0.99), ("p999", 0.999)):
            e = rank_error(xs, r[f], q)
            worst = max(worst, e)
            # 1/n: type 7 itself lies between two ranks.
            assert e <= RANK_ERROR[name] + 1 / len(xs), f"{k} {f}: {r[f]} is {e:.2g} off in rank"
    print(f"{name} --approx: largest rank error {worst:.3g}")

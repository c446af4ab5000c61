"""The id joins, clock bounds and TTFT breakdown of the views against
analyze: the trace and request id joins count exactly what analyze's
matching says; analyze's clock offsets lie within the views' bounds; the
breakdown of the id-joined requests is analyze's for those requests."""

import pytest

import compare
import engines


@pytest.fixture(scope="module", params=["duckdb", "spark"])
def engine(request, fleet):
    if request.param == "duckdb":
        yield engines.DuckDB(fleet)
        return
    yield request.getfixturevalue("spark_views")


def test_id_matching(engine, fleet):
    got = {(r["outer_source"], r["inner_source"]): (r["by_trace"], r["by_id"])
           for r in engine.rows("SELECT * FROM id_matching")}
    want = {(m["outer"], m["inner"]): (m["by_trace"], m["by_id"]) for m in fleet.analysis["matching"]
            if m["by_trace"] or m["by_id"]}
    assert got == want
    assert sum(t + i for t, i in got.values()) > fleet.requests


def offsets(analysis):
    """Each host's (reference, offset ms) from analysis.json; a reference
    is 0 against itself."""
    out = {}
    for c in analysis["clock_offsets"]:
        out.setdefault(c["host"], {})[c["reference"]] = c["offset_ms"]
        out.setdefault(c["reference"], {})[c["reference"]] = 0.0
    return out


def test_clock_bounds(engine, fleet):
    rows = engine.rows("SELECT * FROM clock_bounds")
    off = offsets(fleet.analysis)
    checked = 0
    for r in rows:
        assert r["consistent"], r
        o, i = off.get(r["outer_host"], {}), off.get(r["inner_host"], {})
        for ref in sorted(set(o) & set(i)):
            theta = i[ref] - o[ref]  # inner clock − outer clock, as analyze estimates it
            # analyze widens by each format's error (up to 3 ms for Envoy)
            # where the views widen by 1 ms: allow the difference.
            assert r["low_ms"] - 2 <= theta <= r["high_ms"] + 2, (r, ref, theta)
            checked += 1
            break
    assert checked >= len(rows) - 1 and checked > 5, f"{checked} of {len(rows)} host pairs compared"


def test_ttft_breakdown(fleet):
    """On DuckDB only: on Spark the breakdown view did not finish at 2000
    requests on this shared machine (load 15 on 2 cores) in 20 minutes, nor
    in 11 after CACHE TABLE of the join views, and the Spark cross-check no
    longer defines it (engines.SPARK_SKIPPED)."""
    import pyarrow.parquet as pq

    engine = engines.DuckDB(fleet)
    q = pq.read_table(fleet.requests_out).to_pylist()
    ids = ("trace", "id")
    want = [r for r in q if r["proxy_join"] in ids and r["server_join"] in ids
            and r["server_joined_to"] == "proxy" and r["return_path_ns"] is not None
            and not r["client_error_class"] and not r["server_error_class"]]
    [got] = engine.rows("SELECT * FROM ttft_breakdown")
    assert got["requests"] == len(want) > fleet.requests // 4

    def mean(k):
        return sum(r[k] for r in want) / len(want) / 1e6

    # The parts on one host's clock are analyze's exactly; the network
    # parts depend on the offsets, which analyze estimates from more joins.
    for part, k in (("server_queue_ms", "server_queue_ns"), ("server_prefill_ms", "server_prefill_ns"),
                    ("server_other_ms", "server_other_ns"), ("client_ttft_ms", "client_ttft_ns")):
        want_v = sum((r[k] or 0) for r in want) / len(want) / 1e6
        assert compare.close(got[part], want_v), (part, got[part], want_v)
    for part, k in (("client_to_proxy_ms", "client_to_proxy_ns"), ("proxy_to_server_ms", "proxy_to_server_ns"),
                    ("return_path_ms", "return_path_ns")):
        assert abs(got[part] - mean(k)) < 1.0, (part, got[part], mean(k))
    parts = sum(got[p] for p in ("client_to_proxy_ms", "proxy_to_server_ms", "server_queue_ms",
                                 "server_prefill_ms", "server_other_ms", "return_path_ms"))
    assert compare.close(parts, got["client_ttft_ms"], 1e-9)

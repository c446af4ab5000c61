"""The id joins, clock bounds and TTFT breakdown of the views against
analyze: the trace and request id joins count exactly what analyze's
matching says; analyze's clock offsets lie within the views' bounds; the
breakdown of the id-joined requests is analyze's for those requests."""

import json
import math
import time

import pytest

import compare
import conftest
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


# BANDS are analyze's breakdown bands (analyze/breakdown.go): name, lo, hi.
BANDS = [("all", 0, 1), ("p50", 0.45, 0.55), ("p90", 0.85, 0.95), ("p99", 0.985, 0.995)]
PARTS = ["client_to_proxy", "proxy_to_server", "server_queue", "server_prefill", "server_other",
         "return_path", "client_ttft"]


def start_debias_ms(dataset):
    """How much later than logged analyze reads each host's start instants,
    ms: minus the mean of the start's error range its format declared in the
    commit log (half a millisecond for nginx's and Envoy's ms-truncated
    starts, 0 for exact and rounded ones). The fleet has one input a host."""
    late = {}
    for f in sorted((dataset / "_log").glob("*.json")):
        for i in json.loads(f.read_text())["inputs"]:
            e = i["instant_errors"]["start"]
            late[i["host"]] = -int((e["low_ns"] + e["high_ns"]) / 2) / 1e6  # Go's Bias: (low + high) / 2, truncated
    return late


def breakdown_rows(fleet, theta):
    """analyze's broken-down requests (--requests-out) that the views
    cover: client, proxy and server joined by trace or request id, no
    error class at client or server. Each row's parts are ms, its network
    parts moved from analyze's clock offsets to the views' (theta: the
    offset_ms of clock_bounds per (outer host, inner host)), so that the
    two must agree exactly; rows sorted as analyze sorts them for bands."""
    import pyarrow.parquet as pq

    off = offsets(fleet.analysis)
    late = start_debias_ms(fleet.dataset)
    ids = ("trace", "id")
    out = []
    for r in pq.read_table(fleet.requests_out).to_pylist():
        if not (r["proxy_join"] in ids and r["server_join"] in ids and r["server_joined_to"] == "proxy"
                and r["return_path_ns"] is not None and not r["client_error_class"]
                and not r["server_error_class"]):
            continue
        # analyze's instants are the host's minus its offset to the
        # reference, rounded to ns (analyze/clock.go shift).
        shift = {h: round(off[r[f"{h}_host"]][r["reference"]] * 1e6) for h in ("client", "proxy", "server")}
        cp = theta[(r["client_host"], r["proxy_host"])]
        ps = theta[(r["proxy_host"], r["server_host"])]
        q = {p: (r[f"{p}_ns"] or 0) / 1e6 for p in PARTS}
        q["client_to_proxy"] += (shift["proxy"] - shift["client"]) / 1e6 - cp
        q["proxy_to_server"] += (shift["server"] - shift["proxy"]) / 1e6 - ps
        q["return_path"] += (shift["client"] - shift["server"]) / 1e6 + cp + ps
        # analyze reads a truncated proxy start half its error range later;
        # the views read instants as logged.
        q["client_to_proxy"] -= late[r["proxy_host"]]
        q["proxy_to_server"] += late[r["proxy_host"]]
        q["key"] = (r["client_ttft_ns"], r["client_event"])
        out.append(q)
    return sorted(out, key=lambda q: q["key"])


def test_ttft_breakdown(engine, fleet):
    """Every band of ttft_breakdown is the mean of analyze's per-request
    breakdown over the same requests, with the network parts read on the
    views' clock offsets instead of analyze's (which also use the
    time-window joins): counts exact, means within 1e-9 relative."""
    theta = {(b["outer_host"], b["inner_host"]): b["offset_ms"] for b in engine.rows("SELECT * FROM clock_bounds")}
    want = breakdown_rows(fleet, theta)
    assert len(want) > fleet.requests // 4
    t0 = time.perf_counter()
    got = {r["band"]: r for r in engine.rows("SELECT * FROM ttft_breakdown")}
    conftest.TIMINGS.append((f"{engine.name} ttft_breakdown ({fleet.requests} requests)",
                             time.perf_counter() - t0))
    assert sorted(got) == sorted(b for b, _, _ in BANDS)
    n = len(want) - 1
    for band, lo, hi in BANDS:
        rows = want[math.floor(lo * n):math.ceil(hi * n) + 1]
        g = got[band]
        assert g["requests"] == len(rows), band
        for p in PARTS:
            mean = sum(q[p] for q in rows) / len(rows)
            assert compare.close(g[f"{p}_ms"], mean), (band, p, g[f"{p}_ms"], mean)
        parts = sum(g[f"{p}_ms"] for p in PARTS[:-1])
        assert compare.close(parts, g["client_ttft_ms"]), band

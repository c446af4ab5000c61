"""Comparisons of the views' rows with analysis.json: counts exactly,
statistics within 1e-9 relative."""

import math
from datetime import datetime, timezone

import conftest

# SQL_METRICS are the metrics metric_summary computes, in analyze's order.
SQL_METRICS = ["ttft", "time_to_headers", "e2e", "tpot", "itl", "chunk_gap",
               "tps_user", "queue", "prefill", "decode"]
FIGURES = ["mean", "std", "min", "p50", "p90", "p95", "p99", "p999", "max"]
REL = 1e-9


def close(a, b, rel=REL):
    """a and b agree within rel relative (1e-12 absolute near zero)."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-12


def rel_diff(a, b):
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def group_of(group):
    """Returns analysis.json's group map as the views' (group_key,
    group_values), in the order of the --by keys."""
    if not group:
        return ("", ())
    for by in conftest.BY:
        keys = by.split("+")
        if sorted(keys) == sorted(group):
            return (by, tuple(group[k] for k in keys))
    raise AssertionError(f"group {group} is none of {conftest.BY}")


def ns_of(t):
    """RFC 3339 UTC (second resolution, as analyze writes window starts) to
    Unix ns."""
    d = datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    return int(d.timestamp()) * 1_000_000_000


def metrics(analysis, rows):
    """Compares metric_summary rows with analysis.json's metrics; returns
    (metrics compared, largest relative difference, problems)."""
    got = {(r["source"], r["group_key"], tuple(r["group_values"]), r["metric"]): r for r in rows}
    problems, worst, n = [], 0.0, 0
    for m in analysis["metrics"]:
        if m["metric"] not in SQL_METRICS:
            continue
        k = (m["source"], *group_of(m["group"]), m["metric"])
        r = got.pop(k, None)
        if r is None:
            problems.append(f"{k}: in analyze (count {m['count']}), not in metric_summary")
            continue
        n += 1
        if r["count"] != m["count"] or r["unit"] != m["unit"]:
            problems.append(f"{k}: count {r['count']} {r['unit']}, analyze {m['count']} {m['unit']}")
        for f in FIGURES:
            worst = max(worst, rel_diff(r[f], m[f]))
            if not close(r[f], m[f]):
                problems.append(f"{k} {f}: sql {r[f]!r}, analyze {m[f]!r}")
    problems += [f"{k}: in metric_summary (count {r['count']}), not in analyze" for k, r in got.items()]
    return n, worst, problems


def errors(analysis, rows):
    """Compares error_counts with analysis.json's errors, every group."""
    want = {(e["source"], *group_of(e["group"]), e["class"]): e["count"] for e in analysis["errors"]}
    got = {(r["source"], r["group_key"], tuple(r["group_values"]), r["failure_class"]): r["requests"]
           for r in rows}
    return [f"{k}: sql {got.get(k)}, analyze {want.get(k)}"
            for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)]


def series(analysis, latency, requests, errs):
    """Compares the timeseries views with analysis.json's timeseries:
    every window with requests or samples (the views have no empty
    windows). Returns (points compared, problems)."""
    lat = {(r["source"], r["metric"], r["window_ns"]): r for r in latency}
    req = {(r["source"], r["window_ns"]): r for r in requests}
    err = {(r["source"], r["failure_class"], r["window_ns"]): r for r in errs}
    problems, n = [], 0
    for s in analysis["timeseries"]:
        if s["window"] != conftest.WINDOW:
            problems.append(f"analyze used window {s['window']}, the views {conftest.WINDOW}")
            return n, problems
        for p in s["points"]:
            t, k = ns_of(p["t"]), None
            if s["metric"] in ("ttft", "itl"):
                k, r = (s["source"], s["metric"], t), lat.pop((s["source"], s["metric"], t), None)
                if p["count"] == 0:
                    if r is not None:
                        problems.append(f"{k}: sql has {r['count']} samples, analyze none")
                    continue
                pairs = [("count", r and r["count"], p["count"]), ("p50", r and r["p50"], p["p50"]),
                         ("p99", r and r["p99"], p["p99"])]
            elif s["metric"] in ("request_rate", "error_rate"):
                r = req.get((s["source"], t))
                k = (s["source"], s["metric"], t)
                started = r["requests"] if r else 0
                if s["metric"] == "request_rate":
                    if started == 0 and p["count"] == 0:
                        continue
                    pairs = [("count", started, p["count"]), ("value", r and r["request_rate"], p["value"])]
                else:
                    if started == 0 and p.get("value") is None:
                        continue
                    pairs = [("count", r and r["failed"], p["count"]), ("value", r and r["error_rate"], p["value"])]
            elif s["metric"].startswith("error_rate."):
                c = s["metric"].split(".", 1)[1]
                k, r = (s["source"], s["metric"], t), err.pop((s["source"], c, t), None)
                if p["count"] == 0:
                    if r is not None:
                        problems.append(f"{k}: sql has {r['failures']} failures, analyze none")
                    continue
                pairs = [("count", r and r["failures"], p["count"]), ("value", r and r["error_rate"], p["value"])]
            else:
                continue
            n += 1
            for name, a, b in pairs:
                ok = a == b if name == "count" else close(a, b)
                if not ok:
                    problems.append(f"{k} {name}: sql {a!r}, analyze {b!r}")
    problems += [f"{k}: in timeseries_latency, not in analyze" for k in lat]
    problems += [f"{k}: in timeseries_errors, not in analyze" for k in err]
    return n, problems


def throughput(analysis, rows):
    """Compares the throughput view with analysis.json's throughput:
    counts exactly, sums and rates within 1e-9 relative."""
    got = {r["source"]: r for r in rows}
    problems = []
    for t in analysis["throughput"]:
        r = got.pop(t["source"], None)
        if r is None:
            problems.append(f"{t['source']}: in analyze, not in throughput")
            continue
        for f in ("requests", "succeeded"):
            if r[f] != t[f]:
                problems.append(f"{t['source']} {f}: sql {r[f]}, analyze {t[f]}")
        for f in ("seconds", "output_tokens", "output_tokens_sq", "request_rate", "output_tps"):
            if not close(r[f], t[f]):
                problems.append(f"{t['source']} {f}: sql {r[f]!r}, analyze {t[f]!r}")
    return problems + [f"{s}: in throughput, not in analyze" for s in got]


def throughput_series(analysis, rows):
    """Compares timeseries_throughput with analysis.json's output_tps and
    concurrency series: every window of analyze's grid, a window the view
    lacks being one without tokens or requests in flight. Returns (points
    compared, problems)."""
    got = {(r["source"], r["window_ns"]): r for r in rows}
    seen, problems, n = set(), [], 0
    for s in analysis["timeseries"]:
        if s["metric"] not in ("output_tps", "concurrency"):
            continue
        for p in s["points"]:
            k = (s["source"], ns_of(p["t"]))
            seen.add(k)
            r = got.get(k)
            if s["metric"] == "output_tps":
                count, value = (r and int(r["output_tokens"] + 0.5)) or 0, (r and r["output_tps"]) or 0.0
            else:
                count, value = (r and r["in_flight"]) or 0, (r and r["concurrency"]) or 0.0
            n += 1
            if count != p["count"] or not close(value, p["value"]):
                problems.append(f"{k} {s['metric']}: sql {count} {value!r}, analyze {p['count']} {p['value']!r}")
    problems += [f"{k}: in timeseries_throughput, not in analyze's grid" for k in set(got) - seen]
    return n, problems

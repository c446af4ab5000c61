"""The dataset read as it is by the Python tools users have: pyarrow,
pandas and Polars, with hive partitions, list columns and the attrs map,
checked against analyze's figures and its --requests-out table."""

from collections import Counter

import pytest

import compare


def success(r):
    """analyze's success rule: no error class, status 2xx or not logged,
    stream not known to be cut short."""
    return (not r["error_class"]) and (r["status"] is None or 200 <= r["status"] <= 299) \
        and r["completed"] is not False


def as_dict(attrs):
    """A Parquet MAP as each reader hands it back: a dict, a list of
    (key, value) tuples (pyarrow, pandas) or of {key, value} structs
    (Polars)."""
    if attrs is None:
        return {}
    if isinstance(attrs, dict):
        return attrs
    return dict((a["key"], a["value"]) if isinstance(a, dict) else tuple(a) for a in attrs)


def read_pyarrow(path):
    import pyarrow.dataset as ds

    return ds.dataset(path, format="parquet", partitioning="hive").to_table().to_pylist()


def read_pandas(path):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.dataset as ds

    # pandas' default reads the source= partition as a dictionary column,
    # which clashes with the files' own source column ("Unable to merge:
    # Field source has incompatible types"): name the partitions' types.
    part = ds.partitioning(pa.schema([("source", pa.string()), ("date", pa.string())]), flavor="hive")
    # By default pandas holds a nullable int64 column as float64, which
    # rounds ns instants since 1970 to 256 ns: keep them int64 (Int64).
    df = pd.read_parquet(path, partitioning=part, dtype_backend="numpy_nullable")
    rows = df.to_dict("records")
    for r in rows:  # missing values are pd.NA, lists numpy arrays
        for k in ("status", "start_ns", "first_token_ns", "end_ns", "completed", "error_class"):
            r[k] = None if pd.isna(r[k]) else r[k]
        r["chunk_offsets_ns"] = [int(x) for x in r["chunk_offsets_ns"]]
    return rows


def read_polars(path):
    import polars as pl

    return pl.scan_parquet(f"{path}/**/*.parquet", hive_partitioning=True).collect().to_dicts()


READERS = {"pyarrow": read_pyarrow, "pandas": read_pandas, "polars": read_polars}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_reader(reader, fleet):
    rows = READERS[reader](fleet.dataset)
    a = fleet.analysis
    # Rows per source (the source= partition) are analyze's events.
    got = Counter(r["source"] for r in rows)
    assert got == {s["source"]: s["events"] for s in a["sources"]}
    assert {str(r["date"]) for r in rows} == {"2026-11-23"}
    # The list column: gaps between chunks of successful client requests
    # are analyze's chunk_gap count.
    want = {(m["source"], m["metric"]): m["count"] for m in a["metrics"] if not m["group"]}
    gaps = sum(max(len(r["chunk_offsets_ns"]) - 1, 0) for r in rows if r["source"] == "client" and success(r))
    assert gaps == want[("client", "chunk_gap")]
    # The attrs map: successful client requests with an e2e per (host,
    # region) are analyze's e2e counts of the host+region group.
    e2e = Counter((r["host"], as_dict(r["attrs"]).get("region") or "(none)") for r in rows
                  if r["source"] == "client" and success(r) and r["start_ns"] is not None and r["end_ns"] is not None)
    want_e2e = {compare.group_of(m["group"])[1]: m["count"] for m in a["metrics"]
                if m["source"] == "client" and m["metric"] == "e2e" and compare.group_of(m["group"])[0] == "host+region"}
    assert e2e == want_e2e and len(e2e) > 1
    # The values: every client TTFT of analyze's per-request table is a
    # client row's first token (or first chunk) minus its start.
    ttft = Counter()
    for r in rows:
        if r["source"] == "client" and r["start_ns"] is not None:
            first = r["first_token_ns"]
            if first is None and len(r["chunk_offsets_ns"]) > 0:
                first = r["start_ns"] + r["chunk_offsets_ns"][0]
            if first is not None:
                ttft[first - r["start_ns"]] += 1
    joined = Counter(v for v in requests_out(fleet)["client_ttft_ns"] if v is not None)
    assert sum(joined.values()) > fleet.requests // 2
    assert not joined - ttft, f"{sum((joined - ttft).values())} TTFTs of --requests-out are no client row's"


def requests_out(fleet):
    import pyarrow.parquet as pq

    return pq.read_table(fleet.requests_out).to_pydict()

"""The Trino views, where no Trino server runs: every statement parses
with sqlglot's Trino dialect, and none uses a function or clause of the
other dialects that Trino lacks (sqlglot's parser accepts some of them)."""

import re

import pytest

import conftest

# FOREIGN are constructs of Spark or DuckDB that Trino has no such
# function or clause for.
FOREIGN = [r"\bLATERAL VIEW\b", r"\bposexplode\(", r"\btry_element_at\(", r"\bsize\(",
           r"\baggregate\(", r"\bnamed_struct\(", r"\binline\(", r"\bpercentile\(",
           r"\bpercentile_approx\(", r"\bquantile_cont\(", r"\bapprox_quantile\(",
           r"\blist_sum\(", r"\blen\(", r"\bunnest\(range", r"\bgenerate_series\(",
           r"\bEXCLUDE\b", r"\bdiv\b", r"\{'"]


@pytest.mark.parametrize("approx", [False, True])
def test_trino_parses(fleet, approx):
    import sqlglot

    script = fleet.sql("trino", approx=approx)
    stmts = conftest.statements(script)
    assert len(stmts) >= 12
    for st in stmts:
        tree = sqlglot.parse_one(st, read="trino")
        assert tree.key == "create", st[:80]
        # What sqlglot parsed, written back as Trino, parses again.
        sqlglot.parse_one(tree.sql(dialect="trino"), read="trino")
        code = "\n".join(l for l in st.splitlines() if not l.lstrip().startswith("--"))
        for pat in FOREIGN:
            assert not re.search(pat, code, re.I), f"{pat} in Trino view:\n{code[:400]}"
        # Trino's sequence() refuses more than 10,000 elements: only
        # busy_windows may call it, in blocks of at most 10,000.
        if re.search(r"\bsequence\(", code, re.I):
            assert "VIEW busy_windows AS" in code and "least(a.hi * 10000 + 9999," in code, code[:400]

"""The SQL engines the cross-check runs the views on: DuckDB in process and
a local Spark session, each created over a fleet's dataset the way the
views' header says."""

import re
import time

import conftest


class DuckDB:
    name = "duckdb"

    def __init__(self, fleet, approx=False):
        import duckdb

        self.con = duckdb.connect()
        self.con.execute("SET threads = 2")
        t0 = time.perf_counter()
        self.con.execute(fleet.sql("duckdb", fleet.dataset, approx))
        self.setup = time.perf_counter() - t0

    def rows(self, query):
        cur = self.con.execute(query)
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r)) for r in cur.fetchall()]


# sparkView finds the statement the Spark header gives to register the
# dataset for one session.
sparkTable = re.compile(r"^--   (CREATE TABLE .*? USING parquet LOCATION '/path/to/dataset');$", re.M)


class Spark:
    name = "spark"

    def __init__(self, session, fleet, approx=False, joins=True):
        self.spark = session
        script = fleet.sql("spark", approx=approx)
        m = sparkTable.search(script)
        assert m, "the Spark header gives no CREATE TABLE statement"
        register = m.group(1).replace("/path/to/dataset", str(fleet.dataset))
        t0 = time.perf_counter()
        self.spark.sql("DROP TABLE IF EXISTS ttftrace_events")
        self.spark.sql(register)
        # The script materializes id_joins and clock_bounds as tables
        # (its header says so): those statements run the joins once here.
        # joins=False stops before them (they are the same with --approx).
        for stmt in conftest.statements(script):
            if not joins and "VIEW join_events AS" in stmt:
                break
            self.spark.sql(stmt)
        self.setup = time.perf_counter() - t0
        conftest.TIMINGS.append((f"spark script run{', id_joins and clock_bounds written' if joins else ' up to the joins'}"
                                 f"{' (--approx)' if approx else ''}"
                                 f" ({fleet.requests} requests)", self.setup))

    def rows(self, query):
        return [r.asDict() for r in self.spark.sql(query).collect()]


def spark_session(warehouse):
    """Starts local Spark with two threads, a 2 GB driver and its in-memory
    catalog, its warehouse folder in warehouse."""
    from pyspark.sql import SparkSession

    s = (SparkSession.builder.master("local[2]")
         .appName("ttftrace-crosscheck")
         .config("spark.driver.memory", "2g")
         .config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "4")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.sql.warehouse.dir", str(warehouse))
         .getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    return s

// Runs bench/raw_logs.sql with DuckDB (npm @duckdb/node-api) over a folder of
// ttftrace-gen logs and prints the figures it computes, one line per metric.
// Usage: node bench/duckdb.mjs DATA_DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const dir = path.resolve(process.argv[2]);
const sqlPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'raw_logs.sql');
const sql = readFileSync(sqlPath, 'utf8').replaceAll('@DIR@', dir);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const statements = sql.split(/;\s*\n/).map(s => s.replace(/^\s*--.*$/mg, '').trim()).filter(Boolean);
let last;
for (const s of statements) last = await con.runAndReadAll(s);
for (const row of last.getRowObjects()) {
  const qs = row.p50_p90_p99.items.map(v => Number(v).toFixed(3));
  console.log(`${row.source}\t${row.metric}\t${row.n}\tp50=${qs[0]}\tp90=${qs[1]}\tp99=${qs[2]}`);
}

// Runs the `ttftrace sql --dialect duckdb` views of a dataset with DuckDB
// (npm @duckdb/node-api, 2 threads) and prints metric_summary, one line per
// source and metric: the per-source figures analyze also computes.
// Usage: node bench/views.mjs VIEWS.sql
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

const sql = readFileSync(process.argv[2], 'utf8');
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads = 2');
const statements = sql.split(/;\s*\n/).map(s => s.replace(/^\s*--.*$/mg, '').trim()).filter(Boolean);
for (const s of statements) await con.run(s);
const res = await con.runAndReadAll('SELECT * FROM metric_summary ORDER BY ALL');
for (const row of res.getRowObjects()) {
  console.log(Object.values(row).map(v => typeof v === 'number' ? v.toPrecision(10) : String(v)).join('\t'));
}

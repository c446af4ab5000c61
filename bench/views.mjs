// Runs the `ttftrace sql --dialect duckdb` views of a dataset with DuckDB
// (npm @duckdb/node-api, 2 threads) and prints metric_summary, one line per
// source and metric: the per-source figures analyze also computes. With
// OUT.json it also writes the rows, at full precision, for
// bench/compare_week.mjs.
// Usage: node bench/views.mjs VIEWS.sql [OUT.json]
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync, writeFileSync } from 'node:fs';

const sql = readFileSync(process.argv[2], 'utf8');
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads = 2');
const statements = sql.split(/;\s*\n/).map(s => s.replace(/^\s*--.*$/mg, '').trim()).filter(Boolean);
for (const s of statements) await con.run(s);
const res = await con.runAndReadAll('SELECT * FROM metric_summary ORDER BY ALL');
const rows = res.getRowObjectsJS();
for (const row of rows) {
  console.log(Object.values(row).map(v => typeof v === 'number' ? v.toPrecision(10) : String(v)).join('\t'));
}
if (process.argv[3]) {
  // Counts come as BigInt; every count here is far below 2^53.
  writeFileSync(process.argv[3], JSON.stringify(rows, (_, v) => typeof v === 'bigint' ? Number(v) : v));
}

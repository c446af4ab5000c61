// Compares analyze's per-source figures (analysis.json, analysed without
// --by) with DuckDB's metric_summary rows (bench/views.mjs OUT.json) on the
// same dataset: counts and units exactly, the statistics within 1e-9
// relative (1e-12 absolute near zero), as crosscheck/python/compare.py
// does. Prints one line; exits 1 when any figure differs or a metric is in
// one and not the other.
// Usage: node bench/compare_week.mjs analysis.json duckdb.json
import { readFileSync } from 'node:fs';

const SQL_METRICS = ['ttft', 'time_to_headers', 'e2e', 'tpot', 'itl', 'chunk_gap',
  'tps_user', 'queue', 'prefill', 'decode'];
const FIGURES = ['mean', 'std', 'min', 'p50', 'p90', 'p95', 'p99', 'p999', 'max'];
const REL = 1e-9;

const analysis = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const rows = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const key = (source, metric) => `${source}/${metric}`;
const got = new Map(rows.filter(r => r.group_key === '').map(r => [key(r.source, r.metric), r]));
const problems = [];
let n = 0, worst = 0;
for (const m of analysis.metrics) {
  if (!SQL_METRICS.includes(m.metric) || Object.keys(m.group).length > 0) continue;
  const k = key(m.source, m.metric), r = got.get(k);
  got.delete(k);
  if (!r) { problems.push(`${k}: in analyze (count ${m.count}), not in metric_summary`); continue; }
  n++;
  if (r.count !== m.count || r.unit !== m.unit) problems.push(`${k}: count ${r.count} ${r.unit}, analyze ${m.count} ${m.unit}`);
  for (const f of FIGURES) {
    const a = r[f], b = m[f];
    if (a === null || b === null || a === undefined || b === undefined) {
      if (a != b) problems.push(`${k} ${f}: sql ${a}, analyze ${b}`);
      continue;
    }
    const d = a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
    worst = Math.max(worst, d);
    if (Math.abs(a - b) > REL * Math.max(Math.abs(a), Math.abs(b)) + 1e-12) problems.push(`${k} ${f}: sql ${a}, analyze ${b}`);
  }
}
for (const [k, r] of got) problems.push(`${k}: in metric_summary (count ${r.count}), not in analyze`);
if (n === 0) problems.push('no metric to compare');
for (const p of problems) console.log(`figures differ: ${p}`);
console.log(`${'figures'.padEnd(22)} ${n} source metrics against DuckDB's: ${problems.length ? `${problems.length} differ` : 'counts equal, statistics within 1e-9'}; largest relative difference ${worst.toExponential(1)}`);
process.exit(problems.length ? 1 : 0);

#!/usr/bin/env bash
# bench/week.sh [REQUESTS...] — production weeks: analyze against DuckDB.
#
# For each size (default 1000000 2000000 5000000) generates a production
# week once under bench/data/weekN (`ttftrace-gen -week`: 4 gateways, nginx
# with a custom log_format and Envoy JSON, 8 engines, vLLM OTLP and TGI, no
# client logs), ingests it into bench/data/weekN/dataset and deletes the
# logs (KEEP_LOGS=1 keeps them; 1M requests are ~1.2 GB of logs). Then, side
# by side in one run, measures with /usr/bin/time -v:
#   - ttftrace analyze: reads the dataset, reconciles proxies with engines,
#     every per-source figure, breakdowns, time series;
#   - DuckDB (npm @duckdb/node-api, 2 threads) running the views of
#     `ttftrace sql --dialect duckdb` up to metric_summary: per-source
#     figures only, no reconciliation.
# CLIENT=N adds a client benchmark of N requests (~250 chunks each:
# ttftrace-gen's client logs only) and prints analyze's bytes per chunk.
# Prints wall, CPU, peak RSS and bytes per request; nothing asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(1000000 2000000 5000000)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
go build -o bench/bin/ttftrace ./cmd/ttftrace
go build -o bench/bin/ttftrace-gen ./cmd/ttftrace-gen
if [ ! -d bench/node/node_modules/@duckdb/node-api ]; then
  mkdir -p bench/node
  (cd bench/node && npm install --silent --no-audit --no-fund @duckdb/node-api@1.5.6-r.1 >/dev/null)
fi
ln -sfn node/node_modules bench/node_modules
secs() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$1"; }
cpu() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$1"; }
rss() { awk -F': ' '/Maximum resident/ {print $2/1024}' "$1"; }
row() { # row LABEL REQUESTS TIMEFILE [UNITS]
  awk -v l="$1" -v n="$2" -v w="$(secs "$3")" -v c="$(cpu "$3")" -v m="$(rss "$3")" -v u="${4:-$2}" 'BEGIN {
    printf "%-22s %10d %8.2f %8.2f %9.0f %10.1f\n", l, n, w, c, m, m*1048576/u }'
}
ingest() { # ingest DATA LOGS...
  local data=$1; shift
  /usr/bin/time -v -o "$data/ingest.time" bench/bin/ttftrace ingest -q -o "$data/dataset" \
    --log-format "nginx=@$data/nginx.log_format" --log-format "envoy=@$data/envoy.format.json" "$@"
}
printf '%-22s %10s %8s %8s %9s %10s\n' job requests wall_s cpu_s rss_MB B/request
for N in "${SIZES[@]}"; do
  DATA=bench/data/week$N
  if [ ! -f "$DATA/.done" ]; then
    rm -rf "$DATA"
    bench/bin/ttftrace-gen -week -n "$N" -o "$DATA" >/dev/null
    ingest "$DATA" $(ls "$DATA"/*.log "$DATA"/*.json "$DATA"/*.jsonl | grep -v format)
    [ "${KEEP_LOGS:-0}" = 1 ] || rm -f "$DATA"/*.log "$DATA"/*.json "$DATA"/*.jsonl
    touch "$DATA/.done"
  fi
  row "ingest (when made)" "$N" "$DATA/ingest.time"
  /usr/bin/time -v -o "$WORK/a" bench/bin/ttftrace analyze -q "$DATA/dataset" -o "$WORK/analysis.json"
  row "ttftrace analyze" "$N" "$WORK/a"
  bench/bin/ttftrace sql --dialect duckdb --dataset "$DATA/dataset" -o "$WORK/views.sql"
  /usr/bin/time -v -o "$WORK/d" node bench/views.mjs "$WORK/views.sql" >"$WORK/duckdb.out"
  row "duckdb metric_summary" "$N" "$WORK/d"
  awk -v a="$(secs "$WORK/a")" -v d="$(secs "$WORK/d")" 'BEGIN { printf "%-22s %.2f× (DuckDB wall ÷ analyze wall)\n", "speed ratio", d/a }'
done
if [ -n "${CLIENT:-}" ]; then
  DATA=bench/data/client$CLIENT
  if [ ! -f "$DATA/.done" ]; then
    rm -rf "$DATA"
    bench/bin/ttftrace-gen -n "$CLIENT" -tokens 250 -o "$DATA" >/dev/null
    ingest "$DATA" "$DATA"/web-*.client.jsonl "$DATA"/bench-1.profile_export.json
    [ "${KEEP_LOGS:-0}" = 1 ] || rm -f "$DATA"/*.log "$DATA"/*.json "$DATA"/*.jsonl
    touch "$DATA/.done"
  fi
  /usr/bin/time -v -o "$WORK/a" bench/bin/ttftrace analyze -q "$DATA/dataset" -o "$WORK/analysis.json"
  ABS=$(realpath "$DATA")
  CHUNKS=$(cd bench && node --input-type=module -e "
    import { DuckDBInstance } from '@duckdb/node-api';
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    const r = await con.runAndReadAll(\"SELECT sum(len(chunk_offsets_ns)) FROM read_parquet('$ABS/dataset/**/*.parquet')\");
    console.log(String(r.getRows()[0][0]));" 2>/dev/null)
  row "analyze, client" "$CLIENT" "$WORK/a"
  awk -v c="$CHUNKS" -v n="$CLIENT" -v m="$(rss "$WORK/a")" 'BEGIN { printf "%-22s %d chunks (%.0f a request): %.1f B/chunk\n", "client chunks", c, c/n, m*1048576/c }'
fi
echo "$(nproc) cores; load $(uptime | sed 's/.*load average: //'); $(go version | awk '{print $3}')"

#!/usr/bin/env bash
# bench/run.sh [REQUESTS] — the speed and memory benchmark of ttftrace.
#
# Generates REQUESTS requests (default 20000) of fleet logs with ttftrace-gen
# (once; kept under bench/data/), warms the page cache, then measures with
# /usr/bin/time -v: the raw read floor (cat to /dev/null), ttftrace's ingest,
# analyze and report stages, the whole job (ttftrace run), and DuckDB
# (npm @duckdb/node-api, SET threads=2) computing the per-source figures
# straight from the raw logs (bench/raw_logs.sql). Each is run ROUNDS times
# (default 3) and the round of median wall time is shown. Prints a table
# and the ratios. Nothing here asserts a time: it reports.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
TOKENS=${TOKENS:-250}
DATA=bench/data/n$N
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

go build -o bench/bin/ttftrace ./cmd/ttftrace
go build -o bench/bin/ttftrace-gen ./cmd/ttftrace-gen
if [ ! -f "$DATA/.done" ]; then
  rm -rf "$DATA"
  bench/bin/ttftrace-gen -n "$N" -tokens "$TOKENS" -o "$DATA" >/dev/null
  touch "$DATA/.done"
fi
if [ ! -d bench/node/node_modules/@duckdb/node-api ]; then
  mkdir -p bench/node
  (cd bench/node && npm install --silent --no-audit --no-fund @duckdb/node-api@1.5.6-r.1 >/dev/null)
fi
ln -sfn node/node_modules bench/node_modules # ES modules resolve from the script's folder, not NODE_PATH

LOGS=("$DATA"/*.jsonl "$DATA"/*.json "$DATA"/*.log)
LOGS=($(ls "${LOGS[@]}" | grep -v 'format'))
BYTES=$(cat "${LOGS[@]}" | wc -c)
NGINX_FMT="nginx=@$DATA/nginx.log_format"
ENVOY_FMT="envoy=@$DATA/envoy.format.json"
cat "${LOGS[@]}" >/dev/null; cat "${LOGS[@]}" >/dev/null # warm the cache

printf '%-10s %9s %9s %9s %10s %10s %10s\n' stage wall_s cpu_s rss_MB MB/s duck/stage rss/duck
ROWS=()
ROUNDS=${ROUNDS:-3}
measure() { # name path-to-remove-before-each-round cmd...: the round of median wall time
  local name=$1 reset=$2; shift 2
  local runs=() r wall cpu rss
  for ((r = 0; r < ROUNDS; r++)); do
    if [ -n "$reset" ]; then rm -rf "$reset"; fi
    /usr/bin/time -v -o "$WORK/time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || {
      echo "$name failed:"; cat "$WORK/$name.err" >&2; exit 1; }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$WORK/time")
    cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$WORK/time")
    rss=$(awk -F': ' '/Maximum resident/ {print $2/1024}' "$WORK/time")
    runs+=("$wall $cpu $rss")
  done
  ROWS+=("$name $(printf '%s\n' "${runs[@]}" | sort -n -k1,1 | awk -v m=$(((ROUNDS + 1) / 2)) 'NR == m')")
}
measure read "" cat "${LOGS[@]}"
measure ingest "$WORK/ds" bench/bin/ttftrace ingest -q --log-format "$NGINX_FMT" --log-format "$ENVOY_FMT" -o "$WORK/ds" "${LOGS[@]}"
measure analyze "" bench/bin/ttftrace analyze -q "$WORK/ds" -o "$WORK/analysis.json"
measure report "" bench/bin/ttftrace report -q "$WORK/analysis.json" -o "$WORK/report.html"
measure whole "$WORK/run" bench/bin/ttftrace run -q --log-format "$NGINX_FMT" --log-format "$ENVOY_FMT" -o "$WORK/run" "${LOGS[@]}"
measure duckdb "" node bench/duckdb.mjs "$DATA"

DUCK_WALL=$(echo "${ROWS[-1]}" | awk '{print $2}')
DUCK_RSS=$(echo "${ROWS[-1]}" | awk '{print $4}')
for r in "${ROWS[@]}"; do
  echo "$r" | awk -v bytes="$BYTES" -v duck="$DUCK_WALL" -v drss="$DUCK_RSS" '{
    mbs = ($2 > 0) ? bytes/1e6/$2 : 0
    printf "%-10s %9.2f %9.2f %9.0f %10.0f %9.2fx %9.2fx\n", $1, $2, $3, $4, mbs, ($2 > 0 ? duck/$2 : 0), $4/drss }'
done
echo
echo "input: $N requests, $(( BYTES / 1000000 )) MB in ${#LOGS[@]} logs; $(nproc) cores; $(go version | awk '{print $3}'); each row: the round of median wall time of $ROUNDS"
echo "duck/stage = DuckDB wall time / stage wall time (target for whole: >= 4); rss/duck = peak memory / DuckDB's (target for whole: <= 0.33)"
echo "DuckDB figures:"; cat "$WORK/duckdb.out"

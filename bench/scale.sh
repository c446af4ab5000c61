#!/usr/bin/env bash
# bench/scale.sh [REQUESTS...] — how the whole job grows with its input.
#
# For each size (default 20000 50000 100000 200000 requests; 200000 is
# 6.2 GB of logs) generates the fleet's logs once under bench/data/nN, then
# measures `ttftrace run` (and, with DUCKDB=1, DuckDB's per-source figures)
# with /usr/bin/time -v, warm cache. Prints wall, CPU and peak memory, and
# per request and per MB of log, so a linear growth shows as constant
# columns. Nothing here asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(20000 50000 100000 200000)
TOKENS=${TOKENS:-250}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
go build -o bench/bin/ttftrace ./cmd/ttftrace
go build -o bench/bin/ttftrace-gen ./cmd/ttftrace-gen
secs() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$1"; }
cpu() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$1"; }
rss() { awk -F': ' '/Maximum resident/ {print $2/1024}' "$1"; }
printf '%-8s %8s %-8s %8s %8s %8s %9s %9s %9s\n' requests MB job wall_s cpu_s rss_MB us/req KB/req MB/s
for N in "${SIZES[@]}"; do
  DATA=bench/data/n$N
  if [ ! -f "$DATA/.done" ]; then
    rm -rf "$DATA"
    bench/bin/ttftrace-gen -n "$N" -tokens "$TOKENS" -o "$DATA" >/dev/null
    touch "$DATA/.done"
  fi
  LOGS=($(ls "$DATA"/*.jsonl "$DATA"/*.json "$DATA"/*.log | grep -v format))
  BYTES=$(cat "${LOGS[@]}" | wc -c)
  cat "${LOGS[@]}" >/dev/null
  rm -rf "$WORK/run"
  /usr/bin/time -v -o "$WORK/t" bench/bin/ttftrace run -q --log-format "nginx=@$DATA/nginx.log_format" \
    --log-format "envoy=@$DATA/envoy.format.json" -o "$WORK/run" "${LOGS[@]}"
  JOBS=("ttftrace $WORK/t")
  if [ "${DUCKDB:-0}" = 1 ]; then
    /usr/bin/time -v -o "$WORK/d" node bench/duckdb.mjs "$DATA" >/dev/null
    JOBS+=("duckdb $WORK/d")
  fi
  for j in "${JOBS[@]}"; do
    set -- $j
    awk -v n="$N" -v b="$BYTES" -v job="$1" -v w="$(secs "$2")" -v c="$(cpu "$2")" -v m="$(rss "$2")" 'BEGIN {
      printf "%-8d %8.0f %-8s %8.2f %8.2f %8.0f %9.1f %9.2f %9.0f\n", n, b/1e6, job, w, c, m, w*1e6/n, m*1024/n, b/1e6/w }'
  done
done
echo "$(nproc) cores; $(go version | awk '{print $3}'); us/req and KB/req stay flat when time and memory grow linearly with requests"

#!/usr/bin/env bash
# bench/week.sh [REQUESTS...] — production weeks: analyze against DuckDB.
#
# For each size (default 1000000 2000000 5000000) generates a production
# week once under $DATA_ROOT/weekN (DATA_ROOT defaults to bench/data;
# `ttftrace-gen -week`: 4 gateways, nginx with a custom log_format and Envoy
# JSON, 8 engines, vLLM OTLP and TGI, no client logs), ingests it into
# weekN/dataset and deletes the logs (KEEP_LOGS=1 keeps them when the week
# is one part; 1M requests are ~1.2 GB of logs, 50M ~58 GB).
# Weeks over 4M requests are made a part at a time so their logs never fill
# the disk: PARTS=k (default 7 per 21M requests, whole days or thirds of
# days, so the busiest part, 08:00–16:00 with 47% of its day's requests
# under the daily rhythm, stays under ~4 GB of logs: 7 parts at 20M, 21 at
# 50M). Part i is `ttftrace-gen -week -part i/k -state weekN/week.state`,
# the requests arriving in the i-th k-th of the week with every line each
# logs, resumed from the state part i-1 left; it is ingested into the same
# dataset (each ingest call its own committed transaction, under the
# whole week's file names: the dataset sees new content, as after a log
# rotation), then deleted, and the next part is made. The parts hold
# disjoint requests, so no record is repeated across them. Two requests can
# still log the same bytes (an Envoy line without ids: same start ms,
# durations and engine; once in the 50M week), which ingest counts as a
# duplicate; starting in the same ms, both fall in one part and are counted
# as in the whole week, unless a part boundary falls within that ms.
# Generation and ingest figures are summed over the parts (wall, CPU), peak
# RSS is the largest part's; each part's are kept in weekN/*.partNN.time
# and ingest's summary in weekN/ingest.partNN.out. A part starts only while
# MIN_FREE_GB (default 15) are free on the disk. weekN/.done marks a
# finished dataset; it is then not made again.
# Then, side by side in one run (ANALYZE=0 skips this: make datasets only),
# measures with /usr/bin/time -v:
#   - ttftrace analyze: reads the dataset, reconciles proxies with engines,
#     every per-source figure, breakdowns, time series;
#   - DuckDB (npm @duckdb/node-api, 2 threads) running the views of
#     `ttftrace sql --dialect duckdb` up to metric_summary: per-source
#     figures only, no reconciliation.
# Then compares the two: every per-source metric analyze reports against
# metric_summary's row (bench/compare_week.mjs: counts exactly, statistics
# within 1e-9 relative), and stops with an error when any differs.
# CLIENT=N adds a client benchmark of N requests (~250 chunks each:
# ttftrace-gen's client logs only) and prints analyze's bytes per chunk.
# Prints wall, CPU, peak RSS and bytes per request; nothing asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(1000000 2000000 5000000)
ROOT=${DATA_ROOT:-bench/data}
ANALYZE=${ANALYZE:-1}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
go build -o bench/bin/ttftrace ./cmd/ttftrace
go build -o bench/bin/ttftrace-gen ./cmd/ttftrace-gen
if [ "$ANALYZE" != 0 ] && [ ! -d bench/node/node_modules/@duckdb/node-api ]; then
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
sum_times() { # sum_times OUT TIMEFILES...: wall and CPU summed, the largest peak RSS, as time -v words them
  local out=$1 f; shift
  for f in "$@"; do echo "$(secs "$f") $(cpu "$f") $(rss "$f")"; done | awk '{w+=$1; c+=$2; if ($3>m) m=$3} END {
    printf "\tUser time (seconds): %.2f\n\tSystem time (seconds): 0\n\tElapsed (wall clock) time (h:mm:ss or m:ss): %.2f\n\tMaximum resident set size (kbytes): %d\n", c, w, m*1024 }' >"$out"
}
logs() { ls "$1"/*.log "$1"/*.json "$1"/*.jsonl | grep -v format; }
ingest() { # ingest DATA TAG LOGS...: ingest's figures in DATA/ingestTAG.time, its summary in .out
  local data=$1 tag=$2; shift 2
  /usr/bin/time -v -o "$data/ingest$tag.time" bench/bin/ttftrace ingest -o "$data/dataset" \
    --log-format "nginx=@$data/nginx.log_format" --log-format "envoy=@$data/envoy.format.json" "$@" >"$data/ingest$tag.out" 2>&1
  if grep -E 'already in|grown since' "$data/ingest$tag.out"; then
    echo "week.sh: $data: ingest took a part's log for one it holds (see $data/ingest$tag.out)" >&2
    exit 1
  fi
}
parts() { # parts N: how many parts week N is made in
  if [ -n "${PARTS:-}" ]; then echo "$PARTS"
  elif [ "$1" -le 4000000 ]; then echo 1
  else echo $((7 * (($1 + 20999999) / 21000000))); fi
}
check_free() { # check_free DIR: stops unless MIN_FREE_GB are free there
  local free; free=$(df -P -BG "$1" | awk 'NR==2 {sub("G", "", $4); print $4}')
  if [ "$free" -lt "${MIN_FREE_GB:-15}" ]; then
    echo "week.sh: $free GB free on $1, under MIN_FREE_GB=${MIN_FREE_GB:-15}: a part's logs take up to ~5 GB" >&2
    exit 1
  fi
}
counts() { # counts DATA: ingest's totals summed over the parts; fails unless records+dup+skipped+rejected = read
  awk '/^total \(/ {r+=$(NF-4); k+=$(NF-3); d+=$(NF-2); s+=$(NF-1); j+=$NF} END {
    printf "read %d records %d duplicates %d skipped %d rejected %d\n", r, k, d, s, j; exit (r == 0 || k+d+s+j != r) }' "$1"/ingest*.out
}
make_week() { # make_week DATA N: generates and ingests week N a part at a time, deleting each part's logs
  local data=$1 n=$2 k i tag; k=$(parts "$n")
  rm -rf "$data"
  mkdir -p "$data"
  for ((i = 1; i <= k; i++)); do
    check_free "$data"
    local part=() tag=""
    if [ "$k" -gt 1 ]; then part=(-part "$i/$k" -state "$data/week.state"); tag=$(printf '.part%02d' "$i"); fi
    /usr/bin/time -v -o "$data/gen$tag.time" bench/bin/ttftrace-gen -week -n "$n" "${part[@]}" -o "$data" >/dev/null
    ingest "$data" "$tag" $(logs "$data")
    [ "${KEEP_LOGS:-0}" = 1 ] && [ "$k" = 1 ] || rm -f "$data"/*.log "$data"/*.json "$data"/*.jsonl
  done
  if [ "$k" -gt 1 ]; then
    sum_times "$data/gen.time" "$data"/gen.part*.time
    sum_times "$data/ingest.time" "$data"/ingest.part*.time
  fi
  counts "$data" >"$data/ingest.counts" || { echo "week.sh: $data: counts do not add up: $(cat "$data/ingest.counts")" >&2; exit 1; }
  touch "$data/.done"
}
printf '%-22s %10s %8s %8s %9s %10s\n' job requests wall_s cpu_s rss_MB B/request
for N in "${SIZES[@]}"; do
  DATA=$ROOT/week$N
  [ -f "$DATA/.done" ] || make_week "$DATA" "$N"
  [ -f "$DATA/gen.time" ] && row "generate (when made)" "$N" "$DATA/gen.time"
  row "ingest (when made)" "$N" "$DATA/ingest.time"
  [ -f "$DATA/ingest.counts" ] && printf '%-22s %s\n' "ingest counts" "$(cat "$DATA/ingest.counts")"
  du -sb "$DATA/dataset" | awk -v n="$N" '{ printf "%-22s %.0f MB, %.1f B/request\n", "dataset on disk", $1/1048576, $1/n }'
  [ "$ANALYZE" != 0 ] || continue
  /usr/bin/time -v -o "$WORK/a" bench/bin/ttftrace analyze -q "$DATA/dataset" -o "$WORK/analysis.json"
  row "ttftrace analyze" "$N" "$WORK/a"
  bench/bin/ttftrace sql --dialect duckdb --dataset "$DATA/dataset" -o "$WORK/views.sql"
  /usr/bin/time -v -o "$WORK/d" node bench/views.mjs "$WORK/views.sql" "$WORK/duckdb.json" >"$WORK/duckdb.out"
  row "duckdb metric_summary" "$N" "$WORK/d"
  awk -v a="$(secs "$WORK/a")" -v d="$(secs "$WORK/d")" 'BEGIN { printf "%-22s %.2f× (DuckDB wall ÷ analyze wall)\n", "speed ratio", d/a }'
  node bench/compare_week.mjs "$WORK/analysis.json" "$WORK/duckdb.json"
done
if [ -n "${CLIENT:-}" ]; then
  DATA=$ROOT/client$CLIENT
  if [ ! -f "$DATA/.done" ]; then
    rm -rf "$DATA"
    bench/bin/ttftrace-gen -n "$CLIENT" -tokens 250 -o "$DATA" >/dev/null
    ingest "$DATA" "" "$DATA"/web-*.client.jsonl "$DATA"/bench-1.profile_export.json
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

#!/usr/bin/env bash
# bench/formats.sh [REQUESTS] — ingest speed per input format.
#
# Generates REQUESTS requests (default 1300000, 8 tokens each, so every log of
# the fleet is at least 100 MB: nginx ~195 MB, TGI ~104 MB) under bench/data/formats-N,
# then times `ttftrace ingest --format F` on each log alone (warm cache,
# /usr/bin/time -v) and prints MB/s, records/s and peak memory per format,
# beside `cat` of the same file.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1300000}
DATA=bench/data/formats-$N
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
go build -o bench/bin/ttftrace ./cmd/ttftrace
go build -o bench/bin/ttftrace-gen ./cmd/ttftrace-gen
if [ ! -f "$DATA/.done" ]; then
  rm -rf "$DATA"
  bench/bin/ttftrace-gen -n "$N" -tokens 8 -rate 200 -o "$DATA" >/dev/null
  touch "$DATA/.done"
fi
secs() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$1"; }
printf '%-16s %8s %9s %9s %11s %8s %9s\n' format MB cat_MB/s MB/s records/s rss_MB cpu_s
for spec in ttftrace-client:web-1.client.jsonl genai-perf:bench-1.profile_export.json nginx:edge-1.access.log \
            envoy:edge-2.access.json otlp:gpu-1.spans.jsonl tgi:gpu-3.router.log; do
  format=${spec%%:*}; file=$DATA/${spec#*:}
  extra=()
  [ "$format" = nginx ] && extra=(--log-format "@$DATA/nginx.log_format")
  [ "$format" = envoy ] && extra=(--log-format "@$DATA/envoy.format.json")
  bytes=$(stat -c %s "$file")
  cat "$file" >/dev/null
  /usr/bin/time -v -o "$WORK/cat" cat "$file" >/dev/null
  rm -rf "$WORK/ds"
  /usr/bin/time -v -o "$WORK/t" bench/bin/ttftrace ingest -q --format "$format" "${extra[@]}" -o "$WORK/ds" "$file"
  records=$(python3 -c "import json,sys; print(sum(i['records'] for f in sys.argv[1:] for i in json.load(open(f))['inputs']))" "$WORK"/ds/_log/*.json)
  wall=$(secs "$WORK/t"); catwall=$(secs "$WORK/cat")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$WORK/t")
  rss=$(awk -F': ' '/Maximum resident/ {print $2/1024}' "$WORK/t")
  awk -v f="$format" -v b="$bytes" -v w="$wall" -v c="$catwall" -v r="$records" -v m="$rss" -v cpu="$cpu" 'BEGIN {
    cat_rate = (c > 0) ? sprintf("%.0f", b/1e6/c) : "<10ms"
    printf "%-16s %8.0f %9s %9.1f %11.0f %8.0f %9.2f\n", f, b/1e6, cat_rate, b/1e6/w, r/w, m, cpu }'
done
echo "ingest = decode + dedupe + write the Parquet dataset; $(nproc) cores; one file at a time"

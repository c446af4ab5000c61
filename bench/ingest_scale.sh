#!/usr/bin/env bash
# bench/ingest_scale.sh [GB] — `ttftrace ingest` of one large single log.
#
# For each kind in $KINDS (default "otlp nginx": vLLM OTLP JSON lines and an
# nginx access log with timings), grows one of ttftrace-gen's logs to GB
# gigabytes (default 4) with bench/biglog (each round an hour later, 0.1% of
# lines written again up to 5,000 lines later, as a shipper's retry), reads
# it once with `cat` (the raw read floor), then ingests it under
# /usr/bin/time -v. Prints wall, CPU, CPU use, peak RSS, MB/s, bytes of peak
# RSS per record, and the duplicates ingest counted beside the repeats the
# generator wrote (they must be equal). Each log is deleted after its run;
# GB=20 needs ~22 GB free under bench/data. Nothing here asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
GB=${1:-4}
KINDS=${KINDS:-otlp nginx}
DATA=bench/data/scale
WORK=$(mktemp -d)
trap 'rm -rf "$WORK" "$DATA"' EXIT
go build -o bench/bin/ttftrace ./cmd/ttftrace
go build -o bench/bin/ttftrace-gen ./cmd/ttftrace-gen
go build -o bench/bin/biglog ./bench/biglog
mkdir -p "$DATA"
bench/bin/ttftrace-gen -n 20000 -o "$DATA/seed" >/dev/null
secs() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$1"; }
cpu() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$1"; }
rss() { awk -F': ' '/Maximum resident/ {print $2/1024}' "$1"; }
printf '%-6s %7s %11s %9s %9s %7s %8s %7s %6s %8s %8s %6s\n' \
  kind GB records dups gen_dups cat_s wall_s cpu_s cpu% rss_MB MB/s B/rec
for KIND in $KINDS; do
  case $KIND in
    otlp) SEED=$DATA/seed/gpu-1.spans.jsonl; ARGS=() ;;
    nginx) SEED=$DATA/seed/edge-1.access.log; ARGS=(--log-format "nginx=@$DATA/seed/nginx.log_format") ;;
    *) echo "unknown kind $KIND" >&2; exit 2 ;;
  esac
  FILE=$DATA/big.$KIND
  bench/bin/biglog -kind "$KIND" -seed "$SEED" -bytes "$(awk -v g="$GB" 'BEGIN {printf "%.0f", g * 1e9}')" >"$FILE" 2>"$WORK/gen"
  BYTES=$(stat -c %s "$FILE")
  GEN_DUPS=$(awk '{print $5}' "$WORK/gen")
  /usr/bin/time -v -o "$WORK/cat" cat "$FILE" >/dev/null
  /usr/bin/time -v -o "$WORK/t" bench/bin/ttftrace ingest "${ARGS[@]}" -o "$WORK/ds" "$FILE" 2>"$WORK/summary"
  read -r RECORDS DUPS < <(awk -v f="$FILE" '$1 == f {print $5, $6}' "$WORK/summary")
  awk -v k="$KIND" -v b="$BYTES" -v r="$RECORDS" -v d="$DUPS" -v g="$GEN_DUPS" -v c="$(secs "$WORK/cat")" \
    -v w="$(secs "$WORK/t")" -v u="$(cpu "$WORK/t")" -v m="$(rss "$WORK/t")" 'BEGIN {
    printf "%-6s %7.2f %11d %9d %9d %7.1f %8.1f %7.1f %5.0f%% %8.0f %8.0f %6.1f\n",
      k, b/1e9, r, d, g, c, w, u, 100*u/w, m, b/1e6/w, m*1048576/r }'
  rm -rf "$FILE" "$WORK/ds"
done
echo "$(nproc) cores; $(go version | awk '{print $3}'); load: $(uptime | sed 's/.*load average: //')"

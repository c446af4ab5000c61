#!/usr/bin/env bash
# bench/decoders.sh [COUNT] — every format decoder's speed on one core.
#
# Runs the decoder benchmarks (`go test ./ingest/... -bench Decode -cpu 1`,
# COUNT runs each, default 5) and prints, per benchmark, the best and median
# MB/s of input and the floor of issue 16: 250 MB/s per core for text
# formats, 200 MB/s for JSON-based ones. Where a benchmark also reports
# cpu-MB/s (input per CPU-second of the process, steadier than wall time on
# a busy machine) that is printed too. It reports; it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-5}
go test ./ingest/... -run '^$' -bench '^BenchmarkDecode' -cpu 1 -count "$COUNT" -benchmem |
awk '
  /^BenchmarkDecode/ {
    name = substr($1, 16)
    for (i = 2; i < NF; i++) {
      if ($(i+1) == "MB/s") mbs[name] = mbs[name] " " $i
      if ($(i+1) == "cpu-MB/s" && $i > cpu[name]) cpu[name] = $i
      if ($(i+1) == "allocs/op") allocs[name] = $i
    }
    if (!(name in seen)) { seen[name] = 1; order[++n] = name }
  }
  END {
    printf "%-22s %9s %9s %9s %8s %11s\n", "decoder", "best", "median", "cpu-MB/s", "target", "allocs/op"
    for (k = 1; k <= n; k++) {
      name = order[k]
      m = split(substr(mbs[name], 2), v, " ")
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
      med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
      text = (name ~ /^(Nginx|EnvoyText|HAProxy|TGI)(-|$)/)
      printf "%-22s %9.0f %9.0f %9s %8d %11s\n", name, v[m], med, (name in cpu) ? sprintf("%.0f", cpu[name]) : "-", text ? 250 : 200, allocs[name]
    }
    print "MB/s of input per core (-cpu 1); floor: 250 for text formats, 200 for JSON-based ones"
  }'

#!/usr/bin/env bash
# samples/make.sh [demo|formats] — regenerates samples/demo/ (the logs
# `ttftrace demo` reconciles) and the generated folders of samples/formats/
# (one small sample per input format); without an argument, both.
#
# demo: 400 requests through a simulated fleet (go run ./cmd/ttftrace-gen),
# seed 1: clients web-1, web-2 (ttftrace-client JSONL) and bench-1 (GenAI-Perf
# export), proxies edge-1 (nginx) and edge-2 (Envoy JSON), servers gpu-1,
# gpu-2 (vLLM OTLP spans) and gpu-3 (TGI router log), each host's clock
# skewed by up to ±2 s. Then the faults real logs have, so the data-quality
# section has something to show: a line a log shipper sent twice, a line cut
# in half, an nginx error-log line, and a gzip file cut short.
#
# formats: 30 requests through another fleet (seed 2), of which one log per
# format the fleet writes goes to samples/formats/<format>/, with a `flags`
# file when reading it needs one (nginx's custom log_format, Envoy's JSON
# map). The other folders of samples/formats/ are written by hand or copied
# (samples/formats/README.md) and left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

demo() {
  go run ./cmd/ttftrace-gen -n 400 -tokens 60 -rate 2 -o "$tmp/demo" >/dev/null
  cd "$tmp/demo"
  # web-1: line 10 repeated (a shipper retry); line 20 cut in half.
  awk 'NR==10 {print; print; next} NR==20 {print substr($0, 1, int(length($0)/2)); next} {print}' web-1.client.jsonl > x && mv x web-1.client.jsonl
  # edge-1: an error-log line in the access log.
  awk 'NR==5 {print "2026/11/23 10:01:12 [error] 31#31: *4113 upstream timed out (110: Connection timed out) while reading upstream, client: 10.0.3.12, server: _, request: \"POST /v1/chat/completions HTTP/1.1\", upstream: \"http://10.1.0.7:8000/v1/chat/completions\""} {print}' edge-1.access.log > x && mv x edge-1.access.log
  local out=$root/samples/demo
  rm -rf "$out" && mkdir -p "$out"
  cp nginx.log_format envoy.format.json "$out/"
  for f in *.jsonl *.json *.log; do
    case $f in envoy.format.json) continue ;; esac
    gzip -9 -n -c "$f" > "$out/$f.gz"
  done
  # gpu-3's router log: keep only the first 70% of the gzip, as when a copy was cut off.
  local size
  size=$(stat -c %s "$out/gpu-3.router.log.gz")
  head -c $(( size * 7 / 10 )) "$out/gpu-3.router.log.gz" > x && mv x "$out/gpu-3.router.log.gz"
  cd "$root"
}

# sample FORMAT FILE [FLAG...]: samples/formats/FORMAT/ holds FILE of the
# seed-2 fleet and, given flags, a flags file with one flag per line.
sample() {
  local out=$root/samples/formats/$1 file=$2
  shift 2
  rm -rf "$out" && mkdir -p "$out"
  cp "$tmp/formats/$file" "$out/"
  if [ $# -gt 0 ]; then
    printf '%s\n' "$@" > "$out/flags"
    for f in "$@"; do
      case $f in *=@*) cp "$tmp/formats/${f#*=@}" "$out/" ;; esac
    done
  fi
}

formats() {
  mkdir -p "$tmp/formats"
  go run ./cmd/ttftrace-gen -n 30 -tokens 24 -rate 2 -seed 2 -o "$tmp/formats" >/dev/null
  sample ttftrace-client web-1.client.jsonl
  sample genai-perf bench-1.profile_export.json
  sample nginx edge-1.access.log "--log-format nginx=@nginx.log_format"
  sample envoy edge-2.access.json "--log-format envoy=@envoy.format.json"
  sample otlp gpu-1.spans.jsonl
  sample tgi gpu-3.router.log
}

case ${1:-all} in
  demo) demo ;;
  formats) formats ;;
  all) demo; formats ;;
  *) echo "usage: samples/make.sh [demo|formats]" >&2; exit 2 ;;
esac
ls -la samples/demo samples/formats/*

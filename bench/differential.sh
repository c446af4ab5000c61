#!/usr/bin/env bash
# bench/differential.sh REV [REQUESTS] — checks that this checkout's ingest
# gives byte-identical outputs to revision REV's: on the generated fleet logs
# (bench/data/nREQUESTS, default 20000), on damaged copies of their first
# lines (truncated lines, flipped bytes, doubled lines; seeded, so repeatable),
# on every file under ingest/*/testdata and ../shared/corpus. Compares the
# Parquet parts, _manifest.jsonl, _rejects.jsonl (or the commit log, _log/)
# and the command's output.
# The speed work of issue 5 replaced decoders by fast paths; this is the
# end-to-end check that nothing a user sees changed.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=$1
N=${2:-20000}
DATA=bench/data/n$N
WORK=$(mktemp -d)
trap 'git worktree remove --force "$WORK/old-tree" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
git worktree add -q "$WORK/old-tree" "$REV"
(cd "$WORK/old-tree" && go build -o "$WORK/old" ./cmd/ttftrace)
go build -o "$WORK/new" ./cmd/ttftrace
go build -o "$WORK/dump" ./bench/dumpevents
go build -o bench/bin/ttftrace-gen ./cmd/ttftrace-gen
if [ ! -f "$DATA/.done" ]; then
  rm -rf "$DATA"; bench/bin/ttftrace-gen -n "$N" -o "$DATA" >/dev/null; touch "$DATA/.done"
fi
mkdir -p "$WORK/damaged"
python3 - "$DATA" "$WORK/damaged" <<'PY'
import glob, os, random, sys
random.seed(42)
src, dst = sys.argv[1], sys.argv[2]
for path in sorted(glob.glob(src + '/*')):
    name = os.path.basename(path)
    if 'format' in name:
        continue
    for k in range(3):
        if name.endswith('.profile_export.json'):  # one document: damage bytes of its start
            b = bytearray(open(path, 'rb').read(3_000_000))
            for _ in range(30):
                b[random.randrange(len(b))] = random.choice(b'{}[]",:\\0123456789abcdefu \n')
            out = bytes(b)
        else:
            lines = open(path, 'rb').read(4_000_000).split(b'\n')[:2000]
            for i, line in enumerate(lines):
                r = random.random()
                if r < 0.02 and line:
                    lines[i] = line[:random.randrange(len(line))]
                elif r < 0.05 and line:
                    b = bytearray(line)
                    b[random.randrange(len(b))] = random.choice(b'{}[]",:\\0123456789abcdefu -.eE')
                    lines[i] = bytes(b)
                elif r < 0.06:
                    lines[i] = line + line
            out = b'\n'.join(lines)
        open(os.path.join(dst, f'{k}.{name}'), 'wb').write(out)
PY
FMT=(--log-format "nginx=@$DATA/nginx.log_format" --log-format "envoy=@$DATA/envoy.format.json")
files=0; differ=0
check() { # file, extra flags...
  local f=$1; shift
  for v in old new; do
    rm -rf "$WORK/ds-$v"
    { "$WORK/$v" ingest -q "$@" -o "$WORK/ds-$v" "$f" 2>&1; echo "exit $?"; } >"$WORK/out-$v" || true
  done
  files=$((files + 1))
  for v in old new; do
    { (cd "$WORK/ds-$v" 2>/dev/null && find . -type f | sort && cat _manifest.jsonl _rejects.jsonl _log/* 2>/dev/null) || true
      if [ -d "$WORK/ds-$v" ]; then "$WORK/dump" "$WORK/ds-$v" 2>&1 || true; fi; } >"$WORK/content-$v"
  done
  if ! cmp -s "$WORK/out-old" "$WORK/out-new" || ! cmp -s "$WORK/content-old" "$WORK/content-new"; then
    differ=$((differ + 1)); echo "differs: $f"
  fi
}
for f in "$DATA"/*.jsonl "$DATA"/*.json "$DATA"/*.log "$WORK"/damaged/*; do
  case "$f" in *format*) continue;; esac
  check "$f" "${FMT[@]}"
done
for f in $(find ingest/*/testdata ../shared/corpus -type f -not -path '*/fuzz/*' 2>/dev/null | sort); do
  case "$f" in *.golden|*.opts.json|*.md|*.yaml) continue;; esac
  check "$f"
done
echo "$files inputs, $differ differ (old: $REV, new: working tree)"
[ "$differ" = 0 ]

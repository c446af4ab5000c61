#!/usr/bin/env bash
# fetch-echarts.sh re-fetches the Apache ECharts build that report embeds
# (echarts.min.js, LICENSE, NOTICE) from the npm registry with `npm pack`,
# and fails unless the script's sha256 is the one recorded below.
# Run it from anywhere: ./report/assets/fetch-echarts.sh
set -euo pipefail

version=5.4.3
want=1156429a16a38cb8604dcc6518c19406d4226142d908f8edd2e3531443c54d19
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent "echarts@$version" >/dev/null && tar xzf "echarts-$version.tgz")
got=$(sha256sum "$tmp/package/dist/echarts.min.js" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
	echo "fetch-echarts: echarts.min.js $version has sha256 $got, want $want" >&2
	exit 1
fi
cp "$tmp/package/dist/echarts.min.js" "$tmp/package/LICENSE" "$tmp/package/NOTICE" "$here/"
echo "fetch-echarts: echarts $version ($got) written to $here"

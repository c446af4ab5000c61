#!/usr/bin/env bash
# crosscheck/run.sh runs the DuckDB cross-check: the views of `ttftrace sql
# --dialect duckdb` against analyze on a simulated fleet. It is a module of
# its own because the DuckDB driver (github.com/duckdb/duckdb-go/v2) is cgo
# with prebuilt static libraries for every platform (~570 MB of modules);
# it needs a C/C++ toolchain (gcc, g++). .ci/run does not call it.
set -euo pipefail
cd "$(dirname "$0")"
export CGO_ENABLED=1

go mod download
go vet ./...
go test -count=1 ./...

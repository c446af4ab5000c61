// Package samples holds the logs `ttftrace demo` runs on, embedded in the
// binary: one simulated fleet (clients, proxies, servers with skewed clocks)
// seen through eight logs in six formats, with the faults real logs have.
// samples/make.sh regenerates them.
package samples

import (
	"embed"
	"io/fs"
)

//go:embed demo
var demo embed.FS

//go:embed formats
var formats embed.FS

// Demo returns the demo logs; nginx.log_format and envoy.format.json are the
// formats the proxies wrote with.
func Demo() fs.FS {
	sub, err := fs.Sub(demo, "demo")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// Formats returns the samples of the formats the demo fleet does not write,
// one folder per format name (formats/README.md): vllm-bench, har, haproxy,
// litellm, triton, aiperf and jsonl (with the --map its sample needs,
// jsonl/gateway.map.json).
func Formats() fs.FS {
	sub, err := fs.Sub(formats, "formats")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// Package samples holds the logs `ttftrace demo` runs on, embedded in the
// binary: one simulated fleet (clients, proxies, servers with skewed clocks)
// seen through eight logs in six formats, with the faults real logs have
// (demo/), and one small sample of every input format (formats/).
// samples/make.sh regenerates the demo and the generated samples.
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

// Formats returns one sample of every input format, one folder per format
// name (formats/README.md). A folder's file named "flags", when there is
// one, holds the flags reading its sample needs, one per line, whose @FILE
// values name files of the folder (nginx's log_format, jsonl's --map).
func Formats() fs.FS {
	sub, err := fs.Sub(formats, "formats")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

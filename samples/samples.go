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

// Demo returns the demo logs; nginx.log_format and envoy.format.json are the
// formats the proxies wrote with.
func Demo() fs.FS {
	sub, err := fs.Sub(demo, "demo")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

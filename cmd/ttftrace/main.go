// Command ttftrace analyses LLM serving latency from the logs that clients,
// proxies and inference servers already write. See README.md.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

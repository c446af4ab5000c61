// Command ttftrace analyses LLM serving latency from the logs that clients,
// proxies and inference servers already write. See README.md; the command
// is package internal/cli.
package main

import (
	"os"

	"github.com/ttftrace/ttftrace/internal/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

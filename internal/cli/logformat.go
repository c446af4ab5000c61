package cli

import (
	"fmt"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/envoy"
	"github.com/ttftrace/ttftrace/ingest/nginx"
)

// This file checks --log-format values when the flags are parsed, by the
// nginx and Envoy packages' own compilers, and sends a value given without
// a format name to the one format it parses as.

// compileLogFormat compiles text as the log format of the input format
// name, as that format's decoder would, and returns why it cannot be read.
// Only nginx and envoy take a log format.
func compileLogFormat(name, text string) error {
	switch name {
	case "nginx":
		return nginx.CompileLogFormat(text)
	case "envoy":
		return envoy.CompileLogFormat(text)
	}
	return fmt.Errorf("%s takes no log format (only nginx and envoy do)", name)
}

// logFormatFor returns the format a --log-format value v (whose text is
// text) is for: its prefix when it has one and its text compiles, else the
// one of nginx and envoy it compiles as. Every other case is a usage error
// naming the formats and their reasons.
func logFormatFor(v, prefix, text string) (string, error) {
	shown := decode.TruncateDetail(v)
	if prefix != "" {
		if err := compileLogFormat(prefix, text); err != nil {
			return "", usagef("--log-format %q: not a valid %s log format: %v", shown, prefix, err)
		}
		return prefix, nil
	}
	nerr, eerr := nginx.CompileLogFormat(text), envoy.CompileLogFormat(text)
	switch {
	case nerr == nil && eerr == nil:
		return "", usagef("--log-format %q parses both as an nginx log_format and as an Envoy format: "+
			"name the one it is for (--log-format nginx=… or envoy=…)", shown)
	case nerr == nil:
		return "nginx", nil
	case eerr == nil:
		return "envoy", nil
	}
	return "", usagef("--log-format %q is neither an nginx log_format (%v) nor an Envoy format (%v)", shown, nerr, eerr)
}

package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/samples"
)

// caseBody returns a file body: the text itself, or a demo log (see
// qualityCase), with "|OLD>NEW" replaced or "|HEADn+BADm" cut to its first
// n lines followed by m lines of invalid JSON.
func caseBody(t *testing.T, body string) []byte {
	name, ok := strings.CutPrefix(body, "demo:")
	if !ok {
		return []byte(body)
	}
	name, edit, _ := strings.Cut(name, "|")
	b := demoFile(t, name)
	if old, repl, ok := strings.Cut(edit, ">"); ok {
		return bytes.ReplaceAll(b, []byte(old), []byte(repl))
	}
	var head, bad int
	if _, err := fmt.Sscanf(edit, "HEAD%d+BAD%d", &head, &bad); err == nil {
		lines := bytes.SplitAfter(b, []byte("\n"))[:head]
		out := bytes.Join(lines, nil)
		for range bad {
			out = append(out, "{not json\n"...)
		}
		return out
	}
	return b
}

// demoFile reads an embedded demo file, decompressed when it is gzip.
func demoFile(t *testing.T, name string) []byte {
	f, err := samples.Demo().Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

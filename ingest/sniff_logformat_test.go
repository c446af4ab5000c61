package ingest

import (
	"strings"
	"testing"
)

// TestChooseFormatByLogFormat: a log in a custom nginx log_format that no
// Sniff claims is read as nginx when --log-format nginx=… fits its lines,
// and stays unknown when the given format does not fit them.
func TestChooseFormatByLogFormat(t *testing.T) {
	const mainFormat = `log_format main '$remote_addr [$time_local] "$request" $status';`
	lines := "10.0.0.1 [23/Nov/2026:10:00:01 +0000] \"GET /v1/models HTTP/1.1\" 200\n" +
		"10.0.0.2 [23/Nov/2026:10:00:02 +0000] \"POST /v1/completions HTTP/1.1\" 200\n"
	opts := DriverOptions{Formats: Formats()}
	if f, err := chooseFormat(opts, []byte(lines)); err == nil {
		t.Fatalf("without --log-format the lines were claimed by %s", f.Name())
	}
	opts.LogFormats = map[string]string{"nginx": mainFormat}
	if f, err := chooseFormat(opts, []byte(lines)); err != nil || f.Name() != "nginx" {
		t.Fatalf("with --log-format nginx=main: %v, %v; want nginx", f, err)
	}
	// A head cut at SniffSize inside its last line is judged by its whole lines.
	long := strings.Repeat(lines, SniffSize/len(lines)+1)[:SniffSize]
	if f, err := chooseFormat(opts, []byte(long)); err != nil || f.Name() != "nginx" {
		t.Fatalf("cut head: %v, %v; want nginx", f, err)
	}
	// Lines the given format does not fit are not claimed by it.
	opts.LogFormats = map[string]string{"nginx": `log_format t '$msec $request_time $status';`}
	if f, err := chooseFormat(opts, []byte(lines)); err == nil {
		t.Fatalf("a log_format that does not fit claimed the lines as %s", f.Name())
	}
}

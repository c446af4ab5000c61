package haproxy

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// TestRejectColumns checks that a reject points at its offending field,
// columns counted by hand in the lines below.
func TestRejectColumns(t *testing.T) {
	in := "" +
		// "10.1.0.9:40005 [" is 16 bytes: the date starts at column 17.
		"10.1.0.9:40005 [32/Nov/2026:10:00:06.000] llm-in vllm/gpu-7 0/0/1/20/25 200 80 - - ---- 15/15/6/0/0 0/0 \"POST /v1/chat/completions HTTP/1.1\"\n" +
		// the date's 24 bytes and "] llm-in vllm/gpu-7 " (20) put the timers at 16+24+20+1 = 61.
		"10.1.0.9:40006 [23/Nov/2026:10:00:07.000] llm-in vllm/gpu-7 0/0/x/20/25 200 80 - - ---- 15/15/6/0/0 0/0 \"POST /v1/chat/completions HTTP/1.1\"\n" +
		// the timers' 11 bytes and a space put the status at 73.
		"10.1.0.9:40007 [23/Nov/2026:10:00:07.000] llm-in vllm/gpu-7 0/0/1/20/25 2x0 80 - - ---- 15/15/6/0/0 0/0 \"POST /v1/chat/completions HTTP/1.1\"\n" +
		// a line that fits nothing: its first non-blank byte, after 3 spaces.
		"   random garbage\n"
	decodetest.CheckRejectsAt(t, Format{}, decode.Options{}, in, "1:17", "2:61", "3:73", "4:4")
}

package har

import (
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decode"
)

// TestReviewHARHeaderFolded: a response id header whose name lowers to
// x-litellm-call-id through a non-ASCII letter (U+0130 lowers to 'i') is
// longer than 17 bytes; the general route matches it with strings.ToLower,
// so the fast path must too.
func TestReviewHARHeaderFolded(t *testing.T) {
	for _, name := range []string{"x-l\u0130tellm-call-id", "x-l\u0130tellm-call-\u0130d", "x-request-\u0130d", "X-REQUEST-\u0130D"} {
		e := `{"startedDateTime":"2024-05-01T10:00:00Z","time":5,"request":{"method":"POST","url":"http://h/v1/chat/completions","headers":[]},` +
			`"response":{"status":200,"headers":[{"name":` + harQuote(name) + `,"value":"abc"}],"content":{}},"timings":{"wait":1}}`
		harRoutes(t, harDoc(e), decode.Options{})
	}
}

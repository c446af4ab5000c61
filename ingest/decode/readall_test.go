package decode

import (
	"bytes"
	"io"
	"testing"
)

// TestReadAllSizedHints checks that a size hint that is right, too small,
// too large or absent reads the same bytes, and that a read error comes
// back with the bytes before it.
func TestReadAllSizedHints(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789"), 10000)
	for _, hint := range []int64{0, 1, int64(len(want)) - 1, int64(len(want)), int64(len(want)) + 1, 10 * int64(len(want))} {
		got, err := ReadAllSized(io.MultiReader(bytes.NewReader(want)), hint)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("hint %d: %v, %d bytes of %d", hint, err, len(got), len(want))
		}
	}
	bad := io.MultiReader(bytes.NewReader(want[:100]), ErrReader{io.ErrUnexpectedEOF})
	if got, err := ReadAllSized(bad, int64(len(want))); err != io.ErrUnexpectedEOF || !bytes.Equal(got, want[:100]) {
		t.Errorf("read error: %v after %d bytes", err, len(got))
	}
}

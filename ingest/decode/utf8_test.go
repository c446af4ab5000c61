package decode

import (
	"reflect"
	"testing"

	"github.com/ttftrace/ttftrace/schema"
)

// TestReplaceInvalidUTF8 checks the replacement by hand-written values and
// that a shared Attrs map is copied, not changed.
func TestReplaceInvalidUTF8(t *testing.T) {
	shared := map[string]string{"a\xff": "x", "b": "y\xc3"}
	ev := schema.Event{Endpoint: "/v1\xff/chat", Model: "m", OtherIDs: []string{"ok", "\xfe\xffid"}, Attrs: shared}
	ReplaceInvalidUTF8(&ev)
	ev.Attrs = ValidAttrs(ev.Attrs)
	want := schema.Event{Endpoint: "/v1\uFFFD/chat", Model: "m", OtherIDs: []string{"ok", "\uFFFDid"},
		Attrs: map[string]string{"a\uFFFD": "x", "b": "y\uFFFD"}}
	if !reflect.DeepEqual(ev, want) {
		t.Errorf("got %+v\nwant %+v", ev, want)
	}
	if _, ok := shared["a\xff"]; !ok || len(shared) != 2 {
		t.Errorf("shared attrs changed: %q", shared)
	}
	valid := schema.Event{Endpoint: "/é", Attrs: shared}
	ReplaceInvalidUTF8(&valid)
	if valid.Endpoint != "/é" {
		t.Errorf("valid text changed: %q", valid.Endpoint)
	}
}

package genaiperf

import (
	"bytes"

	gojson "github.com/goccy/go-json"
)

// The layouts other than OpenAI streams and bodies and Triton text outputs:
// TensorRT-LLM engine output_ids and HuggingFace generate bodies, and the
// check that a request's outputs are in some layout at all.

// gpCountIDs counts TensorRT-LLM output_ids: a list holds that many token
// ids, a number is one; anything else (null: an empty first or last
// response) holds none.
func gpCountIDs(v gojson.RawMessage) int32 {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) > 0 && v[0] == '[':
		var ids []gojson.RawMessage
		if gojson.Unmarshal(v, &ids) != nil {
			return 0
		}
		return int32(min(len(ids), 1<<30))
	case len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')):
		return 1
	}
	return 0
}

// generate accounts for one HuggingFace generate body read at tNs: a whole
// JSON array of {"generated_text": …}; one with text is a one-token chunk
// (GenAI-Perf times each such response as one). A body that is not one is
// rejected.
func (s *gpStream) generate(o gpOut, tNs int64) string {
	if !o.hasResp || len(bytes.TrimSpace(o.resp)) == 0 {
		return ""
	}
	var outs []struct {
		Text gojson.RawMessage `json:"generated_text"`
	}
	if gojson.Unmarshal(o.resp, &outs) != nil {
		return "bad generate response"
	}
	s.sawAny, s.done = true, true
	for _, g := range outs {
		if gpNonEmpty(g.Text) {
			s.offsets = append(s.offsets, tNs-s.start)
			s.tokens = append(s.tokens, 1)
			break
		}
	}
	return ""
}

// unreadableLayout returns why the request's responses cannot be read (no
// entry in a layout this decoder knows), or "".
func (s *gpStream) unreadableLayout() string {
	if s.mode == gpUnknown && !s.sawAny {
		return s.layout
	}
	return ""
}

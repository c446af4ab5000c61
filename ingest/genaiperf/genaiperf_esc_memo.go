package genaiperf

// Memos of the escaped reading. Consecutive events of a stream are nearly
// the same bytes: the same id, object, created and model, and usually the
// same choice around a different token text. Reading each anew was most of
// the route's time; these remember what an earlier event of the request
// (the same buffer) gave and reuse it when the bytes say it applies.

// gpEscHead remembers how an event began: its bytes up to its "choices" key
// and what facts reads from them. A stream's events differ only from there
// on ("id", "object", "created", "model" repeat), so the next event that
// begins with the same bytes skips them. The bytes compared run two past
// the header, through the \" that opens the key, so that the white space
// before it was skipped alike.
type gpEscHead struct {
	start, n int // the header is b[start:start+n]; n == 0: none
	f        gpFacts
	seen     int
}

// gpEscMinHead is the shortest header worth remembering.
const gpEscMinHead = 16

// keep remembers the header of the event at b[start:i], i being its
// "choices" key, after which facts f were read and keys seen.
func (h *gpEscHead) keep(start, i int, f *gpFacts, seen int) {
	if i-start >= gpEscMinHead {
		*h = gpEscHead{start: start, n: i - start, f: *f, seen: seen}
	}
}

// skip returns the index past the header of the event at b[start] when it
// is the remembered one, setting f and seen as facts would have; else start.
// f's byte slices then point into the earlier event, at the same bytes.
func (h *gpEscHead) skip(b []byte, start int, f *gpFacts, seen *int) int {
	n := h.n
	if n == 0 || start+n+2 > len(b) || string(b[start:start+n+2]) != string(b[h.start:h.start+n+2]) {
		return start
	}
	*f, *seen = h.f, h.seen
	return start + n
}

// gpEscTemplate remembers a whole event whose facts were read and one
// non-empty string in it that is a delta's or message's content (or
// reasoning or tool_calls value): the token text. An event that has the
// same bytes before that string, a non-empty valid string there, and the
// same bytes after it, has the same facts: facts reads both alike up to
// the string, a non-empty string there makes a token in both, and the rest
// reads alike again.
type gpEscTemplate struct {
	start, end int     // the event is b[start:end]; end == 0: none
	text       [2]int  // the string is b[text[0]:text[1]], its \" included
	f          gpFacts // the event's facts
	misses     int     // events in a row it did not match
}

// gpEscMaxMisses is how many events in a row a template may fail to match
// before the request's remaining events stop trying (in streams whose
// events all differ, e.g. by OpenAI's random "obfuscation" field, trying
// cost a tenth of the time).
const gpEscMaxMisses = 8

// keep remembers the event b[start:end] whose facts are f, when text (see
// gpEsc.text) marks a token string in it.
func (t *gpEscTemplate) keep(start, end int, text [2]int, f *gpFacts) {
	if text[1] > 0 && t.misses < gpEscMaxMisses {
		*t = gpEscTemplate{start: start, end: end, text: text, f: *f, misses: t.misses}
	}
}

// match returns the index past the event at b[start] and sets its facts
// when it reads as the remembered one does, else 0.
func (t *gpEscTemplate) match(e *gpEsc, start int, f *gpFacts) int {
	if t.end == 0 || t.misses >= gpEscMaxMisses {
		return 0
	}
	end := t.read(e, start)
	if end == 0 {
		t.misses++
		return 0
	}
	*f, t.misses = t.f, 0
	return end
}

// read returns the index past the event at b[start] when it reads as the
// remembered one does, else 0.
func (t *gpEscTemplate) read(e *gpEsc, start int) int {
	b := e.b
	open := start + t.text[0] - t.start // the token string's \" in this event
	if open+2 > len(b) || string(b[start:open+2]) != string(b[t.start:t.text[0]+2]) {
		return 0
	}
	close, _ := e.str(open)
	if close <= open+4 { // empty, or not read here (facts will say why)
		return 0
	}
	end := close + t.end - t.text[1]
	if end > len(b) || string(b[close:end]) != string(b[t.text[1]:t.end]) {
		return 0
	}
	return end
}

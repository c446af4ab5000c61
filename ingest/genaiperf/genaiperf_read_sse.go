package genaiperf

import (
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// response reads the "response" string at b[i], read at tNs, and accounts
// for it as gpStream.output does. A stream's SSE lines are read in their
// escaped form, except a line that an earlier response began (the first
// one) and whatever the escaped scan does not handle (from the line where
// it stopped): those are unescaped and fed to the stream.
func (q *gpQuick) response(b []byte, i int, tNs int64) int {
	s := &q.s
	switch {
	case i+1 >= len(b):
		return gpMore
	case b[i] != '"':
		return gpBail
	case b[i+1] == '"':
		return i + 2 // an empty read changes nothing
	case s.mode != gpSSE && (s.mode != gpUnknown || !gpSSEStart(b[i+1:])):
		return q.whole(b, i, tNs) // a body, or the first response that does not start as SSE
	}
	s.mode, s.sawAny = gpSSE, true
	from := i + 1
	if len(s.pending) > 0 {
		nl := q.skipLine(from)
		if nl < 0 {
			return q.general(b, from, nl, tNs)
		}
		if !q.feed(b[from:nl]) {
			return gpBail
		}
		from = nl
	}
	end := q.lines(b, from)
	if end < 0 {
		return q.general(b, q.lineStart, end, tNs)
	}
	s.flush(tNs)
	return end
}

// gpSSEStart reports whether escaped response text starts with an SSE
// field, as gpModeOf checks for the first response of a request.
func gpSSEStart(t []byte) bool {
	for _, field := range []string{"data:", ":", "event:", "id:", "retry:"} {
		if len(t) >= len(field) && string(t[:len(field)]) == field {
			return true
		}
	}
	return false
}

// whole accounts for the response string at b[i] by gpStream.output (a
// body, or the response that tells the shape).
func (q *gpQuick) whole(b []byte, i int, tNs int64) int {
	end, st := jsonwalk.StringEnd(b, i)
	switch st {
	case jsonwalk.More:
		return gpMore
	case jsonwalk.Bad:
		return gpBail
	}
	u, ok := jsonwalk.AppendUnescaped(q.unescaped[:0], b[i:end])
	q.unescaped = u
	if !ok || q.s.output(gpOut{resp: u, hasResp: true}, tNs) != "" {
		return gpBail // read unescaped: decoded or rejected there
	}
	return end
}

// general accounts for the rest of a stream's response string from b[from]
// (a line start) unescaped, after the escaped scan stopped there
// with status st (gpMore is passed on).
func (q *gpQuick) general(b []byte, from, st int, tNs int64) int {
	if st == gpMore {
		return gpMore
	}
	end, scan := jsonwalk.StringEnd(b, from-1) // b[from-1] ends a \n or is the opening '"'
	switch scan {
	case jsonwalk.More:
		return gpMore
	case jsonwalk.Bad:
		return gpBail
	}
	if !q.feed(b[from : end-1]) {
		return gpBail
	}
	q.s.flush(tNs)
	return end
}

// feed unescapes escaped SSE text (already validated) and feeds it to the
// stream; it reports false when the text needs the request read unescaped or
// holds an event that is rejected.
func (q *gpQuick) feed(text []byte) bool {
	u, ok := jsonwalk.AppendUnescapedText(q.unescaped[:0], text)
	q.unescaped = u
	if !ok {
		return false
	}
	q.s.feed(u)
	return !q.s.badEvent
}

// lines reads escaped SSE lines from b[i] to the closing '"' of the
// response string and returns the index past it; a line cut by the end of
// the string bails (the caller then unescapes the response).
func (q *gpQuick) lines(b []byte, i int) int {
	for {
		q.lineStart = i
		if i+1 >= len(b) {
			return gpMore
		}
		switch {
		case b[i] == '"':
			return i + 1
		case b[i] == '\\' && b[i+1] == 'n': // a blank line
			i += 2
			continue
		case len(b)-i >= 5 && string(b[i:i+5]) == "data:":
			i = q.data(i + 5)
		default:
			i = q.skipLine(i)
		}
		if i < 0 {
			return i
		}
	}
}

// data reads the rest of a "data:" line from b[i], after its field name,
// up to and including its \n.
func (q *gpQuick) data(i int) int {
	e, b := &q.esc, q.esc.b
	if i = e.ws(i); i+1 >= len(b) {
		return gpMore
	}
	var event bool
	switch {
	case b[i] == '{':
		i, event = e.facts(&q.facts, i), true
	case len(b)-i >= 6 && string(b[i:i+6]) == "[DONE]":
		i += 6
	case b[i] == '\\' && b[i+1] == 'n':
		return i + 2 // no data
	default:
		return gpBail
	}
	if i < 0 {
		return i
	}
	if i = e.ws(i); i+1 >= len(b) {
		return gpMore
	}
	if b[i] != '\\' || b[i+1] != 'n' {
		return gpBail // more after the value, or the line is cut
	}
	if event {
		q.s.chunk(&q.facts)
	} else {
		q.s.done = true
	}
	return i + 2
}

// skipLine skips an SSE line that is not a "data:" line (a comment, event,
// id or retry field) up to and including its \n, validating the string.
func (q *gpQuick) skipLine(i int) int {
	b, start := q.esc.b, i
	for {
		for i < len(b) && gpEscPlain[b[i]] {
			i++
		}
		if i+1 >= len(b) {
			return gpMore
		}
		switch c := b[i]; {
		case c >= 0x80:
			if i = gpEscRune(b, i); i < 0 {
				return i
			}
			continue
		case c != '\\':
			return gpBail // the line is cut by the end of the string
		}
		switch b[i+1] {
		case 'n':
			return i + 2
		case '"', '\\', '/', 'b', 'f', 't', 'r':
			i += 2
		case 'u':
			if i-start < 5 {
				return gpBail // it might spell "data:"
			}
			if i = gpEscUnicode(b, i); i < 0 {
				return i
			}
		default:
			return gpBail
		}
	}
}

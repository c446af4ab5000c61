package ingest

// response reads the "response" string at b[i], read at tNs, and accounts
// for it as gpStream.output does: by the escaped scan when it holds whole
// SSE lines of a stream, else unescaped through gpStream.output.
func (q *gpQuick) response(b []byte, i int, tNs int64) int {
	s := &q.s
	switch {
	case i+1 >= len(b):
		return gpMore
	case b[i] != '"':
		return gpBail
	case b[i+1] == '"':
		return i + 2 // an empty read changes nothing
	case len(s.pending) > 0 || (s.mode != gpSSE && !gpSSEStart(b[i+1:])):
		return q.general(b, i, tNs)
	}
	saved := *s
	s.mode, s.sawAny = gpSSE, true
	end := q.lines(b, i+1)
	switch end {
	case gpMore:
		return gpMore
	case gpBail:
		*s = saved
		return q.general(b, i, tNs)
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

// general accounts for the response string at b[i] the general way:
// unescaped, then fed to gpStream.output.
func (q *gpQuick) general(b []byte, i int, tNs int64) int {
	end, st := jsonStringEnd(b, i)
	switch st {
	case scanMore:
		return gpMore
	case scanBad:
		return gpBail
	}
	u, ok := jsonAppendUnescaped(q.unescaped[:0], b[i:end])
	q.unescaped = u
	if !ok || q.s.output(gpOut{resp: u, hasResp: true}, tNs) != "" {
		return gpBail // the general route decodes or rejects it
	}
	return end
}

// lines reads escaped SSE lines from b[i] to the closing '"' of the
// response string and returns the index past it; a line cut by the end of
// the string bails (the caller then unescapes the response).
func (q *gpQuick) lines(b []byte, i int) int {
	for {
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

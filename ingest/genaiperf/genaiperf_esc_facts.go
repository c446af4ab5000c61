package genaiperf

// facts reads the event object whose '{' is at b[i], in its escaped form,
// into f as decoding the unescaped event into gpChunk gives them
// (gpFacts.fromChunk), and returns the index past it. What it does not read
// exactly so (an error object, escaped or case-folded keys, a key named
// twice, a value of an unexpected type) bails: the response is then
// unescaped and its events decoded into gpChunk (gpStream.decodeChunk).
func (e *gpEsc) facts(f *gpFacts, i int) int {
	start, seen := i, 0
	if end := e.tmpl.match(e, start, f); end > 0 {
		return end
	}
	e.text = [2]int{}
	i = e.head.skip(e.b, start, f, &seen)
	known := i > start
	if !known {
		*f = gpFacts{}
		var empty bool
		if i, empty = e.open(i, '{', '}'); i < 0 || empty {
			return i
		}
	}
	for {
		key, j := e.key(i)
		if j < 0 {
			return j
		}
		k, ok := gpEscKey(key, gpChunkKeys)
		if !ok || (k >= 0 && seen&(1<<k) != 0) {
			return gpBail
		}
		if k == 3 && !known {
			e.head.keep(start, i, f, seen)
		}
		if k >= 0 {
			seen |= 1 << k
		}
		if i = e.member(f, k, j); i < 0 {
			return i
		}
		var more bool
		if i, more = e.next(i, '}'); !more {
			if i > 0 {
				e.tmpl.keep(start, i, e.text, f)
			}
			return i
		}
	}
}

// member reads the value at b[j] of gpChunkKeys[k] (k < 0: another key).
func (e *gpEsc) member(f *gpFacts, k, j int) int {
	switch k {
	case 0, 1, 2: // id, object, model
		s, end := e.verbatim(j)
		if end < 0 {
			return end
		}
		if k == 1 && string(s) == "error" {
			return gpBail
		}
		*[]*[]byte{&f.id, &f.object, &f.model}[k] = s
		return end
	case 3: // choices
		return e.array(j, func(i int) int { return e.choice(f, i) })
	case 4: // usage
		if e.null(j) {
			return j + 4
		}
		return e.usage(f, j)
	case 5: // error: only null is read here; an error object bails
		if e.null(j) {
			return j + 4
		}
		return gpBail
	case 6: // type
		if !e.quote(j) {
			return gpBail
		}
	}
	return e.skip(j)
}

// null reports whether the literal null is at b[j].
func (e *gpEsc) null(j int) bool {
	return j+4 <= len(e.b) && string(e.b[j:j+4]) == "null"
}

// quote reports whether the \" that opens an event string is at b[j]
// (or the buffer ends there, which the caller's scan then reports).
func (e *gpEsc) quote(j int) bool {
	return j+1 >= len(e.b) || (e.b[j] == '\\' && e.b[j+1] == '"')
}

// verbatim reads the string at b[j], which must hold no escapes, and
// returns its contents.
func (e *gpEsc) verbatim(j int) ([]byte, int) {
	if !e.quote(j) {
		return nil, gpBail
	}
	end, plain := e.str(j)
	if end >= 0 && !plain {
		return nil, gpBail
	}
	if end < 0 {
		return nil, end
	}
	return e.b[j+2 : end-2], end
}

// array walks the array at b[i], calling elem for each element; elem
// returns the index past the element.
func (e *gpEsc) array(i int, elem func(i int) int) int {
	i, empty := e.open(i, '[', ']')
	if i < 0 || empty {
		return i
	}
	for {
		if i = elem(i); i < 0 {
			return i
		}
		var more bool
		if i, more = e.next(i, ']'); !more {
			return i
		}
	}
}

// choice reads one element of "choices" at b[i], as gpFacts.choice does.
func (e *gpEsc) choice(f *gpFacts, i int) int {
	return e.object(i, gpChoiceKeys, func(k, j int) int { return e.choiceMember(f, k, j) })
}

// choiceMember reads the value at b[j] of gpChoiceKeys[k] (k < 0: another key).
func (e *gpEsc) choiceMember(f *gpFacts, k, j int) int {
	switch {
	case k < 0:
		return e.skip(j)
	case e.null(j):
		return j + 4
	case k <= 1: // delta, message
		return e.message(f, j)
	case k == 2: // text: a string, escapes allowed
		if !e.quote(j) {
			return gpBail
		}
		end, _ := e.str(j)
		f.token = f.token || end > j+4
		return end
	}
	s, end := e.verbatim(j) // finish_reason: a string without escapes
	f.finished = f.finished || (end >= 0 && len(s) > 0)
	return end
}

// message reads a delta or message object at b[i], as gpFacts.message does.
func (e *gpEsc) message(f *gpFacts, i int) int {
	return e.object(i, gpMessageKeys, func(k, j int) int {
		i := e.skip(j)
		if k >= 0 && i >= 0 {
			f.token = f.token || gpEscNonEmpty(e.b[j:i])
			if i-j > 4 && e.b[j] == '\\' {
				e.text = [2]int{j, i} // a non-empty string: see gpEscTemplate
			}
		}
		return i
	})
}

// gpEscNonEmpty is gpNonEmpty for an escaped value (no white space around it).
func gpEscNonEmpty(v []byte) bool {
	switch string(v) {
	case "null", `\"\"`, "[]", "{}":
		return false
	}
	return true
}

// usage reads the usage object at b[i], as gpFacts.usage does.
func (e *gpEsc) usage(f *gpFacts, i int) int {
	return e.object(i, gpUsageKeys, func(k, j int) int {
		switch {
		case k < 0:
			return e.skip(j)
		case e.null(j):
			return j + 4
		}
		n, i := e.int(j)
		if k == 0 {
			f.usageIn, f.hasIn = n, true
		} else {
			f.usageOut, f.hasOut = n, true
		}
		return i
	})
}

// object walks the escaped object at b[i] and returns the index past it:
// for each member, k is the key's index in keys (−1 for another key; a
// listed key seen twice bails), and member reads the value at b[j] and
// returns the index past it (negative to stop).
func (e *gpEsc) object(i int, keys []string, member func(k, j int) int) int {
	i, empty := e.open(i, '{', '}')
	if i < 0 || empty {
		return i
	}
	for seen := 0; ; {
		key, j := e.key(i)
		if j < 0 {
			return j
		}
		k, ok := gpEscKey(key, keys)
		if !ok || (k >= 0 && seen&(1<<k) != 0) {
			return gpBail
		}
		if k >= 0 {
			seen |= 1 << k
		}
		if i = member(k, j); i < 0 {
			return i
		}
		var more bool
		if i, more = e.next(i, '}'); !more {
			return i
		}
	}
}

// gpUsageKeys are the keys of a usage block that the escaped reading reads.
var gpUsageKeys = []string{"prompt_tokens", "completion_tokens"}

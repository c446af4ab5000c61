package jsonwalk

import "encoding/json"

// SkipAt validates the JSON value at b[j] (after optional white space),
// which sits inside depth enclosing objects or arrays, and returns the
// index just past it, or -1 when it is not JSON or when encoding/json
// would refuse the document it is in as nested too deep (more than
// MaxDepth objects and arrays open at once, the enclosing ones included).
// Unlike WalkSkip it takes values of any depth encoding/json takes. stack
// is the scanner's scratch.
func SkipAt(b []byte, j, depth int, stack *[]byte) int {
	j = SkipWS(b, j)
	if j < len(b) && b[j] != '{' && b[j] != '[' { // a scalar, without the scanner's set-up
		return skipScalar(b, j)
	}
	end, st, grown := ValueEnd(b, j, *stack)
	*stack = grown[:0]
	if cap(grown) > WalkMaxDepth {
		*stack = nil // let a deep record's scratch go
	}
	if st != OK {
		return -1
	}
	// A value nesting k deep is 2k bytes or more: a short one cannot reach
	// the limit; a long one is checked where it sits, by encoding/json.
	if (end-j)/2 <= MaxDepth-depth {
		return end
	}
	wrapped := make([]byte, 0, end-j+2*depth)
	for range depth {
		wrapped = append(wrapped, '[')
	}
	wrapped = append(wrapped, b[j:end]...)
	for range depth {
		wrapped = append(wrapped, ']')
	}
	if !json.Valid(wrapped) {
		return -1
	}
	return end
}

// skipScalar validates the string, number or literal at b[j] (no white
// space before it) as ValueEnd would and returns the index just past it,
// or -1.
func skipScalar(b []byte, j int) int {
	end, st := 0, Bad
	switch c := b[j]; {
	case c == '"':
		end, st = StringEndSWAR(b, j)
	case c == '-' || c >= '0' && c <= '9':
		end, st = NumberEnd(b, j)
	default:
		end, st = LiteralEnd(b, j)
	}
	return EndIf(st == OK, end)
}

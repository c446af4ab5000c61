package har

import (
	"github.com/ttftrace/ttftrace/internal/jsonwalk"
)

// harSkip is jsonwalk.WalkSkip with the usual scalars and empty containers read
// here, without jsonwalk.ValueEnd's set-up.
func harSkip(b []byte, j int, stack *[]byte) int {
	switch c := b[j]; {
	case c == '"':
		end, _, _ := harStringEnd(b, j)
		return end
	case c == '-' || c >= '0' && c <= '9':
		end, st := jsonwalk.NumberEnd(b, j)
		if st != jsonwalk.OK {
			return -1
		}
		return end
	case c == 't':
		return jsonwalk.WalkLiteral(b, j, "true")
	case c == 'f':
		return jsonwalk.WalkLiteral(b, j, "false")
	case c == 'n':
		return jsonwalk.WalkLiteral(b, j, "null")
	case c == '[' || c == '{':
		if k := jsonwalk.SkipWS(b, j+1); k < len(b) && b[k] == c+2 { // ']' and '}' follow '[' and '{' by two
			return k + 1
		}
	}
	return jsonwalk.WalkSkip(b, j, stack)
}

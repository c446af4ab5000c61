package decode

import "strconv"

// DecimalTexts hands out the decimal texts of a sequence of integers, 256
// at a time cut from one string, so that each text does not take an
// allocation of its own. Vllm-bench's request indexes and Triton's trace
// ids use it.
type DecimalTexts struct {
	base int        // the position of the first text in text
	n    int        // how many texts text holds
	text string     // the texts of positions base… one after the other
	ends [256]int32 // where each ends in text
}

// get returns the decimal text of value(k), for positions k < count that
// come in increasing order.
func (x *DecimalTexts) Get(k, count int, value func(int) int64) string {
	if x.text == "" || k < x.base || k >= x.base+x.n {
		x.base = k
		x.n = min(len(x.ends), count-k)
		var b []byte
		for i := range x.n {
			b = strconv.AppendInt(b, value(k+i), 10)
			x.ends[i] = int32(len(b))
		}
		x.text = string(b)
	}
	i := k - x.base
	lo := int32(0)
	if i > 0 {
		lo = x.ends[i-1]
	}
	return x.text[lo:x.ends[i]]
}

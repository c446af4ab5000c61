package triton

// A trace's timestamp values, kept by name.

// tritonNamed is the values of one timestamp name of a trace.
type tritonNamed struct {
	name string
	vals []int64
}

// values returns the values of the timestamp name.
func (tr *tritonTrace) values(name string) []int64 {
	for i := range tr.stamps {
		if tr.stamps[i].name == name {
			return tr.stamps[i].vals
		}
	}
	return nil
}

// add appends ns to the values of name. With an arena (nil: values are
// allocated alone) a name's values are cut from its chunks: one at first,
// moved to room for twice as many when they outgrow it.
func (tr *tritonTrace) add(name string, ns int64, arena *[]int64) {
	for i := range tr.stamps {
		if st := &tr.stamps[i]; st.name == name {
			if arena != nil && len(st.vals) == cap(st.vals) {
				st.vals = tritonCut(arena, st.vals, 2*len(st.vals))
			}
			st.vals = append(st.vals, ns)
			return
		}
	}
	if arena == nil {
		tr.stamps = append(tr.stamps, tritonNamed{name, []int64{ns}})
		return
	}
	vals := append(tritonCut(arena, nil, 1), ns)
	tr.stamps = append(tr.stamps, tritonNamed{name, vals})
}

// tritonCut returns an empty slice with room for n values, holding a copy
// of vals, cut from the chunk *arena.
func tritonCut(arena *[]int64, vals []int64, n int) []int64 {
	n = max(n, len(vals))
	if cap(*arena)-len(*arena) < n {
		*arena = make([]int64, 0, max(4096, n))
	}
	lo := len(*arena)
	*arena = append(*arena, vals...)
	*arena = (*arena)[:lo+n]
	return (*arena)[lo : lo+len(vals) : lo+n]
}

package reconcile

// The network parts of the TTFT breakdown depend on the clock offsets,
// which the joins bound but do not fix: the estimate is the middle of each
// offset's interval, i.e. equal delays both ways. This file gives the
// interval each part's band mean may lie in for offsets anywhere in their
// intervals.

// splitSlack returns how far client→proxy, proxy→server and the return
// path may move down ([k][0]) and up ([k][1]), ns, when each host pair's
// offset lies anywhere the joins allow instead of where the estimates put
// it. hosts are the client's, proxy's and server's (indices into
// ck.host). A part y − x (instants of hosts y and x, each less its shift)
// moves by applied − θ, where applied = shift(y) − shift(x) and θ =
// clock(y) − clock(x) lies in offsetInterval: down by high − applied, up
// by applied − low (each at least 0, so the estimate is always inside).
func splitSlack(ck *clocks, hosts [3]int32) [3][2]int64 {
	const client, proxy, server = 0, 1, 2
	part := func(x, y, via int32) [2]int64 {
		lo, hi := offsetInterval(ck, x, y, via)
		applied := float64(ck.host[y].shift() - ck.host[x].shift())
		return [2]int64{int64(max(hi-applied, 0)), int64(max(applied-lo, 0))}
	}
	return [3][2]int64{
		part(hosts[client], hosts[proxy], -1),
		part(hosts[proxy], hosts[server], -1),
		part(hosts[server], hosts[client], hosts[proxy]),
	}
}

// offsetInterval returns the interval [low, high] of θ = clock(y) −
// clock(x), ns, that the joins allow: the pair's own when it was measured
// directly; else composed through via (x–via and via–y both measured,
// via ≥ 0); else through the hosts' intervals from their reference clock,
// which is never narrower.
func offsetInterval(ck *clocks, x, y, via int32) (low, high float64) {
	if e, ok := ck.direct(x, y); ok {
		return e.low, e.high
	}
	if via >= 0 {
		a, aok := ck.direct(x, via)
		b, bok := ck.direct(via, y)
		if aok && bok {
			return a.low + b.low, a.high + b.high
		}
	}
	hx, hy := &ck.host[x], &ck.host[y]
	return hy.low - hx.high, hy.high - hx.low
}

// splitTable holds the distinct slacks of splitSlack, one per triple of
// client, proxy and server hosts, computed once each: a request keeps a
// 4-byte reference to its triple's.
type splitTable struct {
	byHosts map[uint64]int32 // the three host indices, 21 bits each
	values  [][3][2]int64
}

// ref returns the reference (index + 1) of the slacks of hosts, computing
// them on first use.
func (t *splitTable) ref(ck *clocks, hosts [3]int32) int32 {
	for _, h := range hosts {
		if h < 0 || h >= 1<<21 { // beyond the key's bits: not shared
			t.values = append(t.values, splitSlack(ck, hosts))
			return int32(len(t.values))
		}
	}
	key := uint64(hosts[0])<<42 | uint64(hosts[1])<<21 | uint64(hosts[2])
	if k, ok := t.byHosts[key]; ok {
		return k
	}
	if t.byHosts == nil {
		t.byHosts = map[uint64]int32{}
	}
	t.values = append(t.values, splitSlack(ck, hosts))
	k := int32(len(t.values))
	t.byHosts[key] = k
	return k
}

// setRanges sets the network parts' ranges of band, the mean of rows: each
// part's mean less and plus the mean of its requests' slacks. A row
// without slacks (split 0) counts as none.
func (t *splitTable) setRanges(band *BreakdownBand, rows []breakdownParts) {
	var sum [3][2]int64
	for _, q := range rows {
		if q.split == 0 {
			continue
		}
		v := &t.values[q.split-1]
		for k := range sum {
			sum[k][0] += v[k][0]
			sum[k][1] += v[k][1]
		}
	}
	n := float64(len(rows)) * 1e6
	rng := func(mean float64, s [2]int64) RangeMs {
		return RangeMs{LowMs: mean - float64(s[0])/n, HighMs: mean + float64(s[1])/n}
	}
	band.ClientToProxyRangeMs = rng(band.ClientToProxyMs, sum[0])
	band.ProxyToServerRangeMs = rng(band.ProxyToServerMs, sum[1])
	band.ReturnPathRangeMs = rng(band.ReturnPathMs, sum[2])
}

package reconcile

// joinChains joins client C to proxy P (method JoinChain) where C was
// joined to server S directly, S was joined inside P by any method, P has
// no client yet, and C ⊃ P fits on corrected clocks with compatible
// attributes (fit, as for a time join). A GenAI-Perf client, whose response
// id only the server logs, so reaches the proxy that logged no id for it.
func (r *reconciler) joinChains(ck *clocks) {
	cp := r.cp
	for c, s := range r.cs.outerTo {
		if s < 0 || cp.outerTo[c] >= 0 {
			continue
		}
		pr := r.ps.innerTo[s]
		if pr < 0 || !cp.free(int32(c), pr) {
			continue
		}
		o, ok := chainCand(cp.outer, ck, int32(c))
		in, ok2 := chainCand(cp.inner, ck, pr)
		if !ok || !ok2 {
			continue
		}
		if _, fits := r.fit(cp, ck, &o, &in); fits {
			cp.join(int32(c), pr, JoinChain)
		}
	}
}

// chainCand returns observation k of s as a time candidate, and false when
// it lacks a start or an end.
func chainCand(s *obsSource, ck *clocks, k int32) (timeCand, bool) {
	cands := timeCandsOf(s, ck, k, k+1, func(int32) bool { return true })
	if len(cands) == 0 {
		return timeCand{}, false
	}
	return cands[0], true
}

// releaseShadowedServers undoes each proxy ⊃ server join whose server a
// client holds directly while the proxy is not joined to that client (its
// chain join failed, or it holds another client): the client's direct join
// (by trace, id or time) keeps the server, the proxy is left without one,
// so no server is in two requests. It runs once, after the last round of
// joins, so that chain joins may still use the proxy's join.
func (r *reconciler) releaseShadowedServers() {
	ps := r.ps
	for o, s := range ps.outerTo {
		if s < 0 {
			continue
		}
		if c := r.cs.innerTo[s]; c >= 0 && r.cp.innerTo[o] != c {
			ps.outerTo[o], ps.innerTo[s], ps.method[o] = -1, -1, 0
		}
	}
}

package crosscheck

import "github.com/ttftrace/ttftrace/schema"

func i64(v int64) *int64 { return &v }
func i32(v int32) *int32 { return &v }
func yes() *bool         { v := true; return &v }
func no() *bool          { v := false; return &v }

// t0 is 2026-11-23T10:00:00Z in ns.
const t0 = int64(1795428000) * 1e9

// edgeEvents are hand-made events that take every branch of the metric
// definitions: first/last token from the chunk offsets, output tokens from
// chunk_tokens (clamped at 0) or the chunk count, chunk_tokens that do not
// list every chunk (k = 1), zero, negative and over-cap (65536) chunk token
// counts, events without a start, server phases, and every failure class.
func edgeEvents() []schema.Event {
	ms := func(v float64) int64 { return int64(v * 1e6) }
	ev := func(src string, i int64) schema.Event {
		return schema.Event{Source: src, Format: "edge", Host: src + "-edge", Clock: schema.ClockWall,
			StartNs: i64(t0 + i*1e9), InputFile: "edge", InputLine: i}
	}
	var out []schema.Event
	// 1: first and last token from the chunks; tokens 1+3+0 = 4 from chunk_tokens.
	e := ev("client", 1)
	e.Status, e.Completed = i32(200), yes()
	e.ChunkOffsetsNs, e.ChunkTokens = []int64{ms(100), ms(150), ms(400)}, []int32{1, 3, 0}
	out = append(out, e)
	// 2: chunk_tokens shorter than the chunks: k = 1 per gap, tokens = 2.
	e = ev("client", 2)
	e.ChunkOffsetsNs, e.ChunkTokens = []int64{ms(80), ms(90), ms(130)}, []int32{2}
	e.EndNs = i64(*e.StartNs + ms(140))
	out = append(out, e)
	// 3: no chunk_tokens: tokens = 4 chunks; last_token logged beats the chunks.
	e = ev("client", 3)
	e.ChunkOffsetsNs = []int64{ms(50), ms(70), ms(95), ms(121)}
	e.LastTokenNs = i64(*e.StartNs + ms(125))
	out = append(out, e)
	// 4: negative output_tokens count as 0 (no tpot); negative chunk token k = 1.
	e = ev("client", 4)
	e.OutputTokens = i64(-5)
	e.ChunkOffsetsNs, e.ChunkTokens = []int64{ms(60), ms(61.5)}, []int32{1, -2}
	out = append(out, e)
	// 7: a negative chunk token count adds 0 to the output tokens: 3+0+1 = 4,
	// so tpot = (200 − 50) / (4 − 1) = 50 ms (150 ms without the clamp).
	e = ev("client", 7)
	e.ChunkOffsetsNs, e.ChunkTokens = []int64{ms(50), ms(100), ms(200)}, []int32{3, -2, 1}
	out = append(out, e)
	// 5: no start: only itl and chunk_gap samples.
	e = ev("client", 5)
	e.StartNs = nil
	e.ChunkOffsetsNs = []int64{ms(10), ms(33)}
	out = append(out, e)
	// 6: headers only.
	e = ev("proxy", 6)
	e.HeadersNs, e.EndNs = i64(*e.StartNs+ms(42.25)), i64(*e.StartNs+ms(900))
	out = append(out, e)
	out = append(out, serverEdges(ms)...)
	return append(out, failures()...)
}

// serverEdges are server events with phases, one whose chunk carries more
// tokens than the 65536 cap, and one with last before first (tpot < 0: no
// tps_user).
func serverEdges(ms func(float64) int64) []schema.Event {
	var out []schema.Event
	for i := range int64(3) {
		e := schema.Event{Source: "server", Format: "edge", Host: "gpu-edge", Clock: schema.ClockWall,
			StartNs: i64(t0 + (10+i)*1e9), InputFile: "edge", InputLine: 10 + i,
			QueueNs: i64(ms(float64(3 + i))), PrefillNs: i64(ms(40.5 + float64(i))), DecodeNs: i64(ms(700)),
			OutputTokens: i64(50 + i), Completed: yes()}
		e.FirstTokenNs = i64(*e.StartNs + ms(45))
		e.LastTokenNs = i64(*e.StartNs + ms(745))
		out = append(out, e)
	}
	out[1].ChunkOffsetsNs, out[1].ChunkTokens = []int64{ms(45), ms(745)}, []int32{1, 70000}
	out[2].LastTokenNs = i64(*out[2].StartNs + ms(20))
	return out
}

// failures are one event per failure class: the error class as logged,
// then the classes derived from completed and the status.
func failures() []schema.Event {
	cases := []struct {
		status    *int32
		completed *bool
		err       string
	}{
		{i32(200), nil, schema.ErrorTimeout}, {i32(200), no(), ""}, {nil, no(), ""},
		{i32(429), nil, ""}, {i32(408), nil, ""}, {i32(504), nil, ""}, {i32(499), nil, ""},
		{i32(404), nil, ""}, {i32(503), nil, ""}, {i32(302), nil, ""}, {i32(500), no(), ""},
	}
	var out []schema.Event
	for i, c := range cases {
		out = append(out, schema.Event{Source: "client", Format: "edge", Host: "client-edge",
			Clock: schema.ClockWall, StartNs: i64(t0 + int64(20+i)*1e9), EndNs: i64(t0 + int64(20+i)*1e9 + 5e8),
			Status: c.status, Completed: c.completed, Error: c.err, InputFile: "edge", InputLine: int64(20 + i)})
	}
	return out
}

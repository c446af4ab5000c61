package analyze

// ttftDeltaDef names the client − server TTFT distribution: both TTFTs span
// start → first_token, each on its own observer's clock.
var ttftDeltaDef = metricDef{name: "ttft_delta", unit: "ms", from: "start", to: "first_token"}

// deltaMetric returns the statistics of xs (sorting it) as the client −
// server TTFT Metric, with the same percentiles and 95% intervals as every
// other metric; nil for no samples.
func deltaMetric(xs []float64) *Metric {
	s, ok := summarize(xs)
	if !ok {
		return nil
	}
	m := newMetric("client-server", ttftDeltaDef, map[string]string{}, s)
	return &m
}

package analyze

import "testing"

// TestDescribe checks the type-7 percentiles against numpy: for [1, 2, 3, 4],
// p90 has h = 3·0.9 = 2.7, so 3 + 0.7·(4 − 3) = 3.7; p50 is 2.5; the mean is
// 2.5 and the population variance (2.25+0.25+0.25+2.25)/4 = 1.25.
func TestDescribe(t *testing.T) {
	m := deltaMetric([]float64{4, 1, 3, 2})
	if m.Count != 4 || !near(m.Mean, 2.5) || !near(m.Std*m.Std, 1.25) || m.Min != 1 || m.Max != 4 || m.Metric != "ttft_delta" ||
		!near(m.P50, 2.5) || !near(m.P90, 3.7) || !near(m.P999, 3.997) {
		t.Errorf("describe = %+v", m)
	}
	if one := deltaMetric([]float64{7}); one.P99 != 7 || one.Std != 0 {
		t.Errorf("one sample: %+v", one)
	}
	if deltaMetric(nil) != nil {
		t.Error("no samples should give nil")
	}
}

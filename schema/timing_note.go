package schema

// TimingNote says why an input's successful records may be in no latency
// figure (no start instant, or no instant after it) and what to do, as the
// input's format declared it for the log format the input was read with:
// an nginx log_format without $request_time, an Envoy format without
// %DURATION%. Analysis words its warning with it and never with the
// format's name.
type TimingNote struct {
	// Lack is a clause with its own subject saying what the records or
	// their log format lack, naming what the log format has when it is the
	// cause ("combined has no $request_time, so its lines give no start
	// instant (its variables: $remote_addr …)").
	Lack string `json:"lack"`
	// Fix says what to give or change instead ("give `--log-format
	// nginx=@FILE` …").
	Fix string `json:"fix"`
}

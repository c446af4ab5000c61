package dataset

import "github.com/ttftrace/ttftrace/schema"

// fillTimingNotes gives each input read from a commit log or manifest
// written before formats declared their timing notes (InputStats without
// timing_note) of a format that declares one now, a note that holds
// whatever log format the input was read with (the log did not record it),
// so that analyze's warning of records in no latency figure still says
// what to do. New inputs of these formats always carry their own; this
// table is frozen and never grows with new formats. Inputs of formats
// that declare no note keep none (analyze words a general one).
func fillTimingNotes(inputs []schema.InputStats) {
	for k := range inputs {
		if inputs[k].TimingNote != nil {
			continue
		}
		if n, ok := legacyTimingNotes[inputs[k].Format]; ok {
			inputs[k].TimingNote = &n
		}
	}
}

// legacyTimingNotes are the notes of old commit logs' inputs, by format.
var legacyTimingNotes = map[string]schema.TimingNote{
	"nginx": {Lack: "the log_format they were read with has no $request_time (or their $request_time is \"-\"), so they have no start instant",
		Fix: "give `--log-format nginx=@FILE` with the log_format line that wrote this log and ingest it into a new dataset; " +
			"if that log_format has no $request_time, add $request_time $msec to it in nginx.conf"},
	"envoy": {Lack: "the format they were read with has no %START_TIME% or no %DURATION%, %RESPONSE_DURATION% or %COMMON_DURATION(DS_RX_BEG:…)% (or their durations are \"-\")",
		Fix: "give `--log-format envoy=@FILE` with the format that wrote this log and ingest it into a new dataset; " +
			"if that format lacks them, add %START_TIME% %DURATION% to it in Envoy's access log configuration"},
	"haproxy": {Lack: "their timers give no instant after the start (Ta is -1 or logged early as `+Ta`, and Tr is -1)",
		Fix: "log with `option httplog` and without `option logasap`"},
	"jsonl": {Lack: "they have no start instant or no instant after it",
		Fix: "map an instant after the start in `--map` (end, first_token, headers or last_token) and check the records hold the mapped fields"},
}

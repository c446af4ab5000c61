package nginx

import (
	"strings"

	"github.com/ttftrace/ttftrace/ingest/decode"
	"github.com/ttftrace/ttftrace/schema"
)

// TimingNote says, for the log_format of opts (combined when none is
// given), why a successful line may be in no latency figure and what to
// give instead. A log_format without $request_time gives no start instant
// on any line: the note names it (log_format "main" when the user pasted
// the directive) and its variables (MissingTiming), and asks for the
// log_format that wrote the log when none was given, or for
// $request_time (and $msec, for ms instead of s) in nginx.conf. With
// $request_time only a line whose $request_time is "-" has no start.
func (Format) TimingNote(opts decode.Options) schema.TimingNote {
	lack, err := MissingTiming(opts.LogFormat)
	if err != nil || lack == "" {
		return schema.TimingNote{Lack: `their $request_time is "-", so they have no start instant`,
			Fix: "nginx logged no duration for them: nothing to give"}
	}
	add := "$request_time"
	if !logsVariable(opts.LogFormat, "msec") {
		add += " $msec"
	}
	if formats, _ := nginxFormats(opts.LogFormat); len(formats) > 1 { // the default, combined
		return schema.TimingNote{Lack: lack, Fix: "give `--log-format nginx=@FILE` with the log_format line that wrote this log; " +
			"if it is combined, add " + add + " to the log_format in nginx.conf (the lines already written have no timing)"}
	}
	if name := nginxFormatName(opts.LogFormat); name != "" {
		lack = strings.Replace(lack, "the log_format", `log_format "`+name+`"`, 1)
	}
	return schema.TimingNote{Lack: lack, Fix: "add " + add + " to that log_format in nginx.conf (the lines already written have no timing), " +
		"or give `--log-format nginx=@FILE` with the log_format line that wrote this log"}
}

// nginxFormatName returns the name of a log_format given as the
// nginx.conf directive (`log_format main '…';` → main), or "".
func nginxFormatName(spec string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(spec), "log_format")
	if !ok || rest == "" || rest[0] != ' ' && rest[0] != '\t' {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

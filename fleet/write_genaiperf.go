package fleet

import (
	"io"
	"strconv"
)

// writeGenAIPerf writes h's requests as one GenAI-Perf profile export
// document: per request the send timestamp, every response's timestamp and
// the raw SSE text of each response (role chunk, one content chunk per token,
// then finish, usage and [DONE] together). One content event in 40 is split
// across two responses, as HTTP chunking does.
func (f *Fleet) writeGenAIPerf(w io.Writer, h *Host) error {
	if _, err := io.WriteString(w, `{"experiments":[{"experiment":{"mode":"concurrency","value":8},"requests":[`); err != nil {
		return err
	}
	b := make([]byte, 0, 256<<10)
	for i, r := range f.Logged(h) {
		b = b[:0]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n"+`{"timestamp":`...)
		b = strconv.AppendInt(b, r.ClientStart+h.OffsetNs, 10)
		b = append(b, `,"request_inputs":{"payload":"{\"model\":\"`...)
		b = append(b, r.Model...)
		b = append(b, `\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":2048}"},"response_timestamps":[`...)
		ts, texts := genaiResponses(r, h.OffsetNs)
		for j, t := range ts {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, t, 10)
		}
		b = append(b, `],"response_outputs":[`...)
		for j, s := range texts {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"response":`...)
			b = strconv.AppendQuote(b, s)
			b = append(b, '}')
		}
		b = append(b, "]}"...)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n"+`],"window_boundaries":[]}],"version":"0.0.8","service_kind":"openai","endpoint":"v1/chat/completions"}`+"\n")
	return err
}

// genaiResponses returns the responses of r as GenAI-Perf records them: the
// instant (on the client's clock) and raw SSE text of each.
func genaiResponses(r *Request, offset int64) ([]int64, []string) {
	if r.Status != 200 {
		return []int64{r.ClientEnd + offset}, []string{`{"error":{"message":"rate limited","type":"rate_limit_error","code":` + strconv.Itoa(r.Status) + `}}`}
	}
	id, model := r.ServerID, r.Model
	head := `data: {"id":"` + id + `","object":"chat.completion.chunk","created":1763892000,"model":"` + model + `","choices":[`
	ts := []int64{r.ClientHeaders + offset}
	texts := []string{head + `{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}` + "\n\n"}
	for k, t := range r.ClientChunkTimes() {
		ev := head + `{"index":0,"delta":{"content":" tok` + strconv.Itoa(k%97) + `"},"logprobs":null,"finish_reason":null}]}` + "\n\n"
		if k%40 == 39 {
			half, prev := len(ev)/2, ts[len(ts)-1]-offset
			ts = append(ts, t+offset-min(100_000, (t-prev)/2), t+offset)
			texts = append(texts, ev[:half], ev[half:])
			continue
		}
		ts = append(ts, t+offset)
		texts = append(texts, ev)
	}
	if r.ErrorClass != "" {
		return ts, texts
	}
	tail := head + `{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}` + "\n\n" +
		`data: {"id":"` + id + `","object":"chat.completion.chunk","created":1763892000,"model":"` + model +
		`","choices":[],"usage":{"prompt_tokens":` + strconv.Itoa(r.PromptTokens) + `,"completion_tokens":` +
		strconv.Itoa(r.OutputTokens) + `,"total_tokens":` + strconv.Itoa(r.PromptTokens+r.OutputTokens) + "}}\n\ndata: [DONE]\n\n"
	return append(ts, r.ClientEnd+offset), append(texts, tail)
}

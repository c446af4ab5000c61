package litellm

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// litellmEdges are inputs at the edges of the format: records in lines or
// pretty-printed, and arrays broken at a syntax error or the end. What the
// decoder must report for each is in testdata/edges/edges.golden, written
// by the route this decoder replaced (each record unmarshalled by
// encoding/json into litellmRecord), which the one route was fuzzed against
// before that route was deleted.
var litellmEdges = []string{
	`{"id":"a","startTime":1795428000.5,"endTime":1795428001}`,
	` { "id" : "a\u00e9\"\\\/" , "startTime" : 1795428000.5 , "endTime" : 1795428001 } `,
	`{"id":"a","ID":"b","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":"a","id":"b","startTime":1795428000.5,"endTime":1795428001}`,
	`{"i\u0064":"a","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":"\ud83d","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":"caf` + "\xe9" + `","startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":5,"startTime":1795428000.5,"endTime":1795428001}`,
	`{"id":null,"stream":null,"startTime":1795428000.5,"endTime":null,"completionStartTime":null}`,
	`{"startTime":1795428000.5e0,"endTime":17954280011234567890}`,
	`{"startTime":-1,"endTime":1795428001}`,
	`{"startTime":"2026-11-23T10:00:00Z","endTime":"2026-11-23 10:00:01","completionStartTime":"2026-11-23T10:00:00.5+00:00","stream":true}`,
	`{"startTime":"2026-11-23T10:00:00\u005a","endTime":"2026-11-23T10:00:01Z"}`,
	`{"startTime":true,"endTime":1795428001}`,
	`{"startTime":1795428000,"endTime":1795428001,"stream":"true"}`,
	`{"startTime":1795428000,"endTime":1795428001,"prompt_tokens":1.0,"completion_tokens":-1}`,
	`{"startTime":1795428000,"endTime":1795428001,"prompt_tokens":9223372036854775808}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":"0.5","cache_hit":true}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":1e-7}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":{"status":"failure","status":"success"}}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":null,"hidden_params":null,"error_information":null}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":"x"}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"b-X-Request-ID":"2","a-x-request-id":"1","x-request-id":5,"y":{}}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"x-request-id":"1","x-request-id":"2"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"X-REQUEST-İD":"1","\u0078-request-id":"2"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"status":"failure","error_information":{"error_code":429,"error_class":"RateLimitError"}}`,
	`{"startTime":1795428000,"endTime":1795428001,"status":"failure","error_information":{"error_code":"5O0","error_class":"APITimeoutError"}}`,
	`{"startTime":1795428000,"endTime":1795428001,"deep":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"startTime":1795428000,"endTime":1795428001} x`,
	`{"startTime":1795428000,"endTime":1795428001`,
	"{\"startTime\":1795428000,\n\"endTime\":1795428001}",
	`[{"id":"a","startTime":1795428000.5,"endTime":1795428001}, 5, {"id":"b"}, {"id":"c","startTime":1,"endTime":2}]`,
	"[\n {\"id\":\"a\",\n  \"startTime\":1795428000.5,\"endTime\":1795428001},\n\n{\"id\":\"b\",\"startTime\":1795428000.5,\"endTime\":1795428001}]",
	`[{"id":"a","startTime":1795428000.5,"endTime":1795428001}, {"id":`,
	"\xef\xbb\xbf[{\"id\":\"a\",\"startTime\":1795428000.5,\"endTime\":1795428001}]",
	`[]`, `[{}]`, `{}`, `null`,

	"[\n" + litellmRec("a") + ",\n" + litellmRec("b") + "\n]",
	"[\n" + litellmRec("a") + ",\n" + litellmRec("b") + "\n] trailing {",
	"[" + litellmRec("a") + ",\n" + litellmRec("b") + ",\n]",
	"[" + litellmRec("a") + "\n\n" + litellmRec("b") + "]",
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b") + "\n x]",
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b"),
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b") + ",",
	"[" + litellmRec("a") + ",\n\n" + litellmRec("b") + ",  \n",
	"[" + litellmRec("a") + ",\n 12",
	"[" + litellmRec("a") + ",\n 12]",
	"[" + litellmRec("a") + ",\n -]",
	"[" + litellmRec("a") + ",\n" + `{"id":"b","startTime":1795428000.5,"endTime":1795428001,` + "\n\"x\": tru}]",
	"[" + litellmRec("a") + ",\n" + `{"id":"b","startTime":1795428000.5,"endTime":1795428001,"id":"c"}` + "\n, " + litellmRec("d") + "]",
	"[" + litellmRec("a") + ",\n" + `{"id":"b","startTime":"bad","endTime":1795428001}` + ",\n" + litellmRec("d") + ",\n\"x\", null, [], {}, 5]",
	"[" + litellmRec("a") + "," + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "," + litellmRec("b") + "]",
	"[" + litellmRec("a") + "," + strings.Repeat("[", 600) + "]" + "," + litellmRec("b") + "]",
	" \r\n\t[ ]", "[", "[ ", "[{", "[{}", "[{},", "[1]", "[1", "[]]", "[] x",
	// what follows an element the general route reads on from
	"[{}.", "[{}0", "[1x", "[1 .", "[5.x", "[truex", `["a"x`, `["a" ,}`, "[{} {}]", "[{}, ]", "[[]x]",
	`{"id":"a","id":null,"stream":true,"stream":null,"prompt_tokens":5,"prompt_tokens":null,"startTime":1795428000,"endTime":1795428001,"status":"success"}`,
	`{"startTime":1795428000,"startTime":null,"endTime":1795428001}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":{"status":"failure"},"metadata":{"user_api_key_request_route":"/v1/x"},"metadata":null}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"x-request-id":"1"}},"hidden_params":{"additional_headers":{"a-x-request-id":"2","x-request-id":"3"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"x-request-id":"1"},"additional_headers":null},"hidden_params":{"additional_headers":{"b-x-request-id":"4"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"x-request-\u0069d":"1","x-request-id\ud800":"2","x-request-id` + "\xff" + `":"3"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"x-request-id":null,"y-x-request-id":true,"z-x-request-id":"a\u00e9"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":[1]}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"x":1},"additional_headers":"x"}}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":"1e400","response_cost":null}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":"abc"}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":"\u0031.5"}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":""}`,
	`{"startTime":1795428000,"endTime":1795428001,"response_cost":true}`,
	`{"STARTTIME":1795428000,"EndTime":1795428001,"METADATA":{"STATUS":"success","User_Api_Key_Request_Route":"/v1/y"},"Hidden_Params":{"Additional_Headers":{"X-Request-Id":"h"}}}`,
	`{"startTime":1795428000,"endTime":1795428001,"status":"failure","error_information":{"error_code":null,"error_code":"503","ERROR_CLASS":"x","error_class":null}}`,
	`{"startTime":1795428000,"endTime":1795428001,"status":"failure","error_information":{"error_code":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}}`,
	`{"startTime":1795428000,"endTime":1795428001,"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
	`{"startTime":1795428000,"endTime":1795428001,"cache_hit":1}`, `{"startTime":1795428000,"endTime":1795428001,"stream":"x"}`,
	`{"startTime":1795428000,"endTime":1795428001,"prompt_tokens":"5"}`, `{"startTime":1795428000,"endTime":1795428001,"prompt_tokens":-0,"completion_tokens":1e2}`,
	`{"startTime":1795428000,"endTime":1795428001,"id":["a"]}`, `{"startTime":1795428000,"endTime":1795428001,"model":{}}`,
	`{"startTime":1795428000,"endTime":1795428001,"metadata":{"status":5}}`, `{"startTime":1795428000,"endTime":1795428001,"error_information":{"error_class":1}}`,
	`{"startTime":1795428000,"endTime":1795428001,"hidden_params":{"additional_headers":{"a":1}},"hidden_params":5}`,
	`{"\u212aey":1,"ſtatus":"success","startTime":1795428000,"endTime":1795428001}`,
	"{\"startTime\":1795428000,\n  \"endTime\":1795428001 }  \r\n", "5\n\"x\"\nnull\n[1]\ntrue\n{\"startTime\":1}\n", "{\"startTime\":1795428000,\"endTime\":1795428001,\"id\":\"a\"}\r\n{\"startTime\":1795428000}\n\n{",
	"[{\"id\":\"a\",\"ID\":\"b\",\"startTime\":1795428000.5,\"endTime\":1795428001,\"Metadata\":{\"status\":\"success\"}}, {\"id\":\"\\ud800\",\"startTime\":2,\"endTime\":3}, {\"id\":5}, {\"startTime\":\"x\"}]",
}

// TestLiteLLMEdges decodes every edge input and compares what the sink was
// told with testdata/edges/edges.golden.
func TestLiteLLMEdges(t *testing.T) {
	decodetest.CheckEdges(t, Format{}, litellmEdges, "testdata/edges/edges.golden")
}

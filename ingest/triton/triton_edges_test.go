package triton

import (
	"strings"
	"testing"

	"github.com/ttftrace/ttftrace/ingest/decodetest"
)

// tritonEdges are inputs at the edges of the format. What the decoder must
// report for each is in testdata/edges/edges.golden, written by the
// encoding/json route this decoder replaced (a json.Decoder splitting the
// array, each element unmarshalled into a struct), which the one route was
// fuzzed against before that route was deleted.
var tritonEdges = []string{
	``, ` `, `[]`, `[ ]`, `{}`, `[1,`, `[1] x`, "\ufeff[]", `[1, "a", null, [], {}]`,
	`[{"id":1,"model_name":"m","model_version":1,"request_id":"r"},{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":5}]}]`,
	`[{"id":1,"model_version":"1"},{"id":1,"model_version":""},{"id":1,"model_version":null},{"id":1,"model_version":-0},{"id":1,"model_version":1.0}]`,
	`[{"id":1,"model_version":1000000000000000},{"id":2,"model_version":true},{"id":3,"model_version":{"a":1}},{"id":4,"model_version":"a\"b"}]`,
	`[{"id":1,"ID":2},{"Id":1},{"i\u0064":1},{"id":1,"id":2},{"id":null},{"id":"1"},{"id":1.0},{"id":1e3},{"id":-0},{"id":9223372036854775808},{"id":-9223372036854775808}]`,
	`[{"id":1,"parent_id":0},{"id":2,"parent_id":1},{"id":3,"parent_id":null},{"id":4,"parent_id":"0"},{"id":5,"parent_id":0.0},{"id":6,"parent_id":-0}]`,
	`[{"id":1,"timestamps":null},{"id":2,"timestamps":[]},{"id":3,"timestamps":[null]},{"id":4,"timestamps":[{"name":"A"}]},{"id":5,"timestamps":[{"ns":1}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":-1}]},{"id":2,"timestamps":[{"name":"A","ns":"5"}]},{"id":3,"timestamps":[{"name":"A","ns":1.5}]},{"id":4,"timestamps":[{"name":"A","ns":99999999999999999999}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1,"name":"B"}]},{"id":2,"timestamps":[{"NAME":"A","ns":1}]},{"id":3,"timestamps":[{"name":"\u0041","ns":1}]},{"id":4,"timestamps":[{"name":"é","ns":1,"x":[1,{}]}]}]`,
	`[{"id":1,"model_name":"caf` + "\xe9" + `"},{"id":1,"model_name":null},{"id":1,"model_name":5},{"id":1,"request_id":"r\n"},{"id":1,"request_id":""},{"id":1,"model_name":"m\u00e9"}]`,
	`[{"id":1,"deep":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}]`,
	`[{"id":1,"timestamps":[{"ns":1,"name":"REQUEST_START"},{ "name" : "REQUEST_END" , "ns" : 5 },{"name":"A","ns":1,"x":2},{"name":"B","ns":2,"ns":3}]}]`,
	`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1}]},{"id":2,"timestamps":[{"name":"A","ns":1.5}]},{"id":3,"timestamps":[{"name":"A","ns":-0}]},{"id":4,"timestamps":[{"name":"\u0041","ns":1}]}]`,
	`[{"id":1,"timestamps":[{"name" "A","ns":1}]}]`, `[{"id":1,"timestamps":[{"name":"A","ns" 1}]}]`, `[{"id":1,"timestamps":[{"name":"A";"ns":1}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1]}]`, `[{"id":1,"timestamps":[{"name":"A","ns":1`, `[{"id":1,"timestamps":[{"name":"A","ns"`, `[{"id":1,"timestamps":[{"name":"A",`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1}{"name":"B","ns":2}]}]`, `[{"id":1,"timestamps":[{"name":"A","ns":1},]}]`, `[{"id":1,"timestamps":[{}]}]`, `[{"id":1,"timestamps":[5]}]`,
	`[{"id":1,"timestamps":[{"name":"HTTP_RECV_START","ns":10},{"name":"COMPUTE_START","ns":12},{"name":"INFER_RESPONSE_COMPLETE","ns":15},{"name":"INFER_RESPONSE_COMPLETE","ns":14},{"name":"HTTP_SEND_END","ns":20}]},{"id":1,"model_name":"m"}]`,
	`[{"id":1,"timestamps":[{"name":"GRPC_WAITREAD_END","ns":30},{"name":"GRPC_SEND_END","ns":20}]}]`,
	`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":2}]}, 42, {"id":1,"x":tru}]`,
	`[{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1x}]}]`,
	`[{"id":1,"model_name":"m"}, {"id":2,"timestamps":[{"name":"REQUEST_START","ns":1}]}, {"id":1,"parent_id":1-}]`,
	`[{"id":1,"model_name":"m"}, 5, "a", [` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `]]`,
	`[{"id":1,"model_name":"m"}, {"id":2,"q":"\x"}]`, `[{"id":1}, {"id":2}`, `[{"id":1} {"id":2}]`, `[{"id":1},]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1},]}]`, `[{"id":1,"model_version":1.}]`, `[{"id":1,"ID":[1,}]`,
	"[\n {\"id\" : 7 ,\n \"timestamps\" : [ { \"name\" : \"REQUEST_START\" , \"ns\" : 1 } , {\"name\":\"REQUEST_END\",\"ns\":2} ] } \n]\n",
	`[{"id":1,"timestamps":[{"name":"A","ns":1}],"timestamps":[{"ns":2}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1},{"name":"B","ns":2},{"name":"C","ns":3}],"timestamps":[{"ns":7}],"timestamps":[{},{},{}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1}],"timestamps":null,"timestamps":[{}]},{"id":2,"timestamps":[{"name":"A","ns":1}],"timestamps":[],"timestamps":[{}]}]`,
	`[{"id":1,"model_name":"a","model_name":null,"request_id":"r","request_id":"","model_version":3,"model_version":null},{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":2}]}]`,
	`[{"id":1,"id":null},{"id":null,"id":2},{"id":"\u0033"},{"id":""},{"id":"1e3"},{"id":"01"},{"id":true},{"id":[1]},{"id":{}}]`,
	`[{"id":1,"parent_id":"5"},{"id":2,"parent_id":"x"},{"id":3,"parent_id":true},{"id":4,"parent_id":5,"parent_id":null},{"id":5,"parent_id":-0.0}]`,
	`[{"id":1,"model_version":-5},{"id":2,"model_version":1e400},{"id":3,"model_version":[1,"a",null]},{"id":4,"model_version":"\"v\""},{"id":5,"model_version":false},{"id":6,"model_version":1.5e3},{"id":7,"model_version":999999999999999}]`,
	`[{"ID":1,"Model_Name":"m","REQUEST_ID":"r","Timestamps":[{"Name":"REQUEST_START","NS":1},{"nAmE":"REQUEST_END","nS":"2"}]}]`,
	`[{"\u0069d":1,"model_\u006eame":"m\u00e9\ud83d\ude00","timestamps":[{"n\u0061me":"REQUEST_START","ns":1},{"name":"REQUEST_\u0045ND","ns":"\u0032"}]}]`,
	`[{"id":1,"model_name":"\ud800","request_id":"\udc00x","timestamps":[{"name":"\ud83d","ns":1}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":1,"name":null,"ns":null}]},{"id":2,"timestamps":[{"name":5,"ns":1}]},{"id":3,"timestamps":[{"name":"A","ns":""}]},{"id":4,"timestamps":[{"name":"A","ns":"1.5"}]}]`,
	`[{"id":1,"timestamps":[{"name":"A","ns":true}]},{"id":2,"timestamps":{}},{"id":3,"timestamps":"x"},{"id":4,"timestamps":[[]]}]`,
	`[{"id":1,"model_name":"m"},null,{"id":1,"timestamps":[{"name":"REQUEST_START","ns":1},{"name":"REQUEST_END","ns":2}]}]`,
	`[{"ſd":1},{"\u212a":1,"id":2},{"id":1,"x":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}]`,
	`[{"id":1,"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}]`,
	`[1`, `[-`, `[1,`, `[1, `, `[,1]`, `[1,,2]`, `[1}`, `[1x]`, `[truex]`, `[tru]`, `["a`, `[{"id":1} ]garbage`, `x`, `"a"`, `]`, `[`,
	"[1,\n\t ]", "\t[ {\"id\":1}\r\n,\n{\"id\":2} ]", "[{\"id\":1,\"model_name\":\"a\u2028b\"}]",
}

// TestTritonEdges decodes every edge input and compares what the sink was
// told with testdata/edges/edges.golden.
func TestTritonEdges(t *testing.T) {
	decodetest.CheckEdges(t, Format{}, tritonEdges, "testdata/edges/edges.golden")
}

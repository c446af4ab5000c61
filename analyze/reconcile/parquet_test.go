package reconcile

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ttftrace/ttftrace/schema"
)

// TestReconciledRequestParquet writes the per-request table as Parquet rows
// and reads it back unchanged: ReconciledRequest is flat, with nullable
// columns for absent observers and instants.
func TestReconciledRequestParquet(t *testing.T) {
	c := clientObs("c", 0, 168, 1167)
	p := proxyObs("p", 2015, 3152)
	s := serverObs("s", -984, -849, 151)
	c.RequestID, p.RequestID, s.RequestID = "a", "a", "a"
	lone := proxyObs("p", 5000, 5100) // a proxy with a server but no client
	ls := serverObs("s", 4001, 4020, 4090)
	lone.RequestID, ls.RequestID = "b", "b"
	// Rows follow the outermost observation's event index: the lone proxy
	// (event 0) comes before the client (event 2).
	rows := reconcileDeclared([]schema.Event{lone, ls, c, p, s}).Requests
	if len(rows) != 2 || rows[0].ClientEvent != nil || *rows[0].ProxyEvent != 0 || *rows[1].ClientEvent != 2 ||
		rows[0].ServerJoinedTo != "proxy" {
		t.Fatalf("rows %+v", rows)
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	back, err := parquet.Read[ReconciledRequest](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for k := range rows {
		rows[k].split = 0 // the bands' working data: not a column
	}
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("read back\n%+v\nwrote\n%+v", back, rows)
	}
}

package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/ingest"
)

// The dataset's crash, concurrency and disk-full tests run the command in
// child processes: the test binary re-executed with TTFTRACE_TEST_CHILD=1
// is ttftrace with the test format (TestMain), and the environment can make
// it kill itself with SIGKILL at the Nth write, sync or rename of a commit
// (TTFTRACE_TEST_KILL_AT=N) or sleep before every rename
// (TTFTRACE_TEST_SLOW_RENAME=duration, as on a network disk).

func TestMain(m *testing.M) {
	if os.Getenv("TTFTRACE_TEST_CHILD") == "1" {
		c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, formats: []ingest.Format{testFormat{}}, fault: childFault()}
		os.Exit(c.main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// childFault returns the commit hook the environment asks for, or nil.
func childFault() func(string) error {
	killAt, _ := strconv.Atoi(os.Getenv("TTFTRACE_TEST_KILL_AT"))
	slow, _ := time.ParseDuration(os.Getenv("TTFTRACE_TEST_SLOW_RENAME"))
	if killAt == 0 && slow == 0 {
		return nil
	}
	n := 0
	return func(step string) error {
		n++
		if n == killAt {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
		if slow > 0 && strings.HasPrefix(step, "rename") {
			time.Sleep(slow)
		}
		return nil
	}
}

// child starts the test binary as ttftrace with args and extra environment.
func child(args []string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), append([]string{"TTFTRACE_TEST_CHILD=1"}, env...)...)
	return cmd
}

// writeLog writes a test-format log at path: a header, then one "ok N"
// line per n (N s after 2026-11-23, so n >= 86400 is the next day's
// partition), then a rejected line.
func writeLog(t testing.TB, path string, ns ...int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("#t\n")
	for _, n := range ns {
		fmt.Fprintf(&b, "ok %d\n", n)
	}
	fmt.Fprintf(&b, "bad %s\n", filepath.Base(path))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// span returns lo, lo+step, … below hi.
func span(lo, hi, step int) []int {
	var out []int
	for n := lo; n < hi; n += step {
		out = append(out, n)
	}
	return out
}

// content is what a dataset holds, in a form to compare: its events' ids
// sorted, and its inputs' and rejects' counts.
type content struct {
	ids             string
	inputs, rejects int
}

// contentOf reads the committed content of ds and checks that every part
// file there is committed and no temporary file is left.
func contentOf(t *testing.T, ds string) content {
	t.Helper()
	snap, err := dataset.Open(ds)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := snap.ReadEvents()
	if err != nil {
		t.Fatal(err)
	}
	rej, err := snap.ReadRejects()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range evs {
		ids = append(ids, e.RequestID)
	}
	slices.Sort(ids)
	return content{strings.Join(ids, ","), len(snap.Inputs), len(rej)}
}

// leftovers returns the part files of ds no commit names and its
// temporary files: what an interrupted ingest leaves for the next writer to
// remove.
func leftovers(t *testing.T, ds string) []string {
	t.Helper()
	committed, err := dataset.Files(ds)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	filepath.WalkDir(ds, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".tmp") ||
			strings.HasSuffix(p, ".parquet") && !slices.Contains(committed, p)) {
			left = append(left, p)
		}
		return nil
	})
	return left
}

// assertClean fails when ds holds leftovers.
func assertClean(t *testing.T, ds string) {
	t.Helper()
	if left := leftovers(t, ds); len(left) > 0 {
		t.Errorf("left in %s: %q", ds, left)
	}
}

// ingestHere runs ingest in this process and fails the test unless it
// exits 0.
func ingestHere(t *testing.T, ds string, inputs ...string) {
	t.Helper()
	var stderr bytes.Buffer
	c := &cli{stdout: &stderr, stderr: &stderr, formats: []ingest.Format{testFormat{}}}
	if code := c.main(append([]string{"ingest", "-q", "-o", ds}, inputs...)); code != 0 {
		t.Fatalf("ingest %v: exit %d: %s", inputs, code, stderr.String())
	}
}

// TestConcurrentIngests starts two ingests into one dataset at once, in
// separate processes: different inputs in odd trials (both must be there
// once), the same input in even ones (it must be there once: the second
// writer waits for the lock, then finds it already ingested). The slowed
// trials sleep before every rename of a commit, as a network disk would.
func TestConcurrentIngests(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	writeLog(t, a, span(0, 172800, 1800)...)
	writeLog(t, b, span(900, 172800, 1800)...)
	want := map[bool]content{}
	for _, same := range []bool{false, true} {
		ref := filepath.Join(dir, fmt.Sprintf("ref-%v", same))
		ingestHere(t, ref, a)
		if !same {
			ingestHere(t, ref, b)
		}
		want[same] = contentOf(t, ref)
	}
	trials, slowTrials := 24, 4
	if testing.Short() {
		trials, slowTrials = 6, 2
	}
	for trial := range trials + slowTrials {
		slow := ""
		if trial >= trials {
			slow = "TTFTRACE_TEST_SLOW_RENAME=150ms"
		}
		same := trial%2 == 0
		ds := filepath.Join(dir, fmt.Sprintf("ds%d", trial))
		second := map[bool]string{false: b, true: a}[same]
		p1 := child([]string{"ingest", "-q", "-o", ds, a}, slow)
		p2 := child([]string{"ingest", "-q", "-o", ds, second}, slow)
		var e1, e2 bytes.Buffer
		p1.Stderr, p2.Stderr = &e1, &e2
		if err := p1.Start(); err != nil {
			t.Fatal(err)
		}
		if err := p2.Start(); err != nil {
			t.Fatal(err)
		}
		err1, err2 := p1.Wait(), p2.Wait()
		if err1 != nil || err2 != nil {
			t.Fatalf("trial %d: exits %v, %v: %s %s", trial, err1, err2, e1.String(), e2.String())
		}
		if got := contentOf(t, ds); got != want[same] {
			t.Fatalf("trial %d (same input %v, %s): dataset holds %+v, want %+v", trial, same, slow, got, want[same])
		}
		assertClean(t, ds)
	}
	t.Logf("%d trials, %d with renames slowed by 150 ms", trials+slowTrials, slowTrials)
}

// TestNoWait holds the writer lock and checks that ingest --no-wait fails
// with exit 1 and a clear message, and that ingest without it waits, says
// so, and goes on once the lock is released.
func TestNoWait(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.log")
	writeLog(t, in, 1, 2)
	ds := filepath.Join(dir, "ds")
	w, err := dataset.OpenWriter(ds, dataset.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := child([]string{"ingest", "--no-wait", "-o", ds, in}).CombinedOutput()
	if code := exitCode(err); code != 1 || !strings.Contains(string(out), "another ingest is writing") {
		t.Errorf("--no-wait: exit %d, output %s", code, out)
	}
	waiter := child([]string{"ingest", "-o", ds, in})
	var stderr syncBuffer
	waiter.Stderr = &stderr
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(stderr.String(), "waiting"); {
		if time.Now().After(deadline) {
			t.Fatalf("no waiting message: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	w.Close()
	if err := waiter.Wait(); err != nil {
		t.Fatalf("waiting ingest: %v: %s", err, stderr.String())
	}
	if got := contentOf(t, ds); got.ids != "1,2" {
		t.Errorf("dataset holds %+v", got)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestReadersSeeCommittedOnly leaves a part file no commit names in a
// dataset (as a killed ingest does) and checks that analyze and the DuckDB
// views read only the committed part, and that analyze of the same dataset
// named twice (and by another path) reads it once.
func TestReadersSeeCommittedOnly(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.log")
	writeLog(t, in, 1, 2, 3)
	ds := filepath.Join(dir, "ds")
	ingestHere(t, ds, in)
	part := filepath.Join(ds, "source=client", "date=2026-11-23", "part-00000.parquet")
	orphan := filepath.Join(ds, "source=client", "date=2026-11-23", "part-00001.parquet")
	data, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(orphan, data, 0o644)
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr}
	if code := c.main([]string{"analyze", ds, ds, ds + "/", "-o", filepath.Join(dir, "a.json")}); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr.String())
	}
	if want := "analysed 3 events from 1 inputs"; !strings.Contains(stderr.String(), want) {
		t.Errorf("analyze said %q, want %q", stderr.String(), want)
	}
	stdout.Reset()
	if code := c.main([]string{"sql", "--dataset", ds}); code != 0 {
		t.Fatalf("sql: exit %d", code)
	}
	want := "read_parquet(['" + filepath.ToSlash(part) + "'], hive_partitioning = true)"
	if !strings.Contains(stdout.String(), want) || strings.Contains(stdout.String(), "part-00001") {
		t.Errorf("sql reads other than the committed part, want %s in:\n%.600s", want, stdout.String())
	}
}

// TestIngestRotation follows a log through logrotate: access.log is
// ingested, grows, is renamed access.log.1 while a new access.log starts,
// and access.log.1 is later compressed to access.log.2.gz. Ingesting
// access.log* after each step must give every request exactly once: the
// renamed file is read from where the last ingest stopped, the compressed
// one is recognized by its decompressed content.
func TestIngestRotation(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	ds := filepath.Join(dir, "ds")
	glob := filepath.Join(dir, "access.log*")
	writeLog(t, log, 1, 2, 3)
	ingestHere(t, ds, glob)
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("ok 4\nok 5\n")
	f.Close()
	os.Rename(log, log+".1")
	writeLog(t, log, 6, 7)
	ingestHere(t, ds, glob)
	if got := contentOf(t, ds); got.ids != "1,2,3,4,5,6,7" || got.rejects != 2 {
		t.Errorf("after rotation: %+v, want 1-7 and the two bad lines", got)
	}
	data, _ := os.ReadFile(log + ".1")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	os.WriteFile(log+".2.gz", gz.Bytes(), 0o644)
	os.Remove(log + ".1")
	var stderr bytes.Buffer
	c := &cli{stdout: &stderr, stderr: &stderr, formats: []ingest.Format{testFormat{}}}
	if code := c.main([]string{"ingest", "-o", ds, glob}); code != 0 || strings.Count(stderr.String(), "nothing added") != 2 {
		t.Errorf("after compression: exit %d, want both inputs already in the dataset:\n%s", code, stderr.String())
	}
	if got := contentOf(t, ds); got.ids != "1,2,3,4,5,6,7" || got.inputs != 3 {
		t.Errorf("after compression: %+v, want 1-7 from 3 committed inputs", got)
	}
}

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ttftrace/ttftrace/ingest"
)

// crashSetup writes three logs and a dataset holding the first, and returns
// the logs, that dataset, and the content it must have before and after
// ingesting the other two (computed by clean runs in this process).
func crashSetup(t *testing.T) (dir, pre string, inputs []string, before, after content) {
	dir = t.TempDir()
	c, a, b := filepath.Join(dir, "c.log"), filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	writeLog(t, c, span(5, 86400, 7200)...)
	writeLog(t, a, span(0, 172800, 3600)...)
	writeLog(t, b, append(span(1, 172800, 3600), 0)...) // 0 repeats a's first line: a duplicate
	pre = filepath.Join(dir, "pre")
	ingestHere(t, pre, c)
	before = contentOf(t, pre)
	ref := filepath.Join(dir, "ref")
	ingestHere(t, ref, c)
	ingestHere(t, ref, a, b)
	return dir, pre, []string{a, b}, before, contentOf(t, ref)
}

// copyDataset copies the dataset pre to a new folder and returns it.
func copyDataset(t *testing.T, pre, to string) string {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(pre)); err != nil {
		t.Fatal(err)
	}
	return to
}

// TestKillAtEveryCommitStep kills ingest (SIGKILL, in a child process) at
// each write, sync and rename of its commit in turn, until a run gets
// through. After each kill the dataset must hold exactly what it held
// before; the rerun must give exactly the clean result and remove what the
// killed run left.
func TestKillAtEveryCommitStep(t *testing.T) {
	dir, pre, inputs, before, after := crashSetup(t)
	if before == after {
		t.Fatal("test inputs add nothing")
	}
	kills := 0
	for k := 1; ; k++ {
		ds := copyDataset(t, pre, filepath.Join(dir, fmt.Sprintf("k%d", k)))
		out, err := child(append([]string{"ingest", "-q", "-o", ds}, inputs...), fmt.Sprintf("TTFTRACE_TEST_KILL_AT=%d", k)).CombinedOutput()
		if err == nil {
			break // k is past the last step
		}
		if !killed(err) {
			t.Fatalf("step %d: %v: %s", k, err, out)
		}
		kills++
		if got := contentOf(t, ds); got != before {
			t.Errorf("killed at step %d: dataset holds %+v, want the last commit's %+v", k, got, before)
		}
		ingestHere(t, ds, inputs...)
		if got := contentOf(t, ds); got != after {
			t.Errorf("rerun after a kill at step %d: %+v, want %+v", k, got, after)
		}
		assertClean(t, ds)
	}
	if kills < 6 { // 2 parts, the rejects file and the commit file
		t.Errorf("only %d steps were killed", kills)
	}
	t.Logf("killed at each of %d commit steps", kills)
}

// TestKillAtRandomTimes kills ingest after a random delay: while it
// decodes, stages or commits. The dataset holds the content before or
// after the ingest, never anything else, and the rerun gives the clean
// result.
func TestKillAtRandomTimes(t *testing.T) {
	dir, pre, inputs, before, after := crashSetup(t)
	rng := rand.New(rand.NewPCG(12, 0))
	trials := 12
	outcomes, left := map[bool]int{}, 0
	for i := range trials {
		ds := copyDataset(t, pre, filepath.Join(dir, fmt.Sprintf("r%d", i)))
		p := child(append([]string{"ingest", "-q", "-o", ds}, inputs...))
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
		p.Process.Signal(syscall.SIGKILL)
		p.Wait()
		got := contentOf(t, ds)
		if got != before && got != after {
			t.Errorf("trial %d: dataset holds %+v, want %+v or %+v", i, got, before, after)
		}
		outcomes[got == after]++
		left += len(leftovers(t, ds))
		ingestHere(t, ds, inputs...)
		if got := contentOf(t, ds); got != after {
			t.Errorf("trial %d: rerun gives %+v, want %+v", i, got, after)
		}
		assertClean(t, ds)
	}
	t.Logf("%d kills: %d before the commit, %d after; %d files left behind, all removed by the rerun", trials, outcomes[false], outcomes[true], left)
}

func killed(err error) bool {
	var ee interface{ Sys() any }
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok {
			return ws.Signaled() && ws.Signal() == syscall.SIGKILL
		}
	}
	return false
}

// TestDiskFullAtEveryCommitStep makes each write, sync and rename of the
// commit fail with ENOSPC in turn: ingest must exit 1 naming the path and
// "no space left on device", leave the dataset as it was with no temporary
// file, and a rerun must give the clean result.
func TestDiskFullAtEveryCommitStep(t *testing.T) {
	dir, pre, inputs, before, after := crashSetup(t)
	failures := 0
	for k := 1; ; k++ {
		ds := copyDataset(t, pre, filepath.Join(dir, fmt.Sprintf("f%d", k)))
		n := 0
		var stderr bytes.Buffer
		c := &cli{stdout: &stderr, stderr: &stderr, formats: []ingest.Format{testFormat{}}, fault: func(step string) error {
			if n++; n == k {
				return syscall.ENOSPC
			}
			return nil
		}}
		code := c.main(append([]string{"ingest", "-q", "-o", ds}, inputs...))
		if code == exitOK {
			break
		}
		failures++
		msg := stderr.String()
		if code != exitFailure || !strings.Contains(msg, "no space left on device") || !strings.Contains(msg, ds) || strings.Contains(msg, "panic") {
			t.Errorf("ENOSPC at step %d: exit %d, stderr %q", k, code, msg)
		}
		if got := contentOf(t, ds); got != before {
			t.Errorf("ENOSPC at step %d: dataset holds %+v, want %+v", k, got, before)
		}
		assertClean(t, ds)
		ingestHere(t, ds, inputs...)
		if got := contentOf(t, ds); got != after {
			t.Errorf("rerun after ENOSPC at step %d: %+v, want %+v", k, got, after)
		}
	}
	if failures < 6 {
		t.Errorf("only %d steps failed", failures)
	}
	t.Logf("ENOSPC injected at each of %d commit steps", failures)
}

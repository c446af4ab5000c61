package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDiskFullTmpfs runs ingest on a real full disk: a tmpfs of growing
// sizes, mounted in a user and mount namespace (unshare -rm, no root
// needed where user namespaces are allowed), so ENOSPC comes from the
// kernel at whatever write it hits: staging parts, compacting, the
// rejects, the commit. Each run must exit 0 with the clean result or exit 1
// saying "no space left on device", with the dataset as it was and no
// temporary file left; a rerun with room gives the clean result. It is
// skipped where unshare or tmpfs mounts are not available (.ci/run does not
// install them).
func TestDiskFullTmpfs(t *testing.T) {
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare not installed: the tmpfs disk-full test needs it")
	}
	probe := t.TempDir()
	if out, err := exec.Command("unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs "+probe).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs in a user namespace here (%v: %s)", err, out)
	}
	dir, pre, inputs, before, _ := crashSetup(t)
	big := filepath.Join(dir, "big.log")
	writeLog(t, big, span(2, 172800, 8)...) // 21,600 lines: parts of ~50 kB
	inputs = append(inputs, big)
	ref := copyDataset(t, pre, filepath.Join(dir, "ref-big"))
	ingestHere(t, ref, inputs...)
	after := contentOf(t, ref)
	need := duBytes(t, ref)
	outcomes := map[int]int{}
	for i := 1; i <= 10; i++ { // from a quarter to 2.5 times the room needed
		size := (need*int64(i)/4)/4096*4096 + 4096
		code, ds, stderr := ingestOnTmpfs(t, filepath.Join(dir, fmt.Sprintf("t%d", i)), size, pre, inputs)
		if code < 0 {
			continue // the dataset before the ingest did not fit
		}
		outcomes[code]++
		want := map[int]content{0: after, 1: before}[code]
		switch {
		case code == 1 && !strings.Contains(stderr, "no space left on device"):
			t.Errorf("tmpfs of %d bytes: exit 1 without saying why: %s", size, stderr)
		case code != 0 && code != 1, strings.Contains(stderr, "panic"):
			t.Fatalf("tmpfs of %d bytes: exit %d: %s", size, code, stderr)
		}
		if got := contentOf(t, ds); got != want {
			t.Errorf("tmpfs of %d bytes, exit %d: dataset holds %+v, want %+v", size, code, got, want)
		}
		assertClean(t, ds)
		ingestHere(t, ds, inputs...)
		if got := contentOf(t, ds); got != after {
			t.Errorf("tmpfs of %d bytes: rerun gives %+v, want %+v", size, got, after)
		}
	}
	if outcomes[1] == 0 || outcomes[0] == 0 {
		t.Errorf("outcomes by exit code %v: want some runs out of space and some through", outcomes)
	}
	t.Logf("tmpfs runs by exit code: %v (dataset needs %d bytes)", outcomes, need)
}

// ingestOnTmpfs copies the dataset pre onto a tmpfs of size bytes, ingests
// inputs into it, and copies the result back to work/ds. It returns the
// exit code (-1 when pre did not fit), that copy and ingest's stderr.
func ingestOnTmpfs(t *testing.T, work string, size int64, pre string, inputs []string) (int, string, string) {
	mnt := filepath.Join(work, "mnt")
	os.MkdirAll(mnt, 0o755)
	script := `set -e
mount -t tmpfs -o size="$SIZE" tmpfs "$MNT"
cp -a "$PRE" "$MNT/ds" || exit 99
set +e
"$BIN" ingest -q -o "$MNT/ds" "$@" 2>"$WORK/stderr"
echo $? >"$WORK/rc"
cp -a "$MNT/ds" "$WORK/ds"
`
	cmd := exec.Command("unshare", append([]string{"-rm", "sh", "-c", script, "sh"}, inputs...)...)
	cmd.Env = append(os.Environ(), "TTFTRACE_TEST_CHILD=1", "SIZE="+strconv.FormatInt(size, 10),
		"MNT="+mnt, "PRE="+pre, "WORK="+work, "BIN="+os.Args[0])
	out, err := cmd.CombinedOutput()
	if exitCode(err) == 99 {
		return -1, "", ""
	}
	if err != nil {
		t.Fatalf("tmpfs run: %v: %s", err, out)
	}
	rc, _ := os.ReadFile(filepath.Join(work, "rc"))
	stderr, _ := os.ReadFile(filepath.Join(work, "stderr"))
	code, _ := strconv.Atoi(strings.TrimSpace(string(rc)))
	return code, filepath.Join(work, "ds"), string(stderr)
}

// duBytes returns the bytes the files under dir take, rounded up to 4 KiB
// each as tmpfs stores them.
func duBytes(t *testing.T, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			if info, err := d.Info(); err == nil {
				n += (info.Size() + 4095) / 4096 * 4096
			}
		}
		return nil
	})
	return n
}

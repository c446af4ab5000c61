package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
)

// weekState is where a week's simulation stands between two requests:
// enough to go on from there exactly as an uninterrupted run would.
type weekState struct {
	Index int      // the next request
	T     int64    // true time of the last arrival, Unix ns
	Main  rand.PCG // the generator the requests are drawn from
}

// weekStateFile is WeekConfig.State on disk (JSON): the state at the start
// of Part, for the week Week describes, and each log's generator of span ids.
type weekStateFile struct {
	Week  string
	Part  int
	Index int
	T     int64
	Main  []byte
	Logs  [][]byte
}

// partBounds returns the true times, Unix ns, between which a request's
// arrival puts it in c's part: from ≤ arrival < to. The first part begins
// before the week does and the last ends after it.
func (c WeekConfig) partBounds() (from, to int64) {
	if c.Parts <= 1 {
		return math.MinInt64, math.MaxInt64
	}
	start, span := c.Start.UnixNano(), int64(c.Days)*86_400e9
	from, to = start+span*int64(c.Part-1)/int64(c.Parts), start+span*int64(c.Part)/int64(c.Parts)
	if c.Part == 1 {
		from = math.MinInt64
	}
	if c.Part == c.Parts {
		to = math.MaxInt64
	}
	return from, to
}

// fingerprint describes the week c belongs to, whichever its part.
func (c WeekConfig) fingerprint() string {
	c.Part, c.State = 0, ""
	return fmt.Sprintf("%+v", c)
}

// resume returns the state cfg's part starts from: cfg.State's when it holds
// that part's start (src and each log's generator are set from it), else the
// week's start (src as it stands after the hosts were drawn).
func (w *weekWriter) resume(cfg WeekConfig, src *rand.PCG) (weekState, error) {
	start := weekState{T: cfg.Start.UnixNano()}
	if cfg.Parts <= 1 || cfg.Part == 1 || cfg.State == "" {
		return start, nil
	}
	b, err := os.ReadFile(cfg.State)
	if errors.Is(err, fs.ErrNotExist) {
		return start, nil
	}
	if err != nil {
		return weekState{}, err
	}
	var f weekStateFile
	if err := json.Unmarshal(b, &f); err != nil {
		return weekState{}, fmt.Errorf("fleet: %s: %w", cfg.State, err)
	}
	switch {
	case f.Week != cfg.fingerprint():
		return weekState{}, fmt.Errorf("fleet: %s is the state of another week (%s), not of %s", cfg.State, f.Week, cfg.fingerprint())
	case f.Part != cfg.Part:
		return weekState{}, fmt.Errorf("fleet: %s is the state at part %d's start, not part %d's: write the parts in order, or remove it to simulate from the week's start", cfg.State, f.Part, cfg.Part)
	case len(f.Logs) != len(w.order):
		return weekState{}, fmt.Errorf("fleet: %s: %d logs' generators for %d logs", cfg.State, len(f.Logs), len(w.order))
	}
	if err := src.UnmarshalBinary(f.Main); err != nil {
		return weekState{}, fmt.Errorf("fleet: %s: %w", cfg.State, err)
	}
	for i, l := range w.order {
		if err := l.src.UnmarshalBinary(f.Logs[i]); err != nil {
			return weekState{}, fmt.Errorf("fleet: %s: %w", cfg.State, err)
		}
	}
	return weekState{Index: f.Index, T: f.T, Main: *src}, nil
}

// saveState writes next, the state at the start of the part after cfg's,
// to cfg.State (atomically: a temporary file renamed over it).
func (w *weekWriter) saveState(cfg WeekConfig, next weekState) error {
	f := weekStateFile{Week: cfg.fingerprint(), Part: cfg.Part + 1, Index: next.Index, T: next.T}
	var err error
	if f.Main, err = next.Main.MarshalBinary(); err != nil {
		return err
	}
	for _, l := range w.order {
		b, err := l.src.MarshalBinary()
		if err != nil {
			return err
		}
		f.Logs = append(f.Logs, b)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	tmp := cfg.State + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, cfg.State)
}

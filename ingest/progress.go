package ingest

import (
	"io"
	"os"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progress shows one bar of input bytes read (compressed bytes for
// compressed files) over all inputs. A nil *progress shows nothing.
type progress struct {
	p   *mpb.Progress
	bar *mpb.Bar
}

// newProgress starts a bar on w sized by the files' lengths (standard input
// adds nothing to the total); it returns nil when w is nil.
func newProgress(w io.Writer, files []string) *progress {
	if w == nil {
		return nil
	}
	var total int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil && f != StdinName {
			total += info.Size()
		}
	}
	p := mpb.New(mpb.WithOutput(w), mpb.WithWidth(40))
	bar := p.AddBar(total,
		mpb.PrependDecorators(decor.Name("ingest "), decor.CountersKibiByte("% .1f / % .1f")),
		mpb.AppendDecorators(decor.Percentage()),
	)
	return &progress{p: p, bar: bar}
}

// reader counts the bytes read from r on the bar.
func (pr *progress) reader(r io.Reader) io.Reader {
	if pr == nil {
		return r
	}
	return &countingReader{r: r, bar: pr.bar}
}

// wait completes the bar and waits for it to be drawn.
func (pr *progress) wait() {
	if pr == nil {
		return
	}
	pr.bar.SetTotal(-1, true)
	pr.p.Wait()
}

type countingReader struct {
	r   io.Reader
	bar *mpb.Bar
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bar.IncrBy(n)
	return n, err
}

package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/ttftrace/ttftrace/analyze"
)

// CompareText writes a comparison's summary: the sides, the threshold, the
// verdict counts, then every regression and improvement grouped by source
// and group. With markdown false it is plain text for a terminal (control
// characters from logs shown escaped); with markdown true a Markdown table to
// paste into a document (characters Markdown or HTML would read escaped).
func CompareText(w io.Writer, c *analyze.Comparison, markdown bool) error {
	if c == nil {
		return fmt.Errorf("report: no comparison")
	}
	v := buildCompare(c, &chartSet{})
	bw := bufio.NewWriter(w)
	if markdown {
		compareMarkdown(bw, v)
	} else if err := comparePlain(bw, v); err != nil {
		return err
	}
	return bw.Flush()
}

// counts is the verdict count line shared by both formats.
func (v *compareView) counts() string {
	return fmt.Sprintf("%d regressions, %d improvements, %d below threshold, %d within noise or without interval",
		v.Regressions, v.Improvements, v.Small, v.Noise)
}

func comparePlain(w io.Writer, v *compareView) error {
	t := termSafe
	fmt.Fprintf(w, "base  %s  (%s)\nnew   %s  (%s)\n", t(v.Base.Label), t(v.Base.Span), t(v.New.Label), t(v.New.Span))
	fmt.Fprintf(w, "threshold %s of the base; significant: 95%% intervals apart (percentiles), z test at 5%% (rates)\n%s\n",
		t(v.Threshold), v.counts())
	for _, b := range v.Judged {
		fmt.Fprintf(w, "\n%s\n", strings.ToUpper(b.Title))
		if len(b.Groups) == 0 {
			fmt.Fprintln(w, "  none")
			continue
		}
		// Figure names are padded to one width, so the right-aligned
		// columns after them line up across the block's groups.
		width := 0
		for _, g := range b.Groups {
			for _, r := range g.Rows {
				width = max(width, utf8.RuneCountInString(t(r.Figure)))
			}
		}
		for _, g := range b.Groups {
			fmt.Fprintf(w, "%s · %s\n", t(g.Source), t(g.Group))
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			for _, r := range g.Rows {
				name := t(r.Figure)
				fmt.Fprintf(tw, "  %s%s\t%s\tn=%s\t→\t%s\tn=%s\t%s\t%s\t\n", name, strings.Repeat(" ", width-utf8.RuneCountInString(name)),
					withUnit(r.Base, r.Unit), r.BaseN, withUnit(r.New, r.Unit), r.NewN, r.Delta, r.Change)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	if len(v.Folded) > 0 {
		fmt.Fprintf(w, "\nfolded %d duplicate metrics (e.g. %s)\n", len(v.Folded), t(v.Folded[0]))
	}
	return nil
}

func withUnit(v, unit string) string {
	if unit == "" {
		return v
	}
	return v + " " + unit
}

// termSafe shows control and other non-printing characters as Go escapes,
// so a log string cannot move the cursor or recolour a terminal.
func termSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			q := fmt.Sprintf("%+q", string(r))
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

func compareMarkdown(w io.Writer, v *compareView) {
	m := mdSafe
	fmt.Fprintf(w, "### ttftrace compare: %s → %s\n\n", m(v.Base.Label), m(v.New.Label))
	fmt.Fprintf(w, "Base: %s · new: %s · threshold %s of the base.\n\n**%s**\n\n", m(v.Base.Span), m(v.New.Span), m(v.Threshold), v.counts())
	fmt.Fprintln(w, "| verdict | source | group | figure | base | n | new | n | delta | change |")
	fmt.Fprintln(w, "|---|---|---|---|--:|--:|--:|--:|--:|--:|")
	rows := 0
	for _, b := range v.Judged {
		for _, g := range b.Groups {
			for _, r := range g.Rows {
				rows++
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Verdict, m(g.Source), m(g.Group),
					m(r.Figure), m(withUnit(r.Base, r.Unit)), r.BaseN, m(withUnit(r.New, r.Unit)), r.NewN, r.Delta, r.Change)
			}
		}
	}
	if rows == 0 {
		fmt.Fprintln(w, "| none | | | no regression or improvement beyond the threshold | | | | | | |")
	}
}

// mdReplacer escapes what Markdown or the HTML it becomes would read in a
// log string: table pipes, emphasis, links, code, tags and line breaks.
var mdReplacer = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "\n", " ", "\r", " ", "#", `\#`, "~", `\~`, "!", `\!`)

func mdSafe(s string) string { return mdReplacer.Replace(termSafe(s)) }

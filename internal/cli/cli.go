// Package cli is the ttftrace command: its subcommands, their flags parsed
// into options structs, and the wiring of the pipeline (ingest, analyze,
// report). cmd/ttftrace calls Run with the process's arguments and streams;
// tests call it with buffers.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ttftrace/ttftrace/ingest"
	_ "time/tzdata" // --tz works on machines without a zoneinfo database
)

// Exit statuses (SPEC §6).
const (
	exitOK       = 0
	exitFailure  = 1
	exitUsage    = 2
	exitRejected = 3
	// exitRegression is compare's status under --fail-on regression when
	// any regression is found.
	exitRegression = 4
)

// cli holds the streams a command uses; tests pass buffers.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// formats is the input format table; nil means ingest.Formats(). Tests
	// set it to formats of their own.
	formats []ingest.Format
	// fault is handed to dataset.WriterOptions.Fault: tests fail or kill a
	// commit at each of its steps with it. nil in the command.
	fault func(step string) error
	// terminal, when not nil, says whether standard input is a terminal
	// (tests); nil asks the operating system.
	terminal func() bool
}

// formatTable returns the input formats the commands use.
func (c *cli) formatTable() []ingest.Format {
	if c.formats == nil {
		return ingest.Formats()
	}
	return c.formats
}

// command is one subcommand: its synopsis, one example, its flag set (for
// help) and what it does.
type command struct {
	name     string
	synopsis string // arguments after the name
	summary  string
	example  string
	flags    func() *flag.FlagSet
	run      func(c *cli, args []string) int
}

// commands returns the dispatch table (a function, not a variable, because
// help refers back to it). The options of most commands are parsed in
// commands.go.
func commands() []command {
	return []command{
		{"ingest", "-o DATASET [flags] INPUT...", "decode logs and append them to a Parquet dataset",
			"ttftrace ingest -o ds/ --format nginx --host edge-1 logs/access.log*.gz",
			func() *flag.FlagSet { return ingestFlags(&ingestOptions{}) }, (*cli).runIngest},
		{"analyze", "DATASET... -o analysis.json [flags]", "compute the latency figures of datasets",
			"ttftrace analyze ds/ -o analysis.json --by model --window 1h --slo ttft=500ms,tpot=50ms",
			func() *flag.FlagSet { return analyzeFlags(&analyzeOptions{}) }, (*cli).runAnalyze},
		{"report", "analysis.json -o report.html", "render an analysis as one self-contained HTML file",
			"ttftrace report analysis.json -o report.html",
			func() *flag.FlagSet { return reportFlags(&reportOptions{}) }, (*cli).runReport},
		{"run", "INPUT... -o OUTDIR [flags]", "ingest, analyse and report in one go (OUTDIR/dataset, analysis.json, report.html)",
			"ttftrace run logs/ -o out/ --log-format nginx=@nginx.conf.fmt --by model",
			func() *flag.FlagSet { return runFlags(&runOptions{}) }, (*cli).runRun},
		{"compare", "BASE.json NEW.json [-o compare.html] [flags]", "judge the changes between two analyses, regressions first; a summary on standard output",
			"ttftrace compare last-week/analysis.json this-week/analysis.json -o compare.html --fail-on regression",
			func() *flag.FlagSet { return compareFlags(&compareOptions{}) }, (*cli).runCompare},
		{"demo", "[-o OUTDIR]", "run on the sample logs embedded in the binary: a fleet's logs, then one sample of every input format (OUTDIR/formats)",
			"ttftrace demo -o ttftrace-demo",
			func() *flag.FlagSet { return demoFlags(&demoOptions{}) }, (*cli).runDemo},
		{"sql", "[--dialect duckdb|trino|spark] [--dataset DATASET] [-o FILE]", "print SQL views computing the per-source metrics over a dataset",
			"ttftrace sql --dialect duckdb --dataset out/dataset -o views.sql",
			func() *flag.FlagSet { return sqlFlags(&sqlOptions{}) }, (*cli).runSQL},
		{"formats", "", "list the input formats",
			"ttftrace formats",
			func() *flag.FlagSet { return noFlags("formats") }, (*cli).runFormats},
		{"schema", "", "print the columns of the event dataset",
			"ttftrace schema",
			func() *flag.FlagSet { return noFlags("schema") }, (*cli).runSchema},
		{"version", "", "print the version of ttftrace and of the Go it was built with",
			"ttftrace version",
			func() *flag.FlagSet { return noFlags("version") }, (*cli).runVersion},
		{"help", "[COMMAND]", "show help for a command",
			"ttftrace help ingest",
			func() *flag.FlagSet { return noFlags("help") }, (*cli).runHelp},
	}
}

func lookupCommand(name string) *command {
	for _, k := range commands() {
		if k.name == name {
			return &k
		}
	}
	return nil
}

// Run is the whole program: it dispatches args to a subcommand and returns
// the exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	return c.main(args)
}

// main runs the command args name under the profiling flags args carry.
func (c *cli) main(args []string) int {
	prof, args, err := cutProfileFlags(args)
	if err != nil {
		fmt.Fprintf(c.stderr, "ttftrace: %v\n", err)
		return exitUsage
	}
	stop, err := prof.start()
	if err != nil {
		fmt.Fprintf(c.stderr, "ttftrace: %v\n", err)
		return exitFailure
	}
	status := c.dispatch(args)
	if err := stop(); err != nil {
		fmt.Fprintf(c.stderr, "ttftrace: %v\n", err)
		if status == exitOK {
			status = exitFailure
		}
	}
	return status
}

// dispatch runs the subcommand args[0] with the rest of args.
func (c *cli) dispatch(args []string) int {
	if len(args) == 0 {
		c.printUsage(c.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		c.printUsage(c.stdout)
		return exitOK
	case "-version", "--version":
		return c.runVersion(args[1:])
	}
	cmd := lookupCommand(args[0])
	if cmd == nil {
		fmt.Fprintf(c.stderr, "ttftrace: unknown command %q\n\n", args[0])
		c.printUsage(c.stderr)
		return exitUsage
	}
	return cmd.run(c, args[1:])
}

// fail reports a parse error: help on standard output (exit 0) for -h, or
// the message and the command's usage on standard error (exit 2).
func (c *cli) fail(cmd string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		c.printCommandHelp(c.stdout, lookupCommand(cmd))
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(c.stderr, "ttftrace %s: %v\n", cmd, err)
		if k := lookupCommand(cmd); k != nil {
			fmt.Fprintf(c.stderr, "usage: ttftrace %s %s\n(ttftrace help %s for more)\n", k.name, k.synopsis, k.name)
		}
		return exitUsage
	}
	fmt.Fprintf(c.stderr, "ttftrace %s: %v\n", cmd, err)
	return exitFailure
}

func (c *cli) printUsage(w io.Writer) {
	fmt.Fprintf(w, "ttftrace analyses LLM serving latency from client, proxy and server logs.\n\nCommands:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, k := range commands() {
		fmt.Fprintf(tw, "  %s %s\t%s\n", k.name, k.synopsis, k.summary)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nFlags may stand before or after the arguments. Exit status: 0 success, 1 failure,\n"+
		"2 usage error, 3 rejected input under --strict, 4 regression found by compare --fail-on regression.\n"+
		"Every command takes --cpuprofile FILE and --memprofile FILE (profiles for go tool pprof).\n"+
		"ttftrace help COMMAND shows a command's flags.\n")
}

func (c *cli) printCommandHelp(w io.Writer, k *command) {
	fmt.Fprintf(w, "usage: ttftrace %s %s\n\n%s.\n\nExample:\n  %s\n", k.name, k.synopsis, capitalize(k.summary), k.example)
	fs := k.flags()
	(&profileOptions{}).register(fs)
	var flags strings.Builder
	fs.SetOutput(&flags)
	fs.PrintDefaults()
	if flags.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", flags.String())
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// runHelp prints the general usage or one command's help.
func (c *cli) runHelp(args []string) int {
	pos, err := parseArgs(noFlags("help"), args)
	if err != nil {
		return c.fail("help", err)
	}
	switch len(pos) {
	case 0:
		c.printUsage(c.stdout)
		return exitOK
	case 1:
		if k := lookupCommand(pos[0]); k != nil {
			c.printCommandHelp(c.stdout, k)
			return exitOK
		}
		return c.fail("help", usagef("unknown command %q", pos[0]))
	}
	return c.fail("help", usagef("unexpected argument %q", pos[1]))
}

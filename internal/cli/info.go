package cli

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/ttftrace/ttftrace/dataset"
	"github.com/ttftrace/ttftrace/schema"
	"github.com/ttftrace/ttftrace/sqlviews"
)

// runFormats prints the table of input formats: name, source and description.
func (c *cli) runFormats(args []string) int {
	if err := noArgs("formats", args); err != nil {
		return c.fail("formats", err)
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "FORMAT\tSOURCE\tDESCRIPTION\n")
	for _, f := range c.formatTable() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name(), f.Source(), f.Describe())
	}
	if err := tw.Flush(); err != nil {
		return c.fail("formats", err)
	}
	return exitOK
}

// runSchema prints the documentation of every column of the event dataset.
func (c *cli) runSchema(args []string) int {
	if err := noArgs("schema", args); err != nil {
		return c.fail("schema", err)
	}
	if err := schema.WriteDocs(c.stdout); err != nil {
		return c.fail("schema", err)
	}
	return exitOK
}

// runSQL prints the SQL views of one dialect, to standard output or, with
// -o, atomically to a file.
func (c *cli) runSQL(args []string) int {
	o, err := parseSQL(args)
	if err != nil {
		return c.fail("sql", err)
	}
	var buf bytes.Buffer
	if err := sqlviews.Write(&buf, o.viewOptions()); err != nil {
		return c.fail("sql", usagef("%v", err))
	}
	if o.Output == "" {
		_, err = c.stdout.Write(buf.Bytes())
	} else {
		err = dataset.WriteFileAtomic(o.Output, buf.Bytes())
	}
	if err != nil {
		return c.fail("sql", err)
	}
	return exitOK
}

// noArgs parses the arguments of a command that takes none (only -h).
func noArgs(name string, args []string) error {
	pos, err := parseArgs(noFlags(name), args)
	if err == nil {
		err = needArgs(pos, 0, 0, "")
	}
	return err
}

// runVersion prints "ttftrace VERSION (REVISION) GOVERSION": the module
// version ("(devel)" when built from a checkout), the commit it was built
// from when Go recorded one, and the Go release.
func (c *cli) runVersion(args []string) int {
	if err := noArgs("version", args); err != nil {
		return c.fail("version", err)
	}
	version := "(devel)"
	var rev []string
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision":
				rev = append([]string{s.Value}, rev...)
			case s.Key == "vcs.modified" && s.Value == "true":
				rev = append(rev, "modified")
			}
		}
	}
	if len(rev) > 0 {
		version += " (" + strings.Join(rev, ", ") + ")"
	}
	fmt.Fprintf(c.stdout, "ttftrace %s %s\n", version, runtime.Version())
	return exitOK
}

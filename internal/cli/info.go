package cli

import (
	"bytes"
	"fmt"
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

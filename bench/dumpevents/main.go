// Command dumpevents prints every event of a ttftrace dataset as one JSON
// line, in dataset.ReadEvents' order (path, then row). bench/differential.sh
// compares two datasets' events with it, since part files whose row groups
// are cut at other places differ in bytes but not in content.
//
//	go run ./bench/dumpevents DATASET
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/ttftrace/ttftrace/dataset"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dumpevents DATASET")
		os.Exit(2)
	}
	events, err := dataset.ReadEvents(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	for i := range events {
		if err := enc.Encode(&events[i]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

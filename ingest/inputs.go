package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// StdinName is the input name that stands for standard input.
const StdinName = "-"

// ExpandInputs turns the inputs a user gave into the list of files to read,
// in order: a file is kept as given, a folder is walked (files in lexical
// order, names starting with "." left out), a path that does not exist but
// holds a glob pattern is expanded (sorted; each match is a file or folder),
// and "-" is standard input. A path named twice is read once. A missing path
// or a glob matching nothing is an error.
func ExpandInputs(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		if p == StdinName {
			add(p)
			continue
		}
		files, err := expandOne(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			add(f)
		}
	}
	return out, nil
}

// expandOne expands one path, folder or glob.
func expandOne(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err == nil && info.IsDir() {
		return walkFolder(p)
	}
	if err == nil {
		return []string{p}, nil
	}
	if !strings.ContainsAny(p, "*?[") {
		return nil, err
	}
	matches, gerr := filepath.Glob(p)
	if gerr != nil {
		return nil, fmt.Errorf("%s: %w", p, gerr)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("%s: no file matches", p)
	}
	var files []string
	for _, m := range matches {
		more, err := expandOne(m)
		if err != nil {
			return nil, err
		}
		files = append(files, more...)
	}
	return files, nil
}

// walkFolder lists the regular files under dir in lexical order, leaving out
// files and folders whose names start with ".".
func walkFolder(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}

// HostFromPath names the observer host of an input that carries none: the
// file's base name up to its first dot, so "logs/edge-1.access.log.1.gz"
// gives "edge-1" and "gpu-7.log" gives "gpu-7". Standard input gives
// "stdin"; a name starting with a dot is kept whole. --host overrides it.
func HostFromPath(path string) string {
	if path == StdinName {
		return "stdin"
	}
	base := filepath.Base(path)
	if i := strings.IndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return base
}

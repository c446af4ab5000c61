package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// StdinName is the input name that stands for standard input.
const StdinName = "-"

// ExpandInputs turns the inputs a user gave into the list of files to read,
// in order: a file is kept as given, a folder is walked (files in lexical
// order, names starting with "." left out), a path that does not exist but
// holds a glob pattern is expanded (sorted; each match is a file or folder),
// and "-" is standard input. Symbolic links are followed, to files and to
// folders (Kubernetes' /var/log/containers is all links); a folder reached
// again through a link loop is not walked twice. A named pipe (FIFO) is
// kept and read once as a stream. A file named twice, by the same path or
// by links to it, is read once. A missing path or a glob matching nothing
// is an error; a link whose target is missing is kept, so reading it fails
// with an error naming it.
func ExpandInputs(paths []string) ([]string, error) {
	x := &expansion{}
	for _, p := range paths {
		if p == StdinName {
			x.add(p, nil)
			continue
		}
		if err := x.expand(p); err != nil {
			return nil, err
		}
	}
	return x.files, nil
}

// expansion gathers the files of ExpandInputs without repeats.
type expansion struct {
	files []string
	paths map[string]bool
	seen  map[fileKey][]os.FileInfo // files and folders listed or walked
}

// fileKey buckets os.FileInfos so that os.SameFile compares few: one file
// has one size and modification time.
type fileKey struct{ size, mtime int64 }

func keyOf(info os.FileInfo) fileKey { return fileKey{info.Size(), info.ModTime().UnixNano()} }

// remember marks the file or folder info as listed.
func (x *expansion) remember(info os.FileInfo) {
	if x.seen == nil {
		x.seen = map[fileKey][]os.FileInfo{}
	}
	x.seen[keyOf(info)] = append(x.seen[keyOf(info)], info)
}

// add keeps a file unless it was kept before (info nil: by path only).
func (x *expansion) add(p string, info os.FileInfo) {
	if x.paths == nil {
		x.paths = map[string]bool{}
	}
	if x.paths[p] || info != nil && x.visited(info) {
		return
	}
	x.paths[p] = true
	if info != nil {
		x.remember(info)
	}
	x.files = append(x.files, p)
}

// visited reports whether the file or folder info was listed before.
func (x *expansion) visited(info os.FileInfo) bool {
	for _, s := range x.seen[keyOf(info)] {
		if os.SameFile(s, info) {
			return true
		}
	}
	return false
}

// expand expands one path, folder or glob.
func (x *expansion) expand(p string) error {
	info, err := os.Stat(p) // follows links
	if err == nil && info.IsDir() {
		return x.walk(p, info)
	}
	if err == nil {
		x.add(p, info)
		return nil
	}
	if !strings.ContainsAny(p, "*?[") {
		return err
	}
	matches, gerr := filepath.Glob(p)
	if gerr != nil {
		return fmt.Errorf("%s: %w", p, gerr)
	}
	if len(matches) == 0 {
		return fmt.Errorf("%s: no file matches", p)
	}
	for _, m := range matches {
		if err := x.expand(m); err != nil {
			return err
		}
	}
	return nil
}

// walk lists the files under the folder dir in lexical order, leaving out
// names starting with "." and things that are neither files, pipes nor
// folders (sockets, devices). A folder already walked (a link loop, or two
// links to one folder) is skipped.
func (x *expansion) walk(dir string, info os.FileInfo) error {
	if x.visited(info) {
		return nil
	}
	x.remember(info)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p) // follows links
		switch {
		case err != nil && e.Type()&fs.ModeSymlink != 0:
			x.add(p, nil) // a dangling link: reading it reports why
		case err != nil:
			return err
		case fi.IsDir():
			if err := x.walk(p, fi); err != nil {
				return err
			}
		case fi.Mode().IsRegular() || fi.Mode()&fs.ModeNamedPipe != 0:
			x.add(p, fi)
		}
	}
	return nil
}

// GenericNames are the file stems HostFromPath does not take for a host
// name, because every machine writes a file of that name: nginx's and
// Envoy's access logs, OTLP exports, routers' and benchmarks' outputs. The
// stem is compared in lower case, "_" read as "-", without a trailing date
// ("access-20250101"); a stem with a number ("bench-1") is a name.
var GenericNames = []string{
	"access", "access-log", "envoy-access", "nginx-access", "error", "errors",
	"events", "traces", "trace", "spans", "otel", "otlp", "export", "exports",
	"router", "proxy", "gateway", "server", "client", "requests", "requests-log",
	"profile-export", "profile", "results", "benchmark", "bench", "output", "out",
	"log", "logs", "app", "stdout", "stderr", "current", "messages", "spend-logs",
	"nginx", "envoy", "haproxy", "litellm", "tgi", "triton", "vllm", "genai-perf", "har",
}

// HostFromPath names the observer host of an input that carries none: the
// file's base name up to its first dot, so "logs/edge-1.access.log.1.gz"
// gives "edge-1" and "gpu-7.log" gives "gpu-7", unless that stem is one of
// GenericNames: then the name of the folder holding the file, so
// "proxy/gw-a/access.log" gives "gw-a" (a file in the working folder gets
// that folder's name; one in the root folder keeps its stem). Standard
// input gives "stdin"; a name starting with a dot is kept whole. --host
// overrides it.
func HostFromPath(path string) string {
	if path == StdinName {
		return "stdin"
	}
	base := filepath.Base(path)
	stem := base
	if i := strings.IndexByte(base, '.'); i > 0 {
		stem = base[:i]
	}
	if !IsGenericName(stem) {
		return stem
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil || filepath.Base(dir) == string(filepath.Separator) || filepath.Base(dir) == "." {
		return stem
	}
	return filepath.Base(dir)
}

// IsGenericName reports whether the file stem is one of GenericNames,
// compared as GenericNames says. A date suffix of 6 digits or more
// ("access-20250101", "access_2025-01-01") is dropped first; a short
// number is part of a name ("bench-1" is a host).
func IsGenericName(stem string) bool {
	s := strings.ReplaceAll(strings.ToLower(stem), "_", "-")
	trimmed, digits := s, 0
	for {
		i := strings.LastIndexByte(trimmed, '-')
		if i <= 0 || trimmed[i+1:] == "" || strings.Trim(trimmed[i+1:], "0123456789") != "" {
			break
		}
		digits += len(trimmed) - i - 1
		trimmed = trimmed[:i]
	}
	if digits >= 6 {
		s = trimmed
	}
	return slices.Contains(GenericNames, s)
}

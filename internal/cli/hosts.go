package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ttftrace/ttftrace/ingest"
)

// hostRule is one --host PATH=NAME: the inputs PATH names (the file, the
// files under the folder, or the files the glob matches) get host NAME.
type hostRule struct {
	path, name string
}

// hostSettings are the parsed --host values: at most one NAME for every
// input, and PATH=NAME rules.
type hostSettings struct {
	all   string
	rules []hostRule
}

// parseHosts reads the --host values. A value holding "=" is PATH=NAME
// (split at the last "="); one without is the name of every input not
// named by a rule, given once.
func parseHosts(values []string) (hostSettings, error) {
	var h hostSettings
	for _, v := range values {
		path, name, pair := cutLast(v, "=")
		if !pair {
			name = v
		}
		if err := checkHostName(v, name); err != nil {
			return h, err
		}
		switch {
		case pair && path == "":
			return h, usagef("--host %q: empty PATH in PATH=NAME", v)
		case pair:
			h.rules = append(h.rules, hostRule{absPath(path), name})
		case h.all != "":
			return h, usagef("--host %q: a host for every input was already given (%q); name inputs with --host PATH=NAME", v, h.all)
		default:
			h.all = name
		}
	}
	return h, nil
}

// absPath is p made absolute and clean, so that a rule and an input match
// however each was written ("./proxy", "/home/u/proxy"); p itself, cleaned,
// when the working folder is unknown.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// checkHostName refuses an empty name or one with white space.
func checkHostName(v, name string) error {
	if name == "" || strings.ContainsAny(name, " \t\r\n") {
		return usagef("--host %q: NAME must be a word (a host name), not %q", v, name)
	}
	return nil
}

// matches reports whether the rule names the input file, and how closely:
// the length of the rule's path, so that the most specific rule wins.
func (r hostRule) matches(file string) (int, bool) {
	f := absPath(file)
	if f == r.path {
		return len(r.path) + 1, true // an exact file beats its folder
	}
	if rel, err := filepath.Rel(r.path, f); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
		return len(r.path), true
	}
	if ok, _ := filepath.Match(r.path, f); ok {
		return len(r.path), true
	}
	return 0, false
}

// hostOf names the host of one input: the most specific rule's name, else
// the name for all, else "" (ingest.HostFromPath decides).
func (h hostSettings) hostOf(file string) string {
	name, best := h.all, -1
	for _, r := range h.rules {
		if n, ok := r.matches(file); ok && n > best {
			name, best = r.name, n
		}
	}
	return name
}

// apply sets o's host settings for the inputs, and refuses a PATH=NAME
// that names none of them (a typo would silently leave the default).
func (h hostSettings) apply(inputs []string, o *ingest.DriverOptions) error {
	if len(h.rules) == 0 {
		o.Host = h.all
		return nil
	}
	files, err := ingest.ExpandInputs(inputs)
	if err != nil {
		return err
	}
	for _, r := range h.rules {
		if !matchesAny(r, files) {
			return usagef("--host %s=%s: %s names none of the inputs (%s)", r.path, r.name, r.path, strings.Join(firstFew(files, 5), ", "))
		}
	}
	o.Host, o.HostOf = h.all, h.hostOf
	return nil
}

func matchesAny(r hostRule, files []string) bool {
	for _, f := range files {
		if _, ok := r.matches(f); ok {
			return true
		}
	}
	return false
}

// firstFew returns up to n names, then "… (N in all)".
func firstFew(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(slices.Clone(names[:n]), fmt.Sprintf("… (%d in all)", len(names)))
}

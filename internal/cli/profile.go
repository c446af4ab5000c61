package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

// profileOptions are the profiling flags every command takes, for bench/ and
// `go tool pprof`: --cpuprofile FILE writes a CPU profile of the whole
// command, --memprofile FILE a heap profile when it ends (its alloc_space
// sample counts every allocation the command made).
type profileOptions struct {
	CPU  string // --cpuprofile FILE
	Heap string // --memprofile FILE
}

func (p *profileOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&p.CPU, "cpuprofile", "", "write a CPU profile of the command to `FILE` (go tool pprof; every command takes it)")
	fs.StringVar(&p.Heap, "memprofile", "", "write a heap profile to `FILE` when the command ends (go tool pprof -sample_index=alloc_space; every command takes it)")
}

// cutProfileFlags removes the profiling flags from args, wherever they stand
// before "--", and returns them with the other arguments in order. A
// profiling flag without a value is a usage error.
func cutProfileFlags(args []string) (profileOptions, []string, error) {
	var p profileOptions
	fs := newFlagSet("ttftrace")
	p.register(fs)
	rest := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || fs.Lookup(name) == nil {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return p, nil, usagef("flag needs an argument: -%s", name)
			}
			i++
			value = args[i]
		}
		fs.Set(name, value)
	}
	return p, rest, nil
}

// start starts the profiles p asks for and returns the function that ends
// them, writing the heap profile; it fails when a file cannot be created or
// a CPU profile is already running.
func (p profileOptions) start() (stop func() error, err error) {
	var cpu *os.File
	if p.CPU != "" {
		if cpu, err = os.Create(p.CPU); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			errs = append(errs, cpu.Close())
		}
		if p.Heap != "" {
			errs = append(errs, writeHeapProfile(p.Heap))
		}
		return errors.Join(errs...)
	}, nil
}

// writeHeapProfile writes the heap profile to path after a collection, as
// go test -memprofile does, so the in-use figures are current.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	runtime.GC()
	err = pprof.WriteHeapProfile(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	return nil
}

package cputime

import "time"

// Duration is a CPU time.
type Duration = time.Duration

package stdio

import (
	"time"
)

// Protocol is the protocol name a child must answer hello with.
const Protocol = "toolproof/1"

// Defaults for the zero values of Options.
const (
	DefaultWindow  = 64              // requests in flight at once
	DefaultTimeout = 5 * time.Second // per request
)

const (
	// startTimeout bounds hello and tool registration, which include process start-up and
	// schema compilation; it is never shorter than the per-request timeout.
	startTimeout = 10 * time.Second
	// closeGrace is how long Close waits for the child to exit after closing its stdin (a node
	// process on a busy machine can take over a second).
	closeGrace = 3 * time.Second
	// maxStrayLogs is how many unattributable lines are logged; all are counted.
	maxStrayLogs = 20
)

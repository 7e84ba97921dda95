// Package procgroup starts validator processes so that they can be ended whole: a child in a
// process group of its own, killed with everything it started.
package procgroup

// Package procgroup starts validator processes so that they can be ended whole: a child in a
// process group of its own, killed with everything it started, and tagged (Tag) so that what
// it started in a session of its own (setsid) is ended too. On Linux a command makes itself
// the subreaper of its descendants (BecomeSubreaper), so that Tag.End reaps the orphans.
package procgroup

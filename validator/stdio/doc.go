// Package stdio runs a validator written in any language as a child process that speaks the
// toolproof/1 protocol (PROTOCOL.md in this directory): newline-delimited JSON on the child's
// stdin and stdout, requests pipelined and matched by id. A *Client is a validator.Validator;
// its gates are validator.BatchGates that survive crashes and hangs of the child by restarting
// it, so that every case always gets exactly one verdict.
package stdio

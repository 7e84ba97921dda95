// Package corpus holds the embedded tool corpus: realistic coding-agent and service tools the
// project wrote, the tools `toolproof run` checks when no tool file is given.
package corpus

// Package sample holds the sample tools carried inside the binary: realistic coding-agent and
// service tools the project wrote, the tools `toolproof run` checks when no tool file is given.
package sample

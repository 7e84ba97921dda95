// Package tool holds tool definitions (a name, a description and the JSON Schema of the
// arguments) and reads them from the files people already have: OpenAI, Anthropic, MCP and plain
// definitions, as one tool, an array, JSON Lines or a directory of such files.
package tool

module github.com/toolproof/toolproof/validator/mcp/gosdk

go 1.26

require github.com/toolproof/toolproof v0.0.0

require (
	github.com/mark3labs/mcp-go v1.2.1 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
)

replace github.com/toolproof/toolproof => ../../..

package sample

import (
	"embed"

	"github.com/toolproof/toolproof/validator/tool"
)

//go:embed tools/*.json
var toolFiles embed.FS

// Tools returns the embedded tool corpus.
func Tools() tool.Set {
	set, err := tool.LoadFS(toolFiles, "tools", "validator/tool/sample/tools")
	if err != nil {
		panic("sample: embedded tools do not load: " + err.Error()) // a build defect, tested
	}
	return set
}

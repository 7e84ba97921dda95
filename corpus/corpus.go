package corpus

import (
	"embed"

	"github.com/toolproof/toolproof/tool"
)

//go:embed tools/*.json
var toolFiles embed.FS

// Tools returns the embedded tool corpus.
func Tools() tool.Set {
	set, err := tool.LoadFS(toolFiles, "tools", "corpus/tools")
	if err != nil {
		panic("corpus: embedded tools do not load: " + err.Error()) // a build defect, tested
	}
	return set
}

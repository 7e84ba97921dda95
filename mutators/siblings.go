package mutators

import (
	"maps"
	"slices"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/tool"
)

// Siblings is what the tools of one file declare, for distortions that borrow from a sibling:
// property names and string enum values. Build it once per file and share it.
type Siblings struct {
	keys  []string // every property name some tool declares, sorted
	enums []string // every string enum value some tool declares, sorted
}

// SiblingsOf collects what the tools declare, reading their schemas as JSON (no compiling):
// every "properties" key and every string in an "enum", at any depth.
func SiblingsOf(tools []tool.Tool) *Siblings {
	keys := map[string]bool{}
	enums := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch c := v.(type) {
		case map[string]any:
			if props, ok := c["properties"].(map[string]any); ok {
				for k := range props {
					keys[k] = true
				}
			}
			if enum, ok := c["enum"].([]any); ok {
				for _, e := range enum {
					if s, ok := e.(string); ok {
						enums[s] = true
					}
				}
			}
			for _, e := range c {
				walk(e)
			}
		case []any:
			for _, e := range c {
				walk(e)
			}
		}
	}
	for _, t := range tools {
		if v, err := jsonvalue.Parse(t.Parameters); err == nil {
			walk(v)
		}
	}
	return &Siblings{keys: slices.Sorted(maps.Keys(keys)), enums: slices.Sorted(maps.Keys(enums))}
}

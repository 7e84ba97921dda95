package oracle

import (
	"fmt"

	"github.com/toolproof/toolproof/internal/schemawalk"
)

// MaxSubschemas is the most subschemas a tool's parameters may hold. santhosh-tekuri/jsonschema
// looks each subschema it compiles up in the list of those already queued (a scan), so N
// subschemas cost about N² to compile: a tool beyond the budget (50,000 optional properties take
// about 20 s) is refused by Compile before compiling. The count is of the schema document, never
// of time, so the same tool is refused on every machine.
const MaxSubschemas = 20000

// subschemasFit returns an error naming the count of the subschemas of the schema document doc
// when it is more than MaxSubschemas, or nil when they fit.
func subschemasFit(doc any) error {
	n := subschemas(doc)
	if n <= MaxSubschemas {
		return nil
	}
	return fmt.Errorf("the parameters hold %d subschemas (properties, $defs, items, allOf and the like, "+
		"each counted once), more than %d: beyond the oracle's budget (oracle.MaxSubschemas), since the compile "+
		"costs the square of their number; split the tool into tools of fewer parameters", n, MaxSubschemas)
}

// subschemas counts the schemas of the schema document doc, the root included, as placed in it
// (a schema reached twice through $ref counts once): each object or boolean that is a property's,
// a definition's, an item's or an applicator's schema, and each object under another keyword
// (which may hold a schema). The walk is linear in the document.
func subschemas(doc any) int {
	n := 1
	schemawalk.Keywords(doc, func(_ map[string]any, k string, v any, _ *schemawalk.Path) bool {
		if schemawalk.IsData(k) {
			return true
		}
		switch x := v.(type) {
		case map[string]any:
			if !schemawalk.IsNameMap(k) {
				n++
				break
			}
			for _, e := range x {
				n += schemaCount(e)
			}
		case []any:
			for _, e := range x {
				n += schemaCount(e)
			}
		case bool:
			if boolSchemaKeywords[k] {
				n++
			}
		}
		return true
	})
	return n
}

// schemaCount is 1 when v, an element of a list or a name map, may be a schema, else 0.
func schemaCount(v any) int {
	switch v.(type) {
	case map[string]any, bool:
		return 1
	}
	return 0
}

// boolSchemaKeywords take one schema, which may be a boolean.
var boolSchemaKeywords = map[string]bool{"additionalProperties": true, "additionalItems": true, "items": true,
	"unevaluatedProperties": true, "unevaluatedItems": true, "contains": true, "propertyNames": true, "not": true,
	"if": true, "then": true, "else": true, "contentSchema": true}

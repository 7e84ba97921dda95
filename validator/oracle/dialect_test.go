package oracle_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// An unknown $schema is refused as a $schema, not as a $ref, and nothing is fetched.
func TestUnknownSchemaDialectIsNamed(t *testing.T) {
	for _, url := range []string{"http://127.0.0.1:1/x", "https://example.com/unknown-dialect#"} {
		_, err := oracle.Compile(tool.Tool{Name: "t",
			Parameters: json.RawMessage(`{"$schema":"` + url + `","type":"object"}`)})
		if err == nil || !strings.Contains(err.Error(), "$schema "+strings.TrimSuffix(url, "#")) ||
			strings.Contains(err.Error(), "$ref") {
			t.Errorf("%s: err = %v", url, err)
		}
	}
}

package sample_test

import (
	"testing"

	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

func TestEmbeddedToolsCompile(t *testing.T) {
	set := sample.Tools()
	if len(set.Tools) < 30 || len(set.Skipped) > 0 {
		t.Fatalf("%d tools, skipped %v", len(set.Tools), set.Skipped)
	}
	for _, tl := range set.Tools {
		if _, err := oracle.Compile(tl); err != nil {
			t.Errorf("%v", err)
		}
	}
	for _, name := range []string{"read", "execute_code", "edit_files", "bash", "grep", "sql_query", "http_request"} {
		if _, ok := set.Lookup(name); !ok {
			t.Errorf("no tool %q", name)
		}
	}
}

package registry

import (
	"strings"
	"testing"
)

func TestZooQuery(t *testing.T) {
	for version, want := range map[string]string{
		"v0.3.0":                                    "v0.3.0",
		"v1.2.0-rc.1":                               "v1.2.0-rc.1",
		"v0.0.0-20261202003937-fa846b9a1b2c":        "fa846b9a1b2c",
		"v0.3.1-0.20261202003937-fa846b9a1b2c":      "fa846b9a1b2c",
		"v0.4.0-rc.1.0.20261202003937-fa846b9a1b2c": "fa846b9a1b2c",
	} {
		got, err := zooQuery(version)
		if err != nil || got != want {
			t.Errorf("zooQuery(%q) = %q, %v; want %q", version, got, err, want)
		}
	}
	for version, says := range map[string]string{
		"(devel)":      "built from a checkout",
		"":             "built from a checkout",
		"v0.3.0+dirty": "modified checkout",
		"v0.0.0-20261202003937-fa846b9a1b2c+dirty": "modified checkout",
		"latest": "cannot read",
	} {
		_, err := zooQuery(version)
		if err == nil || !strings.Contains(err.Error(), says) ||
			(says != "cannot read" && !strings.Contains(err.Error(), "TOOLPROOF_ROOT")) {
			t.Errorf("zooQuery(%q): %v; want an error saying %q and TOOLPROOF_ROOT", version, err, says)
		}
	}
}

// TestZooErrorNamesEachValidator: when the zoo cannot be built, the error for every zoo
// validator opened afterwards names that validator, not the first one asked for.
func TestZooErrorNamesEachValidator(t *testing.T) {
	o := &Opener{Cache: t.TempDir(), Version: "(devel)"} // no Root, no version to install
	for _, name := range []string{"jsonschema-go", "kaptinlin", "qri"} {
		_, err := o.Open(name)
		if err == nil {
			t.Fatalf("Open(%q) without a checkout nor a version: no error", name)
		}
		msg := err.Error()
		if !strings.Contains(msg, "validator "+name+" ") || !strings.Contains(msg, "TOOLPROOF_ROOT") {
			t.Errorf("Open(%q): %v; want an error naming %s and saying to set TOOLPROOF_ROOT", name, err, name)
		}
		for _, other := range []string{"jsonschema-go", "kaptinlin", "qri"} {
			if other != name && strings.Contains(msg, other) {
				t.Errorf("Open(%q): %v; names %s", name, err, other)
			}
		}
	}
}

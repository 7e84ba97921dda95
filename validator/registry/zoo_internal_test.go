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
		if err == nil || !strings.Contains(err.Error(), says) || (says != "cannot read" && !strings.Contains(err.Error(), "TOOLPROOF_ROOT")) {
			t.Errorf("zooQuery(%q): %v; want an error saying %q and TOOLPROOF_ROOT", version, err, says)
		}
	}
}

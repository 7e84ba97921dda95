package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// apache2SHA256 is the SHA-256 of the Apache License 2.0 as the Apache Software Foundation
// publishes it (https://www.apache.org/licenses/LICENSE-2.0.txt).
const apache2SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"

// TestLicence checks that the repository carries the full Apache-2.0 text, that the npm package
// declares it and that the README says so.
func TestLicence(t *testing.T) {
	text, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatalf("the repository has no LICENSE: %v", err)
	}
	if sum := sha256.Sum256(text); hex.EncodeToString(sum[:]) != apache2SHA256 {
		t.Errorf("LICENSE is not the standard Apache License 2.0 text (SHA-256 %x)", sum)
	}
	raw, err := os.ReadFile("npm/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		License string `json:"license"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatalf("npm/package.json: %v", err)
	}
	if pkg.License != "Apache-2.0" {
		t.Errorf("npm/package.json: license %q, want Apache-2.0", pkg.License)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "Apache License 2.0 ([LICENSE](LICENSE))") {
		t.Error("the README does not name the licence and link LICENSE")
	}
}

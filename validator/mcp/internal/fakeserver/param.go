package fakeserver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// ParamTool has an x-mcp-header annotation.
var ParamTool = tool.Tool{Name: "run_query", Description: "Run a query in a region.",
	Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"region":{"type":"string","enum":["us-west1","eu-west1","Zürich ` +
		`1"],"x-mcp-header":"Region"},"query":{"type":"string","maxLength":100}},` +
		`"required":["region","query"],"additionalProperties":false}`)}

// paramTool serves tools/list with ParamTool added and tools/call of ParamTool, checking its
// Mcp-Param-Region header against the body; false: the request is not one of those.
func (s *HTTPServer) paramTool(w http.ResponseWriter, r *http.Request, req request) bool {
	switch {
	case req.Method == "tools/list":
		writeJSON(w, http.StatusOK,
			map[string]any{"jsonrpc": "2.0", "id": req.ID,
				"result": map[string]any{"tools": listed(append(slices.Clone(Tools), ParamTool))}})
		return true
	case req.Method != "tools/call" || req.Params.Name != ParamTool.Name:
		return false
	}
	if !regionMirrored(r, req.Params.Arguments) {
		s.ParamMismatched.Add(1)
		writeJSON(w, http.StatusBadRequest, rpcError(req.ID, -32020, "Header mismatch: Mcp-Param-Region", nil))
		return true
	}
	s.ParamMatched.Add(1)
	g, _ := oracle.Compile(ParamTool)
	result := textResult("done", false)
	if !g.Check(r.Context(), req.Params.Arguments).Valid {
		result = textResult("Input validation error: Invalid arguments for tool run_query", true)
	}
	writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	return true
}

// regionMirrored tells whether the Mcp-Param-Region header (plain or "=?base64?...?=") carries
// the region argument, or is absent when the argument is not a primitive.
func regionMirrored(r *http.Request, arguments json.RawMessage) bool {
	// A map, not a struct: encoding/json binds a struct's keys case-insensitively, and a
	// "Region" argument is not the region one (the client sends no header for it).
	var args map[string]any
	_ = json.Unmarshal(arguments, &args)
	h, present := r.Header["Mcp-Param-Region"]
	got := strings.Join(h, ",")
	if b, ok := strings.CutPrefix(got, "=?base64?"); ok && strings.HasSuffix(b, "?=") {
		dec, _ := base64.StdEncoding.DecodeString(strings.TrimSuffix(b, "?="))
		got = string(dec)
	}
	switch v := args["region"].(type) {
	case string:
		return present && got == v
	case float64, bool:
		return present && got == fmt.Sprint(v)
	default: // absent, null, or no primitive: no header expected
		return !present
	}
}

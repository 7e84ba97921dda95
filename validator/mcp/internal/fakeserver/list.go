package fakeserver

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/validator/tool"
)

// list answers tools/list: Tools, or what the mode lists instead or beside them.
func (s *server) list(x *exchange) error {
	list := listed(Tools)
	page, _ := strconv.Atoi(x.req.Params.Cursor)
	switch s.mode {
	case "no-tools":
		list = []map[string]any{}
	case "endless":
		x.reply(map[string]any{"tools": []map[string]any{untyped("t" + strconv.Itoa(page))},
			"nextCursor": strconv.Itoa(page + 1)})
		return nil
	case "many-tools":
		for i := range 10001 {
			list = append(list, untyped("t"+strconv.Itoa(i)))
		}
	case "huge-schema":
		list = append(list, map[string]any{"name": "huge", "inputSchema": wideSchema(100000)})
	case "huge-line":
		list = append(list, map[string]any{"name": "huge", "inputSchema": wideSchema(1500000)})
	case "paged":
		res := map[string]any{"tools": list[page : page+1]}
		if page+1 < len(list) {
			res["nextCursor"] = strconv.Itoa(page + 1)
		}
		x.reply(res)
		return nil
	}
	x.reply(map[string]any{"tools": list})
	return nil
}

// listed is tools as tools/list lists them.
func listed(tools []tool.Tool) []map[string]any {
	var list []map[string]any
	for _, t := range tools {
		list = append(list, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.Parameters})
	}
	return list
}

// untyped is a listed tool named name whose schema is any object.
func untyped(name string) map[string]any {
	return map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}}
}

// wideSchema is an object schema of n string properties.
func wideSchema(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}

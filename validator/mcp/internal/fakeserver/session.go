package fakeserver

import (
	"net/http"
	"strconv"
)

// session keeps the legacy sessions: initialize opens one, every other request names it.
func (s *HTTPServer) session(w http.ResponseWriter, r *http.Request, req request) bool {
	if s.opts.Stateless {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.Method == "initialize" {
		s.next++
		id := "session-" + strconv.Itoa(s.next)
		s.sessions[id] = 0
		w.Header().Set("Mcp-Session-Id", id)
		return true
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		writeJSON(w, http.StatusBadRequest, rpcError(nil, -32000, "Bad Request: Server not initialized", nil))
		return false
	}
	n, ok := s.sessions[id]
	if ok && s.opts.ExpireEvery > 0 && n >= s.opts.ExpireEvery {
		delete(s.sessions, id)
		s.Expired.Add(1)
		ok = false
	}
	if !ok {
		writeJSON(w, http.StatusNotFound, rpcError(nil, -32001, "Session not found", nil))
		return false
	}
	s.sessions[id] = n + 1
	if s.opts.Faults.Rotate {
		delete(s.sessions, id)
		s.next++
		id = "session-" + strconv.Itoa(s.next)
		s.sessions[id] = n + 1
		w.Header().Set("Mcp-Session-Id", id)
	}
	return true
}

// endSession serves a DELETE: the session it names is forgotten.
func (s *HTTPServer) endSession(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	id := r.Header.Get("Mcp-Session-Id")
	_, ok := s.sessions[id]
	delete(s.sessions, id)
	s.mu.Unlock()
	if ok {
		s.Deletes.Add(1)
	}
	w.WriteHeader(http.StatusOK)
}

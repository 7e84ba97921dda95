package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// rawStatus answers with a status line of its own, as a proxy may write it: the reason phrase
// is free text, and here it repeats the Authorization header.
func rawStatus(w http.ResponseWriter, r *http.Request, code int, body string) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 %d Refused %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: "+
		"close\r\n\r\n%s",
		code, r.Header.Get("Authorization"), len(body), body)
	buf.Flush()
}

// isCall says whether a POST is a tools/call, leaving its body readable.
func isCall(r *http.Request) bool {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	return bytes.Contains(body, []byte(`"method":"tools/call"`))
}

// TestStatusLineScrubbed: a reason phrase that repeats the header value (a 401 at start, a 500
// to a call) reaches neither the error nor the verdict; the status is named all the same.
func TestStatusLineScrubbed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rawStatus(w, r, http.StatusUnauthorized, "no")
	}))
	defer srv.Close()
	_, err := mcp.Start(mcp.Options{URL: srv.URL, Header: bearer(), Stderr: &syncBuffer{}})
	if !mcp.IsAuthError(err) || strings.Contains(err.Error(), secret) ||
		!strings.Contains(err.Error(), "401 Refused [header value]") {
		t.Fatalf("error %v: want an AuthError naming the status, without the token", err)
	}

	fake := fakeserver.NewHTTP("correct", fakeserver.HTTPOptions{})
	c, err := mcp.StartHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isCall(r) {
			rawStatus(w, r, http.StatusInternalServerError, "oops "+r.Header.Get("Authorization"))
			return
		}
		fake.ServeHTTP(w, r)
	}), mcp.Options{Header: bearer(), Stderr: &syncBuffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g, err := c.Compile(fakeserver.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	v := g.Check(context.Background(), []byte(`{"hour":1}`))
	if v.Fault == "" || strings.Contains(v.Detail, secret) ||
		!strings.Contains(v.Detail, "500 Refused [header value]") {
		t.Fatalf("verdict %+v: want a fault naming the status, without the token", v)
	}
}

// TestRedirects: a redirect within the server's origin is followed with the headers; one to
// another port is not followed (nothing reaches it), and the error names its target redacted.
func TestRedirects(t *testing.T) {
	var stolen atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-Tenant") != "" {
			stolen.Add(1)
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer other.Close()
	fake := fakeserver.NewHTTP("correct", fakeserver.HTTPOptions{Token: secret})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/mcp", http.StatusPermanentRedirect)
		case "/away":
			http.Redirect(w, r, other.URL+"/mcp?api_key="+secret, http.StatusTemporaryRedirect)
		default:
			fake.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()
	header := bearer()
	header.Set("X-Tenant", "acme")
	c, err := mcp.Start(mcp.Options{URL: srv.URL + "/old", Header: header, Stderr: &syncBuffer{}})
	if err != nil {
		t.Fatalf("a redirect within the origin: %v", err)
	}
	c.Close()
	_, err = mcp.Start(mcp.Options{URL: srv.URL + "/away", Header: header, Stderr: &syncBuffer{}})
	if stolen.Load() != 0 {
		t.Fatalf("the headers went to the other server %d times", stolen.Load())
	}
	want := "redirected (307 Temporary Redirect) to " + other.URL +
		"/mcp?api_key=<redacted>, another origin: not followed"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), secret) {
		t.Fatalf("error %v: want one saying %q", err, want)
	}
	var ae *mcp.AuthError
	if errors.As(err, &ae) {
		t.Fatalf("a redirect is no AuthError: %v", err)
	}
}

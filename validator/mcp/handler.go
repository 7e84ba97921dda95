package mcp

import (
	"net/http"
	"net/http/httptest"
)

// StartHandler serves h, a Go server's Streamable HTTP handler, on a loopback httptest.Server
// and starts the client on it, so that go test checks the server's HTTP gate as a remote client
// meets it. opts.URL and opts.HTTPClient are set here; Close stops the server too.
func StartHandler(h http.Handler, opts Options) (*Client, error) {
	srv := httptest.NewServer(h)
	if tr, ok := srv.Client().Transport.(*http.Transport); ok {
		tr.MaxIdleConnsPerHost = max(opts.Window, DefaultHTTPWindow) + 2
	}
	opts.URL, opts.HTTPClient, opts.Command, opts.Dial = srv.URL, srv.Client(), nil, nil
	c, err := Start(opts)
	if err != nil {
		srv.Close()
		return nil, err
	}
	c.stop = srv.Close
	return c, nil
}

package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// redirectError is a redirect to another origin (scheme, host or port) than the server's:
// toolproof does not follow it, since the user's headers (Authorization and the others) would
// go to a server they were not given for. From and To are redacted (RedactURL); Status is
// as the server wrote it.
type redirectError struct {
	From, To string
	Status   string // "307 Temporary Redirect"
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("%s redirected (%s) to %s, another origin: not followed, so that the --header values go "+
		"nowhere else; give that URL to --validator if it is the server", e.From, e.Status, e.To)
}

// sameOrigin is client with a redirect policy that follows a redirect only within the origin
// of the first request (at most 10, as net/http does), the headers kept; one to another
// origin is a *redirectError. A CheckRedirect of client's own is asked after that.
func sameOrigin(client *http.Client) *http.Client {
	c := *client
	theirs := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if !strings.EqualFold(req.URL.Scheme, first.Scheme) || !strings.EqualFold(req.URL.Host, first.Host) {
			status := ""
			if req.Response != nil {
				status = req.Response.Status
			}
			return &redirectError{From: RedactURL(via[len(via)-1].URL.String()),
				To: RedactURL(req.URL.String()), Status: status}
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if theirs != nil {
			return theirs(req, via)
		}
		return nil
	}
	return &c
}

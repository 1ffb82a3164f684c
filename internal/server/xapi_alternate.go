package server

// xAPI 1.0.3's alternate request syntax (Communication 1.3), for clients
// that can send only GET and POST and no headers (Internet Explorer's
// XDomainRequest): a POST whose "method" query parameter is the intended
// method, whose form body carries the content, the headers and the
// parameters. xAPI 2.0 (IEEE 9274.1.1) removed it: the conformance suite
// expects a 4xx for any request with a method parameter under 2.0.0, which
// the entry point answers once it knows the version.

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// alternateHeaders are the form fields the LRS takes as headers.
var alternateHeaders = map[string]bool{
	"Authorization":            true,
	"X-Experience-Api-Version": true, // http.CanonicalHeaderKey's spelling
	"Content-Type":             true,
	"Content-Length":           true,
	"If-Match":                 true,
	"If-None-Match":            true,
}

type alternateKey struct{}

// usedAlternateSyntax reports whether alternateRequest rewrote r.
func usedAlternateSyntax(r *http.Request) bool {
	used, _ := r.Context().Value(alternateKey{}).(bool)
	return used
}

// alternateRequest rewrites a request in the alternate request syntax
// into the ordinary request it stands for: the method parameter's method,
// the form's "content" as body, its header fields as headers and its
// other fields as query parameters. A request without a method parameter
// comes back as it is. A header sent both ways keeps the HTTP header's
// value (the conformance suite sends a version in both and expects the
// header's to count). Malformed uses are EINVALID.
func alternateRequest(r *http.Request) (*http.Request, error) {
	query := r.URL.Query()
	if !query.Has("method") {
		return r, nil
	}
	if r.Method != http.MethodPost {
		return nil, apperr.Invalid("the alternate request syntax (a method parameter) is for POST requests only, not %s", r.Method)
	}
	if len(query) > 1 || len(query["method"]) > 1 {
		return nil, apperr.Invalid("with the alternate request syntax, method is the only query parameter: send the others as form fields")
	}
	method := query.Get("method")
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPost, http.MethodDelete:
	default:
		return nil, apperr.Invalid("method: %q is not an xAPI method (GET, HEAD, PUT, POST or DELETE)", method)
	}

	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, bodyError(err)
	}
	if len(body) > 0 {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/x-www-form-urlencoded" {
			return nil, apperr.Invalid("a request in the alternate request syntax sends a form: Content-Type must be application/x-www-form-urlencoded, not %q", r.Header.Get("Content-Type"))
		}
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, apperr.Invalid("the form body is not URL-encoded: %v", err)
	}

	out := r.Clone(context.WithValue(r.Context(), alternateKey{}, true))
	out.Method = method
	out.Header.Del("Content-Type")
	out.Header.Del("Content-Length")
	params := url.Values{}
	var content string
	hasContent := false
	for name, vals := range form {
		header := http.CanonicalHeaderKey(name)
		switch {
		case name == "content":
			if len(vals) > 1 {
				return nil, apperr.Invalid("the content form field is given %d times", len(vals))
			}
			content, hasContent = vals[0], true
		case alternateHeaders[header]:
			if len(vals) > 1 {
				return nil, apperr.Invalid("the %s form field is given %d times", name, len(vals))
			}
			// The HTTP header wins, but the request's own Content-Type
			// describes the form, not the content; and the content's
			// length is the content's, whatever a field says.
			if header != "Content-Length" && (r.Header.Get(header) == "" || header == "Content-Type") {
				out.Header.Set(header, vals[0])
			}
		default:
			params[name] = vals
		}
	}
	switch {
	case (method == http.MethodPut || method == http.MethodPost) && !hasContent:
		return nil, apperr.Invalid("a %s in the alternate request syntax sends its document or statements in the content form field", method)
	case method != http.MethodPut && method != http.MethodPost && hasContent:
		return nil, apperr.Invalid("a %s sends no content; drop the content form field", method)
	case !utf8.ValidString(content):
		return nil, apperr.Invalid("the content form field is not UTF-8 text")
	}
	if hasContent && out.Header.Get("Content-Type") == "" && json.Valid([]byte(content)) {
		out.Header.Set("Content-Type", "application/json")
	}
	out.URL.RawQuery = params.Encode()
	out.RequestURI = out.URL.RequestURI()
	out.Body = io.NopCloser(strings.NewReader(content))
	out.ContentLength = int64(len(content))
	out.GetBody = nil
	return out, nil
}

// errAlternateIn2 answers a request in the alternate request syntax made
// under xAPI 2.0.0.
var errAlternateIn2 = apperr.Invalid("xAPI 2.0.0 has no alternate request syntax (the method parameter is 1.0.3's): send the method, headers and parameters as an ordinary request")

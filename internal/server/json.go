package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"journeyman/internal/apperr"
)

// MaxBodyBytes is the largest request body the API reads.
const MaxBodyBytes = 1 << 20

// readJSON decodes the request body into dst, strictly: unknown fields,
// wrong types, trailing data and bodies over MaxBodyBytes are errors that
// say what was wrong.
func readJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return apperr.Errorf(apperr.EINVALID, "Content-Type must be application/json, not %q", ct)
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apperr.Invalid("request body must hold a single JSON value")
	}
	return nil
}

// jsonError turns a decoding error into a message a person can act on.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tooBig *http.MaxBytesError
	var own *apperr.Error
	switch {
	case errors.As(err, &own):
		return own // a type's own decoder said what was wrong (training.Rotation)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return apperr.Errorf(apperr.ETIMEOUT, "the request body did not arrive in time; send it whole, promptly")
	case errors.Is(err, io.EOF):
		return apperr.Invalid("request body is empty; send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.Invalid("malformed JSON: the body ends too early")
	case errors.As(err, &syntax):
		return apperr.Invalid("malformed JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		// A number that does not fit the field (a fraction, an exponent, too
		// large) is reported by encoding/json as "number 1.5": show the number.
		got := strings.TrimPrefix(typ.Value, "number ")
		if typ.Field == "" { // every body the API reads is an object
			return apperr.Invalid("request body must be a JSON object, not %s", got)
		}
		return apperr.Invalid("field %q must be %s, not %s", typ.Field, jsonKind(typ.Type.Kind().String()), got)
	case errors.As(err, &tooBig):
		return apperr.Errorf(apperr.ETOOLARGE, "request body is larger than %d bytes", tooBig.Limit)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return apperr.Invalid("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	default:
		return apperr.Invalid("malformed JSON: %v", err)
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "a list"
	default:
		return "an object"
	}
}

// writeJSON writes v with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var body []byte
	var err error
	if a, ok := v.(jsonAppender); ok {
		if body, err = a.AppendJSON(make([]byte, 0, 1024)); err == nil {
			body = append(body, '\n') // as json.Encoder ends a value
		}
	} else {
		var buf bytes.Buffer
		err = json.NewEncoder(&buf).Encode(v)
		body = buf.Bytes()
	}
	if err != nil {
		// Only our own types are encoded here; failing is a programming error.
		panic(fmt.Sprintf("encode response: %v", err))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	// gosec reports G705 (XSS) here, and nolintlint calls the directive for
	// it unused: the body is JSON as encoding/json writes it (&, < and >
	// escaped). A failed write is a client gone: no one to tell.
	_, _ = w.Write(body) //nolint:gosec,nolintlint // G705, see above
}

// jsonAppender is a type that encodes itself as json.Marshal would, faster
// (training.Session: the answer to every session update).
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// errorBody is the one JSON error shape.
type errorBody struct {
	Message string `json:"message"`
}

var statusOf = map[string]int{
	apperr.EINVALID:      http.StatusBadRequest,
	apperr.EUNAUTHORIZED: http.StatusUnauthorized,
	apperr.EFORBIDDEN:    http.StatusForbidden,
	apperr.ENOTFOUND:     http.StatusNotFound,
	apperr.ETIMEOUT:      http.StatusRequestTimeout,
	apperr.ECONFLICT:     http.StatusConflict,
	apperr.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	apperr.EPRECONDITION: http.StatusPreconditionFailed,
	apperr.EPRECONDREQ:   http.StatusPreconditionRequired,
	apperr.ERATELIMIT:    http.StatusTooManyRequests,
	apperr.EINTERNAL:     http.StatusInternalServerError,
}

// writeError answers with err's status and message; internal errors are
// logged with the request id and shown only as "internal error". A request
// whose client went away fails however the handler was interrupted (a
// canceled query, a body cut short); that is no fault of ours, so it is
// answered 499 for the request log and nobody, and not logged as an error.
// A body that missed its deadline also cancels the request, but that client
// is still there to read its 408.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := apperr.Code(err)
	if code != apperr.ETIMEOUT && clientGone(r) {
		s.log.InfoContext(r.Context(), "client closed request", "request_id", requestID(r), "method", r.Method, "path", r.URL.Path, "err", err)
		w.WriteHeader(StatusClientClosedRequest)
		return
	}
	if code == apperr.EINTERNAL {
		s.log.ErrorContext(r.Context(), "internal error", "request_id", requestID(r), "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeJSON(w, statusOf[code], errorBody{Message: apperr.Message(err)})
}

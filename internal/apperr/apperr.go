// Package apperr is the application's one error type. Domain packages and the
// store return these; the server maps each code to an HTTP status and shows the
// message to the person who made the request.
package apperr

import (
	"errors"
	"fmt"
)

// Codes, each mapped to one HTTP status by the server.
const (
	EINVALID      = "invalid"      // 400: the request is wrong; the message says how
	EUNAUTHORIZED = "unauthorized" // 401: no identity, or not signed in
	EFORBIDDEN    = "forbidden"    // 403
	ENOTFOUND     = "not_found"    // 404
	ETIMEOUT      = "timeout"      // 408: the request body did not arrive in time
	ECONFLICT     = "conflict"     // 409
	ETOOLARGE     = "too_large"    // 413
	EPRECONDITION = "precondition" // 412: an If-Match / If-None-Match condition failed
	EPRECONDREQ   = "precondreq"   // 428: a write that must carry a condition came without one
	ERATELIMIT    = "rate_limit"   // 429
	EINTERNAL     = "internal"     // 500: never shown; logged with the request id
)

// Error is an error a person can act on.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns an EINVALID error.
func Invalid(format string, args ...any) *Error { return Errorf(EINVALID, format, args...) }

// NotFound returns an ENOTFOUND error.
func NotFound(format string, args ...any) *Error { return Errorf(ENOTFOUND, format, args...) }

// Conflict returns an ECONFLICT error.
func Conflict(format string, args ...any) *Error { return Errorf(ECONFLICT, format, args...) }

// Forbidden returns an EFORBIDDEN error.
func Forbidden(format string, args ...any) *Error { return Errorf(EFORBIDDEN, format, args...) }

// Code returns the code of an application error, EINTERNAL for any other error
// and "" for nil.
func Code(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// Message returns the human-readable message of an application error and
// "internal error" for any other error, whose text may hold internals.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"journeyman/internal/realtime"
)

// testBodyTimeout is short so that the tests of slow bodies run quickly;
// the dribbling client would need far longer to finish its body.
const testBodyTimeout = 300 * time.Millisecond

func mustServeWithBodyTimeout(t *testing.T, log *slog.Logger) (*Server, *httptest.Server) {
	t.Helper()
	s := MustOpenServer(t)
	if log == nil {
		log = s.log
	}
	s = mustNew(t, s.store, Config{Logger: log, App: testApp, BodyTimeout: testBodyTimeout})
	return s, serveHTTP(t, s)
}

// dribble opens a TCP connection to srv, sends head, then the body one byte
// every 50 ms (a whole body would take a minute) until the connection
// fails or the test ends.
func dribble(t *testing.T, srv *httptest.Server, head string) *bufio.Reader {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	// Bounds a server that never cuts the body off: the test then fails
	// reading, instead of hanging.
	if err := conn.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	return bufio.NewReader(conn)
}

func TestSlowBodyIsCutOff(t *testing.T) {
	s, srv := mustServeWithBodyTimeout(t, nil)
	host := srv.Listener.Addr().String()
	token, _ := guestToken(t, s, "slow")
	cookie := "Cookie: " + GuestCookie + "=" + token + "\r\n"

	t.Run("ErrJSONBody408", func(t *testing.T) {
		br := dribble(t, srv, "POST /api/demo-requests HTTP/1.1\r\nHost: "+host+"\r\n"+cookie+"Content-Type: application/json\r\nContent-Length: 3000\r\n\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer to a dribbled body: %v", err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("status = %d, want 408; body %s", res.StatusCode, body)
		}
		if msg := message(t, string(body)); !strings.Contains(msg, "did not arrive in time") {
			t.Fatalf("message %q", msg)
		}
		if !res.Close {
			t.Fatal("the connection stays open after a body cut off midway")
		}
		checkDataHeaders(t, res.Header, false)
	})

	t.Run("ErrChunkedBody408", func(t *testing.T) {
		br := dribble(t, srv, "POST /api/demo-requests HTTP/1.1\r\nHost: "+host+"\r\n"+cookie+"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer to a dribbled body: %v", err)
		}
		if res.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("status = %d, want 408", res.StatusCode)
		}
	})

	// A handler that never reads the body answers, but the server still
	// drains the body before reusing the connection: the deadline bounds
	// that too, and the connection closes.
	t.Run("ErrUnreadBodyClosesConnection", func(t *testing.T) {
		br := dribble(t, srv, "GET /healthz HTTP/1.1\r\nHost: "+host+"\r\nContent-Length: 3000\r\n\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer: %v", err)
		}
		if _, err := io.ReadAll(res.Body); err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK {
			t.Fatalf("status = %d, want 200", res.StatusCode)
		}
		// Closed: EOF, or a reset as the unread dribble meets a closed socket.
		if _, err := br.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("after the answer: %v, want the connection closed", err)
		}
	})
}

// A prompt body lifts the deadline: a handler that takes longer than the
// body timeout after reading its body keeps its context, and keep-alive
// connections serve the next request.
func TestBodyDeadlineLiftedOnceRead(t *testing.T) {
	s := MustOpenServer(t)
	s = mustNew(t, s.store, Config{Logger: s.log, App: testApp, BodyTimeout: testBodyTimeout})
	srv := httptest.NewServer(s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in sample
		if err := readJSON(w, r, &in); err != nil {
			s.writeError(w, r, err)
			return
		}
		select {
		case <-r.Context().Done():
			s.writeError(w, r, fmt.Errorf("slow work: %w", r.Context().Err()))
			return
		case <-time.After(3 * testBodyTimeout):
		}
		writeJSON(w, http.StatusCreated, in)
	})))
	t.Cleanup(srv.Close)
	for i := range 2 { // the second request reuses the connection
		res, err := srv.Client().Post(srv.URL, "application/json", strings.NewReader(`{"name":"slow"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("request %d: status = %d, want 201; body %s", i, res.StatusCode, body)
		}
	}
}

// WebSockets hijack their connection and live for hours: no body deadline
// may reach them.
func TestWebSocketOutlivesBodyTimeout(t *testing.T) {
	s, srv := mustServeWithBodyTimeout(t, nil)
	c := mustDial(t, srv, guestID(1))
	waitConns(t, s, 1)
	time.Sleep(3 * testBodyTimeout)
	// A join of an unknown session answers with an error message: the
	// connection still reads and writes.
	wsSend(t, c, realtime.Message{Type: realtime.TypeJoin, SessionID: "no-such-session", Payload: json.RawMessage(`{"role":"observer"}`)})
	if m := wsRead(t, c, realtime.TypeError); m.Type != realtime.TypeError {
		t.Fatalf("got %+v, want an error message", m)
	}
}

func TestClientRequestID(t *testing.T) {
	var logs bytes.Buffer
	s := MustOpenServer(t)
	s = mustNew(t, s.store, Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), App: testApp})
	long := strings.Repeat("a", 300_000)
	tests := []struct {
		name string
		ids  []string
		kept bool
	}{
		{"Plain", []string{"req-1.2_3"}, true},
		{"AtTheLimit", []string{strings.Repeat("x", 64)}, true},
		{"ErrTooLong", []string{strings.Repeat("x", 65)}, false},
		{"ErrHuge", []string{long}, false},
		{"ErrSpace", []string{"a b"}, false},
		{"ErrMarkup", []string{"<script>"}, false},
		{"ErrNewlineEscape", []string{`a\nb`}, false},
		{"ErrNonASCII", []string{"idé"}, false},
		{"ErrTwoHeaders", []string{"one", "two"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs.Reset()
			r := httptest.NewRequest("GET", "/healthz", nil)
			for _, id := range tt.ids {
				r.Header.Add("X-Request-Id", id)
			}
			res := do(t, s, r)
			got := res.header.Get("X-Request-Id")
			if tt.kept && got != tt.ids[0] {
				t.Fatalf("X-Request-Id = %q, want the client's %q", got, tt.ids[0])
			}
			if !tt.kept && (got == "" || strings.Contains(strings.Join(tt.ids, " "), got)) {
				t.Fatalf("X-Request-Id = %.80q, want a generated one", got)
			}
			var line struct {
				Msg       string `json:"msg"`
				RequestID string `json:"request_id"`
			}
			if err := json.Unmarshal(logs.Bytes(), &line); err != nil || line.RequestID != got {
				t.Fatalf("log %s: request_id %q, want %q (%v)", logs.Bytes(), line.RequestID, got, err)
			}
			for _, id := range tt.ids {
				if !tt.kept && strings.Contains(logs.String(), id) {
					t.Fatalf("the refused id %.40q… is in the log", id)
				}
			}
		})
	}
}

// Every request is logged once, with its id, method, route pattern, path,
// status and duration in whole microseconds, at the time it ended.
func TestAccessLogLine(t *testing.T) {
	var logs bytes.Buffer
	s := MustOpenServer(t)
	s = mustNew(t, s.store, Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), App: testApp})
	tests := []struct {
		name, method, path, route string
		status                    float64
	}{
		{"OK", "GET", "/api/training-modules", "GET /api/training-modules", 200},
		{"ErrUnknownPath", "GET", "/api/nowhere", "/api/", 404},
		{"ErrWrongMethod", "DELETE", "/api/training-modules", "/api/", 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs.Reset()
			before := time.Now()
			r := httptest.NewRequest(tt.method, tt.path, nil)
			r.Header.Set("X-Request-Id", "access-"+tt.name)
			do(t, s, r)
			var requests []map[string]any
			for _, line := range logLines(t, &logs) {
				if line["msg"] == "request" {
					requests = append(requests, line)
				}
			}
			if len(requests) != 1 {
				t.Fatalf("request lines: %v, want one", requests)
			}
			line := requests[0]
			for k, want := range map[string]any{"level": "INFO", "request_id": "access-" + tt.name, "method": tt.method,
				"route": tt.route, "path": tt.path, "status": tt.status} {
				if line[k] != want {
					t.Errorf("%s = %v, want %v (%v)", k, line[k], want, line)
				}
			}
			us, ok := line["duration_us"].(float64)
			if !ok || us < 0 || us != float64(int64(us)) {
				t.Errorf("duration_us = %v, want whole microseconds", line["duration_us"])
			}
			at, err := time.Parse(time.RFC3339Nano, fmt.Sprint(line["time"]))
			if err != nil || at.Before(before) || at.After(time.Now()) {
				t.Errorf("time = %v, want when the request ended (%v)", line["time"], err)
			}
		})
	}
}

// logLines decodes a JSON log.
func logLines(tb testing.TB, logs *bytes.Buffer) []map[string]any {
	tb.Helper()
	var out []map[string]any
	for line := range strings.Lines(logs.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			tb.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestAbandonedRequestLogged499(t *testing.T) {
	var logs bytes.Buffer
	s := MustOpenServer(t)
	s = mustNew(t, s.store, Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), App: testApp})
	tests := []struct {
		name    string
		handler http.Handler
	}{
		// The real path: the store's query fails on the canceled context
		// (a first call, so the guest is not cached and is written).
		{"StoreQuery", s},
		{"ErrorAfterCancel", s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.writeError(w, r, fmt.Errorf("load: %w", r.Context().Err()))
		}))},
		{"InternalErrorAfterCancel", s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.writeError(w, r, errors.New("interrupted (9)")) // what SQLite says when interrupted
		}))},
		{"NothingWritten", s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs.Reset()
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // the client is gone
			r := httptest.NewRequest("GET", "/api/training-modules", nil).WithContext(ctx)
			do(t, tt.handler, r)
			var request map[string]any
			for _, line := range logLines(t, &logs) {
				if line["level"] != "INFO" {
					t.Errorf("logged at %v: %v", line["level"], line)
				}
				if line["msg"] == "request" {
					request = line
				}
			}
			if request == nil || request["status"] != float64(StatusClientClosedRequest) {
				t.Fatalf("request log %v, want status 499", request)
			}
		})
	}

	t.Run("ErrStillThereGets500", func(t *testing.T) {
		logs.Reset()
		h := s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.writeError(w, r, errors.New("disk on fire"))
		}))
		res := do(t, h, httptest.NewRequest("GET", "/api/x", nil))
		if res.status != 500 || !strings.Contains(logs.String(), `"level":"ERROR","msg":"internal error"`) {
			t.Fatalf("status %d, log %s; want 500 and an error logged", res.status, logs.String())
		}
	})
}

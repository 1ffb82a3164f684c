package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestShutdownClosesWebSockets1001 starts the process, connects a learner's
// WebSocket, raises an alert through it, and stops the process: the socket
// is closed with 1001 (going away) and run returns cleanly.
func TestShutdownClosesWebSockets1001(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs, logWriter := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "j.db")}, func(string) string { return "" }, logWriter)
		logWriter.Close()
	}()
	url := ""
	lines := bufio.NewScanner(logs)
	for url == "" && lines.Scan() {
		var line struct{ Msg, URL string }
		if json.Unmarshal(lines.Bytes(), &line) == nil && line.Msg == "listening" {
			url = line.URL
		}
	}
	if url == "" {
		t.Fatalf("no listening line; run returned %v", <-done)
	}
	go func() { _, _ = io.Copy(io.Discard, logs) }() // drained so the server never blocks on its log

	// The API issues the learner cookie; the socket presents it.
	res, err := http.Get(url + "/api/me")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookie := res.Header.Get("Set-Cookie")
	dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer dcancel()
	c, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(url, "http")+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Cookie": {strings.Split(cookie, ";")[0]}, "Origin": {url}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(dctx, websocket.MessageText, []byte(`{"type":"safety_alert","payload":{"alertType":"general","description":"Wet floor"}}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := c.Read(dctx); err != nil || !strings.Contains(string(b), "Wet floor") {
		t.Fatalf("read %s, %v; want the alert back", b, err)
	}

	cancel()
	_, _, err = c.Read(dctx)
	if st := websocket.CloseStatus(err); st != websocket.StatusGoingAway {
		t.Fatalf("closed with %v (%v), want 1001", st, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after shutdown: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not return")
	}
}

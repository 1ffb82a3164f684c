package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
)

func TestProfiler(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	t.Run("OffByDefault", func(t *testing.T) {
		addr, err := startProfiler(context.Background(), "", log)
		if err != nil || addr != "" {
			t.Fatalf("startProfiler(\"\") = %q, %v; want nothing served", addr, err)
		}
	})
	t.Run("Serves", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		addr, err := startProfiler(ctx, "127.0.0.1:0", log)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/debug/pprof/", "/debug/pprof/heap", "/debug/pprof/goroutine?debug=1"} {
			res, err := http.Get("http://" + addr + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s = %d", path, res.StatusCode)
			}
		}
	})
	t.Run("BadAddress", func(t *testing.T) {
		if _, err := startProfiler(context.Background(), "127.0.0.1:-1", log); err == nil {
			t.Fatal("startProfiler on a bad address succeeded")
		}
	})
}

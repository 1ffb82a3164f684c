package fieldbus_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"journeyman/internal/fieldbus"
)

// holdIdle opens n connections to addr that never send a byte.
func holdIdle(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := net.DialTimeout("tcp", addr, 3*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns = append(conns, c)
	}
	return conns
}

// TestFaultyClients holds idle and half-open sockets on a device and
// checks everyone else is still served at once. The bounds are for
// correctness, generous for a loaded machine: without the guard the
// Modbus exchange failed with EOF and the OPC UA read took 24 s.
func TestFaultyClients(t *testing.T) {
	f, seed := startedFleet(t)
	ctx := context.Background()
	const bound = 3 * time.Second

	tests := []struct {
		name, twin string
		idle       int
		halfFrame  []byte // sent by one more client, which then hangs
		exchange   string // Test Protocol's data; "" reads with an independent client instead
	}{
		{"ModbusIdleSockets", "chlr-1", 20, nil, `{"functionCode":3,"startAddress":0,"registerCount":2}`},
		{"ModbusHalfFrame", "bp-2", 0, []byte{0, 1, 0, 0, 0, 6, 3, 3}, `{"functionCode":4}`},
		{"OPCUAIdleSocket", "xfmr-t1", 1, nil, ""},
		{"OPCUAHalfHello", "wtg-12", 0, []byte("HELF\x38\x00\x00\x00\x00\x00"), ""},
		{"ENIPIdleSockets", "weld-cell-4", 20, nil, `{"assembly":100}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eq := seed[tt.twin]
			addr := deviceAddr(t, f, eq)
			serve := func() {
				t.Helper()
				if tt.exchange != "" {
					if _, err := f.Exchange(ctx, eq, eq.CommunicationProtocol, json.RawMessage(tt.exchange)); err != nil {
						t.Fatalf("Test Protocol: %v", err)
					}
				} else if v := opcuaRead(t, addr, "ns=1;s=Temperature"); v == nil {
					t.Fatal("no value")
				}
			}
			// Served once first: an OPC UA device starts its server for its
			// first client (seconds under -race), which is not what the
			// faulty clients cost.
			serve()
			holdIdle(t, addr, tt.idle)
			if tt.halfFrame != nil {
				c := holdIdle(t, addr, 1)[0]
				if _, err := c.Write(tt.halfFrame); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(50 * time.Millisecond) // the faulty sockets are in before the good client
			start := time.Now()
			serve()
			if took := time.Since(start); took > bound {
				t.Fatalf("took %s beside faulty clients; want well under %s", took, bound)
			}
		})
	}
}

// TestDeviceConnectionCap fills a device's connections: the next client is
// closed at once, not queued.
func TestDeviceConnectionCap(t *testing.T) {
	f, seed := startedFleet(t, "pnl-lp2a")
	addr := deviceAddr(t, f, seed["pnl-lp2a"])
	holdIdle(t, addr, fieldbus.MaxDeviceConns)
	time.Sleep(100 * time.Millisecond) // all accepted
	extra := holdIdle(t, addr, 1)[0]
	_ = extra.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, err := io.ReadAll(extra)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("connection %d past the cap of %d was kept open", fieldbus.MaxDeviceConns+1, fieldbus.MaxDeviceConns)
	}
}

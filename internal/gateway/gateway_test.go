package gateway

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/fieldbus/fieldbustest"
	"journeyman/internal/twin"
)

func modbusConn(addr string, points ...twin.Point) twin.Connection {
	c := twin.Connection{Address: addr, IntervalMs: 100, TimeoutMs: 300, Points: points}
	c.Normalize(twin.ProtocolModbusTCP)
	return c
}

func TestModbusPointMap(t *testing.T) {
	p := fieldbustest.StartPLC(t, "")
	p.SetHolding(0, 0x41C8, 0x0000)  // 25.0 as float32, high word first
	p.SetHolding(2, 0x0000, 0x41C8)  // 25.0 as float32, low word first
	p.SetHolding(4, 0xFFF6)          // -10 as int16
	p.SetInput(10, 4215)             // 421.5 kPa at scale 0.1
	p.SetInput(11, 0x0001, 0x86A0)   // 100000 as uint32
	p.SetHolding(20, 0x7F80, 0x0000) // +Inf as float32
	tests := []struct {
		name  string
		point twin.Point
		value float64 // reading; NaN-free
		err   string  // the point's error, "" when read
	}{
		{"Float32HighFirst", twin.Point{Sensor: "temperature", Register: 0}, 25, ""},
		{"Float32LowFirst", twin.Point{Sensor: "temperature", Register: 2, WordOrder: "low-first"}, 25, ""},
		{"Int16", twin.Point{Sensor: "temperature", Register: 4, DataType: "int16"}, -10, ""},
		{"ScaledInput", twin.Point{Sensor: "pressure", Register: 10, RegisterType: "input", DataType: "uint16", Scale: 0.1}, 421.5, ""},
		{"Offset", twin.Point{Sensor: "temperature", Register: 4, DataType: "int16", Offset: 40}, 30, ""},
		{"Uint32", twin.Point{Sensor: "rpm", Register: 11, RegisterType: "input", DataType: "uint32"}, 100000, ""},
		{"OutOfRange", twin.Point{Sensor: "efficiency", Register: 11, RegisterType: "input", DataType: "uint32"}, 0, "outside the physical range"},
		{"NotANumber", twin.Point{Sensor: "temperature", Register: 20}, 0, "not a number"},
		{"Exception", twin.Point{Sensor: "temperature", Register: 500}, 0, "illegal data address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Test(context.Background(), twin.ProtocolModbusTCP, modbusConn(p.Addr, tt.point))
			if res.Error != "" || len(res.Points) != 1 {
				t.Fatalf("test = %+v", res)
			}
			v := res.Points[0]
			if tt.err != "" {
				if res.OK || v.Value != nil || !strings.Contains(v.Error, tt.err) {
					t.Fatalf("point = %+v (ok %v), want error %q", v, res.OK, tt.err)
				}
				return
			}
			if !res.OK || v.Value == nil || *v.Value != tt.value {
				t.Fatalf("point = %+v, want %g", v, tt.value)
			}
		})
	}
	t.Run("ErrRefused", func(t *testing.T) {
		res := Test(context.Background(), twin.ProtocolModbusTCP, modbusConn(deadAddr(t), twin.Point{Sensor: "temperature"}))
		if res.OK || !strings.Contains(res.Error, "refused") {
			t.Fatalf("test of a closed port = %+v", res)
		}
	})
}

// deadAddr is a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	return "127.0.0.1:" + strconv.Itoa(fieldbustest.ConsecutivePorts(t, 1))
}

// recorder is the server side of a gateway under test: what it stored.
type recorder struct {
	mu       sync.Mutex
	twins    []twin.Equipment
	readings map[string][]twin.SensorUpdate
	sync     map[string][]string // status:count, in order
}

func (r *recorder) config(holder string) Config {
	return Config{
		Holder: holder,
		List: func(context.Context) ([]twin.Equipment, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			return append([]twin.Equipment(nil), r.twins...), nil
		},
		Claim: func(context.Context, string, time.Duration) ([]string, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			var ids []string
			for _, eq := range r.twins {
				ids = append(ids, eq.ID)
			}
			return ids, nil
		},
		Release: func(context.Context, string) error { return nil },
		Ingest: func(_ context.Context, u twin.SensorUpdate) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.readings[u.EquipmentID] = append(r.readings[u.EquipmentID], u)
			return nil
		},
		SetSync: func(_ context.Context, id, status string, n int) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.sync[id] = append(r.sync[id], status+":"+strconv.Itoa(n))
			return nil
		},
		Now: time.Now,
		Log: slog.New(slog.DiscardHandler),
	}
}

func newRecorder(list ...twin.Equipment) *recorder {
	return &recorder{twins: list, readings: map[string][]twin.SensorUpdate{}, sync: map[string][]string{}}
}

// last returns the latest value of sensor stored for id, and how many
// updates were stored.
func (r *recorder) last(id, sensor string) (float64, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	us := r.readings[id]
	for i := len(us) - 1; i >= 0; i-- {
		for _, v := range us[i].Values {
			if v.Key == sensor {
				return v.Value, len(us)
			}
		}
	}
	return 0, len(us)
}

func (r *recorder) syncOf(id string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.sync[id]...)
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func connected(id, protocol string, c twin.Connection) twin.Equipment {
	return twin.Equipment{ID: id, CommunicationProtocol: protocol, Connection: &c, SyncStatus: twin.SyncSyncing}
}

func TestGatewayPollsAndReconnects(t *testing.T) {
	p := fieldbustest.StartPLC(t, "")
	p.SetHolding(0, 0x41C8, 0x0000) // 25.0
	r := newRecorder(connected("pump", twin.ProtocolModbusTCP, modbusConn(p.Addr, twin.Point{Sensor: "temperature"})))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := New(r.config("a"))
	go g.Run(ctx)

	eventually(t, "the first reading is stored", func() bool { v, _ := r.last("pump", "temperature"); return v == 25 })
	p.SetHolding(0, 0x41D0, 0x0000) // 26.0
	eventually(t, "a changed register is stored", func() bool { v, _ := r.last("pump", "temperature"); return v == 26 })

	p.Stop()
	eventually(t, "a stopped device shows as disconnected", func() bool {
		s := r.syncOf("pump")
		return len(s) > 0 && s[len(s)-1] == "disconnected:1"
	})
	_, before := r.last("pump", "temperature")
	restarted := fieldbustest.StartPLC(t, p.Addr)
	restarted.SetHolding(0, 0x41D8, 0x0000) // 27.0
	eventually(t, "readings resume after the device is back", func() bool { v, _ := r.last("pump", "temperature"); return v == 27 })
	eventually(t, "the failure count is reset", func() bool {
		s := r.syncOf("pump")
		return s[len(s)-1] == "synced:0"
	})
	if _, n := r.last("pump", "temperature"); n <= before {
		t.Fatal("no reading after the reconnect")
	}
}

// TestDeadDevicesSlowNoOther polls one good device beside one that accepts
// connections and never answers, one that sends garbage and one that
// drops every connection: the good one's readings keep their pace.
func TestDeadDevicesSlowNoOther(t *testing.T) {
	good := fieldbustest.StartPLC(t, "")
	good.SetHolding(0, 0x41C8, 0x0000)
	silent := listen(t, func(c net.Conn) { time.Sleep(time.Minute) })
	garbage := listen(t, func(c net.Conn) {
		for range 50 {
			if _, err := c.Write([]byte("\xff\x00garbage\r\n")); err != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	dropping := listen(t, func(c net.Conn) { c.Close() })
	point := twin.Point{Sensor: "temperature"}
	r := newRecorder(
		connected("good", twin.ProtocolModbusTCP, modbusConn(good.Addr, point)),
		connected("silent", twin.ProtocolModbusTCP, modbusConn(silent, point)),
		connected("garbage", twin.ProtocolModbusTCP, modbusConn(garbage, point)),
		connected("dropping", twin.ProtocolModbusTCP, modbusConn(dropping, point)),
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go New(r.config("a")).Run(ctx)

	eventually(t, "the good device is read", func() bool { _, n := r.last("good", "temperature"); return n > 0 })
	_, start := r.last("good", "temperature")
	time.Sleep(2 * time.Second)
	_, end := r.last("good", "temperature")
	// At a 100 ms interval, 2 s is 20 polls; a gateway held up by the
	// others' 300 ms timeouts would manage far fewer.
	if end-start < 12 {
		t.Fatalf("the good device was read %d times in 2 s beside dead ones, want about 20", end-start)
	}
	for _, id := range []string{"silent", "garbage", "dropping"} {
		s := r.syncOf(id)
		if len(s) == 0 || (!strings.HasPrefix(s[len(s)-1], "disconnected") && !strings.HasPrefix(s[len(s)-1], "error")) {
			t.Errorf("%s: sync = %v, want disconnected or error", id, s)
		}
		if _, n := r.last(id, "temperature"); n != 0 {
			t.Errorf("%s: %d readings stored from a broken device", id, n)
		}
	}
}

// listen serves every connection with handle on a loopback port.
func listen(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return ln.Addr().String()
}

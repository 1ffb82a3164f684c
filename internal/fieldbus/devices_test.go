package fieldbus_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/gopcua/opcua"
	"github.com/gopcua/opcua/ua"
	"github.com/simonvetter/modbus"

	"journeyman/internal/fieldbus"
	"journeyman/internal/fieldbus/fieldbustest"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
)

// startedFleet starts the devices of the seed twins ids (all of them when
// none are named) on free ports. A test names the twins it talks to: each
// OPC UA device builds the library's standard address space from its XML,
// two seconds under the race detector.
func startedFleet(t *testing.T, ids ...string) (*fieldbus.Fleet, map[string]twin.Equipment) {
	t.Helper()
	f := mustFleet(t)
	cfg := fieldbus.Listen{Ports: map[string]fieldbus.BasePort{
		fieldbus.KindModbus: {Port: 0}, fieldbus.KindOPCUA: {Port: 0}, fieldbus.KindEtherNetIP: {Port: 0}}}
	seed := twin.SeedEquipment()
	if len(ids) > 0 {
		seed = slices.DeleteFunc(seed, func(eq twin.Equipment) bool { return !slices.Contains(ids, eq.ID) })
		if len(seed) != len(ids) {
			t.Fatalf("seed twins %v: found %d", ids, len(seed))
		}
	}
	if err := f.Start(context.Background(), seed, cfg, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	byID := map[string]twin.Equipment{}
	for _, eq := range seed {
		byID[eq.ID] = eq
	}
	return f, byID
}

// deviceAddr is where the fleet says the twin's device listens.
func deviceAddr(t *testing.T, f *fieldbus.Fleet, eq twin.Equipment) string {
	t.Helper()
	p := f.Present(eq).ConnectionParameters
	if url, ok := p["endpointUrl"].(string); ok {
		return strings.TrimPrefix(url, "opc.tcp://")
	}
	return net.JoinHostPort(p["host"].(string), strconv.Itoa(p["port"].(int)))
}

func TestStart(t *testing.T) {
	base := map[string]int{fieldbus.KindModbus: fieldbustest.ConsecutivePorts(t, 3), fieldbus.KindOPCUA: fieldbustest.ConsecutivePorts(t, 2), fieldbus.KindEtherNetIP: fieldbustest.ConsecutivePorts(t, 2)}
	cfg := fieldbus.Listen{Host: "127.0.0.1", Ports: map[string]fieldbus.BasePort{}}
	for kind, port := range base {
		cfg.Ports[kind] = fieldbus.BasePort{Port: port, Explicit: true}
	}
	var logs bytes.Buffer
	f := mustFleet(t)
	if err := f.Start(context.Background(), twin.SeedEquipment(), cfg, slog.New(slog.NewJSONHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	// Fleet order: the N-th twin of a protocol on its base port + N.
	tests := []struct {
		id, kind string
		offset   int
	}{
		{"pnl-lp2a", fieldbus.KindModbus, 0}, {"chlr-1", fieldbus.KindModbus, 1}, {"bp-2", fieldbus.KindModbus, 2},
		{"xfmr-t1", fieldbus.KindOPCUA, 0}, {"wtg-12", fieldbus.KindOPCUA, 1},
		{"weld-cell-4", fieldbus.KindEtherNetIP, 0}, {"elev-2", fieldbus.KindEtherNetIP, 1},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			want := fmt.Sprintf("127.0.0.1:%d", base[tt.kind]+tt.offset)
			line := fmt.Sprintf(`"msg":"field device","twin":%q,"protocol":%q,"address":%q`, tt.id, tt.kind, want)
			if !strings.Contains(logs.String(), line) {
				t.Errorf("logs lack %s:\n%s", line, logs.String())
			}
			if got := deviceAddr(t, f, equipment(t, tt.id)); got != want {
				t.Errorf("connection parameters name %s, want %s", got, want)
			}
			conn, err := net.DialTimeout("tcp", want, 3*time.Second)
			if err != nil {
				t.Fatalf("device not listening: %v", err)
			}
			conn.Close()
		})
	}
	if strings.Contains(logs.String(), `"rtu-3"`) {
		t.Error("an MQTT twin got a device of its own; it publishes through the broker")
	}
	p := f.Present(equipment(t, "rtu-3")).ConnectionParameters
	if p["brokerUrl"] != "tcp://"+f.BrokerAddr || p["testTopic"] != "journeyman/equipment/rtu-3/test" || p["topic"] != "journeyman/equipment/rtu-3/telemetry" {
		t.Errorf("MQTT connection parameters = %v", p)
	}
	if seed := equipment(t, "chlr-1"); seed.ConnectionParameters["host"] != "10.20.2.11" {
		t.Errorf("Present changed the twin it was given: %v", seed.ConnectionParameters)
	}
}

func TestStartPortTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	eq := equipment(t, "xfmr-t1")
	tests := []struct {
		name     string
		explicit bool
		errorHas string
		warns    bool
	}{
		{"DefaultFallsBack", false, "", true},
		{"ErrExplicit", true, "address already in use", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			f := mustFleet(t)
			cfg := fieldbus.Listen{Ports: map[string]fieldbus.BasePort{fieldbus.KindOPCUA: {Port: port, Explicit: tt.explicit}}}
			err := f.Start(context.Background(), []twin.Equipment{eq}, cfg, slog.New(slog.NewJSONHandler(&logs, nil)))
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) || !strings.Contains(err.Error(), strconv.Itoa(port)) {
					t.Fatalf("Start = %v, want an error naming port %d", err, port)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.warns != strings.Contains(logs.String(), `"level":"WARN","msg":"field device: default port busy, using a free port"`) {
				t.Errorf("logs:\n%s", logs.String())
			}
			if addr := deviceAddr(t, f, eq); addr == fmt.Sprintf("127.0.0.1:%d", port) || !strings.HasPrefix(addr, "127.0.0.1:") {
				t.Errorf("device on %s", addr)
			}
		})
	}
}

// TestDevicesFollowTwin changes a twin through Follow, as a stored reading
// does, and reads the new value back with independent clients: no
// exchange in between.
func TestDevicesFollowTwin(t *testing.T) {
	f, seed := startedFleet(t, "chlr-1", "wtg-12", "elev-2")
	ctx := context.Background()

	t.Run("Modbus", func(t *testing.T) {
		eq := seed["chlr-1"]
		eq.SensorData = maps(eq.SensorData)
		eq.SensorData["pressure"] = twin.Reading{Value: 612.5, Unit: "kPa"}
		f.Follow(eq)
		c := modbusClient(t, deviceAddr(t, f, eq), 2)
		regs, err := c.ReadRegisters(2, 2, modbus.HOLDING_REGISTER)
		if err != nil {
			t.Fatal(err)
		}
		if got := float32frombits(regs); got != 612.5 {
			t.Fatalf("pressure = %v, want 612.5", got)
		}
	})
	t.Run("OPCUA", func(t *testing.T) {
		eq := seed["wtg-12"]
		eq.SensorData = maps(eq.SensorData)
		eq.SensorData["rpm"] = twin.Reading{Value: 17.25, Unit: "rpm"}
		f.Follow(eq)
		if got := opcuaRead(t, deviceAddr(t, f, eq), "ns=1;s=Rpm"); got != 17.25 {
			t.Fatalf("Rpm = %v, want 17.25", got)
		}
	})
	t.Run("EtherNetIP", func(t *testing.T) {
		eq := seed["elev-2"]
		eq.SensorData = maps(eq.SensorData)
		eq.SensorData["current"] = twin.Reading{Value: 99.5, Unit: "A"}
		f.Follow(eq)
		// The exchange reads the running device as it is: the stale seed
		// state given here must not reach it.
		x, err := f.Exchange(ctx, seed["elev-2"], "EtherNet/IP", json.RawMessage(`{"tag":"Current"}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := x.Result.(fieldbus.ENIPResult).Values[0].Value; got != 99.5 {
			t.Fatalf("Current = %v, want 99.5", got)
		}
	})
}

// TestFollowKeepsTheNewest: the device serves the twin as last stored, and
// an older state arriving late (from another process, through the store)
// does not replace it.
func TestFollowKeepsTheNewest(t *testing.T) {
	f, seed := startedFleet(t, "bp-2")
	at := func(temperature float64, updated time.Time) twin.Equipment {
		eq := seed["bp-2"]
		eq.SensorData = maps(eq.SensorData)
		eq.SensorData["temperature"] = twin.Reading{Value: temperature, Unit: "°C"}
		eq.LastUpdated = updated
		return eq
	}
	now := time.Now()
	client := modbusClient(t, deviceAddr(t, f, seed["bp-2"]), 3)
	for _, step := range []struct {
		eq   twin.Equipment
		want float32
	}{
		{at(41, now), 41},
		{at(39, now.Add(-time.Second)), 41}, // older: ignored
		{at(43, now.Add(time.Second)), 43},
	} {
		f.Follow(step.eq)
		regs, err := client.ReadRegisters(0, 2, modbus.HOLDING_REGISTER)
		if err != nil {
			t.Fatal(err)
		}
		if got := float32frombits(regs); got != step.want {
			t.Fatalf("after following %v: temperature = %v, want %v", step.eq.SensorData["temperature"].Value, got, step.want)
		}
	}
}

// TestOPCUAReadsWhileFollowing reads a node while the twin changes under
// it: with -race, any unsynchronised access in the device shows.
func TestOPCUAReadsWhileFollowing(t *testing.T) {
	f, seed := startedFleet(t, "xfmr-t1")
	eq := seed["xfmr-t1"]
	addr := deviceAddr(t, f, eq)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			next := eq
			next.SensorData = maps(eq.SensorData)
			next.SensorData["temperature"] = twin.Reading{Value: float64(i), Unit: "°C"}
			f.Follow(next)
		}
	}()
	c := opcuaClient(t, addr)
	for range 20 {
		if _, err := c.Read(context.Background(), &ua.ReadRequest{NodesToRead: []*ua.ReadValueID{{NodeID: ua.MustParseNodeID("ns=1;s=Temperature"), AttributeID: ua.AttributeIDValue}}}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

func TestModbusUnknownUnit(t *testing.T) {
	f, seed := startedFleet(t, "chlr-1")
	eq := seed["chlr-1"] // unit id 2
	addr := deviceAddr(t, f, eq)
	t.Run("Client", func(t *testing.T) {
		tests := []struct {
			name string
			unit uint8
			want error
		}{
			{"OK", 2, nil},
			{"OKDirect", 0xFF, nil},
			{"ErrOtherUnit", 7, modbus.ErrGWTargetFailedToRespond},
			{"ErrBroadcast", 0, modbus.ErrGWTargetFailedToRespond},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := modbusClient(t, addr, tt.unit).ReadRegisters(0, 2, modbus.INPUT_REGISTER)
				if !errors.Is(err, tt.want) {
					t.Fatalf("read from unit %d = %v, want %v", tt.unit, err, tt.want)
				}
			})
		}
	})
	t.Run("RawFrame", func(t *testing.T) {
		conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		// Transaction 0x1234, protocol 0, 6 bytes follow, unit 9, read
		// holding registers 0, quantity 2.
		req := []byte{0x12, 0x34, 0, 0, 0, 6, 9, 0x03, 0, 0, 0, 2}
		if _, err := conn.Write(req); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		res := make([]byte, 9)
		if _, err := io.ReadFull(conn, res); err != nil {
			t.Fatal(err)
		}
		want := []byte{0x12, 0x34, 0, 0, 0, 3, 9, 0x83, 0x0B}
		if !bytes.Equal(res, want) {
			t.Fatalf("response % x, want % x (exception 0x0B to function 3)", res, want)
		}
	})
	t.Run("Exchange", func(t *testing.T) {
		x, err := f.Exchange(context.Background(), eq, "Modbus TCP", json.RawMessage(`{"unitId":9}`))
		if err != nil {
			t.Fatal(err)
		}
		exc, ok := x.Result.(fieldbus.ModbusException)
		if !ok || exc.Exception != 0x0B || x.Response == nil || !strings.HasPrefix(x.Response.Summary, "Exception 11 Gateway Target Device Failed to Respond") {
			t.Fatalf("result %+v, response %+v", x.Result, x.Response)
		}
	})
}

// TestMQTTTestNeverWritesTelemetry watches the broker while Test Protocol
// publishes: the message arrives on the test topic and nothing on any
// telemetry topic.
func TestMQTTTestNeverWritesTelemetry(t *testing.T) {
	broker, err := telemetry.StartBroker("127.0.0.1:0", telemetry.BrokerAuth{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer broker.Close()
	f := fieldbus.NewFleet(broker.Addr())
	f.BrokerUser, f.BrokerPassword = broker.Credential().Username, broker.Credential().Password
	defer f.Close()
	got := make(chan string, 10)
	c := paho.NewClient(paho.NewClientOptions().AddBroker(broker.URL()).SetClientID("watcher"))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer c.Disconnect(50)
	for _, filter := range []string{telemetry.TopicFilter, "journeyman/equipment/+/test"} {
		if tok := c.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) { got <- m.Topic() }); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	if _, err := f.Exchange(context.Background(), equipment(t, "rtu-3"), "MQTT", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case topic := <-got:
		if topic != "journeyman/equipment/rtu-3/test" {
			t.Fatalf("published to %s", topic)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing arrived on the test topic")
	}
	select {
	case topic := <-got:
		t.Fatalf("a second message, on %s", topic)
	case <-time.After(300 * time.Millisecond):
	}
}

func maps(d twin.SensorData) twin.SensorData {
	out := twin.SensorData{}
	for k, v := range d {
		out[k] = v
	}
	return out
}

func float32frombits(regs []uint16) float32 {
	b := binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, regs[0]), regs[1])
	var v float32
	_ = binary.Read(bytes.NewReader(b), binary.BigEndian, &v)
	return v
}

func modbusClient(t *testing.T, addr string, unit uint8) *modbus.ModbusClient {
	t.Helper()
	c, err := modbus.NewClient(&modbus.ClientConfiguration{URL: "tcp://" + addr, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.SetUnitId(unit); err != nil {
		t.Fatal(err)
	}
	return c
}

func opcuaClient(t *testing.T, addr string) *opcua.Client {
	t.Helper()
	ctx := context.Background()
	c, err := opcua.NewClient("opc.tcp://"+addr, opcua.SecurityMode(ua.MessageSecurityModeNone), opcua.AutoReconnect(false),
		opcua.DialTimeout(15*time.Second), opcua.RequestTimeout(15*time.Second)) // the device starts its server for its first client: seconds under -race
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c
}

func opcuaRead(t *testing.T, addr, node string) any {
	t.Helper()
	resp, err := opcuaClient(t, addr).Read(context.Background(), &ua.ReadRequest{
		NodesToRead: []*ua.ReadValueID{{NodeID: ua.MustParseNodeID(node), AttributeID: ua.AttributeIDValue}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Results[0].Status != ua.StatusOK {
		t.Fatalf("read %s: %v", node, resp.Results[0].Status)
	}
	return resp.Results[0].Value.Value()
}

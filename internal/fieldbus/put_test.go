package fieldbus_test

import (
	"context"
	"testing"

	"github.com/simonvetter/modbus"

	"journeyman/internal/twin"
)

// readTemperature reads holding registers 0-1, the demo device's
// temperature, from the Modbus device at addr.
func readTemperature(t *testing.T, addr string) (float32, error) {
	t.Helper()
	c, err := modbus.NewClient(&modbus.ClientConfiguration{URL: "tcp://" + addr})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(); err != nil {
		return 0, err
	}
	defer c.Close()
	return c.ReadFloat32(0, modbus.HOLDING_REGISTER)
}

func TestPut(t *testing.T) {
	f, byID := startedFleet(t, "pnl-lp2a")
	ctx := context.Background()
	eq := byID["pnl-lp2a"]
	eq.ID = "new-panel"
	eq.SensorData = eq.SensorData.Clone()
	eq.SensorData["temperature"] = twin.Reading{Value: 41.5, Unit: "°C"}

	if err := f.Put(ctx, eq); err != nil {
		t.Fatal(err)
	}
	addr := deviceAddr(t, f, eq)
	if v, err := readTemperature(t, addr); err != nil || v != 41.5 {
		t.Fatalf("new twin's device reads %g, %v; want 41.5", v, err)
	}

	renamed := eq
	renamed.Name = "Panel LP-2B"
	if err := f.Put(ctx, renamed); err != nil {
		t.Fatal(err)
	}
	if got := deviceAddr(t, f, renamed); got != addr {
		t.Fatalf("a renamed twin's device moved from %s to %s", addr, got)
	}
	if v, err := readTemperature(t, addr); err != nil || v != 41.5 {
		t.Fatalf("renamed twin's device reads %g, %v", v, err)
	}

	connected := renamed
	connected.Connection = &twin.Connection{Address: "10.9.9.9:502", UnitID: 1, IntervalMs: 1000, TimeoutMs: 1000,
		Points: []twin.Point{{Sensor: "temperature", RegisterType: "holding", DataType: "float32", WordOrder: "high-first", Scale: 1}}}
	if err := f.Put(ctx, connected); err != nil {
		t.Fatal(err)
	}
	if _, err := readTemperature(t, addr); err == nil {
		t.Fatal("a twin connected to its real device still has a demo device")
	}
	if p := f.Present(connected).ConnectionParameters; p["host"] != "10.9.9.9" || p["port"] != 502 || p["device"] != "connected" {
		t.Fatalf("connected twin's parameters = %v", p)
	}

	f.Remove("pnl-lp2a")
	if _, err := readTemperature(t, deviceAddr(t, f, byID["pnl-lp2a"])); err == nil {
		t.Fatal("a removed twin's device still answers")
	}
}

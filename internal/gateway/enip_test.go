package gateway

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"journeyman/internal/fieldbus"
	"journeyman/internal/twin"
)

// TestENIPPolling connects a twin to the EtherNet/IP demo device of
// another, through the backplane route a ControlLogix chassis needs.
func TestENIPPolling(t *testing.T) {
	fleet := fieldbus.NewFleet("")
	t.Cleanup(func() { fleet.Close() })
	var device twin.Equipment
	for _, eq := range twin.SeedEquipment() {
		if eq.CommunicationProtocol == twin.ProtocolEtherNetIP {
			device = eq
			break
		}
	}
	if err := fleet.Start(context.Background(), []twin.Equipment{device}, fieldbus.Listen{Ports: map[string]fieldbus.BasePort{}},
		slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	p := fleet.Present(device).ConnectionParameters
	addr := net.JoinHostPort(p["host"].(string), strconv.Itoa(p["port"].(int)))
	c := twin.Connection{Address: addr, CIPPath: "1,0", IntervalMs: 100, TimeoutMs: 1000, Points: []twin.Point{
		{Sensor: "temperature", Tag: "TemperatureX10", Scale: 0.1},
		{Sensor: "current", Tag: "Current"},
		{Sensor: "pressure", Tag: "NoSuchTag"},
	}}
	c.Normalize(twin.ProtocolEtherNetIP)
	want := device.SensorData["temperature"].Value

	res := Test(context.Background(), twin.ProtocolEtherNetIP, c)
	if res.Error != "" || len(res.Points) != 3 || res.Points[0].Value == nil || !near(*res.Points[0].Value, want) ||
		res.Points[1].Value == nil || !near(*res.Points[1].Value, device.SensorData["current"].Value) || res.Points[2].Error == "" || res.OK {
		t.Fatalf("test = %+v", res)
	}

	r := newRecorder(connected("copy", twin.ProtocolEtherNetIP, c))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go New(r.config("a")).Run(ctx)
	eventually(t, "the first reading is stored", func() bool { v, _ := r.last("copy", "temperature"); return near(v, want) })
	changed := device
	changed.SensorData = device.SensorData.Clone()
	changed.SensorData["temperature"] = twin.Reading{Value: want + 3, Unit: "°C"}
	changed.LastUpdated = device.LastUpdated.Add(time.Minute)
	fleet.Follow(changed)
	eventually(t, "the polled tag's change is stored", func() bool { v, _ := r.last("copy", "temperature"); return near(v, want+3) })

	c.CIPPath = "1,5"
	if res := Test(context.Background(), twin.ProtocolEtherNetIP, c); res.OK || res.Points[0].Error == "" {
		t.Fatalf("a route to an empty slot = %+v, want each point refused", res)
	}
}

// near compares readings that went through a scaled INT or a REAL.
func near(a, b float64) bool { return a-b < 0.051 && b-a < 0.051 }

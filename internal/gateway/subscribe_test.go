package gateway

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"journeyman/internal/fieldbus"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
)

// TestOPCUASubscription connects a twin to the OPC UA demo device of
// another (the kept library's server): the gateway reads by subscription,
// so a change on the device is stored without polling.
func TestOPCUASubscription(t *testing.T) {
	fleet := fieldbus.NewFleet("")
	t.Cleanup(func() { fleet.Close() })
	var device twin.Equipment
	for _, eq := range twin.SeedEquipment() {
		if eq.CommunicationProtocol == twin.ProtocolOPCUA {
			device = eq
			break
		}
	}
	if err := fleet.Start(context.Background(), []twin.Equipment{device}, fieldbus.Listen{Ports: map[string]fieldbus.BasePort{}},
		slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	endpoint := fleet.Present(device).ConnectionParameters["endpointUrl"].(string)
	// The device starts its OPC UA server for its first client: a quarter
	// of a second, several under the race detector on a busy machine.
	c := twin.Connection{Address: endpoint, IntervalMs: 100, TimeoutMs: 15_000, Points: []twin.Point{
		{Sensor: "temperature", NodeID: "ns=1;s=Temperature"},
		{Sensor: "rpm", NodeID: "ns=1;s=Rpm", Scale: 2},
		{Sensor: "pressure", NodeID: "ns=1;s=NoSuchNode"},
	}}
	c.Normalize(twin.ProtocolOPCUA)

	res := Test(context.Background(), twin.ProtocolOPCUA, c)
	want := device.SensorData["temperature"].Value
	if res.Error != "" || len(res.Points) != 3 || res.Points[0].Value == nil || *res.Points[0].Value != want ||
		*res.Points[1].Value != 2*device.SensorData["rpm"].Value || res.Points[2].Error == "" || res.OK {
		t.Fatalf("test = %+v", res)
	}

	r := newRecorder(connected("copy", twin.ProtocolOPCUA, c))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go New(r.config("a")).Run(ctx)
	eventually(t, "the first values are stored", func() bool { v, _ := r.last("copy", "temperature"); return v == want })

	changed := device
	changed.SensorData = device.SensorData.Clone()
	changed.SensorData["temperature"] = twin.Reading{Value: want + 7, Unit: "°C"}
	changed.LastUpdated = device.LastUpdated.Add(time.Minute)
	fleet.Follow(changed)
	eventually(t, "a data change is stored", func() bool { v, _ := r.last("copy", "temperature"); return v == want+7 })
	if s := r.syncOf("copy"); len(s) == 0 || s[len(s)-1] != "error:1" && s[0] != "error:1" {
		t.Fatalf("sync = %v, want an error for the missing node", s)
	}
}

// TestMQTTSubscription reads a device's JSON messages through the
// embedded broker and, where the environment names one, a Mosquitto
// broker: an implementation nobody here wrote.
func TestMQTTSubscription(t *testing.T) {
	broker, err := telemetry.StartBroker("127.0.0.1:0", telemetry.BrokerAuth{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { broker.Close() })
	cred := broker.Credential()
	brokers := map[string]twin.Connection{
		"embedded": {Address: "tcp://" + broker.Addr(), Username: cred.Username, Password: cred.Password},
	}
	if url := os.Getenv("JOURNEYMAN_TEST_MQTT_URL"); url != "" {
		brokers["mosquitto"] = twin.Connection{Address: url}
	} else if os.Getenv("CI") == "true" {
		t.Fatal("JOURNEYMAN_TEST_MQTT_URL is not set")
	}
	for name, c := range brokers {
		t.Run(name, func(t *testing.T) {
			c.Topic = "plant/line-4/pv7-" + name
			c.IntervalMs, c.TimeoutMs = 1000, 2000
			c.Points = []twin.Point{{Sensor: "efficiency", Field: "eff"}, {Sensor: "voltage", Field: "v", Scale: 1000}}
			c.Normalize(twin.ProtocolMQTT)
			r := newRecorder(connected("pv7", twin.ProtocolMQTT, c))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go New(r.config("a")).Run(ctx)

			pub := paho.NewClient(paho.NewClientOptions().AddBroker(c.Address).SetUsername(c.Username).SetPassword(c.Password).
				SetClientID("device-" + name))
			if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
				t.Fatalf("device connect: %v", tok.Error())
			}
			defer pub.Disconnect(100)
			send := func(payload string) {
				t.Helper()
				if tok := pub.Publish(c.Topic, 1, false, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
					t.Fatalf("publish: %v", tok.Error())
				}
			}
			// The gateway subscribes a moment after it starts; publish until
			// it has the message.
			eventually(t, "a message is stored", func() bool {
				send(`{"eff": 97.5, "v": {"value": 0.48, "unit": "kV"}}`)
				v, _ := r.last("pv7", "voltage")
				return v == 480
			})
			if v, _ := r.last("pv7", "efficiency"); v != 97.5 {
				t.Fatalf("efficiency = %g", v)
			}
			send(`not json`)
			eventually(t, "a garbled message shows as an error", func() bool {
				s := r.syncOf("pv7")
				return len(s) > 0 && s[len(s)-1] == "error:1"
			})
			send(`{"eff": 96}`)
			eventually(t, "a good message after it is stored", func() bool { v, _ := r.last("pv7", "efficiency"); return v == 96 })
		})
	}
}

package telemetry_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
)

// mosquittoURL is the machine's Mosquitto broker. Unset, the tests that
// need it are skipped — except in CI, where an unreachable broker fails.
func mosquittoURL(t *testing.T) string {
	t.Helper()
	url := os.Getenv("JOURNEYMAN_TEST_MQTT_URL")
	ci := os.Getenv("CI") == "true"
	if url == "" {
		if ci {
			t.Fatal("JOURNEYMAN_TEST_MQTT_URL is not set, and CI=true does not allow skipping the Mosquitto tests")
		}
		t.Skip("JOURNEYMAN_TEST_MQTT_URL is not set")
	}
	addr, err := telemetry.BrokerAddr(url)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		if ci {
			t.Fatalf("Mosquitto at %s is unreachable: %v", url, err)
		}
		t.Skipf("Mosquitto at %s is unreachable: %v", url, err)
	}
	conn.Close()
	return url
}

// uniqueTwin seeds a twin whose id no other test run shares, so readings
// other processes publish on the same broker never land in this one.
func uniqueTwin(t *testing.T, s *store.Store) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	eq := twin.SeedEquipment()[3] // the chiller
	eq.ID = "test-chiller-" + hex.EncodeToString(b)
	if err := s.SeedEquipment(context.Background(), []twin.Equipment{eq}); err != nil {
		t.Fatal(err)
	}
	return eq.ID
}

// publish sends payloads to topic in order, on one connection, logged in
// with the URL's userinfo.
func publish(t *testing.T, brokerURL, topic string, payloads ...string) {
	t.Helper()
	c := paho.NewClient(paho.NewClientOptions().AddBroker(brokerURL).SetClientID("journeyman-test-pub-" + fmt.Sprint(time.Now().UnixNano())))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect publisher: %v", tok.Error())
	}
	defer c.Disconnect(100)
	for _, payload := range payloads {
		if tok := c.Publish(topic, 1, false, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("publish: %v", tok.Error())
		}
	}
}

// uniqueGroup is a subscription group of this test alone: other tests and
// processes on the same broker must not take its readings.
func uniqueGroup() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "test-" + hex.EncodeToString(b)
}

// subscribe joins group on brokerURL and waits until the broker has
// granted the subscription: a reading published before that is lost.
func subscribe(t *testing.T, brokerURL, group string, in *twin.Ingester, now func() time.Time) *telemetry.Subscriber {
	t.Helper()
	sub, err := telemetry.Subscribe(brokerURL, group, in.Enqueue, now, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Close)
	deadline := time.Now().Add(10 * time.Second)
	for !sub.Subscribed() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !sub.Subscribed() {
		t.Fatalf("the subscription to %s was not granted within 10 s", telemetry.Redacted(brokerURL))
	}
	return sub
}

// embeddedBroker starts a broker and returns its URL with the process's
// own login in it.
func embeddedBroker(t *testing.T) string {
	t.Helper()
	return startBroker(t, telemetry.BrokerAuth{}).URL()
}

func startBroker(t *testing.T, auth telemetry.BrokerAuth) *telemetry.Broker {
	t.Helper()
	b, err := telemetry.StartBroker("127.0.0.1:0", auth, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// ingestThrough subscribes a store to brokerURL, publishes readings, bad
// messages and a reading for no twin, and checks the twin took exactly the
// good readings, as the sensor-data call would.
func ingestThrough(t *testing.T, brokerURL string) {
	s := storetest.OpenSQLite(t)
	s.Now = func() time.Time { return time.Now().UTC() }
	id := uniqueTwin(t, s)
	ingestThroughAs(t, s, id, brokerURL, brokerURL)
}

// ingestThroughAs is ingestThrough with the store and twin given, and the
// readings published with publisherURL's login.
func ingestThroughAs(t *testing.T, s *store.Store, id, brokerURL, publisherURL string) {
	t.Helper()
	in := twin.NewIngester(s.RecordSensorData)
	sub := subscribe(t, brokerURL, uniqueGroup(), in, s.Now)

	// Refused: no such twin. Published with the server's login, as no
	// device may publish for another twin.
	publish(t, brokerURL, twin.TelemetryTopic(id+"-gone"), `{"temperature":7}`)
	// One connection, as a device keeps: MQTT orders one client's messages.
	publish(t, publisherURL, twin.TelemetryTopic(id),
		`{"sensorData":{"temperature":"hot"}}`, // refused: not a number
		`{"sensorData":{"rpm":-1}}`,            // refused: out of range
		`{"sensorData":{"temperature":12.5,"pressure":650}}`,
		`{"temperature":{"value":13.5,"unit":"°C"}}`, // the bare form
	)

	deadline := time.Now().Add(10 * time.Second)
	var eq twin.Equipment
	var err error
	for time.Now().Before(deadline) {
		eq, err = s.GetEquipment(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if eq.SensorData["temperature"].Value == 13.5 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if eq.SensorData["temperature"].Value != 13.5 || eq.SensorData["pressure"].Value != 650 || eq.AlertLevel != twin.AlertCritical || eq.SensorData["rpm"].Value != 3550 {
		t.Fatalf("twin after telemetry = %s %v; want temperature 13.5 (critical), pressure 650, rpm untouched", eq.AlertLevel, eq.SensorData)
	}
	streams, err := s.ListDataStreams(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if h := streams[0].History; len(h) != 3 || h[1].Value != 12.5 || h[2].Value != 13.5 || *streams[0].PreviousValue != 12.5 {
		t.Fatalf("temperature stream = %+v, want seed, 12.5, 13.5", streams[0])
	}
	for time.Now().Before(deadline) && sub.Rejected.Load() < 3 {
		time.Sleep(20 * time.Millisecond)
	}
	if sub.Ingested.Load() != 2 || sub.Rejected.Load() != 3 {
		t.Fatalf("ingested %d, rejected %d; want 2 and 3", sub.Ingested.Load(), sub.Rejected.Load())
	}
}

func TestIngestThroughMosquitto(t *testing.T) {
	ingestThrough(t, mosquittoURL(t))
}

func TestIngestThroughEmbeddedBroker(t *testing.T) {
	ingestThrough(t, embeddedBroker(t))
}

// TestSharedGroupStoresEachReadingOnce stands for two server processes on
// one database and one broker: both subscribe as one group, and every
// reading is stored once, whichever of them receives it.
func TestSharedGroupStoresEachReadingOnce(t *testing.T) {
	brokers := map[string]func(*testing.T) string{"Mosquitto": mosquittoURL, "Embedded": embeddedBroker}
	for name, broker := range brokers {
		t.Run(name, func(t *testing.T) {
			url := broker(t)
			s := storetest.OpenSQLite(t)
			s.Now = func() time.Time { return time.Now().UTC() }
			id := uniqueTwin(t, s)
			in := twin.NewIngester(s.RecordSensorData)
			group := uniqueGroup()
			a := subscribe(t, url, group, in, s.Now)
			b := subscribe(t, url, group, in, s.Now)

			const n = 10
			payloads := make([]string, n)
			for i := range payloads {
				payloads[i] = fmt.Sprintf(`{"sensorData":{"rpm":%d}}`, 1000+i)
			}
			publish(t, url, twin.TelemetryTopic(id), payloads...)

			deadline := time.Now().Add(10 * time.Second)
			for a.Received.Load()+b.Received.Load() < n && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond) // room for a second copy, were one sent
			if got := a.Received.Load() + b.Received.Load(); got != n {
				t.Fatalf("the group received %d messages (%d + %d); want each of the %d once", got, a.Received.Load(), b.Received.Load(), n)
			}
			for a.Ingested.Load()+b.Ingested.Load() < n && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			streams, err := s.ListDataStreams(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[float64]int{}
			for _, st := range streams {
				if st.Sensor != "rpm" {
					continue
				}
				for _, p := range st.History {
					seen[p.Value]++
				}
			}
			for i := range n {
				if seen[float64(1000+i)] != 1 {
					t.Errorf("rpm %d stored %d times; want once", 1000+i, seen[float64(1000+i)])
				}
			}
		})
	}
}

func TestValidGroup(t *testing.T) {
	for group, ok := range map[string]bool{"journeyman": true, "site-2_a": true, "": false, "a/b": false, "a+": false, "#": false} {
		if err := telemetry.ValidGroup(group); (err == nil) != ok {
			t.Errorf("ValidGroup(%q) = %v; want ok %v", group, err, ok)
		}
	}
}

func TestEquipmentID(t *testing.T) {
	for topic, want := range map[string]string{
		"journeyman/equipment/chlr-1/telemetry": "chlr-1",
		"journeyman/equipment//telemetry":       "",
		"journeyman/equipment/chlr-1/status":    "",
		"journeyman/equipment/a/b/telemetry":    "",
		"other/equipment/chlr-1/telemetry":      "",
	} {
		if got := telemetry.EquipmentID(topic); got != want {
			t.Errorf("EquipmentID(%q) = %q, want %q", topic, got, want)
		}
	}
}

func TestBrokerAddr(t *testing.T) {
	tests := []struct{ url, addr string }{
		{"tcp://127.0.0.1:1883", "127.0.0.1:1883"},
		{"mqtt://broker.local", "broker.local:1883"},
		{"http://x:1", ""},
		{"127.0.0.1:1883", ""},
	}
	for _, tt := range tests {
		got, err := telemetry.BrokerAddr(tt.url)
		if (tt.addr == "") != (err != nil) || got != tt.addr {
			t.Errorf("BrokerAddr(%q) = %q, %v; want %q", tt.url, got, err, tt.addr)
		}
	}
}

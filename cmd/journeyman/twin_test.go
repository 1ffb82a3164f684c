package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// startRun runs the process entry point with args and returns its URL.
func startRun(t *testing.T, args ...string) string {
	t.Helper()
	url, _ := startRunLogs(t, args...)
	return url
}

// startRunLogs is startRun that also returns the log lines written before
// the process listened.
func startRunLogs(t *testing.T, args ...string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs, logWriter := io.Pipe()
	done := make(chan error, 1)
	args = append([]string{"-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "j.db"), "-mqtt-listen", "127.0.0.1:0"}, args...)
	go func() {
		done <- run(ctx, args, func(string) string { return "" }, logWriter)
		logWriter.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	var before []string
	lines := bufio.NewScanner(logs)
	for lines.Scan() {
		var line struct{ Msg, URL string }
		if json.Unmarshal(lines.Bytes(), &line) == nil && line.Msg == "listening" {
			go func() { _, _ = io.Copy(io.Discard, logs) }() // drained so the server never blocks on its log
			return line.URL, before
		}
		before = append(before, lines.Text())
	}
	t.Fatal("no listening line")
	return "", nil
}

// TestTelemetryThroughMosquitto starts the process on the machine's
// Mosquitto (-mqtt) and publishes a reading to a twin's telemetry topic:
// the twin must change as a sensor-data call would change it.
func TestTelemetryThroughMosquitto(t *testing.T) {
	brokerURL := os.Getenv("JOURNEYMAN_TEST_MQTT_URL")
	if brokerURL == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("JOURNEYMAN_TEST_MQTT_URL is not set, and CI=true does not allow skipping")
		}
		t.Skip("JOURNEYMAN_TEST_MQTT_URL is not set")
	}
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(brokerURL, "tcp://"), 3*time.Second); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Mosquitto at %s is unreachable: %v", brokerURL, err)
		}
		t.Skipf("Mosquitto at %s is unreachable: %v", brokerURL, err)
	} else {
		c.Close()
	}
	// A login in the URL, as a secured broker needs (this Mosquitto admits
	// anyone): the process must use it and never log its password.
	withLogin, err := neturl.Parse(brokerURL)
	if err != nil {
		t.Fatal(err)
	}
	withLogin.User = neturl.UserPassword("journeyman", "mosquitto-pw-5")
	// A group of its own: other runs subscribed to the same broker must not take this reading.
	url, logs := startRunLogs(t, "-mqtt", withLogin.String(), "-mqtt-group", fmt.Sprintf("main-test-%d", time.Now().UnixNano()))
	for _, l := range logs {
		if strings.Contains(l, "mosquitto-pw-5") {
			t.Errorf("a log line shows the broker password: %s", l)
		}
		if strings.Contains(l, `"equipment telemetry"`) && !strings.Contains(l, "journeyman:xxxxx@") {
			t.Errorf("the equipment telemetry line does not name the redacted broker: %s", l)
		}
	}

	// A value no other run on the shared broker sends.
	value := 40 + float64(time.Now().UnixNano()%1000)/100
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(brokerURL).SetClientID(fmt.Sprintf("journeyman-main-test-%d", time.Now().UnixNano())))
	if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	defer pub.Disconnect(100)

	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		// Publish until the subscription is up; QoS 1 and no retain, as a device would.
		payload := fmt.Sprintf(`{"sensorData":{"temperature":%g,"timestamp":%q}}`, value, time.Now().UTC().Format(time.RFC3339))
		pub.Publish("journeyman/equipment/bp-2/telemetry", 1, false, payload).WaitTimeout(5 * time.Second)
		time.Sleep(200 * time.Millisecond)
		res, err := http.Get(url + "/api/digital-twin/equipment/bp-2/data-streams")
		if err != nil {
			t.Fatal(err)
		}
		var streams []struct {
			Sensor  string
			History []struct{ Value float64 }
		}
		err = json.NewDecoder(res.Body).Decode(&streams)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range streams[0].History {
			if streams[0].Sensor == "temperature" && p.Value == value {
				return
			}
		}
	}
	t.Fatalf("temperature %g published to Mosquitto never reached the twin", value)
}

func TestMQTTConfig(t *testing.T) {
	c, err := parseConfig(nil, func(k string) string { return map[string]string{"JOURNEYMAN_MQTT_URL": "tcp://127.0.0.1:1883"}[k] })
	if err != nil || c.mqttURL != "tcp://127.0.0.1:1883" || c.mqttListen != defaultMQTTListen || c.mqttGroup != "journeyman" {
		t.Fatalf("config = %+v, %v", c, err)
	}
	if _, err := parseConfig([]string{"-mqtt", "http://x"}, func(string) string { return "" }); err == nil {
		t.Fatal("an http:// MQTT URL was accepted")
	}
	c, err = parseConfig(nil, func(k string) string { return map[string]string{"JOURNEYMAN_MQTT_GROUP": "site-2"}[k] })
	if err != nil || c.mqttGroup != "site-2" {
		t.Fatalf("group from the environment: %+v, %v", c, err)
	}
	if _, err := parseConfig([]string{"-mqtt-group", "a/b"}, func(string) string { return "" }); err == nil {
		t.Fatal("a group with '/' was accepted")
	}
}

func TestMQTTUserConfig(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		env            map[string]string
		user, password string
		err            string
	}{
		{"None", nil, nil, "", "", ""},
		{"Flags", []string{"-mqtt-user", "gw", "-mqtt-password", "pw"}, nil, "gw", "pw", ""},
		{"Env", nil, map[string]string{"JOURNEYMAN_MQTT_USER": "gw", "JOURNEYMAN_MQTT_PASSWORD": "pw"}, "gw", "pw", ""},
		{"FlagOverridesEnv", []string{"-mqtt-password", "flag"}, map[string]string{"JOURNEYMAN_MQTT_USER": "gw", "JOURNEYMAN_MQTT_PASSWORD": "env"}, "gw", "flag", ""},
		{"ErrUserAlone", []string{"-mqtt-user", "gw"}, nil, "", "", "-mqtt-user and -mqtt-password go together"},
		{"ErrPasswordAlone", nil, map[string]string{"JOURNEYMAN_MQTT_PASSWORD": "pw"}, "", "", "-mqtt-user and -mqtt-password go together"},
		{"ErrExternalBroker", []string{"-mqtt", "tcp://127.0.0.1:1883", "-mqtt-user", "gw", "-mqtt-password", "pw"}, nil, "", "", "the external broker manages its users"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig(tt.args, func(k string) string { return tt.env[k] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v; want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || c.mqttUser != tt.user || c.mqttPassword != tt.password {
				t.Fatalf("config = %q %q, %v; want %q %q", c.mqttUser, c.mqttPassword, err, tt.user, tt.password)
			}
		})
	}
}

// TestEmbeddedBrokerLogins starts the process with its embedded broker and
// a gateway login: the gateway's reading reaches the twin, an anonymous
// client is refused, and no log line shows a password.
func TestEmbeddedBrokerLogins(t *testing.T) {
	const gwPassword = "gateway-secret-7"
	url, logs := startRunLogs(t, "-mqtt-user", "plant-gw", "-mqtt-password", gwPassword)
	var brokerURL string
	for _, l := range logs {
		if strings.Contains(l, gwPassword) {
			t.Errorf("a log line shows the gateway password: %s", l)
		}
		var line struct{ Msg, MQTT string }
		if json.Unmarshal([]byte(l), &line) == nil && line.Msg == "equipment telemetry" {
			brokerURL = line.MQTT
		}
	}
	if !strings.Contains(brokerURL, ":xxxxx@127.0.0.1:") {
		t.Fatalf("equipment telemetry line names %q; want the embedded broker with its password redacted", brokerURL)
	}
	addr := brokerURL[strings.LastIndex(brokerURL, "@")+1:]

	anon := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("main-test-anon").SetAutoReconnect(false))
	if tok := anon.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() == nil {
		anon.Disconnect(0)
		t.Fatal("an anonymous client logged in to the embedded broker")
	}

	pub := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + addr).SetUsername("plant-gw").SetPassword(gwPassword).
		SetClientID("main-test-gw").SetAutoReconnect(false))
	if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("gateway connect: %v", tok.Error())
	}
	defer pub.Disconnect(100)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		// The subscription may be granted a moment after the process
		// listens: publish until the reading lands.
		pub.Publish("journeyman/equipment/bp-2/telemetry", 1, false, `{"sensorData":{"temperature":47.25}}`).WaitTimeout(5 * time.Second)
		time.Sleep(100 * time.Millisecond)
		if twinTemperatureSeen(t, url, "bp-2", 47.25) {
			return
		}
	}
	t.Fatal("the gateway's reading never reached the twin")
}

// twinTemperatureSeen reports whether the twin's temperature stream holds value.
func twinTemperatureSeen(t *testing.T, url, id string, value float64) bool {
	t.Helper()
	res, err := http.Get(url + "/api/digital-twin/equipment/" + id + "/data-streams")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var streams []struct {
		Sensor  string
		History []struct{ Value float64 }
	}
	if err := json.NewDecoder(res.Body).Decode(&streams); err != nil {
		t.Fatal(err)
	}
	for _, st := range streams {
		for _, p := range st.History {
			if st.Sensor == "temperature" && p.Value == value {
				return true
			}
		}
	}
	return false
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
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
	// A group of its own: other runs subscribed to the same broker must not take this reading.
	url := startRun(t, "-mqtt", brokerURL, "-mqtt-group", fmt.Sprintf("main-test-%d", time.Now().UnixNano()))

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

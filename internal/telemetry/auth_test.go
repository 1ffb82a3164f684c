package telemetry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"

	"journeyman/internal/store/storetest"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
)

var (
	testSecret = []byte("0123456789abcdef0123456789abcdef")
	gateway    = telemetry.Credential{Username: "plant-gateway", Password: "gateway password"}
)

// twinList is the equipment the test broker knows; tests add to it.
type twinList struct {
	mu  sync.Mutex
	ids []string
}

func (l *twinList) add(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids = append(l.ids, id)
}

func (l *twinList) list(context.Context) ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ids), nil
}

// authBroker starts a broker knowing chlr-1 and rtu-3, with the gateway
// login and device logins under testSecret.
func authBroker(t *testing.T) (*telemetry.Broker, *twinList) {
	t.Helper()
	twins := &twinList{ids: []string{"chlr-1", "rtu-3"}}
	b := startBroker(t, telemetry.BrokerAuth{Gateway: gateway, DeviceSecret: testSecret, EquipmentIDs: twins.list})
	return b, twins
}

func loginURL(b *telemetry.Broker, c telemetry.Credential) string {
	u := url.URL{Scheme: "tcp", Host: b.Addr()}
	if c.Username != "" || c.Password != "" {
		u.User = url.UserPassword(c.Username, c.Password)
	}
	return u.String()
}

func device(id string) telemetry.Credential {
	return telemetry.Credential{Username: id, Password: telemetry.DevicePassword(testSecret, id)}
}

// connect logs in to brokerURL and returns the client, or the refusal.
func connect(t *testing.T, brokerURL string, onMessage paho.MessageHandler) (paho.Client, error) {
	t.Helper()
	opts := paho.NewClientOptions().AddBroker(brokerURL).SetClientID(fmt.Sprintf("journeyman-auth-test-%d", time.Now().UnixNano())).
		SetAutoReconnect(false).SetConnectRetry(false).SetConnectTimeout(5 * time.Second)
	if onMessage != nil {
		opts.SetDefaultPublishHandler(onMessage)
	}
	c := paho.NewClient(opts)
	tok := c.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		t.Fatal("no CONNACK within 10 s")
	}
	if err := tok.Error(); err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c, nil
}

func mustConnect(t *testing.T, brokerURL string) paho.Client {
	t.Helper()
	c, err := connect(t, brokerURL, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return c
}

func TestBrokerLogin(t *testing.T) {
	b, _ := authBroker(t)
	server := b.Credential()
	tests := []struct {
		name  string
		login telemetry.Credential
		ok    bool
	}{
		{"Server", server, true},
		{"Gateway", gateway, true},
		{"Device", device("chlr-1"), true},
		{"ErrAnonymous", telemetry.Credential{}, false},
		{"ErrServerWrongPassword", telemetry.Credential{Username: server.Username, Password: server.Password + "x"}, false},
		{"ErrServerNoPassword", telemetry.Credential{Username: server.Username}, false},
		{"ErrGatewayWrongPassword", telemetry.Credential{Username: gateway.Username, Password: "guess"}, false},
		{"ErrDeviceWrongPassword", telemetry.Credential{Username: "chlr-1", Password: device("rtu-3").Password}, false},
		{"ErrDeviceOtherSecret", telemetry.Credential{Username: "chlr-1", Password: telemetry.DevicePassword([]byte("another deployment"), "chlr-1")}, false},
		{"ErrUnknownTwin", device("no-such-twin"), false},
		{"ErrUnknownUser", telemetry.Credential{Username: "mosquitto", Password: "mosquitto"}, false},
		{"ErrWildcardUser", device("+"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := connect(t, loginURL(b, tt.login), nil)
			if tt.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			// An MQTT 3.1.1 client is told "not authorised" (5), as
			// Mosquitto tells it; MQTT 5's "bad user name or password"
			// (0x86) is checked in TestBrokerLoginMQTT5.
			if !tt.ok && !errors.Is(err, packets.ErrorRefusedNotAuthorised) {
				t.Fatalf("connect = %v; want %v", err, packets.ErrorRefusedNotAuthorised)
			}
		})
	}
}

// connectMQTT5 sends an MQTT 5 CONNECT (paho speaks 3.1.1 only) and
// returns the CONNACK's reason code.
func connectMQTT5(t *testing.T, addr string, login telemetry.Credential) byte {
	t.Helper()
	str := func(s string) []byte { return append([]byte{byte(len(s) >> 8), byte(len(s))}, s...) }
	flags := byte(0x02) // clean start
	payload := str("journeyman-auth-test-v5")
	if login.Username != "" {
		flags |= 0x80
		payload = append(payload, str(login.Username)...)
	}
	if login.Password != "" {
		flags |= 0x40
		payload = append(payload, str(login.Password)...)
	}
	body := append(append(str("MQTT"), 5, flags, 0, 30, 0), payload...) // level 5, keep-alive 30 s, no properties
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(append([]byte{0x10, byte(len(body))}, body...)); err != nil {
		t.Fatal(err)
	}
	ack := make([]byte, 4)
	if _, err := io.ReadFull(conn, ack); err != nil {
		t.Fatalf("read CONNACK: %v", err)
	}
	if ack[0] != 0x20 {
		t.Fatalf("answer 0x%x is no CONNACK", ack[0])
	}
	return ack[3]
}

func TestBrokerLoginMQTT5(t *testing.T) {
	b, _ := authBroker(t)
	tests := []struct {
		name  string
		login telemetry.Credential
		code  byte
	}{
		{"Device", device("chlr-1"), 0x00},
		{"ErrAnonymous", telemetry.Credential{}, 0x86},
		{"ErrWrongPassword", telemetry.Credential{Username: gateway.Username, Password: "guess"}, 0x86},
		{"ErrUnknownUser", telemetry.Credential{Username: "someone", Password: "x"}, 0x86},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code := connectMQTT5(t, b.Addr(), tt.login); code != tt.code {
				t.Fatalf("CONNACK reason 0x%02x; want 0x%02x", code, tt.code)
			}
		})
	}
}

// TestBrokerLoginTwinAddedLater: a twin created after the broker read the
// twins is accepted without a restart.
func TestBrokerLoginTwinAddedLater(t *testing.T) {
	b, twins := authBroker(t)
	late := loginURL(b, device("late-1"))
	if _, err := connect(t, late, nil); err == nil {
		t.Fatal("a device of a twin that does not exist yet logged in")
	}
	twins.add("late-1")
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := connect(t, late, nil)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new twin's device is still refused: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// watcher collects every message on the broker, seen with the server's
// login.
type watcher struct {
	got chan paho.Message
}

func watch(t *testing.T, b *telemetry.Broker) *watcher {
	t.Helper()
	w := &watcher{got: make(chan paho.Message, 100)}
	c := mustConnect(t, b.URL())
	tok := c.Subscribe("#", 1, func(_ paho.Client, m paho.Message) { w.got <- m })
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("watch: %v", tok.Error())
	}
	return w
}

// next returns the next message, failing after a while.
func (w *watcher) next(t *testing.T) paho.Message {
	t.Helper()
	select {
	case m := <-w.got:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message within 10 s")
		return nil
	}
}

// TestBrokerPublishPermissions publishes as the gateway and as a device:
// what they may publish reaches a subscriber; what they may not never
// does. After each refused publish the same connection sends an allowed
// marker: the broker delivers one client's messages in order, so a
// refused message that got through would arrive before the marker.
func TestBrokerPublishPermissions(t *testing.T) {
	b, _ := authBroker(t)
	w := watch(t, b)
	tests := []struct {
		name   string
		login  telemetry.Credential
		topic  string
		ok     bool
		marker string // an allowed topic of the same login
	}{
		{"GatewayTelemetry", gateway, "journeyman/equipment/chlr-1/telemetry", true, ""},
		{"GatewayAnyTwin", gateway, "journeyman/equipment/rtu-3/telemetry", true, ""},
		{"GatewayUnknownTwin", gateway, "journeyman/equipment/not-yet/telemetry", true, ""},
		{"ErrGatewayTestTopic", gateway, "journeyman/equipment/chlr-1/test", false, "journeyman/equipment/chlr-1/telemetry"},
		{"ErrGatewayOtherTopic", gateway, "plant/line-1/alarm", false, "journeyman/equipment/chlr-1/telemetry"},
		{"ErrGatewayOtherLeaf", gateway, "journeyman/equipment/chlr-1/status", false, "journeyman/equipment/chlr-1/telemetry"},
		{"ErrGatewayDeeper", gateway, "journeyman/equipment/chlr-1/telemetry/x", false, "journeyman/equipment/chlr-1/telemetry"},
		{"DeviceOwnTelemetry", device("chlr-1"), "journeyman/equipment/chlr-1/telemetry", true, ""},
		{"ErrDeviceOtherTwin", device("chlr-1"), "journeyman/equipment/rtu-3/telemetry", false, "journeyman/equipment/chlr-1/telemetry"},
		{"ErrDeviceOwnTestTopic", device("chlr-1"), "journeyman/equipment/chlr-1/test", false, "journeyman/equipment/chlr-1/telemetry"},
		{"ErrDeviceOtherTopic", device("rtu-3"), "plant/line-1/alarm", false, "journeyman/equipment/rtu-3/telemetry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustConnect(t, loginURL(b, tt.login))
			payload := tt.name
			// QoS 0: a refused QoS 1 publish makes the broker drop an MQTT
			// 3.1.1 client, which would hide the marker.
			if tok := c.Publish(tt.topic, 0, false, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
				t.Fatalf("publish: %v", tok.Error())
			}
			if !tt.ok {
				if tok := c.Publish(tt.marker, 1, false, "marker "+payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
					t.Fatalf("publish marker: %v", tok.Error())
				}
			}
			m := w.next(t)
			switch {
			case tt.ok && (m.Topic() != tt.topic || string(m.Payload()) != payload):
				t.Fatalf("got %s %q; want %s %q", m.Topic(), m.Payload(), tt.topic, payload)
			case !tt.ok && string(m.Payload()) != "marker "+payload:
				t.Fatalf("a refused publish was delivered: %s %q", m.Topic(), m.Payload())
			}
		})
	}
}

// TestBrokerSubscribePermissions subscribes as the gateway and as a device:
// only the test topics are granted, never the server's shared
// subscription, $SYS or everything.
func TestBrokerSubscribePermissions(t *testing.T) {
	b, _ := authBroker(t)
	tests := []struct {
		name   string
		login  telemetry.Credential
		filter string
		ok     bool
	}{
		{"GatewayEveryTestTopic", gateway, "journeyman/equipment/+/test", true},
		{"GatewayOneTestTopic", gateway, "journeyman/equipment/rtu-3/test", true},
		{"ErrGatewayServersShare", gateway, "$share/journeyman/journeyman/equipment/+/telemetry", false},
		{"ErrGatewayOwnShare", gateway, "$share/gw/journeyman/equipment/+/test", false},
		{"ErrGatewayTelemetry", gateway, "journeyman/equipment/+/telemetry", false},
		{"ErrGatewayEverything", gateway, "#", false},
		{"ErrGatewayEquipment", gateway, "journeyman/equipment/#", false},
		{"ErrGatewaySys", gateway, "$SYS/#", false},
		{"DeviceOwnTestTopic", device("chlr-1"), "journeyman/equipment/chlr-1/test", true},
		{"ErrDeviceOtherTwin", device("chlr-1"), "journeyman/equipment/rtu-3/test", false},
		{"ErrDeviceEveryTwin", device("chlr-1"), "journeyman/equipment/+/test", false},
		{"ErrDeviceOwnTelemetry", device("chlr-1"), "journeyman/equipment/chlr-1/telemetry", false},
		{"ErrDeviceServersShare", device("chlr-1"), "$share/journeyman/journeyman/equipment/+/telemetry", false},
		{"ErrDeviceEverything", device("chlr-1"), "#", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustConnect(t, loginURL(b, tt.login))
			tok := c.Subscribe(tt.filter, 1, nil)
			if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
				t.Fatalf("subscribe: %v", tok.Error())
			}
			// Paho keys results by the filter without "$share/{group}/".
			var code byte
			for _, c := range tok.(*paho.SubscribeToken).Result() {
				code = c
			}
			if granted := code < 0x80; granted != tt.ok {
				t.Fatalf("SUBACK code 0x%02x; want granted %v", code, tt.ok)
			}
		})
	}
}

// TestBrokerTestTopicDelivery sends two twins' test topics with the
// server's login: each device receives its own, the gateway both.
func TestBrokerTestTopicDelivery(t *testing.T) {
	b, _ := authBroker(t)
	receivers := map[string]telemetry.Credential{"chlr-1": device("chlr-1"), "rtu-3": device("rtu-3"), "gateway": gateway}
	filters := map[string]string{"chlr-1": twin.TestTopic("chlr-1"), "rtu-3": twin.TestTopic("rtu-3"), "gateway": telemetry.TestFilter}
	got := map[string]chan string{}
	for name, login := range receivers {
		ch := make(chan string, 10)
		got[name] = ch
		c := mustConnect(t, loginURL(b, login))
		tok := c.Subscribe(filters[name], 1, func(_ paho.Client, m paho.Message) { ch <- m.Topic() + " " + string(m.Payload()) })
		if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", name, tok.Error())
		}
	}
	publish(t, b.URL(), twin.TestTopic("chlr-1"), "ping chlr-1")
	publish(t, b.URL(), twin.TestTopic("rtu-3"), "ping rtu-3")
	want := map[string][]string{
		"chlr-1":  {"journeyman/equipment/chlr-1/test ping chlr-1"},
		"rtu-3":   {"journeyman/equipment/rtu-3/test ping rtu-3"},
		"gateway": {"journeyman/equipment/chlr-1/test ping chlr-1", "journeyman/equipment/rtu-3/test ping rtu-3"},
	}
	for name, msgs := range want {
		// Two publishers' messages may arrive in either order.
		var received []string
		for range msgs {
			select {
			case m := <-got[name]:
				received = append(received, m)
			case <-time.After(10 * time.Second):
				t.Fatalf("%s received %q; want %q", name, received, msgs)
			}
		}
		slices.Sort(received)
		if !slices.Equal(received, msgs) {
			t.Errorf("%s received %q; want %q", name, received, msgs)
		}
	}
}

// TestIngestWithDeviceCredentials publishes readings with a twin's device
// login to a broker checking devices against the store, as main wires it.
func TestIngestWithDeviceCredentials(t *testing.T) {
	s := storetest.OpenSQLite(t)
	s.Now = func() time.Time { return time.Now().UTC() }
	secret, err := s.MQTTDeviceSecret(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b := startBroker(t, telemetry.BrokerAuth{DeviceSecret: secret, EquipmentIDs: s.EquipmentIDs})
	id := uniqueTwin(t, s)
	creds := telemetry.NewDeviceCredentials("tcp://"+b.Addr(), secret, id)
	if creds.Username != id || creds.PublishTopic != twin.TelemetryTopic(id) || creds.SubscribeTopic != twin.TestTopic(id) || creds.Broker != "tcp://"+b.Addr() {
		t.Fatalf("credentials = %+v", creds)
	}
	ingestThroughAs(t, s, id, b.URL(), loginURL(b, telemetry.Credential{Username: creds.Username, Password: creds.Password}))
}

func TestDevicePassword(t *testing.T) {
	a := telemetry.DevicePassword(testSecret, "chlr-1")
	tests := []struct {
		name string
		got  string
		same bool
	}{
		{"Stable", telemetry.DevicePassword(testSecret, "chlr-1"), true},
		{"OtherTwin", telemetry.DevicePassword(testSecret, "chlr-2"), false},
		{"OtherSecret", telemetry.DevicePassword([]byte("other"), "chlr-1"), false},
	}
	if len(a) != 32 {
		t.Fatalf("password %q is %d characters; want 32", a, len(a))
	}
	for _, tt := range tests {
		if (tt.got == a) != tt.same {
			t.Errorf("%s: %q vs %q", tt.name, tt.got, a)
		}
	}
}

func TestURLs(t *testing.T) {
	tests := []struct {
		url, bare, redacted string
		login               telemetry.Credential
	}{
		{"tcp://gw:s3cret@broker.local:1883", "tcp://broker.local:1883", "tcp://gw:xxxxx@broker.local:1883", telemetry.Credential{Username: "gw", Password: "s3cret"}},
		{"tcp://127.0.0.1:1883", "tcp://127.0.0.1:1883", "tcp://127.0.0.1:1883", telemetry.Credential{}},
		{"mqtt://only-user@h", "mqtt://h", "mqtt://only-user@h", telemetry.Credential{Username: "only-user"}},
	}
	for _, tt := range tests {
		if got := telemetry.WithoutUserinfo(tt.url); got != tt.bare {
			t.Errorf("WithoutUserinfo(%q) = %q; want %q", tt.url, got, tt.bare)
		}
		if got := telemetry.Redacted(tt.url); got != tt.redacted {
			t.Errorf("Redacted(%q) = %q; want %q", tt.url, got, tt.redacted)
		}
		if got := telemetry.URLCredential(tt.url); got != tt.login {
			t.Errorf("URLCredential(%q) = %+v; want %+v", tt.url, got, tt.login)
		}
	}
}

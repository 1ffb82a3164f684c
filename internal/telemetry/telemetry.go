// Package telemetry carries equipment readings over MQTT: an embedded
// broker for installations without one, and a subscriber that feeds every
// reading published on journeyman/equipment/{id}/telemetry into the same
// ingest path as the sensor-data call. The embedded broker admits only the
// process itself, the deployment's gateway user and the devices of known
// twins, each to its own topics (auth.go).
package telemetry

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"

	"journeyman/internal/twin"
)

// TopicFilter matches the telemetry topic of every twin.
const TopicFilter = "journeyman/equipment/+/telemetry"

// MaxPayload is the largest telemetry message read; a reading set is a few
// hundred bytes.
const MaxPayload = 16 << 10

// Broker is an embedded MQTT broker on a loopback TCP port.
type Broker struct {
	srv    *mqtt.Server
	tcp    *listeners.TCP
	server Credential
}

// StartBroker serves MQTT on addr ("127.0.0.1:0" picks a free port). Only
// the process's own clients (URL), the deployment's gateway user and the
// devices of known twins (auth) may log in, each to its own topics.
func StartBroker(addr string, auth BrokerAuth, log *slog.Logger) (*Broker, error) {
	log = log.With("component", "mqtt-broker")
	srv := mqtt.New(&mqtt.Options{Logger: log})
	caps := srv.Options.Capabilities
	caps.MaximumPacketSize = MaxPayload + 1024
	server := newServerCredential()
	hook := &authHook{server: server, gateway: auth.Gateway, secret: auth.DeviceSecret,
		devices: &knownIDs{load: auth.EquipmentIDs, log: log}, log: log}
	if err := srv.AddHook(hook, nil); err != nil {
		return nil, err
	}
	tcp := listeners.NewTCP(listeners.Config{ID: "tcp", Address: addr})
	if err := srv.AddListener(tcp); err != nil {
		return nil, fmt.Errorf("mqtt broker on %s: %w", addr, err)
	}
	if err := srv.Serve(); err != nil {
		return nil, err
	}
	return &Broker{srv: srv, tcp: tcp, server: server}, nil
}

// Addr is the host:port the broker listens on.
func (b *Broker) Addr() string { return b.tcp.Address() }

// URL is the broker's address with the process's own login in it: every
// right, for the process's subscriber and fleet, and for nobody else.
func (b *Broker) URL() string {
	u := url.URL{Scheme: "tcp", User: url.UserPassword(b.server.Username, b.server.Password), Host: b.Addr()}
	return u.String()
}

// Credential is the process's own login, the one URL carries.
func (b *Broker) Credential() Credential { return b.server }

// Close stops the broker.
func (b *Broker) Close() error { return b.srv.Close() }

// BrokerAddr returns host:port of an MQTT URL (tcp://host:port or mqtt://…).
func BrokerAddr(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("MQTT URL %q must look like tcp://host:1883", rawURL)
	}
	switch u.Scheme {
	case "tcp", "mqtt":
	default:
		return "", fmt.Errorf("MQTT URL %q: scheme must be tcp or mqtt", rawURL)
	}
	host := u.Host
	if u.Port() == "" {
		host += ":1883"
	}
	return host, nil
}

// Ingest hands one parsed update on, calling done with its outcome.
type Ingest func(u twin.SensorUpdate, done func(twin.Outcome)) error

// Subscriber feeds telemetry messages to the ingest path.
type Subscriber struct {
	client     paho.Client
	log        *slog.Logger
	subscribed atomic.Bool // the broker granted the subscription at least once

	// Counters, for logs and tests.
	Received, Ingested, Rejected atomic.Int64
}

// DefaultGroup is the shared-subscription group of a deployment's processes.
const DefaultGroup = "journeyman"

// ValidGroup reports whether group can name a shared subscription: MQTT
// forbids '/', '+' and '#' in it.
func ValidGroup(group string) error {
	if group == "" || strings.ContainsAny(group, "/+#") {
		return fmt.Errorf("MQTT subscription group %q must be a non-empty name without '/', '+' or '#'", group)
	}
	return nil
}

// SharedFilter is the subscription of a group's processes: a shared
// subscription, so that when several server processes share one database
// and one broker, each reading reaches exactly one of them and is stored
// once. Mosquitto (1.6+) and the embedded broker both support it.
func SharedFilter(group string) string { return "$share/" + group + "/" + TopicFilter }

// Subscribe connects to the broker at brokerURL and subscribes to every
// twin's telemetry topic with QoS 1, as a member of group. The URL's
// userinfo, if any, is the login (tcp://user:password@host:1883).
func Subscribe(brokerURL, group string, ingest Ingest, now func() time.Time, log *slog.Logger) (*Subscriber, error) {
	if err := ValidGroup(group); err != nil {
		return nil, err
	}
	filter := SharedFilter(group)
	s := &Subscriber{log: log.With("component", "telemetry")}
	suffix := make([]byte, 4)
	rand.Read(suffix)
	login := URLCredential(brokerURL)
	opts := paho.NewClientOptions().AddBroker(brokerURL).
		SetUsername(login.Username).SetPassword(login.Password).
		SetClientID("journeyman-telemetry-" + hex.EncodeToString(suffix)).
		SetCleanSession(true).SetAutoReconnect(true).SetConnectRetry(true).
		SetConnectTimeout(5 * time.Second).
		// Readings of one twin must be applied in the order the broker
		// delivers them, or an older reading can overwrite a newer one.
		// The handler only parses and queues, so it never blocks the client.
		SetOrderMatters(true)
	handler := func(_ paho.Client, m paho.Message) { s.handle(m.Topic(), m.Payload(), ingest, now) }
	// Subscribe again after every (re)connect: clean sessions forget subscriptions.
	opts.SetOnConnectHandler(func(c paho.Client) {
		tok := c.Subscribe(filter, 1, handler)
		if !tok.WaitTimeout(5 * time.Second) {
			return
		}
		if tok.Error() != nil {
			s.log.Error("subscribe", "topic", filter, "err", tok.Error())
			return
		}
		// A broker that refuses the filter says so in the SUBACK, not as
		// an error: without this line readings would stop unexplained.
		if code := subackCode(tok); code >= 0x80 {
			s.log.Error("subscription refused by the broker: check the MQTT user's permissions", "topic", filter, "code", code)
			return
		}
		s.subscribed.Store(true)
	})
	s.client = paho.NewClient(opts)
	tok := s.client.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		// The client keeps retrying; a broker that starts later is fine.
		s.log.Warn("MQTT broker not reachable yet; retrying in the background", "broker", Redacted(brokerURL))
		return s, nil
	}
	if tok.Error() != nil {
		s.client.Disconnect(0)
		return nil, fmt.Errorf("telemetry: connect to %s: %w", Redacted(brokerURL), tok.Error())
	}
	return s, nil
}

// subackCode is the broker's answer to a one-filter subscription: the QoS
// granted, or 0x80 and above for a refusal. Paho keys its results by the
// filter without "$share/{group}/", so the one result is read as it is.
func subackCode(tok paho.Token) byte {
	st, ok := tok.(*paho.SubscribeToken)
	if !ok {
		return 0
	}
	for _, code := range st.Result() {
		return code
	}
	return 0
}

// Connected reports whether the subscriber is connected to the broker.
func (s *Subscriber) Connected() bool { return s.client.IsConnectionOpen() }

// Subscribed reports whether the broker has granted the subscription
// (since the first connection; a reconnect subscribes again).
func (s *Subscriber) Subscribed() bool { return s.subscribed.Load() }

// Close disconnects from the broker.
func (s *Subscriber) Close() { s.client.Disconnect(250) }

// EquipmentID returns the twin a telemetry topic names, or "".
func EquipmentID(topic string) string {
	parts := strings.Split(topic, "/")
	if len(parts) != 4 || parts[0] != "journeyman" || parts[1] != "equipment" || parts[3] != "telemetry" || parts[2] == "" {
		return ""
	}
	return parts[2]
}

// ParsePayload reads a telemetry message: the sensor-data call's body
// ({"sensorData": {...}}) or the bare sensorData object.
func ParsePayload(payload []byte, now time.Time) (twin.SensorUpdate, error) {
	if len(payload) > MaxPayload {
		return twin.SensorUpdate{}, fmt.Errorf("payload of %d bytes is over %d", len(payload), MaxPayload)
	}
	var wrapped struct {
		SensorData json.RawMessage `json:"sensorData"`
	}
	raw := json.RawMessage(payload)
	if json.Unmarshal(payload, &wrapped) == nil && len(bytes.TrimSpace(wrapped.SensorData)) > 0 {
		raw = wrapped.SensorData
	}
	return twin.ParseSensorData(raw, now)
}

func (s *Subscriber) handle(topic string, payload []byte, ingest Ingest, now func() time.Time) {
	s.Received.Add(1)
	id := EquipmentID(topic)
	if id == "" {
		s.Rejected.Add(1)
		return
	}
	u, err := ParsePayload(payload, now())
	if err != nil {
		s.Rejected.Add(1)
		s.log.Warn("telemetry rejected", "topic", topic, "err", err)
		return
	}
	u.EquipmentID = id
	err = ingest(u, func(o twin.Outcome) {
		if o.Err != nil {
			s.Rejected.Add(1)
			s.log.Warn("telemetry not recorded", "topic", topic, "err", o.Err)
			return
		}
		s.Ingested.Add(1)
	})
	if err != nil {
		s.Rejected.Add(1)
		s.log.Warn("telemetry dropped", "topic", topic, "err", err)
	}
}

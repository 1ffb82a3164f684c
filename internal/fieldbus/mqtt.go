package fieldbus

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	paho "github.com/eclipse/paho.mqtt.golang"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// MQTTRequest is the data of an MQTT exchange: a publish through the broker.
type MQTTRequest struct {
	Topic   string  `json:"topic"`   // the twin's test topic, journeyman/equipment/{id}/test, the only one allowed
	QoS     *int    `json:"qos"`     // 0, 1 or 2; default 1
	Payload *string `json:"payload"` // default the twin's latest readings as JSON
}

// MaxPayloadLength bounds a simulated publish's payload.
const MaxPayloadLength = 4096

// truncateTopic keeps an echoed topic short enough for a message.
func truncateTopic(topic string) string {
	const most = 128
	if len(topic) <= most {
		return topic
	}
	for i := most; i > 0; i-- {
		if utf8.RuneStart(topic[i]) {
			return topic[:i] + "…"
		}
	}
	return ""
}

// MQTTResult says what was published and how the broker acknowledged it.
type MQTTResult struct {
	Topic        string `json:"topic"`
	QoS          int    `json:"qos"`
	Payload      string `json:"payload"`
	Broker       string `json:"broker"`
	Acknowledged string `json:"acknowledged"`
}

func (r MQTTRequest) resolve(eq twin.Equipment, now time.Time) (string, byte, string, error) {
	// Only the twin's test topic: a publish to its telemetry topic would
	// be stored as a reading, and one to any other topic could pose as
	// another twin or another system on a shared broker.
	topic := twin.TestTopic(eq.ID)
	if r.Topic != "" && r.Topic != topic {
		return "", 0, "", apperr.Invalid("data.topic %q is not allowed: Test Protocol publishes only to the twin's test topic %q", truncateTopic(r.Topic), topic)
	}
	qos := 1
	if r.QoS != nil {
		qos = *r.QoS
	}
	if qos < 0 || qos > 2 {
		return "", 0, "", apperr.Invalid("data.qos %d must be 0 (at most once), 1 (at least once) or 2 (exactly once)", qos)
	}
	var payload string
	if r.Payload != nil {
		payload = *r.Payload
		if len(payload) > MaxPayloadLength {
			return "", 0, "", apperr.Invalid("data.payload is %d bytes; at most %d", len(payload), MaxPayloadLength)
		}
	} else {
		readings := map[string]any{"timestamp": now.UTC().Format(time.RFC3339Nano)}
		for k, v := range eq.SensorData {
			readings[k] = v.Value
		}
		b, _ := json.Marshal(map[string]any{"sensorData": readings})
		payload = string(b)
	}
	return topic, byte(qos), payload, nil
}

func (f *Fleet) mqttExchange(ctx context.Context, eq twin.Equipment, req MQTTRequest) (Exchange, error) {
	topic, qos, payload, err := req.resolve(eq, time.Now())
	if err != nil {
		return Exchange{}, err
	}
	if f.BrokerAddr == "" {
		return Exchange{}, apperr.Errorf(apperr.EINTERNAL, "no MQTT broker is configured")
	}
	t, err := newTap(ctx, f.BrokerAddr)
	if err != nil {
		return Exchange{}, exchangeError(KindMQTT, err)
	}
	defer t.Close()
	suffix := make([]byte, 4)
	rand.Read(suffix)
	opts := paho.NewClientOptions().AddBroker("tcp://" + t.Addr()).
		SetClientID("journeyman-" + eq.ID + "-" + hex.EncodeToString(suffix)).
		SetUsername(f.BrokerUser).SetPassword(f.BrokerPassword).
		SetProtocolVersion(4).SetCleanSession(true).SetAutoReconnect(false).
		SetConnectTimeout(exchangeTimeout).SetWriteTimeout(exchangeTimeout)
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(exchangeTimeout) || tok.Error() != nil {
		return Exchange{}, exchangeError(KindMQTT, tokenError("connect", tok))
	}
	tok := c.Publish(topic, qos, false, payload)
	done := tok.WaitTimeout(exchangeTimeout)
	c.Disconnect(50)
	t.Close()
	if !done || tok.Error() != nil {
		return Exchange{}, exchangeError(KindMQTT, tokenError("publish", tok))
	}
	frames := t.Frames(splitMQTT, decodeMQTT)
	hideSecret(frames, f.BrokerPassword)
	acks := map[int]string{0: "none: QoS 0 is fire and forget", 1: "PUBACK", 2: "PUBREC, PUBREL, PUBCOMP"}
	x := Exchange{Device: f.BrokerAddr, Client: "github.com/eclipse/paho.mqtt.golang",
		Frames: frames, Result: MQTTResult{Topic: topic, QoS: int(qos), Payload: payload, Broker: f.BrokerAddr, Acknowledged: acks[int(qos)]}}
	for i, fr := range frames {
		if strings.HasPrefix(fr.Summary, "PUBLISH") && fr.Direction == ToDevice {
			x.Request = fr
		}
		if x.Response == nil && fr.Direction == FromDevice && (strings.HasPrefix(fr.Summary, "PUBACK") || strings.HasPrefix(fr.Summary, "PUBREC")) {
			x.Response = &frames[i]
		}
	}
	return x, nil
}

// hideSecret stars out secret in the frames' bytes: the CONNECT frame
// carries the broker password in the clear, and the caller is shown every
// frame but must never learn the server's own login.
func hideSecret(frames []Frame, secret string) {
	if secret == "" {
		return
	}
	stars := bytes.Repeat([]byte("*"), len(secret))
	for i, fr := range frames {
		b, err := hex.DecodeString(fr.Hex)
		if err == nil && bytes.Contains(b, []byte(secret)) {
			frames[i].Hex = hex.EncodeToString(bytes.ReplaceAll(b, []byte(secret), stars))
		}
	}
}

// remainingLength decodes MQTT's variable-length integer.
func remainingLength(b []byte) (n, size int, ok bool) {
	mult := 1
	for i := 0; i < 4 && i < len(b); i++ {
		n += int(b[i]&0x7f) * mult
		if b[i]&0x80 == 0 {
			return n, i + 1, true
		}
		mult *= 128
	}
	return 0, 0, false
}

func splitMQTT(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	n, size, ok := remainingLength(b[1:])
	if !ok {
		return 0
	}
	return 1 + size + n
}

var mqttTypes = []string{"Reserved", "CONNECT", "CONNACK", "PUBLISH", "PUBACK", "PUBREC", "PUBREL", "PUBCOMP", "SUBSCRIBE", "SUBACK", "UNSUBSCRIBE", "UNSUBACK", "PINGREQ", "PINGRESP", "DISCONNECT", "AUTH"}

func decodeMQTT(dir string, b []byte) (string, []Field) {
	if len(b) < 2 {
		return "incomplete MQTT packet", nil
	}
	typ := mqttTypes[b[0]>>4]
	n, size, _ := remainingLength(b[1:])
	fields := []Field{
		{"Packet type", fmt.Sprintf("%d (%s)", b[0]>>4, typ)},
		{"Flags", fmt.Sprintf("0x%x", b[0]&0x0f)},
		{"Remaining length", fmt.Sprintf("%d bytes", n)},
	}
	body := b[1+size:]
	switch typ {
	case "CONNECT":
		if len(body) >= 10 {
			plen := int(binary.BigEndian.Uint16(body[0:2]))
			if len(body) >= 2+plen+4 {
				fields = append(fields, Field{"Protocol", string(body[2 : 2+plen])},
					Field{"Level", fmt.Sprintf("%d (MQTT 3.1.1)", body[2+plen])},
					Field{"Connect flags", fmt.Sprintf("0x%02x", body[3+plen])},
					Field{"Keep alive", fmt.Sprintf("%d s", binary.BigEndian.Uint16(body[4+plen:6+plen]))})
			}
		}
		return typ, fields
	case "CONNACK":
		if len(body) >= 2 {
			fields = append(fields, Field{"Session present", fmt.Sprint(body[0]&1 == 1)}, Field{"Return code", fmt.Sprintf("%d (%s)", body[1], map[byte]string{0: "accepted"}[body[1]])})
		}
		return typ, fields
	case "PUBLISH":
		qos := (b[0] >> 1) & 3
		fields = append(fields, Field{"QoS", fmt.Sprint(qos)}, Field{"Retain", fmt.Sprint(b[0]&1 == 1)}, Field{"DUP", fmt.Sprint(b[0]&8 != 0)})
		if len(body) < 2 {
			return typ, fields
		}
		tlen := int(binary.BigEndian.Uint16(body[0:2]))
		if len(body) < 2+tlen {
			return typ, fields
		}
		topic := string(body[2 : 2+tlen])
		rest := body[2+tlen:]
		fields = append(fields, Field{"Topic", topic})
		if qos > 0 && len(rest) >= 2 {
			fields = append(fields, Field{"Packet ID", fmt.Sprint(binary.BigEndian.Uint16(rest[0:2]))})
			rest = rest[2:]
		}
		fields = append(fields, Field{"Payload", string(rest)})
		return fmt.Sprintf("PUBLISH %s (QoS %d)", topic, qos), fields
	case "PUBACK", "PUBREC", "PUBREL", "PUBCOMP":
		if len(body) >= 2 {
			fields = append(fields, Field{"Packet ID", fmt.Sprint(binary.BigEndian.Uint16(body[0:2]))})
		}
		return typ, fields
	}
	return typ, fields
}

// tokenError says why a paho token did not complete: its error, or no
// answer within the exchange's time.
func tokenError(what string, tok paho.Token) error {
	if err := tok.Error(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%s: no answer within %s", what, exchangeTimeout)
}

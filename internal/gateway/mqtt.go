package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	paho "github.com/eclipse/paho.mqtt.golang"

	"journeyman/internal/twin"
)

// maxPayload bounds the JSON a device may publish; a bigger message is a
// bad value, not a reading.
const maxPayload = 64 << 10

type mqttSource struct {
	c      paho.Client
	points []twin.Point
	msgs   chan []byte
	lost   chan error
}

func openMQTT(c twin.Connection) (source, error) {
	s := &mqttSource{points: c.Points, msgs: make(chan []byte, 16), lost: make(chan error, 1)}
	id := make([]byte, 6)
	_, _ = rand.Read(id)
	opts := paho.NewClientOptions().AddBroker(c.Address).SetClientID("journeyman-gateway-" + hex.EncodeToString(id)).
		SetUsername(c.Username).SetPassword(c.Password).SetConnectTimeout(timeout(c)).SetAutoReconnect(false).
		SetConnectRetry(false).SetWriteTimeout(timeout(c)).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			select {
			case s.lost <- err:
			default:
			}
		})
	s.c = paho.NewClient(opts)
	if err := wait(s.c.Connect(), c); err != nil {
		return nil, linkError(err)
	}
	err := wait(s.c.Subscribe(c.Topic, 1, func(_ paho.Client, m paho.Message) {
		select {
		case s.msgs <- m.Payload():
		default: // the poller is behind; the next message carries newer values
		}
	}), c)
	if err != nil {
		s.c.Disconnect(0)
		return nil, linkError(err)
	}
	return s, nil
}

func wait(tok paho.Token, c twin.Connection) error {
	if !tok.WaitTimeout(timeout(c)) {
		return fmt.Errorf("no answer within %d ms", c.TimeoutMs)
	}
	return tok.Error()
}

func (s *mqttSource) Close() { s.c.Disconnect(100) }

// Read waits for the device's next message and reads each point's field
// from its JSON object.
func (s *mqttSource) Read(ctx context.Context) ([]Value, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case err := <-s.lost:
		return nil, linkError(err)
	case payload := <-s.msgs:
		return s.decode(payload)
	}
}

func (s *mqttSource) decode(payload []byte) ([]Value, error) {
	if len(payload) > maxPayload {
		return nil, fmt.Errorf("a message of %d bytes is larger than %d", len(payload), maxPayload)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(payload, &fields); err != nil {
		return nil, fmt.Errorf("the message is not a JSON object: %w", err)
	}
	out := make([]Value, len(s.points))
	for i, p := range s.points {
		raw, ok := fields[p.Field]
		if !ok {
			out[i] = failed(p, fmt.Errorf("the message has no %q", p.Field))
			continue
		}
		var n float64
		if err := json.Unmarshal(raw, &n); err != nil {
			// {"value": n, "unit": "…"} as the telemetry topic accepts
			var r struct{ Value *float64 }
			if json.Unmarshal(raw, &r) != nil || r.Value == nil {
				out[i] = failed(p, fmt.Errorf("%q is not a number", p.Field))
				continue
			}
			n = *r.Value
		}
		out[i] = point(p, n)
	}
	return out, nil
}

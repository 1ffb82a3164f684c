// Package gateway connects twins to their real devices: it reads each
// connected twin's point map from the device (Modbus TCP and EtherNet/IP by
// polling, OPC UA and MQTT by subscription) and hands the readings to the
// same ingest path as the sensor-data call, with the twin's sync state
// taken from what really happened. Across processes sharing a database,
// a lease makes exactly one process poll each twin.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"journeyman/internal/twin"
)

// Value is one point read from a device: the raw value and the reading it
// makes (raw × scale + offset), or why it could not be read.
type Value struct {
	Sensor string   `json:"sensor"`
	Raw    *float64 `json:"raw,omitempty"`
	Value  *float64 `json:"value,omitempty"`
	Unit   string   `json:"unit"`
	Error  string   `json:"error,omitempty"`
}

// TestResult is what a connection test found.
type TestResult struct {
	OK         bool    `json:"ok"`
	DurationMs float64 `json:"durationMs"`
	Error      string  `json:"error,omitempty"`
	Points     []Value `json:"points"`
}

// source reads a connected twin's points. Read blocks until the next
// values: at once for a polled device, until the next publication for a
// subscribed one.
type source interface {
	Read(ctx context.Context) ([]Value, error)
	Close()
}

// errDevice marks an error of the link (refused, dropped, timed out), as
// against a bad value: the twin is disconnected rather than in error.
var errDevice = errors.New("device unreachable")

func linkError(err error) error { return fmt.Errorf("%w: %w", errDevice, err) }

// open connects to the device of a twin speaking protocol.
func open(ctx context.Context, protocol string, c twin.Connection) (source, error) {
	switch protocol {
	case twin.ProtocolModbusTCP:
		return openModbus(c)
	case twin.ProtocolOPCUA:
		return openOPCUA(ctx, c)
	case twin.ProtocolEtherNetIP:
		return openENIP(ctx, c)
	case twin.ProtocolMQTT:
		return openMQTT(c)
	}
	return nil, fmt.Errorf("no gateway for %s", protocol)
}

// Test connects to the device once and reads every point, saving nothing:
// what the manage page shows before a connection is saved.
func Test(ctx context.Context, protocol string, c twin.Connection) TestResult {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.TimeoutMs)*time.Millisecond*2+time.Second)
	defer cancel()
	res := TestResult{Points: []Value{}}
	src, err := open(ctx, protocol, c)
	if err == nil {
		var values []Value
		values, err = src.Read(ctx)
		src.Close()
		res.Points = values
	}
	res.DurationMs = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	if err != nil {
		res.Error = strings.TrimPrefix(err.Error(), errDevice.Error()+": ")
		return res
	}
	res.OK = true
	for _, v := range res.Points {
		if v.Error != "" {
			res.OK = false
		}
	}
	return res
}

// point makes the Value of p from a raw value, refusing one the sensor
// cannot physically show.
func point(p twin.Point, raw float64) Value {
	s, _ := twin.SensorByKey(p.Sensor)
	v := Value{Sensor: p.Sensor, Unit: s.Unit, Raw: &raw}
	reading := p.Reading(raw)
	switch {
	case math.IsNaN(reading) || math.IsInf(reading, 0):
		v.Error = "not a number"
	case reading < s.Min || reading > s.Max:
		v.Error = fmt.Sprintf("%g %s is outside the physical range %g to %g %s", reading, s.Unit, s.Min, s.Max, s.Unit)
	default:
		v.Value = &reading
	}
	return v
}

// failed is the Value of a point that could not be read.
func failed(p twin.Point, err error) Value {
	s, _ := twin.SensorByKey(p.Sensor)
	return Value{Sensor: p.Sensor, Unit: s.Unit, Error: err.Error()}
}

func timeout(c twin.Connection) time.Duration { return time.Duration(c.TimeoutMs) * time.Millisecond }

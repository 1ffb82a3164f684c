// Package fieldbus backs each digital twin with a simulated field device
// speaking its real protocol — a Modbus TCP server, an OPC UA server, an
// MQTT publisher through the broker, an EtherNet/IP adapter — started with
// the server on known ports (loopback by default), kept at the twin's
// stored state, and guarded so no client can stall another. It performs
// real exchanges with them through real client libraries, recording the
// bytes that cross the wire so a learner sees actual frames.
package fieldbus

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"reflect"
	"strings"
	"sync"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// Protocol kinds as the API names them.
const (
	KindModbus     = "modbus"
	KindOPCUA      = "opcua"
	KindMQTT       = "mqtt"
	KindEtherNetIP = "ethernetip"
)

// Kind maps a protocol as written ("Modbus TCP", "modbus-tcp", "OPC UA",
// "EtherNet/IP", "ENIP", …) to its kind; "" when it is none of the four.
func Kind(protocol string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(protocol) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	v := b.String()
	switch {
	case strings.HasPrefix(v, "modbus"):
		return KindModbus
	case strings.HasPrefix(v, "opcua") || v == "opc":
		return KindOPCUA
	case strings.HasPrefix(v, "mqtt"):
		return KindMQTT
	case strings.HasPrefix(v, "ethernetip") || v == "enip" || v == "cip":
		return KindEtherNetIP
	}
	return ""
}

// Exchange is one real request/response with a twin's device.
type Exchange struct {
	Protocol    string    `json:"protocol"` // kind: modbus, opcua, mqtt, ethernetip
	EquipmentID string    `json:"equipmentId"`
	Device      string    `json:"device"` // loopback address that answered
	Client      string    `json:"client"` // the client library used
	Request     Frame     `json:"request"`
	Response    *Frame    `json:"response"` // nil when the protocol sends none (MQTT QoS 0)
	Frames      []Frame   `json:"frames"`   // every frame of the conversation, in order
	Result      any       `json:"result"`   // what was read, decoded
	DurationMs  float64   `json:"durationMs"`
	Timestamp   time.Time `json:"timestamp"`
}

// exchangeTimeout bounds each step of an exchange. Loopback answers in
// milliseconds; the margin is for a machine under heavy load.
const exchangeTimeout = 15 * time.Second

// device is one simulated field device.
type device interface {
	update(eq twin.Equipment)
	addr() string
	close() error
}

// Fleet runs the simulated devices, one per twin. Start starts them all on
// known ports; a twin without a running device gets one on its first
// exchange. Follow keeps each device's registers, nodes and tags at the
// twin's stored state.
type Fleet struct {
	// BrokerAddr is the MQTT broker (host:port) MQTT twins publish through.
	BrokerAddr string
	// BrokerUser and BrokerPassword log the publisher in to the broker.
	BrokerUser, BrokerPassword string

	// Write stores a value an OPC UA client wrote to one of a twin's
	// writable sensors (twin.Equipment.WritableSensors) as the twin's
	// reading, by the path telemetry takes; the device shows it once Follow
	// brings the twin as stored. Nil refuses every write (BadNotWritable).
	Write func(ctx context.Context, u twin.SensorUpdate) error
	// DeviceLogin checks the user name and password a client signs in to
	// twin equipmentID's OPC UA device with; only a signed-in client may
	// write. Nil refuses every sign-in.
	DeviceLogin func(equipmentID, username, password string) bool
	// Certificate (DER) and PrivateKey identify the OPC UA devices to their
	// clients (Basic256Sha256). When both are nil, the fleet makes a
	// self-signed pair as its first OPC UA device starts.
	Certificate []byte
	PrivateKey  *rsa.PrivateKey

	opcuaIdentity opcuaIdentity

	mu       sync.Mutex
	host     string // where devices listen; loopback until Start says otherwise
	ports    map[string]BasePort
	next     map[string]int // devices started per kind, for the next one's port
	log      *slog.Logger
	devices  map[string]device
	shapes   map[string]string    // what each device shows of its twin (shape)
	followed map[string]time.Time // the LastUpdated of the twin each device serves
	locks    map[string]*sync.Mutex
}

// NewFleet returns a fleet publishing MQTT through brokerAddr.
func NewFleet(brokerAddr string) *Fleet {
	return &Fleet{BrokerAddr: brokerAddr, host: DefaultHost, next: map[string]int{}, devices: map[string]device{},
		shapes: map[string]string{}, followed: map[string]time.Time{}, locks: map[string]*sync.Mutex{}}
}

// Close stops every device.
func (f *Fleet) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var errs []error
	for id, d := range f.devices {
		errs = append(errs, d.close())
		delete(f.devices, id)
	}
	return errors.Join(errs...)
}

// startDevice starts kind's device for eq on ln, which it then owns.
func (f *Fleet) startDevice(eq twin.Equipment, kind string, ln net.Listener) (device, error) {
	switch kind {
	case KindModbus:
		return startModbusDevice(eq, ln)
	case KindOPCUA:
		return f.startOPCUADevice(eq, ln)
	case KindEtherNetIP:
		return startENIPDevice(eq, ln)
	}
	ln.Close()
	return nil, fmt.Errorf("no device for %s", kind)
}

// deviceFor returns the twin's running device, starting it on a free port
// if Start did not. A device it starts takes eq's state; a running one
// already has the latest through Follow, which eq (read before the
// exchange's lock) could only set back.
func (f *Fleet) deviceFor(eq twin.Equipment, kind string) (device, error) {
	f.mu.Lock()
	d := f.devices[eq.ID]
	host := f.host
	f.mu.Unlock()
	if d != nil {
		return d, nil
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", net.JoinHostPort(host, "0"))
	if err == nil {
		d, err = f.startDevice(eq, kind, ln)
	}
	if err != nil {
		return nil, fmt.Errorf("start %s device for %s: %w", kind, eq.ID, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if existing := f.devices[eq.ID]; existing != nil {
		d.close() // another exchange started one first
		return existing, nil
	}
	f.devices[eq.ID] = d
	return d, nil
}

// Follow sets the twin's running device to eq, the twin as stored; a twin
// without a running device has nothing to update. A twin older than the
// one the device already serves is ignored: this process's own readings
// reach the device at once and other processes' a moment later, through
// the store, so they may arrive out of order.
func (f *Fleet) Follow(eq twin.Equipment) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := f.devices[eq.ID]
	if d == nil || eq.LastUpdated.Before(f.followed[eq.ID]) {
		return
	}
	f.followed[eq.ID] = eq.LastUpdated
	d.update(eq)
}

// lock serialises exchanges with one device, as a real device's single
// connection would.
func (f *Fleet) lock(id string) func() {
	f.mu.Lock()
	l := f.locks[id]
	if l == nil {
		l = &sync.Mutex{}
		f.locks[id] = l
	}
	f.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// Exchange performs one real exchange with the twin's device. protocol must
// be the twin's own; data holds that protocol's parameters (see each
// protocol's request type), and may be empty for sensible defaults.
func (f *Fleet) Exchange(ctx context.Context, eq twin.Equipment, protocol string, data json.RawMessage) (Exchange, error) {
	kind := Kind(protocol)
	if kind == "" {
		return Exchange{}, apperr.Invalid("protocol %q is not supported; use one of Modbus TCP, OPC-UA, MQTT, EtherNet/IP", protocol)
	}
	if own := Kind(eq.CommunicationProtocol); own != kind {
		return Exchange{}, apperr.Invalid("protocol: %s speaks %s, not %s", eq.Name, eq.CommunicationProtocol, protocol)
	}
	if eq.Connection != nil {
		return Exchange{}, apperr.Conflict("%s is connected to its real device at %s; Test Protocol speaks to demo devices, so test the connection from Manage equipment instead", eq.Name, eq.Connection.Address)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*exchangeTimeout)
	defer cancel()
	defer f.lock(eq.ID)()
	start := time.Now()
	var x Exchange
	var err error
	switch kind {
	case KindModbus:
		var req ModbusRequest
		if err = decodeData(data, &req); err == nil {
			x, err = f.modbusExchange(ctx, eq, req)
		}
	case KindOPCUA:
		var req OPCUARequest
		if err = decodeData(data, &req); err == nil {
			x, err = f.opcuaExchange(ctx, eq, req)
		}
	case KindMQTT:
		var req MQTTRequest
		if err = decodeData(data, &req); err == nil {
			x, err = f.mqttExchange(ctx, eq, req)
		}
	case KindEtherNetIP:
		var req ENIPRequest
		if err = decodeData(data, &req); err == nil {
			x, err = f.enipExchange(ctx, eq, req)
		}
	}
	if err != nil {
		return Exchange{}, err
	}
	x.Protocol = kind
	x.EquipmentID = eq.ID
	x.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	x.Timestamp = start.UTC()
	return x, nil
}

// decodeData reads a protocol's parameters strictly: unknown keys and
// wrong types are refused, naming the key.
func decodeData(data json.RawMessage, dst any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typ) && typ.Field == "":
			return apperr.Invalid("data must be an object, not %s", typ.Value)
		case errors.As(err, &typ):
			return apperr.Invalid("data.%s must be %s, not %s", typ.Field, jsonKind(typ.Type.Kind()), typ.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return apperr.Invalid("data: unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
		case errors.Is(err, io.EOF):
			return nil
		default:
			return apperr.Invalid("data must be an object: %v", err)
		}
	}
	return nil
}

// exchangeError turns a failure on the wire into an internal error with
// context; the request was valid, so the fault is ours.
func exchangeError(kind string, err error) error {
	return fmt.Errorf("%s exchange: %w", kind, err)
}

// freePort returns a loopback port nobody listens on now.
func freePort() (int, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func readingOrZero(eq twin.Equipment, key string) float64 { return eq.SensorData[key].Value }

// toInt32 and toUint16 convert a count for a register or a DINT, saturating
// at the type's bounds: a value too large for it shows as its largest
// rather than wrapping to a wrong one.
func toInt32(n int) int32 {
	switch {
	case n > math.MaxInt32:
		return math.MaxInt32
	case n < math.MinInt32:
		return math.MinInt32
	}
	return int32(n)
}

func toUint16(n int) uint16 {
	switch {
	case n > math.MaxUint16:
		return math.MaxUint16
	case n < 0:
		return 0
	}
	return uint16(n)
}

// int32LE reads a little-endian two's-complement int32 (a CIP DINT, an OPC
// UA length); appendInt32LE writes one.
func int32LE(b []byte) int32 {
	return int32(binary.LittleEndian.Uint32(b)) //nolint:gosec // G115: the wire's bits are the int32's two's complement, by definition
}

func appendInt32LE(b []byte, v int32) []byte {
	return binary.LittleEndian.AppendUint32(b, uint32(v)) //nolint:gosec // G115: the int32's two's complement bits, by definition
}

func statusCode(status string) int {
	for i, s := range twin.Statuses {
		if s == status {
			return i
		}
	}
	return 255 // unknown
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Float64, reflect.Uint8, reflect.Uint16:
		return "a number"
	default:
		return "an object"
	}
}

package fieldbus

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gopcua/opcua"
	"github.com/gopcua/opcua/id"
	"github.com/gopcua/opcua/server"
	"github.com/gopcua/opcua/ua"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// OPCUARequest is the data of an OPC UA exchange: the node whose Value
// attribute is read.
type OPCUARequest struct {
	NodeID string `json:"nodeId"` // e.g. "ns=1;s=Temperature"; default the temperature node
}

// nodeIDPattern is the written form of a node id: an optional namespace
// index, then a numeric, string, GUID or opaque identifier.
var nodeIDPattern = regexp.MustCompile(`^(ns=\d+;)?[isgb]=.+$`)

// opcuaNodes are the variables of every simulated OPC UA device, in
// namespace 1, named by string identifiers.
var opcuaNodes = func() []string {
	names := []string{}
	for _, s := range twin.Sensors {
		names = append(names, strings.ToUpper(s.Key[:1])+s.Key[1:])
	}
	return append(names, "Status", "AlertLevel", "OperatingHours", "SyncErrorCount")
}()

func opcuaNodeList() string {
	ids := make([]string, len(opcuaNodes))
	for i, n := range opcuaNodes {
		ids[i] = "ns=1;s=" + n
	}
	return strings.Join(ids, ", ")
}

// opcuaDevice is an OPC UA server holding a twin's latest state, behind a
// guard. gopcua's MapNamespace reads its map without the lock its writers
// take, so values live here instead, in a snapshot replaced whole under mu,
// and each node reads its value from the snapshot when a client asks.
type opcuaDevice struct {
	srv   *server.Server
	guard *guard

	mu     sync.RWMutex
	values map[string]any // node name → value
}

// startOPCUADevice serves eq on ln. The library's server binds its own
// loopback port, chosen just before; another process may take it in
// between, so it tries a few.
func startOPCUADevice(eq twin.Equipment, ln net.Listener) (device, error) {
	d := &opcuaDevice{}
	d.update(eq)
	public := ln.Addr().(*net.TCPAddr)
	var err error
	for range 3 {
		var port int
		if port, err = freePort(); err != nil {
			continue
		}
		// The server listens on its first endpoint, on loopback behind the
		// guard, and also names the guard's address to clients that
		// browse endpoints; gopcua cannot listen on one and name only the
		// other.
		srv := server.New(
			server.EndPoint("127.0.0.1", port),
			server.EndPoint(public.IP.String(), public.Port),
			server.EnableSecurity("None", ua.MessageSecurityModeNone),
			server.EnableAuthMode(ua.UserTokenTypeAnonymous),
			server.ServerName(eq.Name),
			server.ManufacturerName(eq.Manufacturer),
			server.ProductName(eq.Model),
			server.SetLogger(slog.New(slog.DiscardHandler)),
		)
		ns := server.NewNodeNameSpace(srv, "urn:journeyman:"+eq.ID)
		objects := ns.Objects()
		for _, name := range opcuaNodes {
			v := ns.AddNewVariableStringNode(name, func() *ua.DataValue { return d.value(name) })
			// Read-only, as the twin's state comes from its readings; a
			// Write would also swap the node's value function unlocked.
			readOnly := server.DataValueFromValue(byte(ua.AccessLevelTypeCurrentRead))
			_ = v.SetAttribute(ua.AttributeIDAccessLevel, readOnly) // returns an error even when it sets the attribute
			_ = v.SetAttribute(ua.AttributeIDUserAccessLevel, readOnly)
			objects.AddRef(v, id.HasComponent, true)
		}
		if err = srv.Start(context.Background()); err == nil {
			d.srv = srv
			d.guard = newGuard(ln, fmt.Sprintf("127.0.0.1:%d", port), splitOPCUA)
			d.guard.start()
			return d, nil
		}
		srv.Close()
	}
	ln.Close()
	return nil, err
}

func (d *opcuaDevice) addr() string { return d.guard.addr() }
func (d *opcuaDevice) close() error { return errors.Join(d.guard.close(), d.srv.Close()) }

func (d *opcuaDevice) update(eq twin.Equipment) {
	values := make(map[string]any, len(opcuaNodes))
	for i, s := range twin.Sensors {
		values[opcuaNodes[i]] = readingOrZero(eq, s.Key)
	}
	values["Status"] = eq.Status
	values["AlertLevel"] = eq.AlertLevel
	values["OperatingHours"] = eq.OperatingHours
	values["SyncErrorCount"] = toInt32(eq.SyncErrorCount)
	d.mu.Lock()
	d.values = values
	d.mu.Unlock()
}

// value is a node's current value, read from the snapshot.
func (d *opcuaDevice) value(name string) *ua.DataValue {
	d.mu.RLock()
	v := d.values[name]
	d.mu.RUnlock()
	dv := server.DataValueFromValue(v)
	dv.EncodingMask |= ua.DataValueSourceTimestamp | ua.DataValueServerTimestamp
	dv.ServerTimestamp = dv.SourceTimestamp
	return dv
}

// OPCUAResult is the decoded answer to a Read of a node's Value.
type OPCUAResult struct {
	NodeID          string    `json:"nodeId"`
	Value           any       `json:"value"`
	DataType        string    `json:"dataType"`
	StatusCode      string    `json:"statusCode"`
	SourceTimestamp time.Time `json:"sourceTimestamp"`
	ServerTimestamp time.Time `json:"serverTimestamp"`
}

func (f *Fleet) opcuaExchange(ctx context.Context, eq twin.Equipment, req OPCUARequest) (Exchange, error) {
	text := strings.TrimSpace(req.NodeID)
	if text == "" {
		text = "ns=1;s=Temperature"
	}
	if len(text) > 256 {
		return Exchange{}, apperr.Invalid("data.nodeId is longer than 256 characters")
	}
	nodeID, err := ua.ParseNodeID(text)
	if err != nil || !nodeIDPattern.MatchString(text) {
		return Exchange{}, apperr.Invalid("data.nodeId %q is not an OPC UA node id (ns=<index>;s=<name> or ns=<index>;i=<number>); this device has %s", text, opcuaNodeList())
	}
	d, err := f.deviceFor(eq, KindOPCUA)
	if err != nil {
		return Exchange{}, err
	}
	t, err := newTap(ctx, d.addr())
	if err != nil {
		return Exchange{}, exchangeError(KindOPCUA, err)
	}
	defer t.Close()
	c, err := opcua.NewClient("opc.tcp://"+t.Addr(),
		opcua.SecurityPolicy(ua.SecurityPolicyURINone), opcua.SecurityMode(ua.MessageSecurityModeNone),
		opcua.AuthAnonymous(), opcua.RequestTimeout(exchangeTimeout), opcua.DialTimeout(exchangeTimeout),
		opcua.AutoReconnect(false))
	if err != nil {
		return Exchange{}, exchangeError(KindOPCUA, err)
	}
	if err := c.Connect(ctx); err != nil {
		return Exchange{}, exchangeError(KindOPCUA, err)
	}
	resp, err := c.Read(ctx, &ua.ReadRequest{
		NodesToRead:        []*ua.ReadValueID{{NodeID: nodeID, AttributeID: ua.AttributeIDValue}},
		TimestampsToReturn: ua.TimestampsToReturnBoth,
	})
	c.Close(ctx)
	t.Close()
	if err != nil {
		return Exchange{}, exchangeError(KindOPCUA, err)
	}
	result := OPCUAResult{NodeID: nodeID.String()}
	if len(resp.Results) > 0 {
		dv := resp.Results[0]
		result.StatusCode = dv.Status.Error()
		if dv.Status == ua.StatusOK {
			result.StatusCode = "Good (0x00000000)"
		}
		result.SourceTimestamp, result.ServerTimestamp = dv.SourceTimestamp.UTC(), dv.ServerTimestamp.UTC()
		if dv.Value != nil {
			result.Value = dv.Value.Value()
			result.DataType = dv.Value.Type().String()
		}
	}
	frames := t.Frames(splitOPCUA, decodeOPCUA)
	x := Exchange{Device: d.addr(), Client: "github.com/gopcua/opcua", Frames: frames, Result: result}
	// The Read is the conversation's point; the rest is session set-up.
	for i, fr := range frames {
		if strings.HasPrefix(fr.Summary, "MSG ReadRequest") {
			x.Request = fr
		}
		if strings.HasPrefix(fr.Summary, "MSG ReadResponse") {
			x.Response = &frames[i]
		}
	}
	return x, nil
}

// splitOPCUA cuts OPC UA Binary messages by the size in their header.
func splitOPCUA(b []byte) int {
	if len(b) < 8 {
		return 0
	}
	return int(binary.LittleEndian.Uint32(b[4:8]))
}

var opcuaTypes = map[string]string{"HEL": "Hello", "ACK": "Acknowledge", "OPN": "OpenSecureChannel", "MSG": "Message", "CLO": "CloseSecureChannel", "ERR": "Error"}

// decodeOPCUA names the header fields of an OPC UA Binary message and, for
// service messages, the service it carries.
func decodeOPCUA(dir string, b []byte) (string, []Field) {
	if len(b) < 8 {
		return "incomplete OPC UA message", nil
	}
	typ := string(b[0:3])
	fields := []Field{
		{"Message type", fmt.Sprintf("%s (%s)", typ, opcuaTypes[typ])},
		{"Chunk type", fmt.Sprintf("%c (%s)", b[3], map[byte]string{'F': "final", 'C': "intermediate", 'A': "abort"}[b[3]])},
		{"Message size", fmt.Sprintf("%d bytes", binary.LittleEndian.Uint32(b[4:8]))},
	}
	switch typ {
	case "HEL", "ACK":
		if len(b) >= 28 {
			fields = append(fields,
				Field{"Protocol version", fmt.Sprint(binary.LittleEndian.Uint32(b[8:12]))},
				Field{"Receive buffer size", fmt.Sprint(binary.LittleEndian.Uint32(b[12:16]))},
				Field{"Send buffer size", fmt.Sprint(binary.LittleEndian.Uint32(b[16:20]))})
		}
		return typ + " " + opcuaTypes[typ], fields
	case "MSG", "OPN", "CLO":
		if len(b) < 12 {
			return typ, fields
		}
		fields = append(fields, Field{"Secure channel ID", fmt.Sprint(binary.LittleEndian.Uint32(b[8:12]))})
		rest := b[12:]
		if typ == "OPN" {
			// Asymmetric security header: policy URI, certificate, thumbprint.
			var uri string
			var ok bool
			uri, rest, ok = uaString(rest)
			if !ok {
				return typ, fields
			}
			fields = append(fields, Field{"Security policy", uri})
			for range 2 {
				if _, rest, ok = uaString(rest); !ok {
					return typ, fields
				}
			}
		} else {
			if len(rest) < 4 {
				return typ, fields
			}
			fields = append(fields, Field{"Token ID", fmt.Sprint(binary.LittleEndian.Uint32(rest[0:4]))})
			rest = rest[4:]
		}
		if len(rest) < 8 {
			return typ, fields
		}
		fields = append(fields, Field{"Sequence number", fmt.Sprint(binary.LittleEndian.Uint32(rest[0:4]))},
			Field{"Request ID", fmt.Sprint(binary.LittleEndian.Uint32(rest[4:8]))})
		rest = rest[8:]
		if service, ok := serviceName(rest); ok {
			fields = append(fields, Field{"Service", service})
			return typ + " " + service, fields
		}
		return typ, fields
	}
	return typ + " " + opcuaTypes[typ], fields
}

// uaString reads an OPC UA String or ByteString (int32 length, -1 = null).
func uaString(b []byte) (string, []byte, bool) {
	if len(b) < 4 {
		return "", b, false
	}
	n := int32LE(b[0:4])
	b = b[4:]
	if n < 0 {
		return "(null)", b, true
	}
	if int(n) > len(b) {
		return "", b, false
	}
	return string(b[:n]), b[n:], true
}

// serviceName decodes the NodeId that opens a service body (the encoding
// id of the request or response type) and names it.
func serviceName(b []byte) (string, bool) {
	if len(b) < 1 {
		return "", false
	}
	var num uint32
	switch b[0] {
	case 0x00:
		if len(b) < 2 {
			return "", false
		}
		num = uint32(b[1])
	case 0x01:
		if len(b) < 4 {
			return "", false
		}
		num = uint32(binary.LittleEndian.Uint16(b[2:4]))
	case 0x02:
		if len(b) < 7 {
			return "", false
		}
		num = binary.LittleEndian.Uint32(b[3:7])
	default:
		return "", false
	}
	name := id.Name(num)
	if name == "" {
		return fmt.Sprintf("i=%d", num), true
	}
	return strings.TrimSuffix(name, "_Encoding_DefaultBinary") + fmt.Sprintf(" (i=%d)", num), true
}

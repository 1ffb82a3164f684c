package fieldbus

import (
	"context"
	"crypto/rsa"
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

func opcuaNodeList() string {
	ids := make([]string, len(opcuaNodes))
	for i, n := range opcuaNodes {
		ids[i] = "ns=1;s=" + n
	}
	return strings.Join(ids, ", ")
}

// opcuaDevice is an OPC UA server holding a twin's latest state, behind a
// guard. Its address space is a deviceSpace reading a snapshot of the twin
// replaced whole under mu (gopcua's own namespaces race). Its services are
// the library's, wrapped where the library trusts its clients too much
// (opcua_services.go): sessions are checked, user names signed in, writes
// stored as readings, and a request that would panic the library fails
// alone instead of taking the process down.
//
// The library's server is started by the first client (library): it holds
// the whole standard address space, some 18 MB of heap per device, which
// every collection of the process had to mark though no client had asked
// for it.
type opcuaDevice struct {
	id    string // the twin's
	eq    twin.Equipment
	guard *guard
	url   string // the endpoint clients reach: the guard's
	host  string // the url's host and port
	port  int
	cert  []byte
	key   *rsa.PrivateKey
	write func(ctx context.Context, u twin.SensorUpdate) error
	login func(equipmentID, username, password string) bool
	log   *slog.Logger

	ctx     context.Context // ends when the device closes
	cancel  context.CancelFunc
	writing chan struct{} // a slot per Write request in flight

	// libMu guards starting the library's server. The fields it sets do
	// not change once backend is set, and the services that read them
	// run on the server's goroutines, which start after.
	libMu    sync.Mutex
	backend  string                 // the library's server on loopback; empty until started
	srv      *server.Server         // the library's server
	sessions *server.SessionService // the library's, which the wrappers call
	space    *deviceSpace

	mu    sync.RWMutex
	state opcuaState

	authMu sync.Mutex
	auth   map[string]*sessionAuth // by authentication token

	changedMu sync.Mutex
	changed   map[string]bool // variables whose value changed since the notifier last ran
	wake      chan struct{}
}

// startOPCUADevice serves eq on ln.
func (f *Fleet) startOPCUADevice(eq twin.Equipment, ln net.Listener) (device, error) {
	cert, key, err := f.opcuaCertificate()
	if err != nil {
		ln.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &opcuaDevice{
		id: eq.ID, eq: eq, cert: cert, key: key, write: f.Write, login: f.DeviceLogin, log: slog.Default(),
		ctx: ctx, cancel: cancel, writing: make(chan struct{}, maxOPCUAWritesInFlight),
		auth: map[string]*sessionAuth{}, changed: map[string]bool{}, wake: make(chan struct{}, 1),
	}
	d.update(eq)
	public := ln.Addr().(*net.TCPAddr)
	d.host, d.port = public.IP.String(), public.Port
	if public.IP.To4() == nil {
		d.host = "[" + d.host + "]"
	}
	d.url = fmt.Sprintf("opc.tcp://%s:%d", d.host, d.port)
	d.guard = newGuard(ln, d.dialLibrary, splitOPCUA)
	d.guard.wrap = func(c net.Conn) net.Conn { return newOpeningConn(c, cert, key) }
	d.guard.start()
	return d, nil
}

// dialLibrary connects the guard to the library's server, starting it for
// the device's first client. The start takes a quarter of a second (seconds
// under the race detector), so the dial has its own time after it, and
// ends when the device closes.
func (d *opcuaDevice) dialLibrary(context.Context) (net.Conn, error) {
	addr, err := d.library()
	if err != nil {
		d.log.Warn("OPC UA device did not start", "equipment", d.id, "err", err)
		return nil, err
	}
	dialer := net.Dialer{Timeout: d.guard.firstFrame}
	return dialer.DialContext(d.ctx, "tcp", addr)
}

// library starts the library's server once and answers its address. The
// server binds its own loopback port, chosen just before; another process
// may take it in between, so it tries a few.
func (d *opcuaDevice) library() (string, error) {
	d.libMu.Lock()
	defer d.libMu.Unlock()
	if d.backend != "" {
		return d.backend, nil
	}
	if err := d.ctx.Err(); err != nil {
		return "", err
	}
	var err error
	for range 3 {
		var port int
		if port, err = freePort(); err != nil {
			continue
		}
		// The server listens on its first endpoint, on loopback behind the
		// guard; the second is the guard's, the only one the wrapped
		// discovery services name to clients.
		srv := server.New(
			server.EndPoint("127.0.0.1", port),
			server.EndPoint(d.host, d.port),
			server.EnableSecurity("None", ua.MessageSecurityModeNone),
			server.EnableSecurity("Basic256Sha256", ua.MessageSecurityModeSign),
			server.EnableSecurity("Basic256Sha256", ua.MessageSecurityModeSignAndEncrypt),
			server.EnableAuthMode(ua.UserTokenTypeAnonymous),
			server.EnableAuthMode(ua.UserTokenTypeUserName),
			server.Certificate(d.cert),
			server.PrivateKey(d.key),
			server.ServerName(d.eq.Name),
			server.ManufacturerName(d.eq.Manufacturer),
			server.ProductName(d.eq.Model),
			server.SetLogger(slog.New(slog.DiscardHandler)),
		)
		if d.sessions, err = librarySessions(srv); err != nil {
			return "", err
		}
		d.srv = srv
		d.space = newDeviceSpace("urn:journeyman:"+d.id, d.snapshot)
		srv.AddNamespace(d.space)
		d.space.build(d.eq)
		// Objects organizes the twin's folder, so a client browsing from
		// the standard root finds it.
		srv.Node(ua.NewNumericNodeID(0, id.ObjectsFolder)).AddRef(d.space.folder.lib, id.Organizes, true)
		d.register(srv)
		if err = srv.Start(d.ctx); err == nil {
			d.backend = fmt.Sprintf("127.0.0.1:%d", port)
			go d.notify()
			return d.backend, nil
		}
		srv.Close()
		d.srv = nil
	}
	return "", err
}

func (d *opcuaDevice) addr() string { return d.guard.addr() }

// registerGrace is how long after a connection to the server opens that
// closing the server waits. gopcua's server registers each connection on a
// goroutine of its own, which adds itself to the WaitGroup that Close waits
// on only once it runs: a Close in between races it (the race detector
// caught one in CI, closing a fleet right after a test's last connection).
// Registering takes microseconds once the goroutine runs; the grace covers
// a busy scheduler.
const registerGrace = 100 * time.Millisecond

func (d *opcuaDevice) close() error {
	d.cancel()
	err := d.guard.close()
	// The guard's relays have ended, and with them any start under way.
	d.libMu.Lock()
	srv := d.srv
	d.libMu.Unlock()
	if srv == nil {
		return err
	}
	if wait := time.Until(d.guard.lastServerDial().Add(registerGrace)); wait > 0 {
		time.Sleep(wait)
	}
	return errors.Join(err, srv.Close())
}

// update replaces the snapshot with eq and has the variables whose value
// changed reported to the subscriptions that monitor them. It never waits
// on a client: the notifier does the reporting.
func (d *opcuaDevice) update(eq twin.Equipment) {
	next := newOPCUAState(eq, d.write != nil)
	d.mu.Lock()
	prev := d.state
	d.state = next
	d.mu.Unlock()
	d.changedMu.Lock()
	for name, v := range next.values {
		if old, ok := prev.values[name]; !ok || old != v {
			d.changed[name] = true
		}
	}
	pending := len(d.changed) > 0
	d.changedMu.Unlock()
	if pending {
		select {
		case d.wake <- struct{}{}:
		default: // the notifier is already due to run
		}
	}
}

// snapshot is the twin as the device serves it now.
func (d *opcuaDevice) snapshot() opcuaState {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.state
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

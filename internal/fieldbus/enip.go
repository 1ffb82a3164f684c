package fieldbus

// EtherNet/IP: github.com/danomagnum/gologix, the library the project
// meant to use, cannot be fetched here (the module proxy answers 403 for
// every version), so the device and client below speak the protocol
// themselves: the encapsulation layer (RegisterSession, SendRRData,
// UnRegisterSession) over TCP port semantics of 44818, carrying unconnected
// CIP explicit messages — Get_Attribute_Single on an Assembly object
// instance, and Logix Read Tag. The frames are the real ones a PLC or
// scanner exchanges; only the scope is small.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// ENIPRequest is the data of an EtherNet/IP exchange: an assembly instance
// to read (attribute 3, its data) or a tag to read.
type ENIPRequest struct {
	Assembly *int   `json:"assembly"` // 100 (readings) or 101 (state); default 100
	Tag      string `json:"tag"`      // e.g. "Temperature"; instead of assembly
}

// Assembly instances of every simulated EtherNet/IP device.
const (
	AssemblyReadings = 100 // the seven readings as REAL
	AssemblyState    = 101 // status, alert level, operating hours, sync errors as DINT
)

// Encapsulation commands and CIP codes used here.
const (
	eipRegisterSession   = 0x0065
	eipUnRegisterSession = 0x0066
	eipSendRRData        = 0x006F

	cipGetAttributeSingle = 0x0E
	cipReadTag            = 0x4C
	cipClassAssembly      = 0x04
	cipTypeREAL           = 0x00CA
	cipTypeDINT           = 0x00C4

	cpfNullAddress     = 0x0000
	cpfUnconnectedData = 0x00B2
)

var cipStatus = map[byte]string{0x00: "Success", 0x04: "Path segment error", 0x05: "Path destination unknown", 0x08: "Service not supported", 0x14: "Attribute not supported"}

// enipDevice is an EtherNet/IP adapter holding a twin's latest state,
// behind a guard.
type enipDevice struct {
	ln    net.Listener // the adapter itself, on loopback
	guard *guard

	mu       sync.Mutex
	readings []float32
	state    []int32
	session  uint32
	conns    map[net.Conn]bool
	wg       sync.WaitGroup
}

func startENIPDevice(eq twin.Equipment, public net.Listener) (device, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		public.Close()
		return nil, err
	}
	d := &enipDevice{ln: ln, conns: map[net.Conn]bool{}}
	d.update(eq)
	d.wg.Add(1)
	go d.serve()
	d.guard = newGuard(public, ln.Addr().String(), splitENIP)
	d.guard.start()
	return d, nil
}

func (d *enipDevice) addr() string { return d.guard.addr() }
func (d *enipDevice) close() error {
	gerr := d.guard.close()
	err := d.ln.Close()
	d.mu.Lock()
	for c := range d.conns {
		c.Close() // a client idling on its session must not hold up shutdown
	}
	d.mu.Unlock()
	d.wg.Wait()
	return errors.Join(gerr, err)
}

func (d *enipDevice) update(eq twin.Equipment) {
	readings := make([]float32, len(twin.Sensors))
	for i, s := range twin.Sensors {
		readings[i] = float32(readingOrZero(eq, s.Key))
	}
	hours := math.Min(math.Max(0, math.Round(eq.OperatingHours)), math.MaxInt32)
	state := []int32{toInt32(statusCode(eq.Status)), toInt32(max(0, twin.AlertRank(eq.AlertLevel))), int32(hours), toInt32(eq.SyncErrorCount)}
	d.mu.Lock()
	d.readings, d.state = readings, state
	d.mu.Unlock()
}

func (d *enipDevice) serve() {
	defer d.wg.Done()
	for {
		conn, err := d.ln.Accept()
		if err != nil {
			return
		}
		d.mu.Lock()
		d.conns[conn] = true
		d.mu.Unlock()
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			defer func() {
				conn.Close()
				d.mu.Lock()
				delete(d.conns, conn)
				d.mu.Unlock()
			}()
			d.handle(conn)
		}()
	}
}

// encapHeader is the 24-byte header of every EtherNet/IP message.
type encapHeader struct {
	Command uint16
	Length  uint16
	Session uint32
	Status  uint32
	Context [8]byte
	Options uint32
}

func readEncap(r io.Reader) (encapHeader, []byte, error) {
	var h encapHeader
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
		return h, nil, err
	}
	body := make([]byte, h.Length)
	_, err := io.ReadFull(r, body)
	return h, body, err
}

func writeEncap(w io.Writer, h encapHeader, body []byte) error {
	if len(body) > math.MaxUint16 {
		return fmt.Errorf("encapsulated body of %d bytes; at most %d fit", len(body), math.MaxUint16)
	}
	h.Length = toUint16(len(body))
	b := make([]byte, 0, 24+len(body))
	b = binary.LittleEndian.AppendUint16(b, h.Command)
	b = binary.LittleEndian.AppendUint16(b, h.Length)
	b = binary.LittleEndian.AppendUint32(b, h.Session)
	b = binary.LittleEndian.AppendUint32(b, h.Status)
	b = append(b, h.Context[:]...)
	b = binary.LittleEndian.AppendUint32(b, h.Options)
	_, err := w.Write(append(b, body...))
	return err
}

func (d *enipDevice) handle(conn net.Conn) {
	session := uint32(0)
	for {
		if err := conn.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
			return
		}
		h, body, err := readEncap(conn)
		if err != nil {
			return
		}
		switch h.Command {
		case eipRegisterSession:
			d.mu.Lock()
			d.session++
			session = 0x1000 + d.session
			d.mu.Unlock()
			h.Session = session
			if err := writeEncap(conn, h, body); err != nil { // echoes protocol version and options
				return
			}
		case eipUnRegisterSession:
			return
		case eipSendRRData:
			if h.Session != session || session == 0 {
				h.Status = 0x0064 // invalid session handle
				if err := writeEncap(conn, h, nil); err != nil {
					return
				}
				continue
			}
			reply, err := d.sendRRData(body)
			if err != nil {
				h.Status = 0x0003 // incorrect data
				if err := writeEncap(conn, h, nil); err != nil {
					return
				}
				continue
			}
			if err := writeEncap(conn, h, reply); err != nil {
				return
			}
		default:
			h.Status = 0x0001 // invalid or unsupported command
			if err := writeEncap(conn, h, nil); err != nil {
				return
			}
		}
	}
}

// sendRRData unpacks the common packet format, answers the CIP request in
// its unconnected data item, and packs the reply the same way.
func (d *enipDevice) sendRRData(body []byte) ([]byte, error) {
	cip, err := unpackCPF(body)
	if err != nil {
		return nil, err
	}
	return packCPF(d.answer(cip)), nil
}

// packCPF packs a CIP message of at most 65,535 bytes (a longer one is cut
// short, and the device answers it as malformed; ours are a few bytes).
func packCPF(cip []byte) []byte {
	cip = cip[:min(len(cip), math.MaxUint16)]
	b := make([]byte, 0, 16+len(cip))
	b = binary.LittleEndian.AppendUint32(b, 0) // interface handle: CIP
	b = binary.LittleEndian.AppendUint16(b, 5) // timeout, seconds
	b = binary.LittleEndian.AppendUint16(b, 2) // item count
	b = binary.LittleEndian.AppendUint16(b, cpfNullAddress)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint16(b, cpfUnconnectedData)
	b = binary.LittleEndian.AppendUint16(b, toUint16(len(cip)))
	return append(b, cip...)
}

func unpackCPF(body []byte) ([]byte, error) {
	if len(body) < 8 {
		return nil, errors.New("short SendRRData")
	}
	count := int(binary.LittleEndian.Uint16(body[6:8]))
	rest := body[8:]
	for range count {
		if len(rest) < 4 {
			return nil, errors.New("short CPF item")
		}
		typ, n := binary.LittleEndian.Uint16(rest[0:2]), int(binary.LittleEndian.Uint16(rest[2:4]))
		if len(rest) < 4+n {
			return nil, errors.New("short CPF item data")
		}
		if typ == cpfUnconnectedData {
			return rest[4 : 4+n], nil
		}
		rest = rest[4+n:]
	}
	return nil, errors.New("no unconnected data item")
}

// answer serves one CIP request.
func (d *enipDevice) answer(req []byte) []byte {
	if len(req) < 2 {
		return []byte{0x80, 0, 0x04, 0}
	}
	service := req[0]
	pathLen := int(req[1]) * 2
	if len(req) < 2+pathLen {
		return []byte{service | 0x80, 0, 0x04, 0}
	}
	path := req[2 : 2+pathLen]
	fail := func(status byte) []byte { return []byte{service | 0x80, 0, status, 0} }
	ok := func(data []byte) []byte { return append([]byte{service | 0x80, 0, 0, 0}, data...) }
	d.mu.Lock()
	defer d.mu.Unlock()
	switch service {
	case cipGetAttributeSingle:
		class, inst, attr, good := parseLogicalPath(path)
		if !good {
			return fail(0x04)
		}
		if class != cipClassAssembly {
			return fail(0x05)
		}
		if attr != 3 {
			return fail(0x14)
		}
		var data []byte
		switch inst {
		case AssemblyReadings:
			for _, r := range d.readings {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(r))
			}
		case AssemblyState:
			for _, v := range d.state {
				data = appendInt32LE(data, v) // DINT
			}
		default:
			return fail(0x05)
		}
		return ok(data)
	case cipReadTag:
		if len(path) < 2 || path[0] != 0x91 || len(path) < 2+int(path[1]) {
			return fail(0x04)
		}
		name := string(path[2 : 2+int(path[1])])
		var data []byte
		i := slices.Index(opcuaNodes, name)
		switch {
		case i >= 0 && i < len(d.readings):
			data = binary.LittleEndian.AppendUint16(data, cipTypeREAL)
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(d.readings[i]))
		case i >= len(d.readings) && i < len(opcuaNodes):
			data = binary.LittleEndian.AppendUint16(data, cipTypeDINT)
			data = appendInt32LE(data, d.tagState(name))
		default:
			return fail(0x05)
		}
		return ok(data)
	}
	return fail(0x08)
}

func (d *enipDevice) tagState(name string) int32 {
	switch name {
	case "Status":
		return d.state[0]
	case "AlertLevel":
		return d.state[1]
	case "OperatingHours":
		return d.state[2]
	default:
		return d.state[3]
	}
}

// parseLogicalPath reads class / instance / attribute logical segments
// (8- or 16-bit).
func parseLogicalPath(p []byte) (class, inst, attr int, ok bool) {
	vals := map[byte]int{}
	for len(p) > 0 {
		seg := p[0]
		switch seg & 0x03 {
		case 0: // 8-bit
			if len(p) < 2 {
				return 0, 0, 0, false
			}
			vals[seg&0xFC] = int(p[1])
			p = p[2:]
		case 1: // 16-bit, with a pad byte
			if len(p) < 4 {
				return 0, 0, 0, false
			}
			vals[seg&0xFC] = int(binary.LittleEndian.Uint16(p[2:4]))
			p = p[4:]
		default:
			return 0, 0, 0, false
		}
	}
	return vals[0x20], vals[0x24], vals[0x30], true
}

// enipClient is a minimal EtherNet/IP explicit-messaging client.
type enipClient struct {
	conn    net.Conn
	session uint32
}

func dialENIP(ctx context.Context, addr string) (*enipClient, error) {
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := conn.SetDeadline(time.Now().Add(exchangeTimeout)); err != nil {
		conn.Close()
		return nil, err
	}
	c := &enipClient{conn: conn}
	body := []byte{1, 0, 0, 0} // protocol version 1, options 0
	if err := writeEncap(conn, encapHeader{Command: eipRegisterSession, Context: [8]byte{'j', 'm', 'a', 'n'}}, body); err != nil {
		conn.Close()
		return nil, err
	}
	h, _, err := readEncap(conn)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("register session: %w", err)
	}
	if h.Status != 0 {
		conn.Close()
		return nil, fmt.Errorf("register session: status 0x%x", h.Status)
	}
	c.session = h.Session
	return c, nil
}

func (c *enipClient) request(cip []byte) ([]byte, error) {
	if err := writeEncap(c.conn, encapHeader{Command: eipSendRRData, Session: c.session, Context: [8]byte{'j', 'm', 'a', 'n'}}, packCPF(cip)); err != nil {
		return nil, err
	}
	h, body, err := readEncap(c.conn)
	if err != nil {
		return nil, err
	}
	if h.Status != 0 {
		return nil, fmt.Errorf("SendRRData: encapsulation status 0x%x", h.Status)
	}
	return unpackCPF(body)
}

// close unregisters the session, as a polite client does, and closes the
// connection. The exchange is over, so a failure of either changes nothing.
func (c *enipClient) close() {
	_ = writeEncap(c.conn, encapHeader{Command: eipUnRegisterSession, Session: c.session}, nil)
	c.conn.Close()
}

// ENIPValue is one decoded value of an assembly or tag.
type ENIPValue struct {
	Name  string  `json:"name"`
	Type  string  `json:"type"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
}

// ENIPResult is the decoded answer to a CIP read.
type ENIPResult struct {
	Service       string      `json:"service"`
	Path          string      `json:"path"`
	GeneralStatus string      `json:"generalStatus"`
	Values        []ENIPValue `json:"values"`
}

func enipTagList() string { return strings.Join(opcuaNodes, ", ") }

func (f *Fleet) enipExchange(ctx context.Context, eq twin.Equipment, req ENIPRequest) (Exchange, error) {
	var cip []byte
	var result ENIPResult
	tag := strings.TrimSpace(req.Tag)
	switch {
	case tag != "" && req.Assembly != nil:
		return Exchange{}, apperr.Invalid("data: give either assembly or tag, not both")
	case tag != "":
		if !slices.Contains(opcuaNodes, tag) {
			return Exchange{}, apperr.Invalid("data.tag %q is not a tag of this device; use one of %s", tag, enipTagList())
		}
		seg := []byte{0x91, byte(len(tag))} //nolint:gosec // G115: tag is one of opcuaNodes, checked above, all under 20 bytes
		seg = append(seg, tag...)
		if len(seg)%2 == 1 {
			seg = append(seg, 0)
		}
		cip = append([]byte{cipReadTag, byte(len(seg) / 2)}, seg...) //nolint:gosec // G115: seg is the short tag and two bytes
		cip = append(cip, 1, 0)                                      // one element
		result.Service, result.Path = "Read Tag (0x4C)", "symbolic "+tag
	default:
		inst := AssemblyReadings
		if req.Assembly != nil {
			inst = *req.Assembly
		}
		if inst != AssemblyReadings && inst != AssemblyState {
			return Exchange{}, apperr.Invalid("data.assembly %d is not an assembly of this device; use %d (readings, 7 REAL) or %d (state, 4 DINT)", inst, AssemblyReadings, AssemblyState)
		}
		cip = []byte{cipGetAttributeSingle, 3, 0x20, cipClassAssembly, 0x24, byte(inst), 0x30, 3}
		result.Service, result.Path = "Get_Attribute_Single (0x0E)", fmt.Sprintf("class 0x04 (Assembly) / instance %d / attribute 3 (data)", inst)
	}
	d, err := f.deviceFor(eq, KindEtherNetIP)
	if err != nil {
		return Exchange{}, err
	}
	t, err := newTap(ctx, d.addr())
	if err != nil {
		return Exchange{}, exchangeError(KindEtherNetIP, err)
	}
	defer t.Close()
	c, err := dialENIP(ctx, t.Addr())
	if err != nil {
		return Exchange{}, exchangeError(KindEtherNetIP, err)
	}
	reply, err := c.request(cip)
	c.close()
	t.Close()
	if err != nil {
		return Exchange{}, exchangeError(KindEtherNetIP, err)
	}
	if len(reply) < 4 {
		return Exchange{}, exchangeError(KindEtherNetIP, errors.New("short CIP reply"))
	}
	result.GeneralStatus = fmt.Sprintf("0x%02x %s", reply[2], cipStatus[reply[2]])
	data := reply[4+2*int(reply[3]):]
	result.Values = decodeCIPData(cip[0], req, tag, data)
	frames := t.Frames(splitENIP, decodeENIP)
	x := Exchange{Device: d.addr(), Client: "built-in EtherNet/IP explicit-messaging client (gologix unavailable from the module proxy)", Frames: frames, Result: result}
	for i, fr := range frames {
		if strings.HasPrefix(fr.Summary, "SendRRData") {
			if fr.Direction == ToDevice {
				x.Request = fr
			} else {
				x.Response = &frames[i]
			}
		}
	}
	return x, nil
}

func decodeCIPData(service byte, req ENIPRequest, tag string, data []byte) []ENIPValue {
	var out []ENIPValue
	if service == cipReadTag {
		if len(data) < 6 {
			return nil
		}
		typ := binary.LittleEndian.Uint16(data[0:2])
		v := ENIPValue{Name: tag}
		if typ == cipTypeREAL {
			v.Type, v.Value = "REAL", float64(math.Float32frombits(binary.LittleEndian.Uint32(data[2:6])))
			if s, ok := twin.SensorByKey(strings.ToLower(tag)); ok {
				v.Unit = s.Unit
			}
		} else {
			v.Type, v.Value = "DINT", float64(int32LE(data[2:6]))
		}
		return append(out, v)
	}
	if req.Assembly == nil || *req.Assembly == AssemblyReadings {
		for i := 0; i+4 <= len(data) && i/4 < len(twin.Sensors); i += 4 {
			s := twin.Sensors[i/4]
			out = append(out, ENIPValue{Name: s.Key, Type: "REAL", Value: float64(math.Float32frombits(binary.LittleEndian.Uint32(data[i:]))), Unit: s.Unit})
		}
		return out
	}
	names := []string{"status (0 operational, 1 maintenance, 2 offline, 3 error)", "alert level (0 normal … 3 emergency)", "operating hours", "sync error count"}
	for i := 0; i+4 <= len(data) && i/4 < len(names); i += 4 {
		out = append(out, ENIPValue{Name: names[i/4], Type: "DINT", Value: float64(int32LE(data[i:]))})
	}
	return out
}

func splitENIP(b []byte) int {
	if len(b) < 24 {
		return 0
	}
	return 24 + int(binary.LittleEndian.Uint16(b[2:4]))
}

var enipCommands = map[uint16]string{eipRegisterSession: "RegisterSession", eipUnRegisterSession: "UnRegisterSession", eipSendRRData: "SendRRData"}

func decodeENIP(dir string, b []byte) (string, []Field) {
	if len(b) < 24 {
		return "incomplete EtherNet/IP message", nil
	}
	cmd := binary.LittleEndian.Uint16(b[0:2])
	name := enipCommands[cmd]
	fields := []Field{
		{"Command", fmt.Sprintf("0x%04x (%s)", cmd, name)},
		{"Length", fmt.Sprintf("%d bytes follow", binary.LittleEndian.Uint16(b[2:4]))},
		{"Session handle", fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(b[4:8]))},
		{"Status", fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(b[8:12]))},
		{"Sender context", fmt.Sprintf("% x", b[12:20])},
	}
	if cmd != eipSendRRData {
		return name, fields
	}
	cip, err := unpackCPF(b[24:])
	if err != nil || len(cip) < 2 {
		return name, fields
	}
	if dir == ToDevice {
		fields = append(fields, Field{"CPF items", "Null Address (0x0000), Unconnected Data (0x00B2)"},
			Field{"CIP service", fmt.Sprintf("0x%02x", cip[0])},
			Field{"CIP path", fmt.Sprintf("% x", cip[2:2+min(len(cip)-2, int(cip[1])*2)])})
		if cip[0] == cipReadTag {
			return name + " CIP Read Tag", fields
		}
		return name + " CIP Get_Attribute_Single", fields
	}
	if len(cip) >= 4 {
		fields = append(fields, Field{"CIP reply service", fmt.Sprintf("0x%02x", cip[0])},
			Field{"General status", fmt.Sprintf("0x%02x %s", cip[2], cipStatus[cip[2]])},
			Field{"Data", fmt.Sprintf("% x", cip[4+2*int(cip[3]):])})
	}
	return name + " CIP reply", fields
}

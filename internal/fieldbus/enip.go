package fieldbus

// EtherNet/IP: github.com/danomagnum/gologix, the library the project
// meant to use, cannot be fetched here (the module proxy answers 403 for
// every version), so the device and client speak the protocol themselves
// (ODVA, The CIP Networks Library, Volume 2: EtherNet/IP Adaptation of
// CIP). This file is the device's encapsulation layer over TCP —
// NOP, ListServices, ListIdentity, ListInterfaces, RegisterSession,
// UnRegisterSession, SendRRData for unconnected and SendUnitData for
// connected explicit messages — with Test Protocol's exchange and its
// frame decoder. cip_device.go has the CIP objects behind it, cip.go what
// device and client share, enip_client.go the client.

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"sync"
	"time"

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

// Encapsulation commands (Vol 2, 2-3.2).
const (
	eipNOP               = 0x0000
	eipListServices      = 0x0004
	eipListIdentity      = 0x0063
	eipListInterfaces    = 0x0064
	eipRegisterSession   = 0x0065
	eipUnRegisterSession = 0x0066
	eipSendRRData        = 0x006F
	eipSendUnitData      = 0x0070
)

// Encapsulation status codes (Vol 2, 2-3.3).
const (
	eipInvalidCommand     = 0x0001
	eipIncorrectData      = 0x0003
	eipInvalidSession     = 0x0064
	eipInvalidLength      = 0x0065
	eipUnsupportedVersion = 0x0069
)

var eipStatusNames = map[uint32]string{0: "Success", eipInvalidCommand: "Invalid or unsupported command", 0x0002: "Insufficient memory",
	eipIncorrectData: "Incorrect data", eipInvalidSession: "Invalid session handle", eipInvalidLength: "Invalid length",
	eipUnsupportedVersion: "Unsupported protocol version"}

// Common Packet Format item types (Vol 2, 2-6).
const (
	cpfNullAddress      = 0x0000
	cpfListIdentity     = 0x000C
	cpfConnectedAddress = 0x00A1
	cpfConnectedData    = 0x00B1
	cpfUnconnectedData  = 0x00B2
	cpfListServices     = 0x0100
)

var cpfItemNames = map[uint16]string{cpfNullAddress: "Null Address", cpfListIdentity: "CIP Identity", cpfConnectedAddress: "Connected Address",
	cpfConnectedData: "Connected Data", cpfUnconnectedData: "Unconnected Data", cpfListServices: "Communications"}

// enipInactivityTimeout closes a session whose client sent nothing for
// this long: the TCP/IP object's encapsulation inactivity timeout, 120 s
// by default. The guard in front closes silent clients on its own clock.
const enipInactivityTimeout = 120 * time.Second

// enipDevice is an EtherNet/IP adapter holding a twin's latest state,
// behind a guard.
type enipDevice struct {
	ln     net.Listener // the adapter itself, on loopback
	public *net.TCPAddr // where clients reach it, which ListIdentity reports
	guard  *guard

	mu       sync.Mutex
	values   []float64 // by enipTags
	identity ENIPIdentity
	session  uint32 // the last session handle given out
	connID   uint32 // the last connection id given out
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
	// Connection ids start at a random point, so a client holding one from
	// before a restart does not find another connection under it.
	var seed [4]byte
	_, _ = rand.Read(seed[:])
	d := &enipDevice{ln: ln, conns: map[net.Conn]bool{}, connID: binary.LittleEndian.Uint32(seed[:]) & 0x7FFF0000}
	d.public, _ = public.Addr().(*net.TCPAddr)
	d.update(eq)
	d.wg.Add(1)
	go d.serve()
	d.guard = newGuard(public, dialTCP(ln.Addr().String()), splitENIP)
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
	values := make([]float64, len(enipTags))
	for i, t := range enipTags {
		values[i] = t.value(eq)
	}
	id := identityFor(eq)
	d.mu.Lock()
	d.values, d.identity = values, id
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

// handle serves one TCP connection: its session, if the client registers
// one, lives as long as the connection.
func (d *enipDevice) handle(conn net.Conn) {
	s := &enipSession{conns: map[uint32]*cipConnection{}}
	for {
		if err := conn.SetReadDeadline(time.Now().Add(enipInactivityTimeout)); err != nil {
			return
		}
		h, body, err := readEncap(conn)
		if err != nil {
			return
		}
		reply, status, respond, end := d.command(s, h, body)
		if end {
			return
		}
		if !respond {
			continue
		}
		h.Status = status
		if h.Command == eipRegisterSession {
			h.Session = s.handle
		}
		if err := writeEncap(conn, h, reply); err != nil {
			return
		}
	}
}

// command serves one encapsulated message: the reply's body and status,
// whether there is a reply at all, and whether the session ends.
func (d *enipDevice) command(s *enipSession, h encapHeader, body []byte) (reply []byte, status uint32, respond, end bool) {
	switch h.Command {
	case eipNOP: // never answered
		return nil, 0, false, false
	case eipListIdentity:
		d.mu.Lock()
		id := d.identity
		d.mu.Unlock()
		return appendCPF(nil, cpfItem{cpfListIdentity, d.listIdentityItem(id)}), 0, true, false
	case eipListServices:
		item := binary.LittleEndian.AppendUint16(nil, 1)    // protocol version
		item = binary.LittleEndian.AppendUint16(item, 0x20) // bit 5: CIP encapsulation over TCP; no class 0/1 UDP
		item = append(item, "Communications\x00\x00"...)
		return appendCPF(nil, cpfItem{cpfListServices, item}), 0, true, false
	case eipListInterfaces:
		return appendCPF(nil), 0, true, false
	case eipRegisterSession:
		switch {
		case len(body) != 4:
			return nil, eipInvalidLength, true, false
		case binary.LittleEndian.Uint16(body) != 1:
			return []byte{1, 0, 0, 0}, eipUnsupportedVersion, true, false // the version the device speaks
		case s.handle != 0: // one session per connection
			return nil, eipInvalidCommand, true, false
		}
		d.mu.Lock()
		d.session++
		s.handle = 0x1000 + d.session
		d.mu.Unlock()
		return body, 0, true, false // echoes protocol version and options
	case eipUnRegisterSession:
		return nil, 0, false, true
	case eipSendRRData, eipSendUnitData:
		if s.handle == 0 || h.Session != s.handle {
			return nil, eipInvalidSession, true, false
		}
		if len(body) < 6 {
			return nil, eipIncorrectData, true, false
		}
		items, err := parseCPF(body[6:])
		if err != nil || len(items) != 2 {
			return nil, eipIncorrectData, true, false
		}
		if h.Command == eipSendRRData {
			if items[0].typ != cpfNullAddress || items[1].typ != cpfUnconnectedData {
				return nil, eipIncorrectData, true, false
			}
			return rrData(d.serveCIP(s, items[1].data, 0)), 0, true, false
		}
		return d.unitData(s, items)
	}
	return nil, eipInvalidCommand, true, false
}

// unitData answers a connected message: the Connected Address item names
// the connection (its O→T id), the Connected Data item carries a sequence
// count and the request. The reply goes on the connection's T→O id with
// the same count; a repeated count is answered again without serving the
// request twice. A message on no open connection is dropped, as the
// specification says, with no reply.
func (d *enipDevice) unitData(s *enipSession, items []cpfItem) (reply []byte, status uint32, respond, end bool) {
	addr, data := items[0], items[1]
	if addr.typ != cpfConnectedAddress || len(addr.data) != 4 || data.typ != cpfConnectedData || len(data.data) < 2 {
		return nil, eipIncorrectData, true, false
	}
	now := time.Now()
	s.expire(now)
	c := s.conns[binary.LittleEndian.Uint32(addr.data)]
	if c == nil {
		return nil, 0, false, false
	}
	c.last = now
	seq := binary.LittleEndian.Uint16(data.data)
	if c.lastReply == nil || seq != c.seq {
		c.seq, c.lastReply = seq, d.serveCIP(s, data.data[2:], 0)
	}
	b := binary.LittleEndian.AppendUint32(nil, 0) // interface handle: CIP
	b = binary.LittleEndian.AppendUint16(b, 0)    // timeout: none on connected messages
	b = appendCPF(b, cpfItem{cpfConnectedAddress, binary.LittleEndian.AppendUint32(nil, c.toID)},
		cpfItem{cpfConnectedData, append(binary.LittleEndian.AppendUint16(nil, seq), c.lastReply...)})
	return b, 0, true, false
}

// listIdentityItem is the CIP Identity item of ListIdentity: the
// encapsulation version, the socket address clients reach the device on
// (big-endian, as in struct sockaddr_in), the Identity object and its state.
func (d *enipDevice) listIdentityItem(id ENIPIdentity) []byte {
	b := binary.LittleEndian.AppendUint16(nil, 1)
	b = binary.BigEndian.AppendUint16(b, 2) // AF_INET
	var port uint16
	ip := make([]byte, 4)
	if d.public != nil {
		port = toUint16(d.public.Port)
		if v4 := d.public.IP.To4(); v4 != nil {
			ip = v4
		}
	}
	b = binary.BigEndian.AppendUint16(b, port)
	b = append(b, ip...)
	b = append(b, make([]byte, 8)...) // sin_zero
	b = id.appendAll(b)
	return append(b, id.State)
}

// cpfItem is one item of the Common Packet Format.
type cpfItem struct {
	typ  uint16
	data []byte
}

// appendCPF appends the item count and the items. Items built here are a
// few bytes; one longer than 65,535 bytes is cut short.
func appendCPF(b []byte, items ...cpfItem) []byte {
	b = binary.LittleEndian.AppendUint16(b, toUint16(len(items)))
	for _, it := range items {
		data := it.data[:min(len(it.data), math.MaxUint16)]
		b = binary.LittleEndian.AppendUint16(b, it.typ)
		b = binary.LittleEndian.AppendUint16(b, toUint16(len(data)))
		b = append(b, data...)
	}
	return b
}

func parseCPF(b []byte) ([]cpfItem, error) {
	if len(b) < 2 {
		return nil, errors.New("no CPF item count")
	}
	count := int(binary.LittleEndian.Uint16(b))
	rest := b[2:]
	items := make([]cpfItem, 0, min(count, 8))
	for range count {
		if len(rest) < 4 {
			return nil, errors.New("short CPF item")
		}
		typ, n := binary.LittleEndian.Uint16(rest[0:2]), int(binary.LittleEndian.Uint16(rest[2:4]))
		if len(rest) < 4+n {
			return nil, errors.New("short CPF item data")
		}
		items = append(items, cpfItem{typ, rest[4 : 4+n]})
		rest = rest[4+n:]
	}
	return items, nil
}

// rrData is the body of a SendRRData carrying an unconnected message.
func rrData(cip []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0) // interface handle: CIP
	b = binary.LittleEndian.AppendUint16(b, 5)    // timeout, seconds
	return appendCPF(b, cpfItem{cpfNullAddress, nil}, cpfItem{cpfUnconnectedData, cip})
}

// unpackRRData is the message a SendRRData or SendUnitData body carries:
// its data items after the address item.
func unpackRRData(body []byte) (cpfItem, cpfItem, error) {
	if len(body) < 6 {
		return cpfItem{}, cpfItem{}, errors.New("short SendRRData")
	}
	items, err := parseCPF(body[6:])
	if err != nil {
		return cpfItem{}, cpfItem{}, err
	}
	if len(items) != 2 {
		return cpfItem{}, cpfItem{}, fmt.Errorf("%d CPF items; want an address and a data item", len(items))
	}
	return items[0], items[1], nil
}

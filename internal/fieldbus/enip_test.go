package fieldbus_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"io"
	"math"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"journeyman/internal/fieldbus"
	"journeyman/internal/twin"
)

// rawENIP speaks EtherNet/IP byte by byte, as the specification writes the
// frames, so the device is checked against the wire format rather than
// against the project's own client.
type rawENIP struct {
	t       *testing.T
	conn    net.Conn
	session uint32
}

func dialRaw(t *testing.T, addr string) *rawENIP {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawENIP{t: t, conn: conn}
}

type rawHeader struct {
	command uint16
	session uint32
	status  uint32
	context []byte
}

func (r *rawENIP) send(command uint16, session uint32, body []byte) {
	r.t.Helper()
	b := binary.LittleEndian.AppendUint16(nil, command)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(body)))
	b = binary.LittleEndian.AppendUint32(b, session)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = append(b, "context!"...)
	b = binary.LittleEndian.AppendUint32(b, 0)
	if _, err := r.conn.Write(append(b, body...)); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawENIP) recv() (rawHeader, []byte) {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	hdr := make([]byte, 24)
	if _, err := io.ReadFull(r.conn, hdr); err != nil {
		r.t.Fatalf("no reply: %v", err)
	}
	body := make([]byte, binary.LittleEndian.Uint16(hdr[2:]))
	if _, err := io.ReadFull(r.conn, body); err != nil {
		r.t.Fatalf("reply cut short: %v", err)
	}
	h := rawHeader{binary.LittleEndian.Uint16(hdr), binary.LittleEndian.Uint32(hdr[4:]), binary.LittleEndian.Uint32(hdr[8:]), hdr[12:20]}
	if string(h.context) != "context!" {
		r.t.Errorf("sender context %q not echoed", h.context)
	}
	return h, body
}

// noReply checks nothing arrives for a moment; the connection stays open.
func (r *rawENIP) noReply() {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	b := make([]byte, 1)
	if n, err := r.conn.Read(b); n > 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		r.t.Fatalf("got %d bytes, %v; want no reply", n, err)
	}
}

func (r *rawENIP) register() {
	r.t.Helper()
	r.send(0x65, 0, []byte{1, 0, 0, 0})
	h, body := r.recv()
	if h.command != 0x65 || h.status != 0 || h.session == 0 || !bytes.Equal(body, []byte{1, 0, 0, 0}) {
		r.t.Fatalf("RegisterSession: %+v % x", h, body)
	}
	r.session = h.session
}

// cpf packs items as type, length, data after the item count.
func cpf(items ...[]byte) []byte {
	b := binary.LittleEndian.AppendUint16(nil, uint16(len(items)))
	for i := 0; i < len(items); i += 2 {
		b = append(b, items[i]...)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(items[i+1])))
		b = append(b, items[i+1]...)
	}
	binary.LittleEndian.PutUint16(b, uint16(len(items)/2))
	return b
}

func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// items splits a CPF into its items' types and data.
func items(t *testing.T, b []byte) ([]uint16, [][]byte) {
	t.Helper()
	if len(b) < 2 {
		t.Fatalf("no item count in % x", b)
	}
	n := int(binary.LittleEndian.Uint16(b))
	b = b[2:]
	var types []uint16
	var data [][]byte
	for range n {
		l := int(binary.LittleEndian.Uint16(b[2:]))
		types = append(types, binary.LittleEndian.Uint16(b))
		data = append(data, b[4:4+l])
		b = b[4+l:]
	}
	if len(b) != 0 {
		t.Fatalf("%d bytes after the items", len(b))
	}
	return types, data
}

// rr sends a CIP request as an unconnected message and returns the reply.
func (r *rawENIP) rr(cip []byte) []byte {
	r.t.Helper()
	r.send(0x6F, r.session, append([]byte{0, 0, 0, 0, 5, 0}, cpf(le16(0x0000), nil, le16(0x00B2), cip)...))
	h, body := r.recv()
	if h.command != 0x6F || h.status != 0 {
		r.t.Fatalf("SendRRData: %+v", h)
	}
	types, data := items(r.t, body[6:])
	if len(types) != 2 || types[0] != 0 || types[1] != 0xB2 {
		r.t.Fatalf("SendRRData reply items %x", types)
	}
	return data[1]
}

// unit sends a connected message on connection id and returns the reply's
// connection id, sequence count and CIP reply.
func (r *rawENIP) unit(id uint32, seq uint16, cip []byte) (uint32, uint16, []byte) {
	r.t.Helper()
	r.sendUnit(id, seq, cip)
	h, body := r.recv()
	if h.command != 0x70 || h.status != 0 {
		r.t.Fatalf("SendUnitData: %+v", h)
	}
	types, data := items(r.t, body[6:])
	if len(types) != 2 || types[0] != 0xA1 || types[1] != 0xB1 {
		r.t.Fatalf("SendUnitData reply items %x", types)
	}
	return binary.LittleEndian.Uint32(data[0]), binary.LittleEndian.Uint16(data[1]), data[1][2:]
}

func (r *rawENIP) sendUnit(id uint32, seq uint16, cip []byte) {
	r.send(0x70, r.session, append([]byte{0, 0, 0, 0, 0, 0}, cpf(le16(0xA1), le32(id), le16(0xB1), append(le16(seq), cip...))...))
}

// reply is a decoded CIP reply.
type reply struct {
	service, status byte
	ext             []uint16
	data            []byte
}

func parseReply(t *testing.T, b []byte) reply {
	t.Helper()
	if len(b) < 4 || len(b) < 4+2*int(b[3]) {
		t.Fatalf("CIP reply % x", b)
	}
	r := reply{service: b[0], status: b[2], data: b[4+2*int(b[3]):]}
	for i := range int(b[3]) {
		r.ext = append(r.ext, binary.LittleEndian.Uint16(b[4+2*i:]))
	}
	return r
}

// symbol is an ANSI extended symbolic segment.
func symbol(name string) []byte {
	b := append([]byte{0x91, byte(len(name))}, name...)
	if len(name)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

func request(service byte, path, data []byte) []byte {
	return append(append([]byte{service, byte(len(path) / 2)}, path...), data...)
}

func readTag(name string) []byte { return request(0x4C, symbol(name), []byte{1, 0}) }

// unconnectedSend wraps req for route, as common clients send it.
func unconnectedSend(req, route []byte) []byte {
	data := append([]byte{0x0A, 0x05}, le16(uint16(len(req)))...)
	data = append(data, req...)
	if len(req)%2 == 1 {
		data = append(data, 0)
	}
	data = append(data, byte(len(route)/2), 0)
	return request(0x52, []byte{0x20, 0x06, 0x24, 0x01}, append(data, route...))
}

var (
	routeSlot0    = []byte{0x01, 0x00}
	messageRouter = []byte{0x20, 0x02, 0x24, 0x01}
)

// forwardOpen is a Forward Open (or, large, a Large Forward Open) for a
// class 3 connection along path, with originator serial 0x1337.
func forwardOpen(large bool, serial uint16, toID uint32, transport byte, path []byte) []byte {
	data := []byte{0x0A, 0x0E}
	data = append(data, le32(0)...)    // O→T id: the device's choice
	data = append(data, le32(toID)...) // T→O id: the originator's
	data = append(data, le16(serial)...)
	data = append(data, le16(0x3333)...)
	data = append(data, le32(0x1337)...)
	data = append(data, 3, 0, 0, 0)         // timeout multiplier ×32
	data = append(data, le32(2_000_000)...) // O→T RPI, µs
	service := byte(0x54)
	params := le16(0x43F4) // point to point, variable, 500 bytes
	if large {
		service = 0x5B
		params = le32(0x4200_01F4)
	}
	data = append(data, params...)
	data = append(data, le32(2_000_000)...)
	data = append(data, params...)
	data = append(data, transport, byte(len(path)/2))
	return request(service, []byte{0x20, 0x06, 0x24, 0x01}, append(data, path...))
}

func forwardClose(serial uint16) []byte {
	data := append([]byte{0x0A, 0x0E}, le16(serial)...)
	data = append(data, le16(0x3333)...)
	data = append(data, le32(0x1337)...)
	data = append(data, 3, 0)
	return request(0x4E, []byte{0x20, 0x06, 0x24, 0x01}, append(data, append(routeSlot0, messageRouter...)...))
}

func sessionTo(t *testing.T, addr string) *rawENIP {
	t.Helper()
	r := dialRaw(t, addr)
	r.register()
	return r
}

func serialHash(serial string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(serial))
	return h.Sum32()
}

// identity is the Identity object as ListIdentity and Get_Attributes_All
// encode it.
type identity struct {
	vendor, deviceType, productCode uint16
	major, minor                    byte
	status                          uint16
	serial                          uint32
	name                            string
}

func parseIdentity(t *testing.T, b []byte) (identity, []byte) {
	t.Helper()
	if len(b) < 15 || len(b) < 15+int(b[14]) {
		t.Fatalf("identity % x", b)
	}
	return identity{binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:]), binary.LittleEndian.Uint16(b[4:]),
		b[6], b[7], binary.LittleEndian.Uint16(b[8:]), binary.LittleEndian.Uint32(b[10:]), string(b[15 : 15+int(b[14])])}, b[15+int(b[14]):]
}

func TestENIPListIdentity(t *testing.T) {
	f, seed := startedFleet(t, "weld-cell-4", "elev-2")
	tests := []struct {
		twin   string
		status uint16
		state  byte
	}{
		{"weld-cell-4", 0x0064, 3}, // operational: run
		{"elev-2", 0x0034, 2},      // offline: standby, no I/O connections
	}
	for _, tt := range tests {
		t.Run(tt.twin, func(t *testing.T) {
			eq := seed[tt.twin]
			addr := deviceAddr(t, f, eq)
			r := dialRaw(t, addr) // no session: ListIdentity needs none
			r.send(0x63, 0, nil)
			h, body := r.recv()
			if h.command != 0x63 || h.status != 0 {
				t.Fatalf("ListIdentity: %+v", h)
			}
			types, data := items(t, body)
			if len(types) != 1 || types[0] != 0x0C {
				t.Fatalf("items %x, want one CIP Identity (0x0C)", types)
			}
			item := data[0]
			if v := binary.LittleEndian.Uint16(item); v != 1 {
				t.Errorf("encapsulation version %d", v)
			}
			// Socket address, big-endian: AF_INET, the port, 127.0.0.1.
			port, _ := strconv.Atoi(addr[strings.LastIndex(addr, ":")+1:])
			if fam, p := binary.BigEndian.Uint16(item[2:]), binary.BigEndian.Uint16(item[4:]); fam != 2 || int(p) != port || !net.IP(item[6:10]).Equal(net.IPv4(127, 0, 0, 1)) || !bytes.Equal(item[10:18], make([]byte, 8)) {
				t.Errorf("socket address % x, want AF_INET %s", item[2:18], addr)
			}
			id, rest := parseIdentity(t, item[18:])
			want := identity{1, 0x0E, 0x4A4D, 1, 1, tt.status, serialHash(eq.SerialNumber), eq.Model}
			if id != want {
				t.Errorf("identity %+v, want %+v", id, want)
			}
			if !bytes.Equal(rest, []byte{tt.state}) {
				t.Errorf("state % x, want %d", rest, tt.state)
			}
		})
	}
	t.Run("SerialStable", func(t *testing.T) {
		// Another fleet, another process: the same twin, the same serial.
		f2, _ := startedFleet(t, "weld-cell-4", "elev-2")
		var serials []uint32
		for _, fl := range []*fieldbus.Fleet{f, f2} {
			c, err := fieldbus.DialENIP(context.Background(), deviceAddr(t, fl, seed["weld-cell-4"]), "", 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			id, err := c.ListIdentity(context.Background())
			c.Close()
			if err != nil {
				t.Fatal(err)
			}
			serials = append(serials, id.SerialNumber)
		}
		if serials[0] != serials[1] || serials[0] != serialHash("LIN-PWS500-U1180342") {
			t.Fatalf("serials %08x", serials)
		}
	})
}

func TestENIPEncapsulation(t *testing.T) {
	f, seed := startedFleet(t, "weld-cell-4", "elev-2")
	addr := deviceAddr(t, f, seed["weld-cell-4"])
	t.Run("ListServices", func(t *testing.T) {
		r := dialRaw(t, addr)
		r.send(0x04, 0, nil)
		h, body := r.recv()
		types, data := items(t, body)
		if h.status != 0 || len(types) != 1 || types[0] != 0x100 || len(data[0]) != 20 {
			t.Fatalf("ListServices: %+v % x", h, body)
		}
		version, flags, name := binary.LittleEndian.Uint16(data[0]), binary.LittleEndian.Uint16(data[0][2:]), string(data[0][4:])
		if version != 1 || flags != 0x20 || name != "Communications\x00\x00" {
			t.Fatalf("service version %d, flags 0x%04x (want bit 5, CIP over TCP), name %q", version, flags, name)
		}
	})
	t.Run("ListInterfaces", func(t *testing.T) {
		r := dialRaw(t, addr)
		r.send(0x64, 0, nil)
		if h, body := r.recv(); h.command != 0x64 || h.status != 0 || !bytes.Equal(body, []byte{0, 0}) {
			t.Fatalf("ListInterfaces: %+v % x, want zero items", h, body)
		}
	})
	t.Run("NOP", func(t *testing.T) {
		r := dialRaw(t, addr)
		r.send(0x00, 0, []byte("ignored"))
		r.noReply()
		r.send(0x64, 0, nil) // the connection is still served
		if h, _ := r.recv(); h.command != 0x64 {
			t.Fatalf("after NOP: %+v", h)
		}
	})
	t.Run("ErrUnknownCommand", func(t *testing.T) {
		r := dialRaw(t, addr)
		r.send(0x99, 0, nil)
		if h, _ := r.recv(); h.command != 0x99 || h.status != 0x0001 {
			t.Fatalf("unknown command: %+v, want status 0x0001", h)
		}
		r.register() // and the connection goes on
	})
	t.Run("ErrNoSession", func(t *testing.T) {
		r := dialRaw(t, addr)
		r.send(0x6F, 0, append([]byte{0, 0, 0, 0, 5, 0}, cpf(le16(0), nil, le16(0xB2), readTag("Rpm"))...))
		if h, _ := r.recv(); h.status != 0x0064 {
			t.Fatalf("SendRRData without a session: %+v, want status 0x0064", h)
		}
	})
	t.Run("ErrWrongSession", func(t *testing.T) {
		r := sessionTo(t, addr)
		r.send(0x6F, r.session+1, append([]byte{0, 0, 0, 0, 5, 0}, cpf(le16(0), nil, le16(0xB2), readTag("Rpm"))...))
		if h, _ := r.recv(); h.status != 0x0064 {
			t.Fatalf("SendRRData on another session: %+v, want status 0x0064", h)
		}
		r.send(0x70, r.session+1, append([]byte{0, 0, 0, 0, 0, 0}, cpf(le16(0xA1), le32(1), le16(0xB1), []byte{0, 0})...))
		if h, _ := r.recv(); h.status != 0x0064 {
			t.Fatalf("SendUnitData on another session: %+v, want status 0x0064", h)
		}
		parseReply(t, r.rr(readTag("Rpm"))) // its own session still works
	})
	t.Run("ErrProtocolVersion", func(t *testing.T) {
		r := dialRaw(t, addr)
		r.send(0x65, 0, []byte{2, 0, 0, 0})
		if h, body := r.recv(); h.status != 0x0069 || h.session != 0 || !bytes.Equal(body, []byte{1, 0, 0, 0}) {
			t.Fatalf("RegisterSession version 2: %+v % x, want status 0x0069 offering version 1", h, body)
		}
	})
	t.Run("ErrMalformedCPF", func(t *testing.T) {
		r := sessionTo(t, addr)
		r.send(0x6F, r.session, []byte{0, 0, 0, 0, 5, 0, 2, 0, 0, 0, 0, 0, 0xB2, 0, 40, 0, 1})
		if h, _ := r.recv(); h.status != 0x0003 {
			t.Fatalf("cut-short item: %+v, want status 0x0003", h)
		}
		parseReply(t, r.rr(readTag("Rpm")))
	})
}

func TestENIPIdentityObject(t *testing.T) {
	f, seed := startedFleet(t, "weld-cell-4", "elev-2")
	eq := seed["weld-cell-4"]
	r := sessionTo(t, deviceAddr(t, f, eq))
	gas := func(inst, attr byte) []byte { return request(0x0E, []byte{0x20, 0x01, 0x24, inst, 0x30, attr}, nil) }
	serial := le32(serialHash(eq.SerialNumber))
	tests := []struct {
		name   string
		req    []byte
		status byte
		data   []byte
	}{
		{"Vendor", gas(1, 1), 0, le16(1)},
		{"DeviceType", gas(1, 2), 0, le16(0x0E)},
		{"ProductCode", gas(1, 3), 0, le16(0x4A4D)},
		{"Revision", gas(1, 4), 0, []byte{1, 1}},
		{"Status", gas(1, 5), 0, le16(0x0064)},
		{"Serial", gas(1, 6), 0, serial},
		{"ProductName", gas(1, 7), 0, append([]byte{15}, "Power Wave S500"...)},
		{"State", gas(1, 8), 0, []byte{3}},
		{"ErrAttribute", gas(1, 9), 0x14, nil},
		{"ErrInstance", gas(2, 1), 0x05, nil},
		{"ErrService", request(0x10, []byte{0x20, 0x01, 0x24, 0x01, 0x30, 0x01}, []byte{1, 0}), 0x08, nil}, // Set_Attribute_Single
		{"ErrClass", request(0x0E, []byte{0x20, 0x77, 0x24, 0x01, 0x30, 0x01}, nil), 0x05, nil},
		{"ErrPathSegment", request(0x0E, []byte{0xE0, 0x01}, nil), 0x04, nil},
		{"ErrPathCutShort", []byte{0x0E, 0x05, 0x20, 0x01}, 0x04, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseReply(t, r.rr(tt.req))
			if got.service != tt.req[0]|0x80 || got.status != tt.status || (tt.status == 0 && !bytes.Equal(got.data, tt.data)) {
				t.Fatalf("reply %+v, want status 0x%02x data % x", got, tt.status, tt.data)
			}
		})
	}
	t.Run("GetAttributesAll", func(t *testing.T) {
		got := parseReply(t, r.rr(request(0x01, []byte{0x20, 0x01, 0x24, 0x01}, nil)))
		id, rest := parseIdentity(t, got.data)
		if got.status != 0 || len(rest) != 0 || id != (identity{1, 0x0E, 0x4A4D, 1, 1, 0x0064, serialHash(eq.SerialNumber), "Power Wave S500"}) {
			t.Fatalf("Get_Attributes_All %+v: %+v, % x after it", got, id, rest)
		}
		// ListIdentity reports the same object.
		r.send(0x63, 0, nil)
		_, body := r.recv()
		_, data := items(t, body)
		listed, _ := parseIdentity(t, data[0][18:])
		if listed != id {
			t.Fatalf("ListIdentity %+v, Get_Attributes_All %+v", listed, id)
		}
	})
}

// TestENIPReadTagPaths reads tags directly, through Unconnected Send and
// over a connection, and checks the device's refusals.
func TestENIPReadTagPaths(t *testing.T) {
	f, seed := startedFleet(t, "weld-cell-4", "elev-2")
	eq := seed["elev-2"]
	r := sessionTo(t, deviceAddr(t, f, eq))
	rpm := append(le16(0x00CA), le32(math.Float32bits(float32(eq.SensorData["rpm"].Value)))...)
	tests := []struct {
		name    string
		req     []byte
		service byte
		status  byte
		ext     []uint16
		data    []byte
	}{
		{"Direct", readTag("Rpm"), 0xCC, 0, nil, rpm},
		{"DirectCaseInsensitive", readTag("rPM"), 0xCC, 0, nil, rpm},
		{"UnconnectedSendSlot0", unconnectedSend(readTag("Rpm"), routeSlot0), 0xCC, 0, nil, rpm},
		{"UnconnectedSendNoRoute", unconnectedSend(readTag("Rpm"), nil), 0xCC, 0, nil, rpm},
		{"UnconnectedSendOddRequest", unconnectedSend(request(0x4C, symbol("Rpm"), []byte{1, 0, 9}), routeSlot0), 0xCC, 0, nil, rpm},
		{"MultipleServicePacket", request(0x0A, messageRouter, multiple(readTag("Rpm"), readTag("Status"))), 0x8A, 0, nil,
			append(append(le16(2), 6, 0, 16, 0), append(append([]byte{0xCC, 0, 0, 0}, rpm...), 0xCC, 0, 0, 0, 0xC4, 0, 2, 0, 0, 0)...)},
		{"ErrUnknownTag", readTag("Torque"), 0xCC, 0x05, nil, nil},
		{"ErrUnknownTagViaRoute", unconnectedSend(readTag("Torque"), routeSlot0), 0xCC, 0x05, nil, nil},
		{"ErrMember", request(0x4C, append(symbol("Rpm"), symbol("Max")...), []byte{1, 0}), 0xCC, 0x05, nil, nil},
		{"ErrElements", request(0x4C, symbol("Rpm"), []byte{2, 0}), 0xCC, 0xFF, []uint16{0x2105}, nil},
		{"ErrNoElementCount", request(0x4C, symbol("Rpm"), nil), 0xCC, 0x13, nil, nil},
		{"ErrSymbolCutShort", []byte{0x4C, 0x02, 0x91, 0x09, 'R', 'p'}, 0xCC, 0x04, nil, nil},
		{"ErrWriteTag", request(0x4D, symbol("Rpm"), []byte{0xCA, 0, 1, 0, 0, 0, 0, 0}), 0xCD, 0x08, nil, nil},
		{"ErrRouteSlot3", unconnectedSend(readTag("Rpm"), []byte{0x01, 0x03}), 0xD2, 0x01, []uint16{0x0312}, []byte{1, 0}},
		{"ErrRoutePort2", unconnectedSend(readTag("Rpm"), []byte{0x02, 0x00}), 0xD2, 0x01, []uint16{0x0311}, []byte{1, 0}},
		{"ErrRouteBeyondSlot0", unconnectedSend(readTag("Rpm"), []byte{0x01, 0x00, 0x01, 0x01}), 0xD2, 0x01, []uint16{0x0311}, []byte{1, 0}},
		{"ErrRouteNotAPort", unconnectedSend(readTag("Rpm"), messageRouter), 0xD2, 0x01, []uint16{0x0315}, []byte{2, 0}},
		{"ErrUnconnectedSendCutShort", request(0x52, []byte{0x20, 0x06, 0x24, 0x01}, []byte{0x0A, 0x05, 40, 0, 0x4C}), 0xD2, 0x13, nil, nil},
		{"ErrConnectionManagerService", request(0x0E, []byte{0x20, 0x06, 0x24, 0x01, 0x30, 0x01}, nil), 0x8E, 0x08, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseReply(t, r.rr(tt.req))
			if got.service != tt.service || got.status != tt.status || !slicesEqual(got.ext, tt.ext) || (tt.data != nil && !bytes.Equal(got.data, tt.data)) {
				t.Fatalf("reply %+v\nwant service 0x%02x status 0x%02x ext %x data % x", got, tt.service, tt.status, tt.ext, tt.data)
			}
		})
	}
	t.Run("Connected", func(t *testing.T) {
		for _, large := range []bool{false, true} {
			got := parseReply(t, r.rr(forwardOpen(large, 0x4242, 0xBEEF0001, 0xA3, append(routeSlot0, messageRouter...))))
			if got.status != 0 || len(got.data) != 26 {
				t.Fatalf("Forward Open (large %v): %+v", large, got)
			}
			otID, toID := binary.LittleEndian.Uint32(got.data), binary.LittleEndian.Uint32(got.data[4:])
			if toID != 0xBEEF0001 || !bytes.Equal(got.data[8:16], []byte{0x42, 0x42, 0x33, 0x33, 0x37, 0x13, 0, 0}) ||
				binary.LittleEndian.Uint32(got.data[16:]) != 2_000_000 || !bytes.Equal(got.data[24:], []byte{0, 0}) {
				t.Fatalf("Forward Open reply % x", got.data)
			}
			for _, seq := range []uint16{7, 7, 8} { // a repeated count is answered again
				id, gotSeq, cip := r.unit(otID, seq, readTag("Rpm"))
				if rep := parseReply(t, cip); id != toID || gotSeq != seq || rep.service != 0xCC || rep.status != 0 || !bytes.Equal(rep.data, rpm) {
					t.Fatalf("connected Read Tag: connection 0x%08x seq %d reply %+v", id, gotSeq, rep)
				}
			}
			if _, _, cip := r.unit(otID, 9, unconnectedSend(readTag("Rpm"), routeSlot0)); !bytes.Equal(parseReply(t, cip).data, rpm) {
				t.Fatalf("connected Unconnected Send: % x", cip)
			}
			if got := parseReply(t, r.rr(forwardClose(0x4242))); got.service != 0xCE || got.status != 0 || !bytes.Equal(got.data, []byte{0x42, 0x42, 0x33, 0x33, 0x37, 0x13, 0, 0, 0, 0}) {
				t.Fatalf("Forward Close: %+v", got)
			}
			r.sendUnit(otID, 10, readTag("Rpm")) // closed: dropped, as the specification says
			r.noReply()
		}
		if got := parseReply(t, r.rr(forwardClose(0x4242))); got.status != 0x01 || !slicesEqual(got.ext, []uint16{0x0107}) {
			t.Fatalf("Forward Close of a closed connection: %+v, want 0x01/0x0107", got)
		}
	})
}

// multiple packs requests for Multiple Service Packet.
func multiple(reqs ...[]byte) []byte {
	b := le16(uint16(len(reqs)))
	at := 2 + 2*len(reqs)
	for _, r := range reqs {
		b = append(b, le16(uint16(at))...)
		at += len(r)
	}
	for _, r := range reqs {
		b = append(b, r...)
	}
	return b
}

func slicesEqual(a, b []uint16) bool {
	return len(a) == len(b) && (len(a) == 0 || string(le16s(a)) == string(le16s(b)))
}

func le16s(v []uint16) []byte {
	var b []byte
	for _, x := range v {
		b = append(b, le16(x)...)
	}
	return b
}

func TestENIPForwardOpen(t *testing.T) {
	f, seed := startedFleet(t, "weld-cell-4", "elev-2")
	addr := deviceAddr(t, f, seed["weld-cell-4"])
	path := slices.Concat(routeSlot0, messageRouter)
	tests := []struct {
		name      string
		transport byte
		path      []byte
		ext       uint16
	}{
		{"ErrIOConnection", 0x01, path, 0x0103},
		{"ErrAssembly", 0xA3, append(routeSlot0, 0x20, 0x04, 0x24, 0x64), 0x0315},
		{"ErrSlot", 0xA3, append([]byte{0x01, 0x02}, messageRouter...), 0x0312},
		{"ErrPort", 0xA3, append([]byte{0x03, 0x00}, messageRouter...), 0x0311},
		{"ErrSegment", 0xA3, []byte{0xE0, 0x00}, 0x0315},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sessionTo(t, addr)
			got := parseReply(t, r.rr(forwardOpen(false, 1, 1, tt.transport, tt.path)))
			if got.service != 0xD4 || got.status != 0x01 || !slicesEqual(got.ext, []uint16{tt.ext}) || len(got.data) != 10 {
				t.Fatalf("Forward Open: %+v, want 0x01/0x%04x", got, tt.ext)
			}
		})
	}
	t.Run("OKNoRoute", func(t *testing.T) {
		r := sessionTo(t, addr)
		if got := parseReply(t, r.rr(forwardOpen(false, 1, 0, 0xA3, messageRouter))); got.status != 0 || binary.LittleEndian.Uint32(got.data[4:]) == 0 {
			t.Fatalf("Forward Open without a route, T→O id left to the device: %+v", got)
		}
	})
	t.Run("ErrTooManyConnections", func(t *testing.T) {
		r := sessionTo(t, addr)
		ids := map[uint32]bool{}
		for i := range uint16(8) {
			got := parseReply(t, r.rr(forwardOpen(i%2 == 1, 100+i, 0, 0xA3, path)))
			if got.status != 0 {
				t.Fatalf("connection %d: %+v", i+1, got)
			}
			ids[binary.LittleEndian.Uint32(got.data)] = true
		}
		if len(ids) != 8 {
			t.Fatalf("O→T ids %v are not all different", ids)
		}
		if got := parseReply(t, r.rr(forwardOpen(false, 100, 0, 0xA3, path))); got.status != 0x01 || !slicesEqual(got.ext, []uint16{0x0100}) {
			t.Fatalf("duplicate Forward Open: %+v, want 0x01/0x0100", got)
		}
		if got := parseReply(t, r.rr(forwardOpen(false, 200, 0, 0xA3, path))); got.status != 0x01 || !slicesEqual(got.ext, []uint16{0x0113}) {
			t.Fatalf("ninth connection: %+v, want 0x01/0x0113", got)
		}
		// Another session has its own connections.
		if got := parseReply(t, sessionTo(t, addr).rr(forwardOpen(false, 200, 0, 0xA3, path))); got.status != 0 {
			t.Fatalf("another session's first connection: %+v", got)
		}
		parseReply(t, r.rr(forwardClose(103)))
		if got := parseReply(t, r.rr(forwardOpen(false, 200, 0, 0xA3, path))); got.status != 0 {
			t.Fatalf("after a Forward Close: %+v", got)
		}
	})
}

// TestENIPClientReadTag reads a tag of each elementary type with the
// project's client, directly and through the backplane route.
func TestENIPClientReadTag(t *testing.T) {
	f, seed := startedFleet(t, "weld-cell-4", "elev-2")
	eq := seed["weld-cell-4"]
	eq.SensorData = maps(eq.SensorData)
	eq.SensorData["temperature"] = twin.Reading{Value: 412.34, Unit: "°C"}
	eq.OperatingHours = 3120.75
	eq.SyncErrorCount = 70000 // past UINT: saturates
	eq.AlertLevel = twin.AlertLevels[2]
	f.Follow(eq)
	addr := deviceAddr(t, f, eq)
	tests := []struct {
		tag  string
		want float64
	}{
		{"Temperature", float64(float32(412.34))}, // REAL
		{"RunHours", 3120.75},                     // LREAL
		{"OperatingHours", 3121},                  // DINT, rounded
		{"TemperatureX10", 4123},                  // INT
		{"AlertRank", 2},                          // SINT
		{"RunSeconds", 3120.75 * 3600},            // UDINT
		{"SyncErrors", 65535},                     // UINT
		{"SyncErrorCount", 70000},                 // DINT
		{"Running", 1},                            // BOOL
	}
	for route, label := range map[string]string{"1,0": "Slot0", "": "Direct"} {
		c, err := fieldbus.DialENIP(context.Background(), addr, route, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		for _, tt := range tests {
			t.Run(tt.tag+label, func(t *testing.T) {
				got, err := c.ReadTag(context.Background(), tt.tag)
				if err != nil || got != tt.want {
					t.Fatalf("ReadTag(%s) = %v, %v; want %v", tt.tag, got, err, tt.want)
				}
			})
		}
	}
	t.Run("FollowsTwin", func(t *testing.T) {
		c, err := fieldbus.DialENIP(context.Background(), addr, "1/0", 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		next := eq
		next.Status = twin.StatusMaintenance
		next.LastUpdated = time.Now()
		f.Follow(next)
		if v, err := c.ReadTag(context.Background(), "Running"); err != nil || v != 0 {
			t.Fatalf("Running = %v, %v after maintenance began", v, err)
		}
		id, err := c.Identity(context.Background())
		if err != nil || id.Status != 0x0074 || id.ProductName != "Power Wave S500" {
			t.Fatalf("identity %+v, %v", id, err)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		tests := []struct {
			name, route, tag, want string
			status                 byte
		}{
			{"UnknownTag", "1,0", "Torque", "read tag Torque: CIP general status 0x05 (path destination unknown)", 0x05},
			{"UnknownMember", "", "Rpm.Max", "CIP general status 0x05 (path destination unknown)", 0x05},
			{"Slot", "1,4", "Rpm", "CIP general status 0x01 (connection failure), extended status 0x0312 (invalid link address in route path)", 0x01},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				c, err := fieldbus.DialENIP(context.Background(), addr, tt.route, 5*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				_, err = c.ReadTag(context.Background(), tt.tag)
				var cipErr *fieldbus.CIPError
				if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &cipErr) || cipErr.Status != tt.status {
					t.Fatalf("ReadTag(%s) error %v, want %q", tt.tag, err, tt.want)
				}
				if v, err := c.ReadTag(context.Background(), "Voltage"); tt.route != "1,4" && (err != nil || v == 0) { // the session goes on
					t.Fatalf("after the error: %v, %v", v, err)
				}
			})
		}
	})
	t.Run("ErrDial", func(t *testing.T) {
		for _, route := range []string{"1", "1,x y", "0,0", "1,256"} {
			if _, err := fieldbus.DialENIP(context.Background(), addr, route, time.Second); err == nil || !strings.Contains(err.Error(), "route") {
				t.Errorf("route %q: %v, want a route error", route, err)
			}
		}
	})
	t.Run("Canceled", func(t *testing.T) {
		c, err := fieldbus.DialENIP(context.Background(), addr, "1,0", 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.ReadTag(ctx, "Rpm"); !errors.Is(err, context.Canceled) {
			t.Fatalf("ReadTag on a canceled context: %v", err)
		}
	})
}

func TestParseCIPRoute(t *testing.T) {
	tests := []struct {
		route string
		want  []byte
	}{
		{"", nil},
		{"1,0", []byte{0x01, 0x00}},
		{" 1 / 3 ", []byte{0x01, 0x03}},
		{"1,0,2,10.0.0.9", []byte{0x01, 0x00, 0x12, 0x08, '1', '0', '.', '0', '.', '0', '.', '9'}},
		{"2,192.168.1.10", []byte{0x12, 0x0C, '1', '9', '2', '.', '1', '6', '8', '.', '1', '.', '1', '0'}},
		{"2,10.0.0.19", []byte{0x12, 0x09, '1', '0', '.', '0', '.', '0', '.', '1', '9', 0}},
		{"18,1", []byte{0x0F, 0x12, 0x00, 0x01}},
	}
	for _, tt := range tests {
		got, err := fieldbus.ParseCIPRoute(tt.route)
		if err != nil || !bytes.Equal(got, tt.want) {
			t.Errorf("ParseCIPRoute(%q) = % x, %v; want % x", tt.route, got, err, tt.want)
		}
	}
}

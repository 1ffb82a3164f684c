package fieldbus

// CIP, the Common Industrial Protocol (ODVA, The CIP Networks Library,
// Volume 1), as EtherNet/IP carries it: the pieces the simulated device and
// the client share — services, classes, general and extended status codes,
// elementary data types and EPATH segments. gologix would bring these, but
// the module proxy here refuses it (see enip.go).

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CIP services. A reply's service is the request's with bit 7 set.
const (
	cipGetAttributesAll   = 0x01
	cipMultipleService    = 0x0A
	cipGetAttributeSingle = 0x0E
	cipReadTag            = 0x4C // Logix, on a symbolic path
	cipForwardClose       = 0x4E // on the Connection Manager
	cipUnconnectedSend    = 0x52 // on the Connection Manager
	cipReadTagFragmented  = 0x52 // Logix, on a symbolic path
	cipForwardOpen        = 0x54
	cipGetInstanceAttrs   = 0x55 // Get_Instance_Attribute_List (Logix Symbol Object)
	cipLargeForwardOpen   = 0x5B
	cipReplyBit           = 0x80
)

// CIP classes the device serves.
const (
	cipClassIdentity          = 0x01
	cipClassMessageRouter     = 0x02
	cipClassAssembly          = 0x04
	cipClassConnectionManager = 0x06
	cipClassSymbol            = 0x6B // Logix Symbol Object: the tag list
)

// General status codes (Vol 1, Appendix B) the device answers with.
const (
	cipOK                    = 0x00
	cipConnectionFailure     = 0x01
	cipPathSegmentError      = 0x04
	cipPathUnknown           = 0x05
	cipServiceNotSupported   = 0x08
	cipNotEnoughData         = 0x13
	cipAttributeNotSupported = 0x14
	cipEmbeddedServiceError  = 0x1E
	cipInvalidParameter      = 0x20
	cipGeneralError          = 0xFF // Logix: the extended status says what
)

// Extended status codes of the Connection Manager (Vol 1, Table 3-5.33) and
// of Logix's general error.
const (
	cmDuplicateForwardOpen  = 0x0100
	cmTransportNotSupported = 0x0103
	cmConnectionNotFound    = 0x0107
	cmInvalidConnectionSize = 0x0109
	cmOutOfConnections      = 0x0113
	cmInvalidPort           = 0x0311
	cmInvalidLink           = 0x0312
	cmInvalidSegment        = 0x0315
	logixBeyondEnd          = 0x2105
)

var cipGeneralStatus = map[byte]string{
	0x00: "Success", 0x01: "Connection failure", 0x02: "Resource unavailable", 0x03: "Invalid parameter value",
	0x04: "Path segment error", 0x05: "Path destination unknown", 0x06: "Partial transfer", 0x07: "Connection lost",
	0x08: "Service not supported", 0x09: "Invalid attribute value", 0x0A: "Attribute list error",
	0x0C: "Object state conflict", 0x0E: "Attribute not settable", 0x0F: "Privilege violation", 0x10: "Device state conflict",
	0x11: "Reply data too large", 0x13: "Not enough data", 0x14: "Attribute not supported", 0x15: "Too much data",
	0x16: "Object does not exist", 0x1A: "Routing failure, request too large", 0x1B: "Routing failure, response too large",
	0x1E: "Embedded service error", 0x1F: "Vendor specific error", 0x20: "Invalid parameter", 0x26: "Path size invalid",
	0xFF: "General error",
}

var cipExtendedStatus = map[uint16]string{
	cmDuplicateForwardOpen: "connection in use or duplicate Forward Open", cmTransportNotSupported: "transport class and trigger combination not supported",
	cmConnectionNotFound: "target connection not found", cmInvalidConnectionSize: "invalid connection size",
	cmOutOfConnections: "out of connections", 0x0204: "unconnected request timed out",
	cmInvalidPort: "invalid port in route path", cmInvalidLink: "invalid link address in route path", cmInvalidSegment: "invalid segment in path",
	logixBeyondEnd: "access beyond the end of the tag",
}

// cipStatusName is a general status's name as the specification writes
// it, or "" for one it does not define.
func cipStatusName(status byte) string { return cipGeneralStatus[status] }

// CIPError is a CIP error reply: the general status of the service, and the
// extended status words the device added.
type CIPError struct {
	Service  byte // the reply's service code
	Status   byte
	Extended []uint16
}

func (e *CIPError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "CIP general status 0x%02x", e.Status)
	if name := cipStatusName(e.Status); name != "" {
		fmt.Fprintf(&b, " (%s)", strings.ToLower(name[:1])+name[1:])
	}
	for _, x := range e.Extended {
		fmt.Fprintf(&b, ", extended status 0x%04x", x)
		if name := cipExtendedStatus[x]; name != "" {
			fmt.Fprintf(&b, " (%s)", name)
		}
	}
	return b.String()
}

// Elementary data types (Vol 1, Appendix C-6) as Read Tag answers them.
const (
	cipTypeBOOL   = 0x00C1
	cipTypeSINT   = 0x00C2
	cipTypeINT    = 0x00C3
	cipTypeDINT   = 0x00C4
	cipTypeLINT   = 0x00C5
	cipTypeUSINT  = 0x00C6
	cipTypeUINT   = 0x00C7
	cipTypeUDINT  = 0x00C8
	cipTypeULINT  = 0x00C9
	cipTypeREAL   = 0x00CA
	cipTypeLREAL  = 0x00CB
	cipTypeStruct = 0x02A0 // Logix: a structure follows, with its handle
)

var cipTypes = map[uint16]struct {
	name string
	size int
}{
	cipTypeBOOL: {"BOOL", 1}, cipTypeSINT: {"SINT", 1}, cipTypeINT: {"INT", 2}, cipTypeDINT: {"DINT", 4}, cipTypeLINT: {"LINT", 8},
	cipTypeUSINT: {"USINT", 1}, cipTypeUINT: {"UINT", 2}, cipTypeUDINT: {"UDINT", 4}, cipTypeULINT: {"ULINT", 8},
	cipTypeREAL: {"REAL", 4}, cipTypeLREAL: {"LREAL", 8},
}

// cipTypeName names a data type code: "REAL", or "type 0x02a0".
func cipTypeName(t uint16) string {
	if ty, ok := cipTypes[t]; ok {
		return ty.name
	}
	return fmt.Sprintf("type 0x%04x", t)
}

// roundClamp rounds v to the nearest integer within [lo, hi]; NaN is 0.
func roundClamp(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return math.Min(math.Max(math.Round(v), lo), hi)
}

// encodeCIP writes v as data type t, little-endian, saturating at the
// type's bounds: a value too large for it shows as its largest rather than
// wrapping to a wrong one. 64-bit integers are not served by the device.
func encodeCIP(t uint16, v float64) ([]byte, error) {
	var x any
	switch t {
	case cipTypeBOOL:
		x = uint8(0)
		if v != 0 && !math.IsNaN(v) {
			x = uint8(1)
		}
	case cipTypeSINT:
		x = int8(roundClamp(v, math.MinInt8, math.MaxInt8))
	case cipTypeINT:
		x = int16(roundClamp(v, math.MinInt16, math.MaxInt16))
	case cipTypeDINT:
		return appendInt32LE(nil, int32(roundClamp(v, math.MinInt32, math.MaxInt32))), nil
	case cipTypeUSINT:
		x = uint8(roundClamp(v, 0, math.MaxUint8))
	case cipTypeUINT:
		x = uint16(roundClamp(v, 0, math.MaxUint16))
	case cipTypeUDINT:
		x = uint32(roundClamp(v, 0, math.MaxUint32))
	case cipTypeREAL:
		x = float32(v)
	case cipTypeLREAL:
		x = v
	default:
		return nil, fmt.Errorf("cannot encode %s", cipTypeName(t))
	}
	return binary.Append(nil, binary.LittleEndian, x)
}

// decodeCIP reads one value of data type t from the start of b.
func decodeCIP(t uint16, b []byte) (float64, error) {
	ty, ok := cipTypes[t]
	if !ok {
		if t == cipTypeStruct {
			return 0, errors.New("the tag is a structure; read one of its members")
		}
		return 0, fmt.Errorf("data %s is not an elementary type", cipTypeName(t))
	}
	if len(b) < ty.size {
		return 0, fmt.Errorf("%s value of %d bytes; want %d", ty.name, len(b), ty.size)
	}
	switch t {
	case cipTypeBOOL:
		if b[0] != 0 {
			return 1, nil
		}
		return 0, nil
	case cipTypeSINT:
		return float64(leValue[int8](b)), nil
	case cipTypeINT:
		return float64(leValue[int16](b)), nil
	case cipTypeDINT:
		return float64(leValue[int32](b)), nil
	case cipTypeLINT:
		return float64(leValue[int64](b)), nil
	case cipTypeUSINT:
		return float64(b[0]), nil
	case cipTypeUINT:
		return float64(binary.LittleEndian.Uint16(b)), nil
	case cipTypeUDINT:
		return float64(binary.LittleEndian.Uint32(b)), nil
	case cipTypeULINT:
		return float64(binary.LittleEndian.Uint64(b)), nil
	case cipTypeREAL:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), nil
	default: // LREAL
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
	}
}

// leValue reads a fixed-size little-endian value; b is long enough.
func leValue[T int8 | int16 | int32 | int64](b []byte) T {
	var v T
	_, _ = binary.Decode(b, binary.LittleEndian, &v)
	return v
}

// EPATH segments (Vol 1, Appendix C-1).
const (
	segPort     = 0x00 // 000x xxxx
	segLogical  = 0x20 // 001x xxxx
	segSymbolic = 0x91 // ANSI extended symbol
)

// Logical segment types, as the segment byte carries them (format bits 0).
const (
	logicalClass    = 0x20
	logicalInstance = 0x24
	logicalMember   = 0x28 // Logix: an array element
	logicalConnPt   = 0x2C
	logicalAttr     = 0x30
	logicalKey      = 0x34 // special: the electronic key
)

// cipSegment is one decoded EPATH segment.
type cipSegment struct {
	kind  byte   // segPort, segLogical or segSymbolic
	typ   byte   // logical: logicalClass, logicalInstance, …
	value uint32 // logical: the class, instance, … number
	port  uint16 // port: the port number
	link  []byte // port: the link address
	name  string // symbolic
	words int    // the segment's size in 16-bit words
}

// parseEPATH decodes a padded EPATH. A segment it does not know, or one cut
// short, is an error: the device answers path segment error.
func parseEPATH(p []byte) ([]cipSegment, error) {
	var segs []cipSegment
	for len(p) > 0 {
		seg, n, err := parseSegment(p)
		if err != nil {
			return nil, err
		}
		seg.words = n / 2
		segs = append(segs, seg)
		p = p[n:]
	}
	return segs, nil
}

// parseSegment decodes the segment at the start of p and its length in
// bytes, padding included.
func parseSegment(p []byte) (cipSegment, int, error) {
	short := errors.New("segment cut short")
	b := p[0]
	switch {
	case b&0xE0 == segPort:
		seg := cipSegment{kind: segPort, port: uint16(b & 0x0F)}
		n := 1
		size := 1
		if b&0x10 != 0 { // extended link address: its size follows
			if len(p) < 2 {
				return seg, 0, short
			}
			size = int(p[1])
			n = 2
		}
		if seg.port == 0x0F { // extended port number
			if len(p) < n+2 {
				return seg, 0, short
			}
			seg.port = binary.LittleEndian.Uint16(p[n:])
			n += 2
		}
		if seg.port == 0 || len(p) < n+size {
			return seg, 0, errors.New("bad port segment")
		}
		seg.link = p[n : n+size]
		n += size
		n += n % 2
		if len(p) < n {
			return seg, 0, short
		}
		return seg, n, nil
	case b == logicalKey:
		// Electronic key, format 4: vendor, device type, product code,
		// revision. Compatibility is not checked: the device accepts any.
		if len(p) < 10 || p[1] != 4 {
			return cipSegment{}, 0, errors.New("bad electronic key")
		}
		return cipSegment{kind: segLogical, typ: logicalKey}, 10, nil
	case b&0xE0 == segLogical:
		seg := cipSegment{kind: segLogical, typ: b & 0xFC}
		switch b & 0x03 {
		case 0:
			if len(p) < 2 {
				return seg, 0, short
			}
			seg.value = uint32(p[1])
			return seg, 2, nil
		case 1:
			if len(p) < 4 {
				return seg, 0, short
			}
			seg.value = uint32(binary.LittleEndian.Uint16(p[2:]))
			return seg, 4, nil
		case 2:
			if len(p) < 6 {
				return seg, 0, short
			}
			seg.value = binary.LittleEndian.Uint32(p[2:])
			return seg, 6, nil
		}
		return seg, 0, errors.New("reserved logical format")
	case b == segSymbolic:
		if len(p) < 2 {
			return cipSegment{}, 0, short
		}
		n := 2 + int(p[1])
		name := p[2:min(n, len(p))]
		n += n % 2
		if len(p) < n {
			return cipSegment{}, 0, short
		}
		return cipSegment{kind: segSymbolic, name: string(name)}, n, nil
	}
	return cipSegment{}, 0, fmt.Errorf("segment type 0x%02x not supported", b)
}

// appendLogical writes a logical segment in its shortest format.
func appendLogical(b []byte, typ byte, v uint32) []byte {
	switch {
	case v <= math.MaxUint8:
		return append(b, typ, byte(v))
	case v <= math.MaxUint16:
		return binary.LittleEndian.AppendUint16(append(b, typ|1, 0), uint16(v))
	}
	return binary.LittleEndian.AppendUint32(append(b, typ|2, 0), v)
}

// appendSymbolic writes an ANSI extended symbolic segment, padded.
func appendSymbolic(b []byte, name string) []byte {
	b = append(b, segSymbolic, byte(len(name))) //nolint:gosec // G115: callers check names are at most 255 bytes
	b = append(b, name...)
	if len(name)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

// ParseCIPRoute encodes a route path written as port/link pairs — "1,0"
// is the backplane (port 1) to slot 0, "1,0,2,10.0.0.9" goes on from that
// module's port 2 to the device at 10.0.0.9 — into port segments. Pairs
// may be separated by commas or slashes; "" is no route.
func ParseCIPRoute(route string) ([]byte, error) {
	route = strings.TrimSpace(route)
	if route == "" {
		return nil, nil
	}
	parts := strings.FieldsFunc(route, func(r rune) bool { return r == ',' || r == '/' })
	if len(parts)%2 != 0 {
		return nil, fmt.Errorf("route %q: want port,link pairs", route)
	}
	var b []byte
	for i := 0; i < len(parts); i += 2 {
		port, err := strconv.ParseUint(strings.TrimSpace(parts[i]), 10, 16)
		if err != nil || port == 0 {
			return nil, fmt.Errorf("route %q: port %q is not a number from 1 to 65535", route, parts[i])
		}
		link := strings.TrimSpace(parts[i+1])
		var addr []byte
		numeric := link != "" && strings.Trim(link, "0123456789") == ""
		if n, err := strconv.ParseUint(link, 10, 8); err == nil {
			addr = []byte{byte(n)}
		} else if !numeric && link != "" && len(link) <= 255 && !strings.ContainsAny(link, " \t") {
			addr = []byte(link) // an IP address or host name, as text
		} else {
			return nil, fmt.Errorf("route %q: link %q is neither a slot/node number (0-255) nor an address", route, link)
		}
		seg := []byte{0}
		if len(addr) > 1 {
			seg[0] |= 0x10
			seg = append(seg, byte(len(addr))) //nolint:gosec // G115: addresses are at most 255 bytes, checked above
		}
		if port < 0x0F {
			seg[0] |= byte(port)
		} else {
			seg[0] |= 0x0F
			seg = binary.LittleEndian.AppendUint16(seg, uint16(port))
		}
		seg = append(seg, addr...)
		if len(seg)%2 == 1 {
			seg = append(seg, 0)
		}
		b = append(b, seg...)
	}
	if len(b) > 2*math.MaxUint8 {
		return nil, fmt.Errorf("route %q is too long", route)
	}
	return b, nil
}

// cipRequest builds a Message Router request: service, path size in words,
// the padded path, and the service's data.
func cipRequest(service byte, path, data []byte) []byte {
	b := append([]byte{service, byte(len(path) / 2)}, path...) //nolint:gosec // G115: paths built here are under 510 bytes
	return append(b, data...)
}

// cipReply is a decoded Message Router reply.
type cipReply struct {
	service  byte
	status   byte
	extended []uint16
	data     []byte
}

func parseCIPReply(b []byte) (cipReply, error) {
	if len(b) < 4 {
		return cipReply{}, fmt.Errorf("CIP reply of %d bytes", len(b))
	}
	r := cipReply{service: b[0], status: b[2]}
	n := int(b[3])
	if len(b) < 4+2*n {
		return cipReply{}, errors.New("CIP reply cut short in its extended status")
	}
	for i := range n {
		r.extended = append(r.extended, binary.LittleEndian.Uint16(b[4+2*i:]))
	}
	r.data = b[4+2*n:]
	return r, nil
}

// err is the reply's error, or nil when it succeeded.
func (r cipReply) err() error {
	if r.status == cipOK {
		return nil
	}
	return &CIPError{Service: r.service, Status: r.status, Extended: r.extended}
}

// ENIPIdentity is a device's Identity object (class 0x01, instance 1), as
// ListIdentity and Get_Attributes_All report it.
type ENIPIdentity struct {
	VendorID     uint16 `json:"vendorId"`
	DeviceType   uint16 `json:"deviceType"`
	ProductCode  uint16 `json:"productCode"`
	Major        uint8  `json:"major"` // revision
	Minor        uint8  `json:"minor"`
	Status       uint16 `json:"status"`
	SerialNumber uint32 `json:"serialNumber"`
	ProductName  string `json:"productName"`
	// State is attribute 8, which ListIdentity reports and
	// Get_Attributes_All does not: 3 operational, 4 major recoverable
	// fault, …
	State uint8 `json:"state"`
}

// attribute is the encoded value of attribute n, or nil for one the
// object does not have.
func (id ENIPIdentity) attribute(n uint32) []byte {
	le := binary.LittleEndian
	switch n {
	case 1:
		return le.AppendUint16(nil, id.VendorID)
	case 2:
		return le.AppendUint16(nil, id.DeviceType)
	case 3:
		return le.AppendUint16(nil, id.ProductCode)
	case 4:
		return []byte{id.Major, id.Minor}
	case 5:
		return le.AppendUint16(nil, id.Status)
	case 6:
		return le.AppendUint32(nil, id.SerialNumber)
	case 7:
		return append([]byte{byte(len(id.ProductName))}, id.ProductName...) //nolint:gosec // G115: identityFor keeps names to 32 bytes
	case 8:
		return []byte{id.State}
	}
	return nil
}

// appendAll appends attributes 1 to 7, the Get_Attributes_All reply.
func (id ENIPIdentity) appendAll(b []byte) []byte {
	for n := uint32(1); n <= 7; n++ {
		b = append(b, id.attribute(n)...)
	}
	return b
}

// parseIdentity reads attributes 1 to 7 as appendAll writes them, and the
// bytes after them.
func parseIdentity(b []byte) (ENIPIdentity, []byte, error) {
	if len(b) < 15 || len(b) < 15+int(b[14]) {
		return ENIPIdentity{}, nil, fmt.Errorf("identity of %d bytes is cut short", len(b))
	}
	le := binary.LittleEndian
	id := ENIPIdentity{VendorID: le.Uint16(b), DeviceType: le.Uint16(b[2:]), ProductCode: le.Uint16(b[4:]),
		Major: b[6], Minor: b[7], Status: le.Uint16(b[8:]), SerialNumber: le.Uint32(b[10:]),
		ProductName: string(b[15 : 15+int(b[14])])}
	return id, b[15+int(b[14]):], nil
}

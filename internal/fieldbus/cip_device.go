package fieldbus

// The CIP objects of the simulated EtherNet/IP device: the Message Router
// and what it routes to — the Identity object, the Assembly instances, the
// Logix tag services and Symbol Object, and the Connection Manager's
// Unconnected Send, Forward Open and Forward Close. The device presents
// itself as a Logix-style controller in slot 0 behind its EtherNet/IP port,
// which is what clients written for Logix controllers expect to find (the
// e2e suite connects with st-ethernet-ip).

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"journeyman/internal/twin"
)

// Identity of every simulated device, beside what comes from its twin.
const (
	// enipVendorID is vendor 1, Rockwell Automation/Allen-Bradley: the
	// project has no ODVA vendor id of its own, and the tag services the
	// device answers (Read Tag, the Symbol Object) are that vendor's, as
	// in OpENer's sample device and other simulators.
	enipVendorID = 1
	// enipDeviceType 0x0E is "programmable logic controller": the device
	// holds named tags, as a PLC does, rather than only I/O assemblies.
	enipDeviceType  = 0x0E
	enipProductCode = 0x4A4D // "JM"
	enipMajor       = 1
	enipMinor       = 1
	// enipMaxConns is how many CIP connections one session may hold open,
	// as a small controller allows a handful of class 3 connections.
	enipMaxConns = 8
	// cipMaxDepth bounds how deeply requests may nest (Unconnected Send in
	// Multiple Service Packet in …).
	cipMaxDepth = 4
)

// enipTag is a tag of the simulated device: its name, CIP data type and
// how its value follows the twin.
type enipTag struct {
	name  string
	typ   uint16
	unit  string
	value func(eq twin.Equipment) float64
}

// enipTags are the tags of every simulated device, in Symbol Object
// instance order (instance i+1): the seven readings as REAL and the
// twin's state as DINT, named as the OPC UA device names its variables;
// then the same facts as a PLC program also keeps them, one for each other
// elementary type a client must decode.
var enipTags = func() []enipTag {
	var tags []enipTag
	for _, s := range twin.Sensors {
		tags = append(tags, enipTag{name: strings.ToUpper(s.Key[:1]) + s.Key[1:], typ: cipTypeREAL, unit: s.Unit,
			value: func(eq twin.Equipment) float64 { return readingOrZero(eq, s.Key) }})
	}
	hours := func(eq twin.Equipment) float64 { return math.Max(0, eq.OperatingHours) }
	alert := func(eq twin.Equipment) float64 { return float64(max(0, twin.AlertRank(eq.AlertLevel))) }
	return append(tags,
		enipTag{"Status", cipTypeDINT, "", func(eq twin.Equipment) float64 { return float64(statusCode(eq.Status)) }},
		enipTag{"AlertLevel", cipTypeDINT, "", alert},
		enipTag{"OperatingHours", cipTypeDINT, "h", hours},
		enipTag{"SyncErrorCount", cipTypeDINT, "", func(eq twin.Equipment) float64 { return float64(eq.SyncErrorCount) }},
		enipTag{"Running", cipTypeBOOL, "", func(eq twin.Equipment) float64 {
			if eq.Status == twin.StatusOperational {
				return 1
			}
			return 0
		}},
		enipTag{"AlertRank", cipTypeSINT, "", alert},
		enipTag{"TemperatureX10", cipTypeINT, "0.1 °C", func(eq twin.Equipment) float64 { return 10 * readingOrZero(eq, "temperature") }},
		enipTag{"SyncErrors", cipTypeUINT, "", func(eq twin.Equipment) float64 { return float64(eq.SyncErrorCount) }},
		enipTag{"RunSeconds", cipTypeUDINT, "s", func(eq twin.Equipment) float64 { return 3600 * hours(eq) }},
		enipTag{"RunHours", cipTypeLREAL, "h", hours},
	)
}()

// Where the assemblies' members are in enipTags.
var (
	assemblyReadingTags = enipTags[:len(twin.Sensors)]
	assemblyStateTags   = enipTags[len(twin.Sensors) : len(twin.Sensors)+4]
)

// findTag is the index in enipTags of the tag named name (Logix tag names
// are case-insensitive), or -1.
func findTag(name string) int {
	for i, t := range enipTags {
		if strings.EqualFold(t.name, name) {
			return i
		}
	}
	return -1
}

// identityFor is the Identity object of eq's device: its product name is
// the twin's model (or name), its serial number a stable hash of the
// twin's, and its status and state follow the twin's status.
func identityFor(eq twin.Equipment) ENIPIdentity {
	name := strings.TrimSpace(eq.Model)
	if name == "" {
		name = eq.Name
	}
	for len(name) > 32 { // a SHORT_STRING of at most 32 characters; cut on a character boundary
		_, n := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-n]
	}
	serial := eq.SerialNumber
	if serial == "" {
		serial = eq.ID
	}
	h := fnv.New32a()
	h.Write([]byte(serial))
	id := ENIPIdentity{VendorID: enipVendorID, DeviceType: enipDeviceType, ProductCode: enipProductCode,
		Major: enipMajor, Minor: enipMinor, SerialNumber: h.Sum32(), ProductName: name}
	// Status (Vol 1, 5A-2.2): bit 2 configured; bits 4-7 the extended
	// device status, where 6 is "I/O in run mode" and 7 "idle", which
	// Logix clients read as run and program mode; bit 10 a major
	// recoverable fault. State (attribute 8): 2 standby, 3 operational,
	// 4 major recoverable fault.
	switch eq.Status {
	case twin.StatusOperational:
		id.Status, id.State = 0x0064, 3
	case twin.StatusMaintenance:
		id.Status, id.State = 0x0074, 2
	case twin.StatusOffline:
		id.Status, id.State = 0x0034, 2 // no I/O connections established
	case twin.StatusError:
		id.Status, id.State = 0x0454, 4 // major fault
	default:
		id.Status, id.State = 0x0004, 2
	}
	return id
}

// enipSession is one client's session: its handle and the CIP connections
// it opened, by O→T connection id. A session is one TCP connection, served
// by one goroutine, so it needs no lock.
type enipSession struct {
	handle uint32
	conns  map[uint32]*cipConnection
}

// cipConnection is a class 3 explicit connection to the Message Router.
type cipConnection struct {
	otID, toID     uint32
	serial, vendor uint16
	origSerial     uint32
	timeout        time.Duration // inactivity before the device drops it; 0 never
	last           time.Time
	seq            uint16
	lastReply      []byte // answered again for a repeated sequence count
}

// expire drops the connections whose client has been silent past their
// timeout, as a device's connection watchdog does.
func (s *enipSession) expire(now time.Time) {
	for id, c := range s.conns {
		if c.timeout > 0 && now.Sub(c.last) > c.timeout {
			delete(s.conns, id)
		}
	}
}

// cipOK is a successful reply to service carrying data.
func cipOKReply(service byte, data ...[]byte) []byte {
	b := []byte{service | cipReplyBit, 0, cipOK, 0}
	for _, d := range data {
		b = append(b, d...)
	}
	return b
}

// cipFail is an error reply to service with a general status and any
// extended status words.
func cipFail(service, status byte, ext ...uint16) []byte {
	b := []byte{service | cipReplyBit, 0, status, byte(len(ext))} //nolint:gosec // G115: at most one extended word is passed
	for _, x := range ext {
		b = binary.LittleEndian.AppendUint16(b, x)
	}
	return b
}

// serveCIP answers one Message Router request, as the device's Message
// Router does: it decodes the path and hands the request to the object it
// names. depth counts the requests this one is nested in.
func (d *enipDevice) serveCIP(s *enipSession, req []byte, depth int) []byte {
	if len(req) < 2 {
		if len(req) == 0 {
			return cipFail(0, cipNotEnoughData)
		}
		return cipFail(req[0], cipNotEnoughData)
	}
	service := req[0] &^ cipReplyBit
	pathLen := int(req[1]) * 2
	if len(req) < 2+pathLen {
		return cipFail(service, cipPathSegmentError)
	}
	path, data := req[2:2+pathLen], req[2+pathLen:]
	if depth > cipMaxDepth {
		return cipFail(service, cipPathSegmentError)
	}
	segs, err := parseEPATH(path)
	if err != nil {
		return cipFail(service, cipPathSegmentError)
	}
	if len(segs) > 0 && segs[0].kind == segSymbolic {
		return d.tagService(service, segs, data)
	}
	class, inst, attr, hasAttr, ok := logicalPath(segs)
	if !ok {
		return cipFail(service, cipPathUnknown)
	}
	switch class {
	case cipClassIdentity:
		return d.identityService(service, inst, attr, hasAttr)
	case cipClassAssembly:
		return d.assemblyService(service, inst, attr)
	case cipClassMessageRouter:
		if inst != 1 {
			return cipFail(service, cipPathUnknown)
		}
		if service == cipMultipleService {
			return d.multipleService(s, data, depth)
		}
	case cipClassConnectionManager:
		if inst != 1 {
			return cipFail(service, cipPathUnknown)
		}
		switch service {
		case cipUnconnectedSend:
			return d.unconnectedSend(s, data, depth)
		case cipForwardOpen, cipLargeForwardOpen:
			return d.forwardOpen(s, service, data)
		case cipForwardClose:
			return forwardClose(s, data)
		}
	case cipClassSymbol:
		if service == cipGetInstanceAttrs {
			return symbolList(inst, data)
		}
	default:
		return cipFail(service, cipPathUnknown)
	}
	return cipFail(service, cipServiceNotSupported)
}

// logicalPath reads a class / instance / attribute path. Anything else in
// it (a member, a connection point, a second class) names nothing here.
func logicalPath(segs []cipSegment) (class, inst, attr uint32, hasAttr, ok bool) {
	var seen [3]bool
	for _, s := range segs {
		if s.kind != segLogical {
			return 0, 0, 0, false, false
		}
		switch {
		case s.typ == logicalClass && !seen[0]:
			class, seen[0] = s.value, true
		case s.typ == logicalInstance && seen[0] && !seen[1]:
			inst, seen[1] = s.value, true
		case s.typ == logicalAttr && seen[1] && !seen[2]:
			attr, seen[2] = s.value, true
		default:
			return 0, 0, 0, false, false
		}
	}
	return class, inst, attr, seen[2], seen[0] && seen[1]
}

func (d *enipDevice) identityService(service byte, inst, attr uint32, hasAttr bool) []byte {
	if inst != 1 {
		return cipFail(service, cipPathUnknown)
	}
	d.mu.Lock()
	id := d.identity
	d.mu.Unlock()
	switch service {
	case cipGetAttributesAll:
		return cipOKReply(service, id.appendAll(nil))
	case cipGetAttributeSingle:
		if !hasAttr {
			return cipFail(service, cipAttributeNotSupported)
		}
		if v := id.attribute(attr); v != nil {
			return cipOKReply(service, v)
		}
		return cipFail(service, cipAttributeNotSupported)
	}
	return cipFail(service, cipServiceNotSupported)
}

func (d *enipDevice) assemblyService(service byte, inst, attr uint32) []byte {
	if service != cipGetAttributeSingle {
		return cipFail(service, cipServiceNotSupported)
	}
	var tags []enipTag
	switch inst {
	case AssemblyReadings:
		tags = assemblyReadingTags
	case AssemblyState:
		tags = assemblyStateTags
	default:
		return cipFail(service, cipPathUnknown)
	}
	if attr != 3 {
		return cipFail(service, cipAttributeNotSupported)
	}
	var data []byte
	for _, t := range tags {
		data = append(data, d.tagData(findTag(t.name))...)
	}
	return cipOKReply(service, data)
}

// tagData is tag i's value as its type encodes it.
func (d *enipDevice) tagData(i int) []byte {
	d.mu.Lock()
	v := d.values[i]
	d.mu.Unlock()
	b, err := encodeCIP(enipTags[i].typ, v)
	if err != nil { // every tag's type is one encodeCIP writes
		panic(err)
	}
	return b
}

// tagService serves Read Tag and Read Tag Fragmented, Logix's services on
// a tag named by a symbolic path.
func (d *enipDevice) tagService(service byte, segs []cipSegment, data []byte) []byte {
	if service != cipReadTag && service != cipReadTagFragmented {
		return cipFail(service, cipServiceNotSupported)
	}
	i := -1
	if len(segs) == 1 {
		i = findTag(segs[0].name)
	}
	if i < 0 {
		return cipFail(service, cipPathUnknown)
	}
	need := 2
	if service == cipReadTagFragmented {
		need = 6
	}
	if len(data) < need {
		return cipFail(service, cipNotEnoughData)
	}
	switch count := binary.LittleEndian.Uint16(data); {
	case count == 0:
		return cipFail(service, cipInvalidParameter)
	case count > 1: // a scalar has one element
		return cipFail(service, cipGeneralError, logixBeyondEnd)
	}
	value := d.tagData(i)
	if service == cipReadTagFragmented {
		offset := binary.LittleEndian.Uint32(data[2:])
		if offset >= uint32(len(value)) { //nolint:gosec // G115: a value is at most 8 bytes
			return cipFail(service, cipGeneralError, logixBeyondEnd)
		}
		value = value[offset:]
	}
	return cipOKReply(service, binary.LittleEndian.AppendUint16(nil, enipTags[i].typ), value)
}

// symbolList answers Get_Instance_Attribute_List on the Symbol Object:
// each tag from instance start on, with the attributes asked for — 1 its
// name, 2 its type, 7 its element size, 8 its array dimensions (none).
// The list always fits one reply, so the status is never partial.
func symbolList(start uint32, data []byte) []byte {
	const service = cipGetInstanceAttrs
	if len(data) < 2 {
		return cipFail(service, cipNotEnoughData)
	}
	n := int(binary.LittleEndian.Uint16(data))
	if len(data) < 2+2*n {
		return cipFail(service, cipNotEnoughData)
	}
	attrs := make([]uint16, n)
	for i := range attrs {
		attrs[i] = binary.LittleEndian.Uint16(data[2+2*i:])
		if attrs[i] != 1 && attrs[i] != 2 && attrs[i] != 7 && attrs[i] != 8 {
			return cipFail(service, cipAttributeNotSupported)
		}
	}
	var out []byte
	for i, t := range enipTags {
		inst := uint32(i + 1)
		if inst < start {
			continue
		}
		out = binary.LittleEndian.AppendUint32(out, inst)
		for _, a := range attrs {
			switch a {
			case 1:
				out = binary.LittleEndian.AppendUint16(out, uint16(len(t.name))) //nolint:gosec // G115: tag names are short
				out = append(out, t.name...)
			case 2:
				out = binary.LittleEndian.AppendUint16(out, t.typ)
			case 7:
				out = binary.LittleEndian.AppendUint16(out, uint16(cipTypes[t.typ].size)) //nolint:gosec // G115: 1 to 8
			case 8:
				out = append(out, make([]byte, 12)...)
			}
		}
	}
	return cipOKReply(service, out)
}

// multipleService answers Multiple Service Packet: each embedded request
// in turn, their replies packed the same way.
func (d *enipDevice) multipleService(s *enipSession, data []byte, depth int) []byte {
	const service = cipMultipleService
	if len(data) < 2 {
		return cipFail(service, cipNotEnoughData)
	}
	n := int(binary.LittleEndian.Uint16(data))
	if n == 0 || len(data) < 2+2*n {
		return cipFail(service, cipNotEnoughData)
	}
	offsets := make([]int, n+1)
	for i := range n {
		offsets[i] = int(binary.LittleEndian.Uint16(data[2+2*i:]))
	}
	offsets[n] = len(data)
	for i := range n {
		if offsets[i] < 2+2*n || offsets[i] > offsets[i+1] {
			return cipFail(service, cipInvalidParameter)
		}
	}
	replies := make([][]byte, n)
	status := byte(cipOK)
	for i := range n {
		replies[i] = d.serveCIP(s, data[offsets[i]:offsets[i+1]], depth+1)
		if replies[i][2] != cipOK {
			status = cipEmbeddedServiceError
		}
	}
	out := binary.LittleEndian.AppendUint16(nil, uint16(n)) //nolint:gosec // G115: n came from a uint16
	at := 2 + 2*n
	for _, r := range replies {
		out = binary.LittleEndian.AppendUint16(out, toUint16(at))
		at += len(r)
	}
	for _, r := range replies {
		out = append(out, r...)
	}
	reply := cipOKReply(service, out)
	reply[2] = status
	return reply
}

// walkRoute follows the port segments at the start of segs as the device
// routes them: the backplane (port 1) to slot 0 reaches its controller,
// and nothing lies beyond it. It returns the segments after the route; on
// a failure, the extended status and the path words left where it failed.
func walkRoute(segs []cipSegment) (rest []cipSegment, ext uint16, remaining int) {
	words := func(from int) int {
		n := 0
		for _, s := range segs[from:] {
			n += s.words
		}
		return n
	}
	hops := 0
	for i, s := range segs {
		if s.kind != segPort {
			return segs[i:], 0, 0
		}
		switch {
		case hops > 0 || s.port != 1:
			return nil, cmInvalidPort, words(i)
		case len(s.link) != 1 || s.link[0] != 0:
			return nil, cmInvalidLink, words(i)
		}
		hops++
	}
	return nil, 0, 0
}

// unconnectedSend answers the Connection Manager's Unconnected Send:
// it follows the route, then answers the embedded request as the target's
// Message Router, and replies with that request's own reply, unwrapped, as
// Logix controllers do. A route it cannot follow fails the Unconnected
// Send itself, with the words of the route left.
func (d *enipDevice) unconnectedSend(s *enipSession, data []byte, depth int) []byte {
	const service = cipUnconnectedSend
	if len(data) < 4 {
		return cipFail(service, cipNotEnoughData)
	}
	n := int(binary.LittleEndian.Uint16(data[2:]))
	rest := data[4:]
	if len(rest) < n+n%2+2 {
		return cipFail(service, cipNotEnoughData)
	}
	embedded := rest[:n]
	rest = rest[n+n%2:] // the request is padded to a whole word
	routeLen := int(rest[0]) * 2
	if len(rest) < 2+routeLen {
		return cipFail(service, cipNotEnoughData)
	}
	segs, err := parseEPATH(rest[2 : 2+routeLen])
	if err != nil {
		return routeFail(cipConnectionFailure, cmInvalidSegment, rest[0])
	}
	after, ext, remaining := walkRoute(segs)
	if ext != 0 {
		return routeFail(cipConnectionFailure, ext, byte(remaining)) //nolint:gosec // G115: at most the route's own size, one byte
	}
	if len(after) > 0 { // a route holds port segments only
		words := 0
		for _, sg := range after {
			words += sg.words
		}
		return routeFail(cipConnectionFailure, cmInvalidSegment, byte(words))
	}
	return d.serveCIP(s, embedded, depth+1)
}

// routeFail is Unconnected Send's failure: the status, then the remaining
// path size in words and a reserved byte.
func routeFail(status byte, ext uint16, remaining byte) []byte {
	return append(cipFail(cipUnconnectedSend, status, ext), remaining, 0)
}

// forwardOpen opens a class 3 explicit connection to the Message Router
// (Forward Open, or Large Forward Open with 32-bit connection parameters).
func (d *enipDevice) forwardOpen(s *enipSession, service byte, data []byte) []byte {
	paramSize := 2
	if service == cipLargeForwardOpen {
		paramSize = 4
	}
	fixed := 26 + 2*paramSize + 4 + 1 // up to and with the transport class and trigger
	if len(data) < 18 {
		return cipFail(service, cipNotEnoughData)
	}
	toID := binary.LittleEndian.Uint32(data[6:])
	serial, vendor := binary.LittleEndian.Uint16(data[10:]), binary.LittleEndian.Uint16(data[12:])
	origSerial := binary.LittleEndian.Uint32(data[14:])
	fail := func(ext uint16, remaining byte) []byte {
		b := cipFail(service, cipConnectionFailure, ext)
		b = binary.LittleEndian.AppendUint16(b, serial)
		b = binary.LittleEndian.AppendUint16(b, vendor)
		b = binary.LittleEndian.AppendUint32(b, origSerial)
		return append(b, remaining, 0)
	}
	if len(data) < fixed+1 || len(data) < fixed+1+2*int(data[fixed]) {
		return cipFail(service, cipNotEnoughData)
	}
	mult := min(data[18], 7)
	otRPI := binary.LittleEndian.Uint32(data[22:])
	param := func(at int) (size uint32, typ uint32) {
		if paramSize == 2 {
			p := uint32(binary.LittleEndian.Uint16(data[at:]))
			return p & 0x1FF, (p >> 13) & 3
		}
		p := binary.LittleEndian.Uint32(data[at:])
		return p & 0xFFFF, (p >> 29) & 3
	}
	otSize, otType := param(26)
	toRPI := binary.LittleEndian.Uint32(data[26+paramSize:])
	toSize, toType := param(26 + paramSize + 4)
	transport := data[fixed-1]
	path := data[fixed+1 : fixed+1+2*int(data[fixed])]

	const pointToPoint = 2
	switch {
	case transport&0x0F != 3: // only class 3, explicit messaging
		return fail(cmTransportNotSupported, 0)
	case otType != pointToPoint || toType != pointToPoint:
		return fail(cmTransportNotSupported, 0)
	case otSize < 2 || toSize < 2:
		return fail(cmInvalidConnectionSize, 0)
	}
	segs, err := parseEPATH(path)
	if err != nil {
		return fail(cmInvalidSegment, data[fixed])
	}
	var kept []cipSegment // the electronic key may stand anywhere; any is accepted
	for _, sg := range segs {
		if sg.typ != logicalKey || sg.kind != segLogical {
			kept = append(kept, sg)
		}
	}
	app, ext, remaining := walkRoute(kept)
	if ext != 0 {
		return fail(ext, byte(remaining)) //nolint:gosec // G115: at most the path's size, one byte
	}
	if class, inst, _, hasAttr, ok := logicalPath(app); !ok || hasAttr || class != cipClassMessageRouter || inst != 1 {
		return fail(cmInvalidSegment, 0)
	}
	now := time.Now()
	s.expire(now)
	for _, c := range s.conns {
		if c.serial == serial && c.vendor == vendor && c.origSerial == origSerial {
			return fail(cmDuplicateForwardOpen, 0)
		}
	}
	if len(s.conns) >= enipMaxConns {
		return fail(cmOutOfConnections, 0)
	}
	c := &cipConnection{otID: d.nextConnID(), toID: toID, serial: serial, vendor: vendor, origSerial: origSerial,
		timeout: time.Duration(otRPI) * time.Microsecond * time.Duration(4<<mult), last: now}
	if c.toID == 0 { // the originator left the T→O id to the device
		c.toID = d.nextConnID()
	}
	s.conns[c.otID] = c
	b := binary.LittleEndian.AppendUint32(nil, c.otID)
	b = binary.LittleEndian.AppendUint32(b, c.toID)
	b = binary.LittleEndian.AppendUint16(b, serial)
	b = binary.LittleEndian.AppendUint16(b, vendor)
	b = binary.LittleEndian.AppendUint32(b, origSerial)
	b = binary.LittleEndian.AppendUint32(b, otRPI) // actual packet intervals: as asked
	b = binary.LittleEndian.AppendUint32(b, toRPI)
	return cipOKReply(service, b, []byte{0, 0}) // no application reply
}

// forwardClose closes the connection the originator's triple names.
func forwardClose(s *enipSession, data []byte) []byte {
	const service = cipForwardClose
	if len(data) < 10 {
		return cipFail(service, cipNotEnoughData)
	}
	triple := append([]byte(nil), data[2:10]...) // connection serial, originator vendor, originator serial
	serial, vendor := binary.LittleEndian.Uint16(data[2:]), binary.LittleEndian.Uint16(data[4:])
	origSerial := binary.LittleEndian.Uint32(data[6:])
	for id, c := range s.conns {
		if c.serial == serial && c.vendor == vendor && c.origSerial == origSerial {
			delete(s.conns, id)
			return cipOKReply(service, triple, []byte{0, 0})
		}
	}
	return append(cipFail(service, cipConnectionFailure, cmConnectionNotFound), append(triple, 0, 0)...)
}

// nextConnID hands out connection ids, unique on the device.
func (d *enipDevice) nextConnID() uint32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.connID++
	return d.connID
}

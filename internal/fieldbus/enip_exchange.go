package fieldbus

// Test Protocol for EtherNet/IP: one real exchange with the twin's device
// through the project's client, recorded on the wire and decoded frame by
// frame.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

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

func enipTagList() string {
	names := make([]string, len(enipTags))
	for i, t := range enipTags {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

func (f *Fleet) enipExchange(ctx context.Context, eq twin.Equipment, req ENIPRequest) (Exchange, error) {
	var cip []byte
	var result ENIPResult
	tag := strings.TrimSpace(req.Tag)
	tagIndex := -1
	switch {
	case tag != "" && req.Assembly != nil:
		return Exchange{}, apperr.Invalid("data: give either assembly or tag, not both")
	case tag != "":
		if tagIndex = findTag(tag); tagIndex < 0 {
			return Exchange{}, apperr.Invalid("data.tag %q is not a tag of this device; use one of %s", tag, enipTagList())
		}
		tag = enipTags[tagIndex].name
		cip = cipRequest(cipReadTag, appendSymbolic(nil, tag), []byte{1, 0}) // one element
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
	c, err := DialENIP(ctx, t.Addr(), "", exchangeTimeout)
	if err != nil {
		return Exchange{}, exchangeError(KindEtherNetIP, err)
	}
	raw, err := c.request(ctx, cip)
	c.Close()
	t.Close()
	if err != nil {
		return Exchange{}, exchangeError(KindEtherNetIP, err)
	}
	reply, err := parseCIPReply(raw)
	if err != nil {
		return Exchange{}, exchangeError(KindEtherNetIP, err)
	}
	result.GeneralStatus = fmt.Sprintf("0x%02x %s", reply.status, cipStatusName(reply.status))
	if reply.status == cipOK {
		result.Values = decodeCIPData(req, tagIndex, reply.data)
	}
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

// decodeCIPData decodes a Read Tag reply (type and value) of tag
// enipTags[tagIndex], or an assembly's data.
func decodeCIPData(req ENIPRequest, tagIndex int, data []byte) []ENIPValue {
	if tagIndex >= 0 {
		if len(data) < 2 {
			return nil
		}
		typ := binary.LittleEndian.Uint16(data)
		v, err := decodeCIP(typ, data[2:])
		if err != nil {
			return nil
		}
		return []ENIPValue{{Name: enipTags[tagIndex].name, Type: cipTypeName(typ), Value: v, Unit: enipTags[tagIndex].unit}}
	}
	var out []ENIPValue
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

var enipCommands = map[uint16]string{eipNOP: "NOP", eipListServices: "ListServices", eipListIdentity: "ListIdentity",
	eipListInterfaces: "ListInterfaces", eipRegisterSession: "RegisterSession", eipUnRegisterSession: "UnRegisterSession",
	eipSendRRData: "SendRRData", eipSendUnitData: "SendUnitData"}

// decodeENIP names an encapsulated message and decodes its fields: the
// header, and for each command what it carries — the identity a device
// reports, the CIP request or reply of an unconnected or connected
// message, with an Unconnected Send's route and embedded request.
func decodeENIP(dir string, b []byte) (string, []Field) {
	if len(b) < 24 {
		return "incomplete EtherNet/IP message", nil
	}
	cmd := binary.LittleEndian.Uint16(b[0:2])
	name := enipCommands[cmd]
	if name == "" {
		name = fmt.Sprintf("command 0x%04x", cmd)
	}
	status := binary.LittleEndian.Uint32(b[8:12])
	fields := []Field{
		{"Command", fmt.Sprintf("0x%04x (%s)", cmd, name)},
		{"Length", fmt.Sprintf("%d bytes follow", binary.LittleEndian.Uint16(b[2:4]))},
		{"Session handle", fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(b[4:8]))},
		{"Status", fmt.Sprintf("0x%08x %s", status, eipStatusNames[status])},
		{"Sender context", fmt.Sprintf("% x", b[12:20])},
	}
	body := b[24:]
	if status != 0 {
		return fmt.Sprintf("%s reply: %s", name, strings.ToLower(eipStatusNames[status])), fields
	}
	reply := dir == FromDevice
	switch cmd {
	case eipListIdentity, eipListServices, eipListInterfaces:
		if !reply {
			return name, fields
		}
		items, err := parseCPF(body)
		if err != nil {
			return name + " reply", fields
		}
		summary := fmt.Sprintf("%s reply: %d items", name, len(items))
		for _, it := range items {
			switch it.typ {
			case cpfListIdentity:
				if id, addr, err := parseListIdentity(it.data); err == nil {
					summary = fmt.Sprintf("%s reply: %s, serial 0x%08x", name, id.ProductName, id.SerialNumber)
					fields = append(fields, identityFields(id)...)
					fields = append(fields, Field{"Socket address", addr})
				}
			case cpfListServices:
				if len(it.data) >= 20 {
					svc := strings.TrimRight(string(it.data[4:20]), "\x00")
					summary = fmt.Sprintf("%s reply: %s", name, svc)
					fields = append(fields, Field{"Service", fmt.Sprintf("%s, version %d, capability flags 0x%04x", svc,
						binary.LittleEndian.Uint16(it.data), binary.LittleEndian.Uint16(it.data[2:])),
					})
				}
			}
		}
		return summary, fields
	case eipRegisterSession:
		if len(body) >= 4 {
			fields = append(fields, Field{"Protocol version", fmt.Sprint(binary.LittleEndian.Uint16(body))})
		}
		if reply {
			return name + " reply", fields
		}
		return name, fields
	case eipSendRRData, eipSendUnitData:
	default:
		return name, fields
	}
	addr, data, err := unpackRRData(body)
	if err != nil {
		return name, fields
	}
	fields = append(fields, Field{"CPF items", fmt.Sprintf("%s (0x%04x), %s (0x%04x)", cpfItemNames[addr.typ], addr.typ, cpfItemNames[data.typ], data.typ)})
	cip := data.data
	if cmd == eipSendUnitData {
		if len(addr.data) == 4 {
			fields = append(fields, Field{"Connection id", fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(addr.data))})
		}
		if len(cip) < 2 {
			return name, fields
		}
		fields = append(fields, Field{"Sequence count", fmt.Sprint(binary.LittleEndian.Uint16(cip))})
		cip = cip[2:]
	}
	if reply {
		summary, more := describeCIPReply(cip)
		return name + " CIP reply" + summary, append(fields, more...)
	}
	summary, more := describeCIPRequest(cip)
	return name + " CIP " + summary, append(fields, more...)
}

// parseListIdentity decodes a CIP Identity item: the identity and the
// socket address the device gave.
func parseListIdentity(b []byte) (ENIPIdentity, string, error) {
	if len(b) < 18 {
		return ENIPIdentity{}, "", errors.New("identity item cut short")
	}
	ip := net.IP(b[6:10])
	addr := net.JoinHostPort(ip.String(), fmt.Sprint(binary.BigEndian.Uint16(b[4:6])))
	id, rest, err := parseIdentity(b[18:])
	if err != nil {
		return id, "", err
	}
	if len(rest) < 1 {
		return id, "", errors.New("identity item without state")
	}
	id.State = rest[0]
	return id, addr, nil
}

func identityFields(id ENIPIdentity) []Field {
	return []Field{
		{"Vendor id", fmt.Sprint(id.VendorID)},
		{"Device type", fmt.Sprintf("0x%02x", id.DeviceType)},
		{"Product code", fmt.Sprint(id.ProductCode)},
		{"Revision", fmt.Sprintf("%d.%d", id.Major, id.Minor)},
		{"Status", fmt.Sprintf("0x%04x", id.Status)},
		{"Serial number", fmt.Sprintf("0x%08x", id.SerialNumber)},
		{"Product name", id.ProductName},
		{"State", fmt.Sprint(id.State)},
	}
}

// cipServiceName names a request's service; the path tells Logix's tag
// services from the Connection Manager's, which share codes.
func cipServiceName(service byte, path []byte) string {
	onTag := len(path) > 0 && path[0] == segSymbolic
	switch service {
	case cipGetAttributesAll:
		return "Get_Attributes_All"
	case cipMultipleService:
		return "Multiple Service Packet"
	case cipGetAttributeSingle:
		return "Get_Attribute_Single"
	case cipReadTag:
		return "Read Tag"
	case cipForwardClose:
		if onTag {
			return "Read-Modify-Write Tag"
		}
		return "Forward Close"
	case cipUnconnectedSend:
		if onTag {
			return "Read Tag Fragmented"
		}
		return "Unconnected Send"
	case cipForwardOpen:
		return "Forward Open"
	case cipGetInstanceAttrs:
		return "Get_Instance_Attribute_List"
	case cipLargeForwardOpen:
		return "Large Forward Open"
	}
	return fmt.Sprintf("service 0x%02x", service)
}

// describePath writes an EPATH for people: "class 0x01 / instance 1",
// "symbolic Rpm", "port 1 link 0".
func describePath(p []byte) string {
	segs, err := parseEPATH(p)
	if err != nil {
		return fmt.Sprintf("% x (malformed)", p)
	}
	if len(segs) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(segs))
	names := map[byte]string{logicalClass: "class 0x%02x", logicalInstance: "instance %d", logicalMember: "element %d", logicalConnPt: "connection point %d", logicalAttr: "attribute %d"}
	for _, s := range segs {
		switch {
		case s.kind == segPort && len(s.link) == 1:
			parts = append(parts, fmt.Sprintf("port %d link %d", s.port, s.link[0]))
		case s.kind == segPort:
			parts = append(parts, fmt.Sprintf("port %d link %s", s.port, s.link))
		case s.kind == segSymbolic:
			parts = append(parts, "symbolic "+s.name)
		case s.typ == logicalKey:
			parts = append(parts, "electronic key")
		default:
			parts = append(parts, fmt.Sprintf(names[s.typ], s.value))
		}
	}
	return strings.Join(parts, " / ")
}

// describeCIPRequest is the summary and fields of a Message Router
// request, following an Unconnected Send into its embedded request.
func describeCIPRequest(cip []byte) (string, []Field) {
	if len(cip) < 2 || len(cip) < 2+2*int(cip[1]) {
		return "request (malformed)", nil
	}
	service, path, data := cip[0], cip[2:2+2*int(cip[1])], cip[2+2*int(cip[1]):]
	name := cipServiceName(service, path)
	fields := []Field{
		{"CIP service", fmt.Sprintf("0x%02x (%s)", service, name)},
		{"CIP path", fmt.Sprintf("% x (%s)", path, describePath(path))},
	}
	switch name {
	case "Unconnected Send":
		if len(data) < 4 {
			return name, fields
		}
		n := int(binary.LittleEndian.Uint16(data[2:]))
		if len(data) < 4+n+n%2+2 {
			return name, fields
		}
		embedded, rest := data[4:4+n], data[4+n+n%2:]
		route := rest[2:min(len(rest), 2+2*int(rest[0]))]
		inner, more := describeCIPRequest(embedded)
		fields = append(fields, Field{"Route path", fmt.Sprintf("% x (%s)", route, describePath(route))})
		for _, f := range more {
			fields = append(fields, Field{"Embedded " + f.Name, f.Value})
		}
		return fmt.Sprintf("%s: %s via %s", name, inner, describePath(route)), fields
	case "Forward Open", "Large Forward Open":
		if len(data) >= 18 {
			fields = append(fields, Field{"Connection serial", fmt.Sprintf("0x%04x", binary.LittleEndian.Uint16(data[10:]))},
				Field{"Originator", fmt.Sprintf("vendor %d, serial 0x%08x", binary.LittleEndian.Uint16(data[12:]), binary.LittleEndian.Uint32(data[14:]))})
		}
	case "Read Tag":
		if len(data) >= 2 {
			fields = append(fields, Field{"Elements", fmt.Sprint(binary.LittleEndian.Uint16(data))})
		}
	}
	return name, fields
}

// describeCIPReply is the summary (": Read Tag, Success") and fields of a
// Message Router reply.
func describeCIPReply(cip []byte) (string, []Field) {
	r, err := parseCIPReply(cip)
	if err != nil {
		return " (malformed)", nil
	}
	service := r.service &^ cipReplyBit
	name := cipServiceName(service, nil)
	if service == cipReadTag {
		name = "Read Tag"
	}
	status := fmt.Sprintf("0x%02x %s", r.status, cipStatusName(r.status))
	fields := []Field{
		{"CIP reply service", fmt.Sprintf("0x%02x (%s reply)", r.service, name)},
		{"General status", status},
	}
	if len(r.extended) > 0 {
		fields = append(fields, Field{"Extended status", (&CIPError{Status: r.status, Extended: r.extended}).Error()})
	}
	fields = append(fields, Field{"Data", fmt.Sprintf("% x", r.data)})
	if r.status == cipOK && service == cipReadTag && len(r.data) >= 2 {
		typ := binary.LittleEndian.Uint16(r.data)
		if v, err := decodeCIP(typ, r.data[2:]); err == nil {
			fields = append(fields, Field{"Value", fmt.Sprintf("%s %v", cipTypeName(typ), v)})
		}
	}
	return fmt.Sprintf(": %s, %s", name, strings.ToLower(cipStatusName(r.status))), fields
}

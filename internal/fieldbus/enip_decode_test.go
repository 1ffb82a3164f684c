package fieldbus

import (
	"context"
	"encoding/binary"
	"net"
	"strings"
	"testing"
	"time"

	"journeyman/internal/twin"
)

// TestDecodeENIP records a conversation that uses every command and the
// Connection Manager's services, through the tap Test Protocol uses, and
// checks each frame is named for what it is.
func TestDecodeENIP(t *testing.T) {
	var eq twin.Equipment
	for _, e := range twin.SeedEquipment() {
		if e.ID == "weld-cell-4" {
			eq = e
		}
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := startENIPDevice(eq, ln)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	tp, err := newTap(context.Background(), d.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer tp.Close()
	conn, err := net.DialTimeout("tcp", tp.Addr(), 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	exchange := func(h encapHeader, body []byte) []byte {
		t.Helper()
		if err := writeEncap(conn, h, body); err != nil {
			t.Fatal(err)
		}
		if h.Command == eipNOP {
			return nil
		}
		rh, rbody, err := readEncap(conn)
		if err != nil {
			t.Fatal(err)
		}
		return append(binary.LittleEndian.AppendUint32(nil, rh.Session), rbody...)
	}
	exchange(encapHeader{Command: eipNOP}, nil)
	exchange(encapHeader{Command: eipListIdentity}, nil)
	exchange(encapHeader{Command: eipListServices}, nil)
	session := binary.LittleEndian.Uint32(exchange(encapHeader{Command: eipRegisterSession}, []byte{1, 0, 0, 0}))
	rr := func(cip []byte) []byte {
		t.Helper()
		_, data, err := unpackRRData(exchange(encapHeader{Command: eipSendRRData, Session: session}, rrData(cip))[4:])
		if err != nil {
			t.Fatal(err)
		}
		return data.data
	}
	c := &ENIPClient{route: []byte{1, 0}, timeout: time.Second}
	rr(c.unconnectedSend(cipRequest(cipReadTag, appendSymbolic(nil, "Rpm"), []byte{1, 0})))
	fo := []byte{0x0A, 0x0E, 0, 0, 0, 0, 1, 0, 0, 0, 0x42, 0x42, 0x33, 0x33, 0x37, 0x13, 0, 0, 3, 0, 0, 0,
		0x80, 0x84, 0x1E, 0, 0xF4, 0x43, 0x80, 0x84, 0x1E, 0, 0xF4, 0x43, 0xA3, 3, 1, 0, 0x20, 0x02, 0x24, 0x01}
	reply, _ := parseCIPReply(rr(cipRequest(cipForwardOpen, []byte{0x20, 0x06, 0x24, 0x01}, fo)))
	otID := binary.LittleEndian.Uint32(reply.data)
	unit := binary.LittleEndian.AppendUint32(nil, 0)
	unit = binary.LittleEndian.AppendUint16(unit, 0)
	unit = appendCPF(unit, cpfItem{cpfConnectedAddress, binary.LittleEndian.AppendUint32(nil, otID)},
		cpfItem{cpfConnectedData, append([]byte{5, 0}, cipRequest(cipGetAttributesAll, []byte{0x20, 0x01, 0x24, 0x01}, nil)...)})
	exchange(encapHeader{Command: eipSendUnitData, Session: session}, unit)
	rr(cipRequest(cipForwardClose, []byte{0x20, 0x06, 0x24, 0x01}, []byte{0x0A, 0x0E, 0x42, 0x42, 0x33, 0x33, 0x37, 0x13, 0, 0, 0, 0}))
	rr(cipRequest(cipReadTag, appendSymbolic(nil, "Torque"), []byte{1, 0}))
	exchange(encapHeader{Command: 0x0099}, nil)
	if err := writeEncap(conn, encapHeader{Command: eipUnRegisterSession, Session: session}, nil); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	tp.Close()

	want := []string{
		"NOP",
		"ListIdentity", "ListIdentity reply: Power Wave S500, serial 0x",
		"ListServices", "ListServices reply: Communications",
		"RegisterSession", "RegisterSession reply",
		"SendRRData CIP Unconnected Send: Read Tag via port 1 link 0", "SendRRData CIP reply: Read Tag, success",
		"SendRRData CIP Forward Open", "SendRRData CIP reply: Forward Open, success",
		"SendUnitData CIP Get_Attributes_All", "SendUnitData CIP reply: Get_Attributes_All, success",
		"SendRRData CIP Forward Close", "SendRRData CIP reply: Forward Close, success",
		"SendRRData CIP Read Tag", "SendRRData CIP reply: Read Tag, path destination unknown",
		"command 0x0099", "command 0x0099 reply: invalid or unsupported command",
		"UnRegisterSession",
	}
	frames := tp.Frames(splitENIP, decodeENIP)
	if len(frames) != len(want) {
		for _, f := range frames {
			t.Log(f.Direction, f.Summary)
		}
		t.Fatalf("%d frames, want %d", len(frames), len(want))
	}
	for i, f := range frames {
		if !strings.HasPrefix(f.Summary, want[i]) {
			t.Errorf("frame %d (%s): %q, want %q", i, f.Direction, f.Summary, want[i])
		}
	}
	fields := map[string]string{}
	for _, f := range append(frames[2].Fields, frames[7].Fields...) {
		fields[f.Name] = f.Value
	}
	for name, value := range map[string]string{"Product name": "Power Wave S500", "Vendor id": "1", "Route path": "01 00 (port 1 link 0)",
		"Embedded CIP path": "91 03 52 70 6d 00 (symbolic Rpm)", "Socket address": d.addr()} {
		if fields[name] != value {
			t.Errorf("field %s = %q, want %q", name, fields[name], value)
		}
	}
}

package fieldbus

import (
	"encoding/binary"
	"testing"
	"time"

	"journeyman/internal/twin"
)

// FuzzServeCIP feeds the Message Router and the encapsulation layer
// requests cut short, padded and mutated: whatever arrives, the device
// answers or drops it, and never panics (a panic would take the server
// down with it). The seeds run with every `go test`; `go test -fuzz
// FuzzServeCIP` explores further.
func FuzzServeCIP(f *testing.F) {
	cm := []byte{0x20, 0x06, 0x24, 0x01}
	readTag := cipRequest(cipReadTag, appendSymbolic(nil, "Rpm"), []byte{1, 0})
	fo := []byte{0x0A, 0x0E, 0, 0, 0, 0, 1, 0, 0, 0, 0x42, 0x42, 0x33, 0x33, 0x37, 0x13, 0, 0, 3, 0, 0, 0,
		0x80, 0x84, 0x1E, 0, 0xF4, 0x43, 0x80, 0x84, 0x1E, 0, 0xF4, 0x43, 0xA3, 3, 1, 0, 0x20, 0x02, 0x24, 0x01}
	c := &ENIPClient{route: []byte{1, 0}, timeout: time.Second}
	for _, seed := range [][]byte{
		readTag,
		cipRequest(cipReadTagFragmented, appendSymbolic(nil, "RunHours"), []byte{1, 0, 4, 0, 0, 0}),
		cipRequest(cipForwardOpen, cm, fo),
		cipRequest(cipLargeForwardOpen, cm, fo),
		cipRequest(cipForwardClose, cm, []byte{0x0A, 0x0E, 0x42, 0x42, 0x33, 0x33, 0x37, 0x13, 0, 0, 2, 0, 1, 0, 0x20, 0x02, 0x24, 0x01}),
		c.unconnectedSend(readTag),
		c.unconnectedSend(c.unconnectedSend(readTag)),
		cipRequest(cipMultipleService, []byte{0x20, 0x02, 0x24, 0x01}, []byte{2, 0, 6, 0, 14, 0, 0x4C, 2, 0x91, 3, 'R', 'p', 'm', 0, 1, 0, 0x01, 2, 0x20, 1, 0x24, 1}),
		cipRequest(cipGetInstanceAttrs, []byte{0x20, 0x6B, 0x25, 0, 0, 0}, []byte{2, 0, 1, 0, 2, 0}),
		cipRequest(cipGetAttributeSingle, []byte{0x20, 0x01, 0x24, 0x01, 0x30, 0x07}, nil),
		cipRequest(cipGetAttributeSingle, []byte{0x20, 0x04, 0x25, 0x00, 0x64, 0x00, 0x30, 0x03}, nil),
		cipRequest(cipGetAttributesAll, []byte{0x34, 0x04, 1, 0, 0x0E, 0, 0x4D, 0x4A, 1, 1, 0x20, 0x01, 0x24, 0x01}, nil),
	} {
		f.Add(seed)
	}
	d := &enipDevice{}
	d.update(twinForFuzz())
	f.Fuzz(func(t *testing.T, req []byte) {
		s := &enipSession{handle: 1, conns: map[uint32]*cipConnection{}}
		for n := range len(req) + 1 { // every prefix, the whole request last
			if reply := d.serveCIP(s, req[:n], 0); len(reply) < 4 {
				t.Fatalf("reply % x to % x", reply, req[:n])
			}
		}
		// The same bytes as the body of each encapsulated command.
		for _, cmd := range []uint16{eipRegisterSession, eipSendRRData, eipSendUnitData, eipListIdentity} {
			d.command(s, encapHeader{Command: cmd, Session: 1}, req)
			d.command(s, encapHeader{Command: cmd, Session: 1}, rrData(req))
			unit := binary.LittleEndian.AppendUint32(nil, 0)
			unit = binary.LittleEndian.AppendUint16(unit, 0)
			for id := range s.conns {
				d.command(s, encapHeader{Command: cmd, Session: 1}, appendCPF(unit, cpfItem{cpfConnectedAddress, binary.LittleEndian.AppendUint32(nil, id)}, cpfItem{cpfConnectedData, req}))
			}
		}
		// And Test Protocol's decoder, on the same bytes in every frame.
		for _, cmd := range []uint16{eipSendRRData, eipSendUnitData, eipListIdentity, eipListServices, eipRegisterSession} {
			for _, body := range [][]byte{req, rrData(req), append([]byte{0, 0, 0, 0, 0, 0}, appendCPF(nil, cpfItem{cpfConnectedAddress, []byte{1, 0, 0, 0}}, cpfItem{cpfConnectedData, req})...)} {
				frame := binary.LittleEndian.AppendUint16(nil, cmd)
				frame = binary.LittleEndian.AppendUint16(frame, toUint16(len(body)))
				frame = append(append(frame, make([]byte, 20)...), body...)
				decodeENIP(ToDevice, frame)
				decodeENIP(FromDevice, frame)
				if cmd == eipListIdentity {
					decodeENIP(FromDevice, append(frame[:24:24], appendCPF(nil, cpfItem{cpfListIdentity, req}, cpfItem{cpfListServices, req})...))
				}
			}
		}
	})
}

func twinForFuzz() twin.Equipment {
	for _, eq := range twin.SeedEquipment() {
		if eq.ID == "weld-cell-4" {
			return eq
		}
	}
	panic("no weld-cell-4 in the seed")
}

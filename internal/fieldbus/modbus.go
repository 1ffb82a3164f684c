package fieldbus

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/simonvetter/modbus"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// ModbusRequest is the data of a Modbus TCP exchange.
type ModbusRequest struct {
	FunctionCode  *int `json:"functionCode"`  // 1, 2, 3 or 4; default 3
	StartAddress  *int `json:"startAddress"`  // default 0
	RegisterCount *int `json:"registerCount"` // registers (or coils/inputs) to read; default the whole table
	UnitID        *int `json:"unitId"`        // default the twin's unit id
}

// Modbus register map of every simulated device. Holding registers carry
// the seven readings as IEEE-754 float32, big-endian, high word first;
// input registers the machine's state; coils and discrete inputs its flags.
var (
	modbusHolding = func() []string { // one name per register
		var names []string
		for _, s := range twin.Sensors {
			names = append(names, s.Key+" (high word)", s.Key+" (low word)")
		}
		return names
	}()
	modbusInput    = []string{"status (0 operational, 1 maintenance, 2 offline, 3 error)", "alert level (0 normal … 3 emergency)", "operating hours (high word)", "operating hours (low word)", "sync error count"}
	modbusCoils    = []string{"run command", "maintenance lockout"}
	modbusDiscrete = []string{"alarm active", "fault", "in maintenance", "link healthy"}
)

type modbusTable struct {
	code  int
	name  string
	names []string
	max   int // most items one request may read (Modbus application protocol §6)
}

var modbusTables = map[int]modbusTable{
	1: {1, "Read Coils", modbusCoils, 2000},
	2: {2, "Read Discrete Inputs", modbusDiscrete, 2000},
	3: {3, "Read Holding Registers", modbusHolding, 125},
	4: {4, "Read Input Registers", modbusInput, 125},
}

func (r ModbusRequest) resolve(eq twin.Equipment) (fc, start, count int, unitID uint8, err error) {
	fc, start = 3, 0
	unit := modbusUnitID(eq)
	if r.FunctionCode != nil {
		fc = *r.FunctionCode
	}
	t, ok := modbusTables[fc]
	if !ok {
		return 0, 0, 0, 0, apperr.Invalid("data.functionCode %d is not supported; use 1 (Read Coils), 2 (Read Discrete Inputs), 3 (Read Holding Registers) or 4 (Read Input Registers)", fc)
	}
	if r.StartAddress != nil {
		start = *r.StartAddress
	}
	last := len(t.names) - 1
	if start < 0 || start > last {
		return 0, 0, 0, 0, apperr.Invalid("data.startAddress %d is outside the device's %s table: addresses 0 to %d (%s)", start, strings.ToLower(t.name[5:]), last, t.summary())
	}
	count = len(t.names) - start
	if r.RegisterCount != nil {
		count = *r.RegisterCount
	}
	if count < 1 || count > t.max {
		return 0, 0, 0, 0, apperr.Invalid("data.registerCount %d must be 1 to %d for function code %d", count, t.max, fc)
	}
	if start+count > len(t.names) {
		return 0, 0, 0, 0, apperr.Invalid("data.startAddress %d + data.registerCount %d runs past the device's %s table, which ends at address %d: read at most %d from %d",
			start, count, strings.ToLower(t.name[5:]), last, len(t.names)-start, start)
	}
	if r.UnitID != nil {
		if *r.UnitID < 0 || *r.UnitID > 247 {
			return 0, 0, 0, 0, apperr.Invalid("data.unitId %d must be 0 to 247", *r.UnitID)
		}
		unit = *r.UnitID
	}
	if unit < 0 || unit > 247 {
		return 0, 0, 0, 0, fmt.Errorf("%s: connection parameter unitId %d is not 0 to 247", eq.ID, unit)
	}
	return fc, start, count, uint8(unit), nil
}

func (t modbusTable) summary() string {
	switch t.code {
	case 3:
		return "the seven readings as float32, two registers each"
	case 4:
		return "status, alert level, operating hours, sync errors"
	case 1:
		return "run command, maintenance lockout"
	default:
		return "alarm, fault, maintenance, link healthy"
	}
}

// modbusDevice is a Modbus TCP server holding a twin's latest state,
// behind a guard.
type modbusDevice struct {
	srv   *modbus.ModbusServer
	guard *guard

	mu       sync.Mutex
	unit     uint8 // the unit id it answers to
	holding  []uint16
	input    []uint16
	coils    []bool
	discrete []bool
}

var quietLog = log.New(io.Discard, "", 0)

// startModbusDevice serves eq on ln. The library's server binds its own
// loopback port, chosen just before; another process may take it in
// between, so it tries a few.
func startModbusDevice(eq twin.Equipment, ln net.Listener) (device, error) {
	d := &modbusDevice{}
	d.update(eq)
	var err error
	for range 3 {
		var port int
		if port, err = freePort(); err != nil {
			continue
		}
		backend := fmt.Sprintf("127.0.0.1:%d", port)
		// The guard caps clients and closes idle ones; the server's own
		// limits only need to stay out of its way.
		d.srv, err = modbus.NewServer(&modbus.ServerConfiguration{
			URL: "tcp://" + backend, Timeout: IdleTimeout + time.Minute, MaxClients: 2 * MaxDeviceConns, Logger: quietLog,
		}, d)
		if err == nil {
			if err = d.srv.Start(); err == nil {
				d.guard = newGuard(ln, dialTCP(backend), splitModbus)
				d.guard.start()
				return d, nil
			}
		}
	}
	ln.Close()
	return nil, err
}

func (d *modbusDevice) addr() string { return d.guard.addr() }
func (d *modbusDevice) close() error { return errors.Join(d.guard.close(), d.srv.Stop()) }

// modbusUnitID is the twin's unit id (connection parameter unitId), 1 when
// it names none.
func modbusUnitID(eq twin.Equipment) int {
	switch u := eq.ConnectionParameters["unitId"].(type) {
	case float64:
		return int(u)
	case int:
		return u
	}
	return 1
}

func (d *modbusDevice) update(eq twin.Equipment) {
	holding := make([]uint16, 0, len(modbusHolding))
	for _, s := range twin.Sensors {
		bits := math.Float32bits(float32(readingOrZero(eq, s.Key)))
		holding = append(holding, uint16(bits>>16), uint16(bits&0xFFFF))
	}
	hours := uint32(math.Max(0, math.Round(eq.OperatingHours)))
	input := []uint16{toUint16(statusCode(eq.Status)), toUint16(twin.AlertRank(eq.AlertLevel)), uint16(hours >> 16), uint16(hours & 0xFFFF), toUint16(eq.SyncErrorCount)}
	coils := []bool{eq.Status == twin.StatusOperational, eq.Status == twin.StatusMaintenance}
	discrete := []bool{eq.AlertLevel != twin.AlertNormal, eq.Status == twin.StatusError, eq.Status == twin.StatusMaintenance, eq.SyncStatus == twin.SyncSynced}
	unit := uint8(min(max(modbusUnitID(eq), 0), 247))
	d.mu.Lock()
	d.unit, d.holding, d.input, d.coils, d.discrete = unit, holding, input, coils, discrete
	d.mu.Unlock()
}

// modbusUnitDirect is the unit id that addresses a Modbus TCP device
// itself ("the value 0xFF has to be used", Modbus Messaging on TCP/IP
// Implementation Guide §4.4.2).
const modbusUnitDirect = 0xFF

// checkUnit refuses a request for another unit as a gateway does: nothing
// behind this address answers to it (exception 0x0B, Gateway Target
// Device Failed to Respond). Called with d.mu held.
func (d *modbusDevice) checkUnit(unit uint8) error {
	if unit != d.unit && unit != modbusUnitDirect {
		return modbus.ErrGWTargetFailedToRespond
	}
	return nil
}

func window[T any](table []T, addr, qty uint16) ([]T, error) {
	if int(addr)+int(qty) > len(table) {
		return nil, modbus.ErrIllegalDataAddress
	}
	return append([]T(nil), table[addr:int(addr)+int(qty)]...), nil
}

func (d *modbusDevice) HandleCoils(req *modbus.CoilsRequest) ([]bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.checkUnit(req.UnitId); err != nil {
		return nil, err
	}
	if req.IsWrite {
		return nil, modbus.ErrIllegalFunction // the twin's state comes from its readings
	}
	return window(d.coils, req.Addr, req.Quantity)
}

func (d *modbusDevice) HandleDiscreteInputs(req *modbus.DiscreteInputsRequest) ([]bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.checkUnit(req.UnitId); err != nil {
		return nil, err
	}
	return window(d.discrete, req.Addr, req.Quantity)
}

func (d *modbusDevice) HandleHoldingRegisters(req *modbus.HoldingRegistersRequest) ([]uint16, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.checkUnit(req.UnitId); err != nil {
		return nil, err
	}
	if req.IsWrite {
		return nil, modbus.ErrIllegalFunction
	}
	return window(d.holding, req.Addr, req.Quantity)
}

func (d *modbusDevice) HandleInputRegisters(req *modbus.InputRegistersRequest) ([]uint16, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.checkUnit(req.UnitId); err != nil {
		return nil, err
	}
	return window(d.input, req.Addr, req.Quantity)
}

// ModbusValue is one register (or coil) read, with what it means.
type ModbusValue struct {
	Address int    `json:"address"`
	Name    string `json:"name"`
	Raw     string `json:"raw"` // register as 0x0000, or a coil as true/false
	Value   any    `json:"value,omitempty"`
	Unit    string `json:"unit,omitempty"`
}

func (f *Fleet) modbusExchange(ctx context.Context, eq twin.Equipment, req ModbusRequest) (Exchange, error) {
	fc, start, count, unit, err := req.resolve(eq)
	if err != nil {
		return Exchange{}, err
	}
	d, err := f.deviceFor(eq, KindModbus)
	if err != nil {
		return Exchange{}, err
	}
	t, err := newTap(ctx, d.addr())
	if err != nil {
		return Exchange{}, exchangeError(KindModbus, err)
	}
	defer t.Close()
	client, err := modbus.NewClient(&modbus.ClientConfiguration{URL: "tcp://" + t.Addr(), Timeout: exchangeTimeout, Logger: quietLog})
	if err != nil {
		return Exchange{}, exchangeError(KindModbus, err)
	}
	if err := client.Open(); err != nil {
		return Exchange{}, exchangeError(KindModbus, err)
	}
	if err := client.SetUnitId(unit); err != nil {
		client.Close()
		return Exchange{}, exchangeError(KindModbus, err)
	}
	var values []ModbusValue
	table := modbusTables[fc].names
	switch fc {
	case 1, 2:
		var bits []bool
		if fc == 1 {
			bits, err = client.ReadCoils(toUint16(start), toUint16(count))
		} else {
			bits, err = client.ReadDiscreteInputs(toUint16(start), toUint16(count))
		}
		for i, b := range bits {
			values = append(values, ModbusValue{Address: start + i, Name: table[start+i], Raw: fmt.Sprint(b), Value: b})
		}
	case 3, 4:
		regType := modbus.HOLDING_REGISTER
		if fc == 4 {
			regType = modbus.INPUT_REGISTER
		}
		var regs []uint16
		regs, err = client.ReadRegisters(toUint16(start), toUint16(count), regType)
		values = interpretRegisters(fc, start, regs)
	}
	client.Close()
	t.Close()
	frames := t.Frames(splitModbus, decodeModbus)
	var result any = values
	if err != nil {
		// An exception is the device's answer, and worth showing as one
		// (a unit id it does not serve answers 0x0B); anything else is a
		// failure on the wire.
		exc, ok := modbusException(frames)
		if !ok {
			return Exchange{}, exchangeError(KindModbus, err)
		}
		result = exc
	}
	x := Exchange{Device: d.addr(), Client: "github.com/simonvetter/modbus", Frames: frames, Result: result}
	if len(frames) > 0 {
		x.Request = frames[0]
	}
	if len(frames) > 1 {
		x.Response = &frames[1]
	}
	return x, nil
}

// ModbusException is the result of an exchange the device answered with an
// exception response.
type ModbusException struct {
	Exception int    `json:"exception"`
	Name      string `json:"name"`
}

// modbusException finds the exception response among frames.
func modbusException(frames []Frame) (ModbusException, bool) {
	for _, fr := range frames {
		b, err := hex.DecodeString(fr.Hex)
		if fr.Direction != FromDevice || err != nil || len(b) < 9 || b[7]&0x80 == 0 {
			continue
		}
		return ModbusException{Exception: int(b[8]), Name: modbusExceptions[b[8]]}, true
	}
	return ModbusException{}, false
}

// interpretRegisters names each register and joins float32 pairs that were
// read whole into their reading.
func interpretRegisters(fc, start int, regs []uint16) []ModbusValue {
	var out []ModbusValue
	for i, r := range regs {
		addr := start + i
		v := ModbusValue{Address: addr, Raw: fmt.Sprintf("0x%04x", r)}
		if fc == 3 {
			s := twin.Sensors[addr/2]
			v.Name = modbusHolding[addr]
			if addr%2 == 0 && i+1 < len(regs) {
				v.Value = float64(math.Float32frombits(uint32(r)<<16 | uint32(regs[i+1])))
				v.Unit = s.Unit
				v.Name = s.Key + " (float32, registers " + fmt.Sprint(addr) + "–" + fmt.Sprint(addr+1) + ")"
			}
		} else {
			v.Name = modbusInput[addr]
			v.Value = int(r)
			if addr == 2 && i+1 < len(regs) {
				v.Value = int(uint32(r)<<16 | uint32(regs[i+1]))
				v.Unit = "h"
				v.Name = "operating hours (uint32, registers 2–3)"
			}
		}
		out = append(out, v)
	}
	return out
}

// splitModbus cuts Modbus TCP frames by the MBAP length field.
func splitModbus(b []byte) int {
	if len(b) < 7 {
		return 0
	}
	return 6 + int(binary.BigEndian.Uint16(b[4:6]))
}

var modbusExceptions = map[byte]string{1: "Illegal Function", 2: "Illegal Data Address", 3: "Illegal Data Value", 4: "Server Device Failure", 6: "Server Device Busy",
	0x0A: "Gateway Path Unavailable", 0x0B: "Gateway Target Device Failed to Respond"}

// decodeModbus names the fields of a Modbus TCP frame (MBAP header + PDU).
func decodeModbus(dir string, b []byte) (string, []Field) {
	if len(b) < 8 {
		return "incomplete Modbus TCP frame", nil
	}
	fc := b[7]
	fields := []Field{
		{"Transaction ID", fmt.Sprint(binary.BigEndian.Uint16(b[0:2]))},
		{"Protocol ID", fmt.Sprintf("%d (Modbus)", binary.BigEndian.Uint16(b[2:4]))},
		{"Length", fmt.Sprintf("%d bytes follow", binary.BigEndian.Uint16(b[4:6]))},
		{"Unit ID", fmt.Sprint(b[6])},
	}
	pdu := b[8:]
	if fc&0x80 != 0 {
		code := byte(0)
		if len(pdu) > 0 {
			code = pdu[0]
		}
		fields = append(fields, Field{"Function code", fmt.Sprintf("0x%02x (exception to %d)", fc, fc&0x7f)}, Field{"Exception code", fmt.Sprintf("%d %s", code, modbusExceptions[code])})
		return fmt.Sprintf("Exception %d %s", code, modbusExceptions[code]), fields
	}
	name := modbusTables[int(fc)].name
	if name == "" {
		name = "function"
	}
	fields = append(fields, Field{"Function code", fmt.Sprintf("%d (%s)", fc, name)})
	if dir == ToDevice && len(pdu) >= 4 {
		start, qty := binary.BigEndian.Uint16(pdu[0:2]), binary.BigEndian.Uint16(pdu[2:4])
		fields = append(fields, Field{"Starting address", fmt.Sprint(start)}, Field{"Quantity", fmt.Sprint(qty)})
		return fmt.Sprintf("%s: %d from address %d", name, qty, start), fields
	}
	if dir == FromDevice && len(pdu) >= 1 {
		n := int(pdu[0])
		fields = append(fields, Field{"Byte count", fmt.Sprint(n)})
		data := pdu[1:]
		if fc == 3 || fc == 4 {
			var regs []string
			for i := 0; i+1 < len(data); i += 2 {
				regs = append(regs, fmt.Sprintf("0x%04x", binary.BigEndian.Uint16(data[i:i+2])))
			}
			fields = append(fields, Field{"Registers", strings.Join(regs, " ")})
			return fmt.Sprintf("%s response: %d registers", name, len(regs)), fields
		}
		fields = append(fields, Field{"Status bits", fmt.Sprintf("% x", data)})
		return fmt.Sprintf("%s response: %d bytes of bits", name, n), fields
	}
	return name, fields
}

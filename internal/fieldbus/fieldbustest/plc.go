package fieldbustest

import (
	"io"
	"log"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/simonvetter/modbus"
)

// PLC is a Modbus TCP server of the kept library standing in for a real
// device: a test sets its registers; reading one it has not set is an
// illegal-data-address exception, as on a real PLC.
type PLC struct {
	Addr string

	mu      sync.Mutex
	holding map[uint16]uint16
	input   map[uint16]uint16
	srv     *modbus.ModbusServer
}

// StartPLC serves a PLC on addr, or on a free loopback port when addr is
// empty, until the test ends.
func StartPLC(tb testing.TB, addr string) *PLC {
	tb.Helper()
	p := &PLC{holding: map[uint16]uint16{}, input: map[uint16]uint16{}}
	if addr == "" {
		addr = "127.0.0.1:" + strconv.Itoa(ConsecutivePorts(tb, 1))
	}
	p.Addr = addr
	srv, err := modbus.NewServer(&modbus.ServerConfiguration{URL: "tcp://" + addr, Timeout: time.Minute, MaxClients: 8,
		Logger: log.New(io.Discard, "", 0)}, p)
	if err != nil {
		tb.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		tb.Fatal(err)
	}
	p.srv = srv
	tb.Cleanup(p.Stop)
	return p
}

// Stop stops serving; a stopped PLC refuses connections.
func (p *PLC) Stop() { _ = p.srv.Stop() } // stopping twice is harmless

// SetHolding sets holding registers from addr on.
func (p *PLC) SetHolding(addr uint16, regs ...uint16) { p.set(p.holding, addr, regs) }

// SetInput sets input registers from addr on.
func (p *PLC) SetInput(addr uint16, regs ...uint16) { p.set(p.input, addr, regs) }

func (p *PLC) set(table map[uint16]uint16, addr uint16, regs []uint16) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, r := range regs {
		table[addr+uint16(i)] = r
	}
}

// HandleCoils refuses: the PLC has registers only.
func (p *PLC) HandleCoils(*modbus.CoilsRequest) ([]bool, error) {
	return nil, modbus.ErrIllegalFunction
}

// HandleDiscreteInputs refuses: the PLC has registers only.
func (p *PLC) HandleDiscreteInputs(*modbus.DiscreteInputsRequest) ([]bool, error) {
	return nil, modbus.ErrIllegalFunction
}

// HandleHoldingRegisters reads holding registers.
func (p *PLC) HandleHoldingRegisters(req *modbus.HoldingRegistersRequest) ([]uint16, error) {
	return p.read(p.holding, req.Addr, req.Quantity)
}

// HandleInputRegisters reads input registers.
func (p *PLC) HandleInputRegisters(req *modbus.InputRegistersRequest) ([]uint16, error) {
	return p.read(p.input, req.Addr, req.Quantity)
}

func (p *PLC) read(table map[uint16]uint16, addr, n uint16) ([]uint16, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]uint16, n)
	for i := range out {
		v, ok := table[addr+uint16(i)]
		if !ok {
			return nil, modbus.ErrIllegalDataAddress
		}
		out[i] = v
	}
	return out, nil
}

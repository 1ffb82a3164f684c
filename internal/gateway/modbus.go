package gateway

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/simonvetter/modbus"

	"journeyman/internal/twin"
)

type modbusSource struct {
	c      *modbus.ModbusClient
	points []twin.Point
}

func openModbus(c twin.Connection) (source, error) {
	client, err := modbus.NewClient(&modbus.ClientConfiguration{URL: "tcp://" + c.Address, Timeout: timeout(c)})
	if err != nil {
		return nil, err
	}
	if err := client.Open(); err != nil {
		return nil, linkError(err)
	}
	if err := client.SetUnitId(uint8(c.UnitID)); err != nil { //nolint:gosec // G115: Validate keeps unitId in 0-255
		client.Close()
		return nil, err
	}
	return &modbusSource{c: client, points: c.Points}, nil
}

func (s *modbusSource) Close() { s.c.Close() }

// Read reads every point. A Modbus exception fails only its point; a
// broken link fails the read.
func (s *modbusSource) Read(ctx context.Context) ([]Value, error) {
	out := make([]Value, 0, len(s.points))
	for _, p := range s.points {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		table := modbus.HOLDING_REGISTER
		if p.RegisterType == "input" {
			table = modbus.INPUT_REGISTER
		}
		//nolint:gosec // G115: Validate keeps the register and its span within 0-65535
		regs, err := s.c.ReadRegisters(uint16(p.Register), uint16(twin.Registers(p.DataType)), table)
		if err != nil {
			if isModbusException(err) {
				out = append(out, failed(p, err))
				continue
			}
			return out, linkError(err)
		}
		out = append(out, point(p, decodeRegisters(regs, p.DataType, p.WordOrder)))
	}
	return out, nil
}

// isModbusException tells an answer of the device (an exception) from a
// failure of the link.
func isModbusException(err error) bool {
	for _, e := range []error{modbus.ErrIllegalFunction, modbus.ErrIllegalDataAddress, modbus.ErrIllegalDataValue,
		modbus.ErrServerDeviceFailure, modbus.ErrServerDeviceBusy, modbus.ErrMemoryParityError,
		modbus.ErrGWPathUnavailable, modbus.ErrGWTargetFailedToRespond, modbus.ErrAcknowledge} {
		if errors.Is(err, e) {
			return true
		}
	}
	return strings.Contains(err.Error(), "exception")
}

// decodeRegisters reads one value of dataType from its registers (big-
// endian within each register, as Modbus is), words in wordOrder.
func decodeRegisters(regs []uint16, dataType, wordOrder string) float64 {
	if len(regs) == 1 {
		if dataType == "int16" {
			return float64(int16(regs[0])) //nolint:gosec // G115: the register holds a two's-complement int16
		}
		return float64(regs[0])
	}
	hi, lo := regs[0], regs[1]
	if wordOrder == "low-first" {
		hi, lo = lo, hi
	}
	u := uint32(hi)<<16 | uint32(lo)
	switch dataType {
	case "int32":
		return float64(int32(u)) //nolint:gosec // G115: the registers hold a two's-complement int32
	case "float32":
		return float64(math.Float32frombits(u))
	}
	return float64(u)
}

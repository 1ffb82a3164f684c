package twin

import (
	"strings"
	"testing"

	"journeyman/internal/apperr"
)

func TestConnectionNormalize(t *testing.T) {
	c := Connection{Address: " plc:502 ", Points: []Point{{Sensor: "temperature"}}}
	c.Normalize(ProtocolModbusTCP)
	p := c.Points[0]
	if c.Address != "plc:502" || c.UnitID != 1 || c.IntervalMs != DefaultIntervalMs || c.TimeoutMs != DefaultTimeoutMs ||
		p.Scale != 1 || p.RegisterType != "holding" || p.DataType != "float32" || p.WordOrder != "high-first" {
		t.Fatalf("normalized = %+v", c)
	}
	o := Connection{Address: "opc.tcp://h:4840", SecurityPolicy: "Basic256Sha256"}
	o.Normalize(ProtocolOPCUA)
	if o.SecurityMode != "SignAndEncrypt" {
		t.Fatalf("security mode = %q, want SignAndEncrypt with Basic256Sha256", o.SecurityMode)
	}
	if got := (Point{Scale: 0.1, Offset: -40}).Reading(650); got != 25 {
		t.Fatalf("reading = %g, want 25", got)
	}
}

func TestConnectionValidate(t *testing.T) {
	modbus := func(edit func(*Connection)) Connection {
		c := Connection{Address: "10.0.0.5:502", Points: []Point{{Sensor: "temperature", Register: 0}, {Sensor: "pressure", Register: 2, DataType: "uint16"}}}
		if edit != nil {
			edit(&c)
		}
		c.Normalize(ProtocolModbusTCP)
		return c
	}
	opcua := func(edit func(*Connection)) Connection {
		c := Connection{Address: "opc.tcp://plc.local:4840/ua", Points: []Point{{Sensor: "temperature", NodeID: "ns=2;s=Oil.Temp"}}}
		if edit != nil {
			edit(&c)
		}
		c.Normalize(ProtocolOPCUA)
		return c
	}
	tests := []struct {
		name     string
		protocol string
		conn     Connection
		field    string // the message starts with it; "" when valid
	}{
		{"ModbusOK", ProtocolModbusTCP, modbus(nil), ""},
		{"ModbusNoAddress", ProtocolModbusTCP, modbus(func(c *Connection) { c.Address = "" }), "connection.address"},
		{"ModbusAddressWithoutPort", ProtocolModbusTCP, modbus(func(c *Connection) { c.Address = "10.0.0.5" }), "connection.address"},
		{"ModbusPortOutOfRange", ProtocolModbusTCP, modbus(func(c *Connection) { c.Address = "plc:70000" }), "connection.address"},
		{"ModbusUnitTooBig", ProtocolModbusTCP, modbus(func(c *Connection) { c.UnitID = 256 }), "connection.unitId"},
		{"IntervalTooShort", ProtocolModbusTCP, modbus(func(c *Connection) { c.IntervalMs = 10 }), "connection.intervalMs"},
		{"TimeoutTooLong", ProtocolModbusTCP, modbus(func(c *Connection) { c.TimeoutMs = 120_000 }), "connection.timeoutMs"},
		{"NoPoints", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points = nil }), "connection.points"},
		{"UnknownSensor", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[1].Sensor = "humidity" }), "connection.points[1].sensor"},
		{"SensorTwice", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[1].Sensor = "temperature" }), "connection.points[1].sensor"},
		{"RegisterTypeUnknown", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[0].RegisterType = "coil" }), "connection.points[0].registerType"},
		{"DataTypeUnknown", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[0].DataType = "float64" }), "connection.points[0].dataType"},
		{"RegisterPastEnd", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[0].Register = 65535 }), "connection.points[0].register"},
		{"LastRegisterOf16Bit", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[1].Register = 65535 }), ""},
		{"WordOrderUnknown", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[0].WordOrder = "middle" }), "connection.points[0].wordOrder"},
		{"ScaleZeroAfterNormalizeIsOne", ProtocolModbusTCP, modbus(func(c *Connection) { c.Points[0].Scale = 0 }), ""},
		{"OPCUAOK", ProtocolOPCUA, opcua(nil), ""},
		{"OPCUASecureOK", ProtocolOPCUA, opcua(func(c *Connection) {
			c.SecurityPolicy, c.SecurityMode, c.Username, c.Password = "Basic256Sha256", "Sign", "op", "pw"
		}), ""},
		{"OPCUAWrongScheme", ProtocolOPCUA, opcua(func(c *Connection) { c.Address = "http://plc:4840" }), "connection.address"},
		{"OPCUAUserinfoInURL", ProtocolOPCUA, opcua(func(c *Connection) { c.Address = "opc.tcp://u:p@plc:4840" }), "connection.address"},
		{"OPCUAPolicyUnknown", ProtocolOPCUA, opcua(func(c *Connection) { c.SecurityPolicy = "Basic128Rsa15" }), "connection.securityPolicy"},
		{"OPCUAModeWithoutPolicy", ProtocolOPCUA, opcua(func(c *Connection) { c.SecurityMode = "Sign" }), "connection.securityMode"},
		{"OPCUAPasswordWithoutUser", ProtocolOPCUA, opcua(func(c *Connection) { c.Password = "pw" }), "connection.username"},
		{"OPCUABadNodeID", ProtocolOPCUA, opcua(func(c *Connection) { c.Points[0].NodeID = "Temperature" }), "connection.points[0].nodeId"},
		{"OPCUANumericNodeID", ProtocolOPCUA, opcua(func(c *Connection) { c.Points[0].NodeID = "ns=3;i=1001" }), ""},
		{"ENIPOK", ProtocolEtherNetIP, Connection{Address: "plc:44818", CIPPath: "1,0", IntervalMs: 500, TimeoutMs: 1000,
			Points: []Point{{Sensor: "rpm", Tag: "Motor.Speed[2]", Scale: 1}}}, ""},
		{"ENIPBadPath", ProtocolEtherNetIP, Connection{Address: "plc:44818", CIPPath: "backplane", IntervalMs: 500, TimeoutMs: 1000,
			Points: []Point{{Sensor: "rpm", Tag: "Speed", Scale: 1}}}, "connection.cipPath"},
		{"ENIPBadTag", ProtocolEtherNetIP, Connection{Address: "plc:44818", IntervalMs: 500, TimeoutMs: 1000,
			Points: []Point{{Sensor: "rpm", Tag: "1Speed", Scale: 1}}}, "connection.points[0].tag"},
		{"MQTTOK", ProtocolMQTT, Connection{Address: "tcp://broker:1883", Topic: "plant/pv7", IntervalMs: 1000, TimeoutMs: 1000,
			Points: []Point{{Sensor: "efficiency", Field: "eff", Scale: 1}}}, ""},
		{"MQTTWildcardTopic", ProtocolMQTT, Connection{Address: "tcp://broker:1883", Topic: "plant/#", IntervalMs: 1000, TimeoutMs: 1000,
			Points: []Point{{Sensor: "efficiency", Field: "eff", Scale: 1}}}, "connection.topic"},
		{"MQTTNoField", ProtocolMQTT, Connection{Address: "tcp://broker:1883", Topic: "plant/pv7", IntervalMs: 1000, TimeoutMs: 1000,
			Points: []Point{{Sensor: "efficiency", Scale: 1}}}, "connection.points[0].field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.conn.Validate(tt.protocol)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if apperr.Code(err) != apperr.EINVALID || !strings.HasPrefix(apperr.Message(err), tt.field) {
				t.Fatalf("Validate = %v, want an invalid error starting with %s", err, tt.field)
			}
		})
	}
}

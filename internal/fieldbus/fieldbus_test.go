package fieldbus_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"journeyman/internal/apperr"
	"journeyman/internal/fieldbus"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
)

func equipment(t *testing.T, id string) twin.Equipment {
	t.Helper()
	for _, eq := range twin.SeedEquipment() {
		if eq.ID == id {
			return eq
		}
	}
	t.Fatalf("no seed twin %s", id)
	return twin.Equipment{}
}

func mustFleet(t *testing.T) *fieldbus.Fleet {
	t.Helper()
	broker, err := telemetry.StartBroker("127.0.0.1:0", telemetry.BrokerAuth{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { broker.Close() })
	f := fieldbus.NewFleet(broker.Addr())
	f.BrokerUser, f.BrokerPassword = broker.Credential().Username, broker.Credential().Password
	t.Cleanup(func() { f.Close() })
	return f
}

// TestExchanges performs a real exchange with a device of each protocol and
// checks both the bytes on the wire and what was decoded from them.
func TestExchanges(t *testing.T) {
	f := mustFleet(t)
	tests := []struct {
		name, equipment, protocol, data string
		requestHex                      string // a prefix or infix of the request bytes
		requestSummary, responseSummary string
		result                          string // in the JSON of the decoded result
	}{
		{"ModbusHolding", "chlr-1", "Modbus TCP", `{"functionCode":3,"startAddress":0,"registerCount":4}`,
			"0000000602030000000 4", "Read Holding Registers: 4 from address 0", "Read Holding Registers response: 4 registers", `"value":6.69999980926`},
		{"ModbusInput", "chlr-1", "modbus", `{"functionCode":4,"startAddress":2,"registerCount":2}`,
			"02040002000 2", "Read Input Registers: 2 from address 2", "Read Input Registers response: 2 registers", `"value":7342`},
		{"ModbusCoils", "bp-2", "Modbus TCP", `{"functionCode":1,"startAddress":0,"registerCount":2}`,
			"030100000002", "Read Coils: 2 from address 0", "Read Coils response", `"name":"run command","raw":"true"`},
		{"OPCUA", "xfmr-t1", "OPC-UA", `{"nodeId":"ns=1;s=Temperature"}`,
			"4d534746", "MSG ReadRequest", "MSG ReadResponse", `"value":64.2`},
		{"OPCUAUnknownNode", "xfmr-t1", "OPC-UA", `{"nodeId":"ns=1;s=Nope"}`,
			"4d534746", "MSG ReadRequest", "MSG ReadResponse", `"statusCode":"The node id refers to a node that does not exist`},
		{"MQTT", "rtu-3", "MQTT", `{"topic":"journeyman/equipment/rtu-3/test","qos":1,"payload":"hello"}`,
			"32", "PUBLISH journeyman/equipment/rtu-3/test (QoS 1)", "PUBACK", `"acknowledged":"PUBACK"`},
		{"MQTTQoS2", "inv-pv-7", "MQTT", `{"qos":2}`,
			"34", "PUBLISH journeyman/equipment/inv-pv-7/test (QoS 2)", "PUBREC", `"payload":"{\"sensorData\"`},
		{"ENIPAssembly", "weld-cell-4", "EtherNet/IP", `{"assembly":100}`,
			"6f00", "SendRRData CIP Get_Attribute_Single", "SendRRData CIP reply", `"name":"current","type":"REAL","value":185`},
		{"ENIPState", "elev-2", "EtherNet/IP", `{"assembly":101}`,
			"20042465300 3", "SendRRData CIP Get_Attribute_Single", "SendRRData CIP reply", `"value":7011`},
		{"ENIPTag", "elev-2", "enip", `{"tag":"Rpm"}`,
			"4c", "SendRRData CIP Read Tag", "SendRRData CIP reply", `"name":"Rpm","type":"REAL","value":1420`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := f.Exchange(context.Background(), equipment(t, tt.equipment), tt.protocol, json.RawMessage(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(x.Request.Hex, strings.ReplaceAll(tt.requestHex, " ", "")) {
				t.Errorf("request hex %s lacks %s", x.Request.Hex, tt.requestHex)
			}
			if _, err := hex.DecodeString(x.Request.Hex); err != nil || x.Request.Length*2 != len(x.Request.Hex) {
				t.Errorf("request hex %q is not %d bytes of hex", x.Request.Hex, x.Request.Length)
			}
			if !strings.HasPrefix(x.Request.Summary, tt.requestSummary) {
				t.Errorf("request summary = %q, want %q", x.Request.Summary, tt.requestSummary)
			}
			if x.Response == nil || !strings.HasPrefix(x.Response.Summary, tt.responseSummary) {
				t.Fatalf("response = %+v, want %q", x.Response, tt.responseSummary)
			}
			if len(x.Request.Fields) == 0 || len(x.Response.Fields) == 0 {
				t.Error("frames are not decoded into fields")
			}
			result, _ := json.Marshal(x.Result)
			if !strings.Contains(string(result), tt.result) {
				t.Errorf("result %s lacks %s", result, tt.result)
			}
			if x.Device == "" || !strings.HasPrefix(x.Device, "127.0.0.1:") {
				t.Errorf("device = %q, want a loopback address", x.Device)
			}
		})
	}
}

// TestExchangeFollowsReadings checks a device serves the twin's latest
// readings, as Follow hands them over, not the ones it started with.
func TestExchangeFollowsReadings(t *testing.T) {
	f := mustFleet(t)
	eq := equipment(t, "bp-2")
	for _, want := range []float64{552, 777.5} {
		eq.SensorData["pressure"] = twin.Reading{Value: want, Unit: "kPa"}
		if _, err := f.Exchange(context.Background(), eq, "Modbus TCP", nil); err != nil { // starts the device
			t.Fatal(err)
		}
		f.Follow(eq)
		x, err := f.Exchange(context.Background(), eq, "Modbus TCP", json.RawMessage(`{"functionCode":3,"startAddress":2,"registerCount":2}`))
		if err != nil {
			t.Fatal(err)
		}
		got := x.Result.([]fieldbus.ModbusValue)[0].Value.(float64)
		if got != want {
			t.Fatalf("pressure read = %v, want %v", got, want)
		}
	}
}

func TestExchangeErrors(t *testing.T) {
	f := mustFleet(t)
	tests := []struct {
		name, equipment, protocol, data, message string
	}{
		{"UnknownProtocol", "chlr-1", "BACnet", `{}`, "use one of Modbus TCP, OPC-UA, MQTT, EtherNet/IP"},
		{"WrongProtocol", "chlr-1", "OPC-UA", `{}`, "speaks Modbus TCP, not OPC-UA"},
		{"ModbusFunction", "chlr-1", "Modbus TCP", `{"functionCode":16}`, "data.functionCode 16 is not supported"},
		{"ModbusStart", "chlr-1", "Modbus TCP", `{"functionCode":3,"startAddress":14}`, "addresses 0 to 13"},
		{"ModbusPastEnd", "chlr-1", "Modbus TCP", `{"functionCode":4,"startAddress":3,"registerCount":5}`, "read at most 2 from 3"},
		{"ModbusCount", "chlr-1", "Modbus TCP", `{"registerCount":0}`, "data.registerCount 0 must be 1 to 125"},
		{"ModbusUnknownKey", "chlr-1", "Modbus TCP", `{"quantity":2}`, `unknown field "quantity"`},
		{"ModbusType", "chlr-1", "Modbus TCP", `{"startAddress":"zero"}`, "data.startAddress must be"},
		{"OPCUANodeID", "xfmr-t1", "OPC-UA", `{"nodeId":"Temperature"}`, "is not an OPC UA node id"},
		{"MQTTQoS", "rtu-3", "MQTT", `{"qos":3}`, "data.qos 3 must be 0"},
		{"MQTTTelemetryTopic", "rtu-3", "MQTT", `{"topic":"journeyman/equipment/rtu-3/telemetry"}`, `data.topic "journeyman/equipment/rtu-3/telemetry" is not allowed: Test Protocol publishes only to the twin's test topic "journeyman/equipment/rtu-3/test"`},
		{"MQTTOtherTwin", "rtu-3", "MQTT", `{"topic":"journeyman/equipment/inv-pv-7/test"}`, `only to the twin's test topic "journeyman/equipment/rtu-3/test"`},
		{"MQTTWildcard", "rtu-3", "MQTT", `{"topic":"journeyman/#"}`, "data.topic"},
		{"ENIPAssembly", "weld-cell-4", "EtherNet/IP", `{"assembly":150}`, "use 100 (readings, 7 REAL) or 101"},
		{"ENIPTag", "weld-cell-4", "EtherNet/IP", `{"tag":"Torque"}`, "use one of Temperature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.Exchange(context.Background(), equipment(t, tt.equipment), tt.protocol, json.RawMessage(tt.data))
			if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), tt.message) {
				t.Fatalf("err = %v, want invalid with %q", err, tt.message)
			}
		})
	}
}

func TestKind(t *testing.T) {
	for in, want := range map[string]string{"Modbus TCP": "modbus", "modbus-tcp": "modbus", "OPC UA": "opcua", "OPC-UA": "opcua",
		"MQTT": "mqtt", "EtherNet/IP": "ethernetip", "ENIP": "ethernetip", "BACnet": ""} {
		if got := fieldbus.Kind(in); got != want {
			t.Errorf("Kind(%q) = %q, want %q", in, got, want)
		}
	}
}

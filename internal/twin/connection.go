package twin

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"journeyman/internal/apperr"
)

// Connection is how the gateway reaches a twin's real device and where each
// sensor lives on it. A twin without one is served by its demo device. The
// protocol is the twin's communicationProtocol; the fields that apply
// depend on it.
type Connection struct {
	// Address is host:port for Modbus TCP and EtherNet/IP, the endpoint URL
	// (opc.tcp://host:port/path) for OPC UA, the broker URL
	// (tcp://host:port) for MQTT.
	Address string `json:"address"`
	// UnitID is the Modbus unit (slave) id, 0–255.
	UnitID int `json:"unitId,omitempty"`
	// SecurityPolicy and SecurityMode are OPC UA's: None, or Basic256Sha256
	// with Sign or SignAndEncrypt.
	SecurityPolicy string `json:"securityPolicy,omitempty"`
	SecurityMode   string `json:"securityMode,omitempty"`
	// Username and Password sign in to an OPC UA server or an MQTT broker.
	// The API never returns the password; HasPassword says one is kept.
	Username    string `json:"username,omitempty"`
	Password    string `json:"password,omitempty"`
	HasPassword bool   `json:"hasPassword,omitempty"`
	// CIPPath routes an EtherNet/IP request through the backplane to the
	// controller: port,link pairs such as "1,0" (backplane, slot 0); empty
	// for a device that answers itself.
	CIPPath string `json:"cipPath,omitempty"`
	// Topic is the MQTT topic the device publishes its JSON readings on.
	Topic string `json:"topic,omitempty"`
	// IntervalMs is the poll interval (Modbus, EtherNet/IP) or the OPC UA
	// publishing interval.
	IntervalMs int `json:"intervalMs"`
	// TimeoutMs bounds every exchange with the device.
	TimeoutMs int     `json:"timeoutMs"`
	Points    []Point `json:"points"`
}

// Point says where one sensor's value is on the device and how the raw
// value becomes the reading: reading = raw × scale + offset.
type Point struct {
	Sensor string `json:"sensor"`
	// Modbus TCP: the register's 0-based address, its table, its type and,
	// for 32-bit types, which word comes first.
	Register     int    `json:"register,omitempty"`
	RegisterType string `json:"registerType,omitempty"`
	DataType     string `json:"dataType,omitempty"`
	WordOrder    string `json:"wordOrder,omitempty"`
	// OPC UA: the variable's node id.
	NodeID string `json:"nodeId,omitempty"`
	// EtherNet/IP: the controller tag.
	Tag string `json:"tag,omitempty"`
	// MQTT: the key of the value in the JSON payload.
	Field  string  `json:"field,omitempty"`
	Scale  float64 `json:"scale"`
	Offset float64 `json:"offset"`
}

// Reading turns a raw value read from the device into the sensor's reading.
func (p Point) Reading(raw float64) float64 { return raw*p.Scale + p.Offset }

// Connection limits and defaults.
const (
	MinIntervalMs     = 100
	MaxIntervalMs     = 3_600_000
	DefaultIntervalMs = 1000
	MinTimeoutMs      = 50
	MaxTimeoutMs      = 60_000
	DefaultTimeoutMs  = 2000
	MaxCredential     = 256
)

// Register tables, types and word orders of a Modbus point.
var (
	RegisterTypes = []string{"holding", "input"}
	DataTypes     = []string{"uint16", "int16", "uint32", "int32", "float32"}
	WordOrders    = []string{"high-first", "low-first"}
)

// Registers is how many 16-bit registers a Modbus data type spans.
func Registers(dataType string) int {
	if strings.HasSuffix(dataType, "32") {
		return 2
	}
	return 1
}

// OPC UA security policies and modes a connection may name.
var (
	SecurityPolicies = []string{"None", "Basic256Sha256"}
	SecurityModes    = []string{"None", "Sign", "SignAndEncrypt"}
)

var (
	nodeIDPattern  = regexp.MustCompile(`^(ns=\d{1,5};)?(i=\d{1,10}|s=.{1,256}|g=[0-9a-fA-F-]{36}|b=[A-Za-z0-9+/=]{1,256})$`)
	tagPattern     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,39}(\[\d{1,5}\])?(\.[A-Za-z_][A-Za-z0-9_]{0,39}(\[\d{1,5}\])?){0,7}$`)
	cipPathPattern = regexp.MustCompile(`^\d{1,3},\d{1,3}(,\d{1,3},\d{1,3}){0,3}$`)
	topicPattern   = regexp.MustCompile(`^[^#+\x00]{1,200}$`)
)

// Normalize fills a connection's defaults for protocol so that what is
// stored is what is used: interval, timeout, unit id, security, scale 1,
// data type and word order.
func (c *Connection) Normalize(protocol string) {
	c.Address = strings.TrimSpace(c.Address)
	if c.IntervalMs == 0 {
		c.IntervalMs = DefaultIntervalMs
	}
	if c.TimeoutMs == 0 {
		c.TimeoutMs = DefaultTimeoutMs
	}
	switch protocol {
	case ProtocolModbusTCP:
		if c.UnitID == 0 {
			c.UnitID = 1
		}
	case ProtocolOPCUA:
		if c.SecurityPolicy == "" {
			c.SecurityPolicy = "None"
		}
		if c.SecurityMode == "" {
			c.SecurityMode = "None"
			if c.SecurityPolicy != "None" {
				c.SecurityMode = "SignAndEncrypt"
			}
		}
	}
	for i := range c.Points {
		p := &c.Points[i]
		if p.Scale == 0 {
			p.Scale = 1
		}
		if protocol == ProtocolModbusTCP {
			if p.RegisterType == "" {
				p.RegisterType = "holding"
			}
			if p.DataType == "" {
				p.DataType = "float32"
			}
			if p.WordOrder == "" && Registers(p.DataType) == 2 {
				p.WordOrder = "high-first"
			}
		}
	}
}

// Validate checks a normalized connection for protocol. Each message names
// the field, as connection.points[2].register, so a form can show it where
// it belongs.
func (c Connection) Validate(protocol string) error {
	if err := c.validateAddress(protocol); err != nil {
		return err
	}
	switch {
	case c.IntervalMs < MinIntervalMs || c.IntervalMs > MaxIntervalMs:
		return apperr.Invalid("connection.intervalMs must be from %d to %d", MinIntervalMs, MaxIntervalMs)
	case c.TimeoutMs < MinTimeoutMs || c.TimeoutMs > MaxTimeoutMs:
		return apperr.Invalid("connection.timeoutMs must be from %d to %d", MinTimeoutMs, MaxTimeoutMs)
	case len(c.Username) > MaxCredential || len(c.Password) > MaxCredential:
		return apperr.Invalid("connection.username and connection.password must be at most %d bytes", MaxCredential)
	case len(c.Points) == 0:
		return apperr.Invalid("connection.points must map at least one sensor")
	case len(c.Points) > len(Sensors):
		return apperr.Invalid("connection.points may map at most %d sensors, one each", len(Sensors))
	}
	seen := map[string]bool{}
	for i, p := range c.Points {
		field := fmt.Sprintf("connection.points[%d]", i)
		if _, ok := SensorByKey(p.Sensor); !ok {
			return apperr.Invalid("%s.sensor %q must be one of %s", field, p.Sensor, sensorKeyList())
		}
		if seen[p.Sensor] {
			return apperr.Invalid("%s.sensor %q is mapped twice", field, p.Sensor)
		}
		seen[p.Sensor] = true
		if err := p.validate(protocol, field); err != nil {
			return err
		}
	}
	return nil
}

func (c Connection) validateAddress(protocol string) error {
	if c.Address == "" {
		return apperr.Invalid("connection.address is required")
	}
	switch protocol {
	case ProtocolModbusTCP, ProtocolEtherNetIP:
		if err := hostPort(c.Address); err != nil {
			return apperr.Invalid("connection.address %q must be host:port: %s", c.Address, err)
		}
	case ProtocolOPCUA, ProtocolMQTT:
		scheme := map[string]string{ProtocolOPCUA: "opc.tcp", ProtocolMQTT: "tcp"}[protocol]
		u, err := url.Parse(c.Address)
		if err != nil || u.Scheme != scheme || u.User != nil || hostPort(u.Host) != nil {
			return apperr.Invalid("connection.address %q must be a URL %s://host:port", c.Address, scheme)
		}
	}
	switch protocol {
	case ProtocolModbusTCP:
		if c.UnitID < 0 || c.UnitID > 255 {
			return apperr.Invalid("connection.unitId must be from 0 to 255")
		}
	case ProtocolOPCUA:
		if !contains(SecurityPolicies, c.SecurityPolicy) {
			return apperr.Invalid("connection.securityPolicy %q must be one of %s", c.SecurityPolicy, strings.Join(SecurityPolicies, ", "))
		}
		if !contains(SecurityModes, c.SecurityMode) {
			return apperr.Invalid("connection.securityMode %q must be one of %s", c.SecurityMode, strings.Join(SecurityModes, ", "))
		}
		if (c.SecurityPolicy == "None") != (c.SecurityMode == "None") {
			return apperr.Invalid("connection.securityMode must be None exactly when connection.securityPolicy is None")
		}
		if c.Password != "" && c.Username == "" {
			return apperr.Invalid("connection.username is required with a password")
		}
	case ProtocolEtherNetIP:
		if c.CIPPath != "" && !cipPathPattern.MatchString(c.CIPPath) {
			return apperr.Invalid("connection.cipPath %q must be port,link pairs such as 1,0", c.CIPPath)
		}
	case ProtocolMQTT:
		if !topicPattern.MatchString(c.Topic) {
			return apperr.Invalid("connection.topic is required: 1 to 200 characters without wildcards")
		}
	}
	return nil
}

func (p Point) validate(protocol, field string) error {
	if p.Scale == 0 {
		return apperr.Invalid("%s.scale must not be 0", field)
	}
	switch protocol {
	case ProtocolModbusTCP:
		switch {
		case !contains(RegisterTypes, p.RegisterType):
			return apperr.Invalid("%s.registerType %q must be one of %s", field, p.RegisterType, strings.Join(RegisterTypes, ", "))
		case !contains(DataTypes, p.DataType):
			return apperr.Invalid("%s.dataType %q must be one of %s", field, p.DataType, strings.Join(DataTypes, ", "))
		case p.Register < 0 || p.Register+Registers(p.DataType) > 65536:
			return apperr.Invalid("%s.register must be from 0 to %d", field, 65536-Registers(p.DataType))
		case Registers(p.DataType) == 2 && !contains(WordOrders, p.WordOrder):
			return apperr.Invalid("%s.wordOrder %q must be one of %s", field, p.WordOrder, strings.Join(WordOrders, ", "))
		}
	case ProtocolOPCUA:
		if !nodeIDPattern.MatchString(p.NodeID) {
			return apperr.Invalid("%s.nodeId %q must be a node id such as ns=2;s=Temperature or ns=3;i=1001", field, p.NodeID)
		}
	case ProtocolEtherNetIP:
		if !tagPattern.MatchString(p.Tag) {
			return apperr.Invalid("%s.tag %q must be a controller tag such as Line1_Temp or Motor.Speed[2]", field, p.Tag)
		}
	case ProtocolMQTT:
		if p.Field == "" || len(p.Field) > 64 {
			return apperr.Invalid("%s.field must name the payload's key, 1 to 64 characters", field)
		}
	}
	return nil
}

func hostPort(s string) error {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return err
	}
	if host == "" || len(host) > 253 || strings.ContainsAny(host, " /") {
		return fmt.Errorf("bad host")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port must be 1 to 65535")
	}
	return nil
}

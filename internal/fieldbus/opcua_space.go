package fieldbus

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gopcua/opcua/id"
	"github.com/gopcua/opcua/server"
	"github.com/gopcua/opcua/ua"

	"journeyman/internal/twin"
)

// opcuaVariable is one variable of every simulated OPC UA device.
type opcuaVariable struct {
	name        string      // BrowseName and string identifier, e.g. "Temperature"
	sensor      twin.Sensor // the reading it shows; Key "" for the twin's state
	dataType    uint32
	description string
	value       func(eq twin.Equipment) any
}

// opcuaVariables are the variables in each twin's folder: its seven
// sensors, then its state.
var opcuaVariables = func() []opcuaVariable {
	var vs []opcuaVariable
	for _, s := range twin.Sensors {
		vs = append(vs, opcuaVariable{
			name: strings.ToUpper(s.Key[:1]) + s.Key[1:], sensor: s, dataType: id.Double,
			description: fmt.Sprintf("%s in %s, %g to %g", s.Name, s.Unit, s.Min, s.Max),
			value:       func(eq twin.Equipment) any { return readingOrZero(eq, s.Key) },
		})
	}
	return append(vs,
		opcuaVariable{name: "Status", dataType: id.String, description: "One of " + strings.Join(twin.Statuses, ", "),
			value: func(eq twin.Equipment) any { return eq.Status }},
		opcuaVariable{name: "AlertLevel", dataType: id.String, description: "One of " + strings.Join(twin.AlertLevels, ", "),
			value: func(eq twin.Equipment) any { return eq.AlertLevel }},
		opcuaVariable{name: "OperatingHours", dataType: id.Double, description: "Hours in service",
			value: func(eq twin.Equipment) any { return eq.OperatingHours }},
		opcuaVariable{name: "SyncErrorCount", dataType: id.Int32, description: "Failed synchronisations with the twin",
			value: func(eq twin.Equipment) any { return toInt32(eq.SyncErrorCount) }},
	)
}()

// opcuaNodes are the names of opcuaVariables: node ns=1;s=<name> each.
var opcuaNodes = func() []string {
	names := make([]string, len(opcuaVariables))
	for i, v := range opcuaVariables {
		names[i] = v.name
	}
	return names
}()

// uneceUnits are the UN/CEFACT Recommendation 20 common codes of the
// sensors' units, which OPC UA's EUInformation carries as UnitId.
var uneceUnits = map[string]struct{ code, description string }{
	"°C":   {"CEL", "degree Celsius"},
	"kPa":  {"KPA", "kilopascal"},
	"mm/s": {"C16", "millimetre per second"},
	"A":    {"AMP", "ampere"},
	"V":    {"VLT", "volt"},
	"rpm":  {"RPM", "revolutions per minute"},
	"%":    {"P1", "percent"},
}

// uneceNamespace is EUInformation.NamespaceUri for UN/CEFACT units.
const uneceNamespace = "http://www.opcfoundation.org/UA/units/un/cefact"

// euInformation describes unit as OPC UA's EngineeringUnits property does:
// its UN/CEFACT code as UnitId (OPC UA Part 8, 5.6.3), or -1 for a unit
// without one.
func euInformation(unit string) *ua.EUInformation {
	eu := &ua.EUInformation{UnitID: -1, DisplayName: localized(unit), Description: localized(unit)}
	if u, ok := uneceUnits[unit]; ok {
		var code int32
		for _, c := range []byte(u.code) {
			code = code<<8 | int32(c)
		}
		eu.NamespaceURI, eu.UnitID, eu.Description = uneceNamespace, code, localized(u.description)
	}
	return eu
}

// opcuaState is the snapshot of a twin a device serves, replaced whole on
// each update.
type opcuaState struct {
	values   map[string]any  // by variable name
	updated  time.Time       // the twin's LastUpdated: when its readings were taken
	writable map[string]bool // the sensor variables a signed-in client may write
}

// newOPCUAState is eq as a device serves it; canWrite says whether the
// fleet stores writes at all.
func newOPCUAState(eq twin.Equipment, canWrite bool) opcuaState {
	s := opcuaState{values: make(map[string]any, len(opcuaVariables)), updated: eq.LastUpdated, writable: map[string]bool{}}
	for _, v := range opcuaVariables {
		s.values[v.name] = v.value(eq)
		if canWrite && v.sensor.Key != "" && slices.Contains(eq.WritableSensors, v.sensor.Key) {
			s.writable[v.name] = true
		}
	}
	return s
}

// deviceSpace is namespace 1 of a twin's device: Objects (i=85) organizes
// a folder named after the twin, which has the variables as components,
// each sensor with its EngineeringUnits and EURange properties. It is
// gopcua's server.NameSpace, written here because the library's node
// namespace reports a variable's data type as its type definition when
// browsed, reads its map without the lock its writers take, and lets any
// client write any node. The nodes are fixed when the device starts; the
// values come from the device's snapshot.
type deviceSpace struct {
	uri    string
	index  uint16
	nodes  map[string]*spaceNode // by NodeID.String()
	folder *spaceNode
	state  func() opcuaState
}

// spaceNode is one node of a deviceSpace.
type spaceNode struct {
	id          *ua.NodeID
	class       ua.NodeClass
	browseName  *ua.QualifiedName
	displayName *ua.LocalizedText
	description *ua.LocalizedText
	typeDef     *ua.NodeID // its HasTypeDefinition
	dataType    *ua.NodeID // variables only
	variable    string     // a data variable's name in the snapshot
	sensor      twin.Sensor
	constant    *ua.Variant // a property's value
	refs        []spaceRef
	lib         *server.Node // the node as the library sees it, for its browse of Objects
}

// spaceRef is a reference from a node, to target.
type spaceRef struct {
	refType uint32
	forward bool
	target  refTarget
}

// refTarget is what a reference description tells of its target node.
type refTarget struct {
	id          *ua.NodeID
	browseName  *ua.QualifiedName
	displayName *ua.LocalizedText
	class       ua.NodeClass
	typeDef     *ua.NodeID // null for types
}

func (n *spaceNode) asTarget() refTarget {
	return refTarget{id: n.id, browseName: n.browseName, displayName: n.displayName, class: n.class, typeDef: n.typeDef}
}

// standardNodes are the namespace 0 nodes the device's nodes refer to.
var standardNodes = map[uint32]refTarget{
	id.ObjectsFolder:        {browseName: &ua.QualifiedName{Name: "Objects"}, displayName: localized("Objects"), class: ua.NodeClassObject, typeDef: ua.NewNumericNodeID(0, id.FolderType)},
	id.FolderType:           {browseName: &ua.QualifiedName{Name: "FolderType"}, displayName: localized("FolderType"), class: ua.NodeClassObjectType},
	id.BaseDataVariableType: {browseName: &ua.QualifiedName{Name: "BaseDataVariableType"}, displayName: localized("BaseDataVariableType"), class: ua.NodeClassVariableType},
	id.AnalogItemType:       {browseName: &ua.QualifiedName{Name: "AnalogItemType"}, displayName: localized("AnalogItemType"), class: ua.NodeClassVariableType},
	id.PropertyType:         {browseName: &ua.QualifiedName{Name: "PropertyType"}, displayName: localized("PropertyType"), class: ua.NodeClassVariableType},
}

func standard(nodeID uint32) refTarget {
	t := standardNodes[nodeID]
	t.id = ua.NewNumericNodeID(0, nodeID)
	return t
}

// referenceSupertypes lists, for each reference type the device uses, the
// types it is a subtype of, for browses that include subtypes.
var referenceSupertypes = map[uint32][]uint32{
	id.Organizes:         {id.HierarchicalReferences, id.References},
	id.HasComponent:      {id.Aggregates, id.HasChild, id.HierarchicalReferences, id.References},
	id.HasProperty:       {id.Aggregates, id.HasChild, id.HierarchicalReferences, id.References},
	id.HasTypeDefinition: {id.NonHierarchicalReferences, id.References},
}

func newDeviceSpace(uri string, state func() opcuaState) *deviceSpace {
	return &deviceSpace{uri: uri, nodes: map[string]*spaceNode{}, state: state}
}

// build makes eq's nodes; the namespace index must be set (SetID) first.
func (s *deviceSpace) build(eq twin.Equipment) {
	s.folder = s.add(&spaceNode{
		id: ua.NewStringNodeID(s.index, eq.ID), class: ua.NodeClassObject,
		browseName: &ua.QualifiedName{NamespaceIndex: s.index, Name: eq.Name}, displayName: localized(eq.Name),
		description: localized(fmt.Sprintf("%s %s %s, the digital twin %s", eq.Manufacturer, eq.Model, eq.Type, eq.ID)),
		typeDef:     ua.NewNumericNodeID(0, id.FolderType),
		refs:        []spaceRef{{id.Organizes, false, standard(id.ObjectsFolder)}},
	})
	for _, v := range opcuaVariables {
		n := s.add(&spaceNode{
			id: ua.NewStringNodeID(s.index, v.name), class: ua.NodeClassVariable,
			browseName: &ua.QualifiedName{NamespaceIndex: s.index, Name: v.name}, displayName: localized(v.name),
			description: localized(v.description), typeDef: ua.NewNumericNodeID(0, id.BaseDataVariableType),
			dataType: ua.NewNumericNodeID(0, v.dataType), variable: v.name, sensor: v.sensor,
			refs: []spaceRef{{id.HasComponent, false, s.folder.asTarget()}},
		})
		s.folder.refs = append(s.folder.refs, spaceRef{id.HasComponent, true, n.asTarget()})
		if v.sensor.Key == "" {
			continue
		}
		// An analog item: what OPC UA defines EngineeringUnits and
		// EURange on, and generic clients show as a measurement.
		n.typeDef = ua.NewNumericNodeID(0, id.AnalogItemType)
		s.folder.refs[len(s.folder.refs)-1].target.typeDef = n.typeDef
		for _, p := range []struct {
			name     string
			dataType uint32
			value    any
		}{
			{"EngineeringUnits", id.EUInformation, euInformation(v.sensor.Unit)},
			{"EURange", id.Range, &ua.Range{Low: v.sensor.Min, High: v.sensor.Max}},
		} {
			prop := s.add(&spaceNode{
				id: ua.NewStringNodeID(s.index, v.name+"."+p.name), class: ua.NodeClassVariable,
				browseName: &ua.QualifiedName{Name: p.name}, displayName: localized(p.name), description: localized(""),
				typeDef: ua.NewNumericNodeID(0, id.PropertyType), dataType: ua.NewNumericNodeID(0, p.dataType),
				constant: ua.MustVariant(ua.NewExtensionObject(p.value)),
				refs:     []spaceRef{{id.HasProperty, false, n.asTarget()}},
			})
			n.refs = append(n.refs, spaceRef{id.HasProperty, true, prop.asTarget()})
		}
	}
	for _, n := range s.nodes {
		n.refs = append([]spaceRef{{id.HasTypeDefinition, true, standard(n.typeDef.IntID())}}, n.refs...)
		// The library looks a target up only to ask for its type
		// definition, which, without a DataType attribute, it takes from
		// the HasTypeDefinition reference.
		n.lib = server.NewNode(n.id, server.Attributes{
			ua.AttributeIDNodeClass:   server.DataValueFromValue(uint32(n.class)),
			ua.AttributeIDBrowseName:  server.DataValueFromValue(&ua.QualifiedName{NamespaceIndex: n.browseName.NamespaceIndex, Name: n.browseName.Name}),
			ua.AttributeIDDisplayName: server.DataValueFromValue(localized(n.displayName.Text)),
		}, server.References{{
			ReferenceTypeID: ua.NewNumericNodeID(0, id.HasTypeDefinition), IsForward: true,
			NodeID: ua.NewExpandedNodeID(n.typeDef, "", 0), BrowseName: &ua.QualifiedName{}, DisplayName: localized(""),
			NodeClass: standard(n.typeDef.IntID()).class, TypeDefinition: ua.NewTwoByteExpandedNodeID(0),
		}}, nil)
	}
}

func (s *deviceSpace) add(n *spaceNode) *spaceNode {
	s.nodes[n.id.String()] = n
	return n
}

func (s *deviceSpace) node(nodeID *ua.NodeID) *spaceNode {
	if nodeID == nil {
		return nil
	}
	return s.nodes[nodeID.String()]
}

// variableID is the node id of the variable named name.
func (s *deviceSpace) variableID(name string) *ua.NodeID { return ua.NewStringNodeID(s.index, name) }

// Name is the namespace URI.
func (s *deviceSpace) Name() string { return s.uri }

// AddNode adds nothing: the nodes are fixed.
func (s *deviceSpace) AddNode(n *server.Node) *server.Node { return n }

// Node is the node as the library's own browse of namespace 0 looks it up.
func (s *deviceSpace) Node(nodeID *ua.NodeID) *server.Node {
	if n := s.node(nodeID); n != nil {
		return n.lib
	}
	return nil
}

// Objects is the twin's folder, the namespace's one top node.
func (s *deviceSpace) Objects() *server.Node { return s.folder.lib }

// Root is nil: the namespace has no root of its own.
func (s *deviceSpace) Root() *server.Node { return nil }

// ID is the namespace index.
func (s *deviceSpace) ID() uint16 { return s.index }

// SetID sets the namespace index, as the server adds the namespace.
func (s *deviceSpace) SetID(index uint16) { s.index = index }

// SetAttribute refuses: the device's writes go through its Write service,
// which knows who asks.
func (s *deviceSpace) SetAttribute(*ua.NodeID, ua.AttributeID, *ua.DataValue) ua.StatusCode {
	return ua.StatusBadNotWritable
}

// Attribute reads an attribute as an anonymous client may; the library's
// subscriptions read through it.
func (s *deviceSpace) Attribute(nodeID *ua.NodeID, attr ua.AttributeID) *ua.DataValue {
	return s.read(nodeID, attr, false, time.Now())
}

// read reads one attribute of a node; signedIn says whether the client
// signed in, which decides what UserAccessLevel it is told. A Value
// carries the reading's time as its SourceTimestamp and now as its
// ServerTimestamp.
func (s *deviceSpace) read(nodeID *ua.NodeID, attr ua.AttributeID, signedIn bool, now time.Time) *ua.DataValue {
	n := s.node(nodeID)
	if n == nil {
		return statusValue(ua.StatusBadNodeIDUnknown)
	}
	var v any
	switch attr {
	case ua.AttributeIDNodeID:
		v = n.id
	case ua.AttributeIDNodeClass:
		v = int32(n.class) //nolint:gosec // G115: node classes are 1 to 128
	case ua.AttributeIDBrowseName:
		v = n.browseName
	case ua.AttributeIDDisplayName:
		v = n.displayName
	case ua.AttributeIDDescription:
		v = n.description
	case ua.AttributeIDWriteMask, ua.AttributeIDUserWriteMask:
		v = uint32(0)
	}
	if n.class == ua.NodeClassObject && attr == ua.AttributeIDEventNotifier {
		v = byte(0)
	}
	if n.class == ua.NodeClassVariable {
		switch attr {
		case ua.AttributeIDValue:
			return s.value(n, now)
		case ua.AttributeIDDataType:
			v = n.dataType
		case ua.AttributeIDValueRank:
			v = int32(-1) // scalar
		case ua.AttributeIDAccessLevel:
			v = s.accessLevel(n, true)
		case ua.AttributeIDUserAccessLevel:
			v = s.accessLevel(n, signedIn)
		case ua.AttributeIDHistorizing:
			v = false
		case ua.AttributeIDMinimumSamplingInterval:
			v = float64(0) // changes are reported as they are stored
		}
	}
	if v == nil {
		return statusValue(ua.StatusBadAttributeIDInvalid)
	}
	return &ua.DataValue{EncodingMask: ua.DataValueValue, Value: ua.MustVariant(v)}
}

// accessLevel is CurrentRead, and CurrentWrite too for a sensor the twin
// lets signed-in clients write; user says whether to count the client in.
func (s *deviceSpace) accessLevel(n *spaceNode, user bool) byte {
	level := byte(ua.AccessLevelTypeCurrentRead)
	if user && n.variable != "" && s.state().writable[n.variable] {
		level |= byte(ua.AccessLevelTypeCurrentWrite)
	}
	return level
}

func (s *deviceSpace) value(n *spaceNode, now time.Time) *ua.DataValue {
	dv := &ua.DataValue{EncodingMask: ua.DataValueValue | ua.DataValueServerTimestamp, ServerTimestamp: now}
	if n.constant != nil {
		dv.Value = n.constant
		return dv
	}
	state := s.state()
	v, err := ua.NewVariant(state.values[n.variable])
	if err != nil {
		return statusValue(ua.StatusBadInternalError)
	}
	dv.Value = v
	if !state.updated.IsZero() {
		dv.EncodingMask |= ua.DataValueSourceTimestamp
		dv.SourceTimestamp = state.updated
	}
	return dv
}

// Browse lists a node's references as the description asks.
func (s *deviceSpace) Browse(bd *ua.BrowseDescription) *ua.BrowseResult {
	n := s.node(bd.NodeID)
	if n == nil {
		return &ua.BrowseResult{StatusCode: ua.StatusBadNodeIDUnknown, References: []*ua.ReferenceDescription{}}
	}
	if bd.BrowseDirection > ua.BrowseDirectionBoth {
		return &ua.BrowseResult{StatusCode: ua.StatusBadBrowseDirectionInvalid, References: []*ua.ReferenceDescription{}}
	}
	refs := []*ua.ReferenceDescription{}
	for _, r := range n.refs {
		switch {
		case bd.BrowseDirection == ua.BrowseDirectionForward && !r.forward,
			bd.BrowseDirection == ua.BrowseDirectionInverse && r.forward,
			!referenceMatches(bd.ReferenceTypeID, bd.IncludeSubtypes, r.refType),
			bd.NodeClassMask != 0 && bd.NodeClassMask&uint32(r.target.class) == 0:
			continue
		}
		refs = append(refs, r.description(bd.ResultMask))
	}
	return &ua.BrowseResult{StatusCode: ua.StatusGood, References: refs}
}

// referenceMatches says whether a reference of type have answers a browse
// for type want (null: any).
func referenceMatches(want *ua.NodeID, subtypes bool, have uint32) bool {
	if want == nil {
		return true
	}
	switch want.Type() {
	case ua.NodeIDTypeTwoByte, ua.NodeIDTypeFourByte, ua.NodeIDTypeNumeric:
	default:
		return false // every reference type the device uses is numeric
	}
	switch {
	case want.Namespace() == 0 && want.IntID() == 0: // null
		return true
	case want.Namespace() != 0:
		return false
	case want.IntID() == have:
		return true
	}
	return subtypes && slices.Contains(referenceSupertypes[have], want.IntID())
}

// description is the reference as a browse returns it, with the fields
// mask asks for; the others are null, as the encoding needs them present.
func (r spaceRef) description(mask uint32) *ua.ReferenceDescription {
	d := &ua.ReferenceDescription{
		ReferenceTypeID: ua.NewTwoByteNodeID(0), NodeID: ua.NewExpandedNodeID(r.target.id, "", 0),
		BrowseName: &ua.QualifiedName{}, DisplayName: localized(""), TypeDefinition: ua.NewTwoByteExpandedNodeID(0),
	}
	if mask&uint32(ua.BrowseResultMaskReferenceTypeID) != 0 {
		d.ReferenceTypeID = ua.NewNumericNodeID(0, r.refType)
	}
	if mask&uint32(ua.BrowseResultMaskIsForward) != 0 {
		d.IsForward = r.forward
	}
	if mask&uint32(ua.BrowseResultMaskNodeClass) != 0 {
		d.NodeClass = r.target.class
	}
	if mask&uint32(ua.BrowseResultMaskBrowseName) != 0 {
		d.BrowseName = r.target.browseName
	}
	if mask&uint32(ua.BrowseResultMaskDisplayName) != 0 {
		d.DisplayName = r.target.displayName
	}
	if mask&uint32(ua.BrowseResultMaskTypeDefinition) != 0 && r.target.typeDef != nil {
		d.TypeDefinition = ua.NewExpandedNodeID(r.target.typeDef, "", 0)
	}
	return d
}

func localized(text string) *ua.LocalizedText {
	t := &ua.LocalizedText{Text: text}
	t.UpdateMask()
	return t
}

func statusValue(code ua.StatusCode) *ua.DataValue {
	return &ua.DataValue{EncodingMask: ua.DataValueStatusCode, Status: code}
}

// inRange says whether v is a reading sensor s may take.
func inRange(s twin.Sensor, v float64) bool {
	return !math.IsNaN(v) && v >= s.Min && v <= s.Max
}

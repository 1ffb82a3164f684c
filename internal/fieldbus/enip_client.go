package fieldbus

// A small EtherNet/IP client for explicit messages: a session, Read Tag
// sent as an unconnected message — inside the Connection Manager's
// Unconnected Send when the device is reached through a route, such as a
// ControlLogix chassis's backplane to the controller's slot — and the
// device's identity. Test Protocol uses it against the simulated devices;
// a gateway uses it against real ones.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ENIPClient is one EtherNet/IP session with a device. It is safe for
// concurrent use; requests take turns, as one session's do on a device.
// After a failure on the wire (a timeout, a closed connection) every call
// fails: Close it and dial again.
type ENIPClient struct {
	route   []byte // port segments of the route to the Message Router; nil sends directly
	timeout time.Duration

	mu      sync.Mutex
	conn    net.Conn
	session uint32
	sent    uint64 // the last sender context used
	broken  error
}

// DialENIP connects to the EtherNet/IP device at addr ("host:port", or
// "host" for port 44818) and registers a session. cipPath is the route to
// the Message Router that answers: "1,0" is the backplane (port 1) to the
// controller in slot 0, as on a ControlLogix chassis or a CompactLogix;
// "" sends requests to the device's own Message Router, unwrapped. timeout
// bounds the connection and each request after it; 0 means 10 seconds.
func DialENIP(ctx context.Context, addr, cipPath string, timeout time.Duration) (*ENIPClient, error) {
	route, err := ParseCIPRoute(cipPath)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(strings.Trim(addr, "[]"), strconv.Itoa(DefaultENIPPort))
	}
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var dialer net.Dialer
	conn, err := dialer.DialContext(dctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("EtherNet/IP %s: %w", addr, err)
	}
	c := &ENIPClient{conn: conn, route: route, timeout: timeout}
	h, _, err := c.roundTrip(ctx, encapHeader{Command: eipRegisterSession}, []byte{1, 0, 0, 0}) // protocol version 1, options 0
	if err == nil && h.Status != 0 {
		err = fmt.Errorf("encapsulation status 0x%04x (%s)", h.Status, strings.ToLower(eipStatusNames[h.Status]))
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("EtherNet/IP %s: register session: %w", addr, err)
	}
	c.session = h.Session
	return c, nil
}

// Close unregisters the session, as a polite client does, and closes the
// connection.
func (c *ENIPClient) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken == nil {
		_ = c.conn.SetWriteDeadline(time.Now().Add(time.Second))
		_ = writeEncap(c.conn, encapHeader{Command: eipUnRegisterSession, Session: c.session}, nil) // the session ends with the connection either way
	}
	c.broken = net.ErrClosed
	return c.conn.Close()
}

// ReadTag reads one element of the tag named tag — "Speed",
// "Program:MainProgram.Speed", "Recipe.Temps[2]" — and returns its value
// whatever its elementary type: REAL, LREAL, DINT, INT, SINT, LINT, UDINT,
// UINT, USINT, ULINT or BOOL (0 or 1). A device's refusal is a *CIPError
// naming the CIP status.
func (c *ENIPClient) ReadTag(ctx context.Context, tag string) (float64, error) {
	path, err := tagPath(tag)
	if err != nil {
		return 0, err
	}
	data, err := c.call(ctx, cipRequest(cipReadTag, path, []byte{1, 0})) // one element
	if err != nil {
		return 0, fmt.Errorf("read tag %s: %w", tag, err)
	}
	if len(data) < 2 {
		return 0, fmt.Errorf("read tag %s: reply of %d bytes has no data type", tag, len(data))
	}
	v, err := decodeCIP(binary.LittleEndian.Uint16(data), data[2:])
	if err != nil {
		return 0, fmt.Errorf("read tag %s: %w", tag, err)
	}
	return v, nil
}

// Identity reads the Identity object of the device the route reaches,
// with Get_Attributes_All. State, which that service does not report, is 0.
func (c *ENIPClient) Identity(ctx context.Context) (ENIPIdentity, error) {
	data, err := c.call(ctx, cipRequest(cipGetAttributesAll, []byte{0x20, cipClassIdentity, 0x24, 1}, nil))
	if err != nil {
		return ENIPIdentity{}, fmt.Errorf("identity: %w", err)
	}
	id, _, err := parseIdentity(data)
	return id, err
}

// ListIdentity asks the device for its identity with the encapsulation's
// ListIdentity command, which needs no session and no route: what answers
// is the device at the address (on a chassis, its EtherNet/IP module).
func (c *ENIPClient) ListIdentity(ctx context.Context) (ENIPIdentity, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, body, err := c.roundTrip(ctx, encapHeader{Command: eipListIdentity}, nil)
	if err != nil {
		return ENIPIdentity{}, fmt.Errorf("list identity: %w", err)
	}
	items, err := parseCPF(body)
	if err != nil {
		return ENIPIdentity{}, fmt.Errorf("list identity: %w", err)
	}
	for _, it := range items {
		if it.typ == cpfListIdentity {
			id, _, err := parseListIdentity(it.data)
			return id, err
		}
	}
	return ENIPIdentity{}, errors.New("list identity: no identity item in the reply")
}

// call sends a request on the client's route and returns the data of a
// successful reply, or the reply's error.
func (c *ENIPClient) call(ctx context.Context, req []byte) ([]byte, error) {
	raw, err := c.request(ctx, req)
	if err != nil {
		return nil, err
	}
	r, err := parseCIPReply(raw)
	if err != nil {
		return nil, err
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	if r.service != req[0]|cipReplyBit {
		return nil, fmt.Errorf("reply to service 0x%02x answers service 0x%02x", req[0], r.service&^cipReplyBit)
	}
	return r.data, nil
}

// request sends one Message Router request as an unconnected message —
// wrapped in Unconnected Send when the client has a route — and returns
// the raw reply.
func (c *ENIPClient) request(ctx context.Context, req []byte) ([]byte, error) {
	if c.route != nil {
		req = c.unconnectedSend(req)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	h, body, err := c.roundTrip(ctx, encapHeader{Command: eipSendRRData, Session: c.session}, rrData(req))
	if err != nil {
		return nil, err
	}
	if h.Status != 0 {
		return nil, fmt.Errorf("SendRRData: encapsulation status 0x%04x (%s)", h.Status, strings.ToLower(eipStatusNames[h.Status]))
	}
	_, data, err := unpackRRData(body)
	if err != nil {
		return nil, err
	}
	if data.typ != cpfUnconnectedData {
		return nil, fmt.Errorf("SendRRData reply carries item 0x%04x, not unconnected data", data.typ)
	}
	return data.data, nil
}

// unconnectedSend wraps req for the Connection Manager to deliver along
// the client's route, with the client's timeout as the network's.
func (c *ENIPClient) unconnectedSend(req []byte) []byte {
	tick, ticks := cipTimeout(c.timeout)
	data := []byte{tick, ticks}
	data = binary.LittleEndian.AppendUint16(data, toUint16(len(req)))
	data = append(data, req...)
	if len(req)%2 == 1 {
		data = append(data, 0)
	}
	data = append(data, byte(len(c.route)/2), 0) //nolint:gosec // G115: ParseCIPRoute keeps routes within 255 words
	data = append(data, c.route...)
	return cipRequest(cipUnconnectedSend, []byte{0x20, cipClassConnectionManager, 0x24, 1}, data)
}

// cipTimeout encodes d as the Connection Manager's time tick and ticks: d
// is about ticks × 2^tick milliseconds.
func cipTimeout(d time.Duration) (tick, ticks byte) {
	ms := max(d.Milliseconds(), 1)
	for tick = 0; tick < 15 && (ms+(1<<tick)-1)>>tick > 255; tick++ {
	}
	return tick, byte(min((ms+(1<<tick)-1)>>tick, 255)) //nolint:gosec // G115: at most 255, by min
}

// roundTrip sends one encapsulated message and reads the reply with the
// same sender context, within the client's timeout and ctx. The caller
// holds c.mu, or is DialENIP before anyone else has the client.
func (c *ENIPClient) roundTrip(ctx context.Context, h encapHeader, body []byte) (encapHeader, []byte, error) {
	if c.broken != nil {
		return encapHeader{}, nil, fmt.Errorf("connection unusable after an earlier failure: %w", c.broken)
	}
	if err := ctx.Err(); err != nil { // nothing sent: the session stays usable
		return encapHeader{}, nil, err
	}
	deadline := time.Now().Add(c.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.conn.SetDeadline(deadline); err != nil {
		return encapHeader{}, nil, err
	}
	stop := context.AfterFunc(ctx, func() { _ = c.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c.sent++
	binary.LittleEndian.PutUint64(h.Context[:], c.sent)
	fail := func(err error) (encapHeader, []byte, error) {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		c.broken = err
		return encapHeader{}, nil, err
	}
	if err := writeEncap(c.conn, h, body); err != nil {
		return fail(err)
	}
	for {
		rh, rbody, err := readEncap(c.conn)
		if err != nil {
			return fail(err)
		}
		if rh.Command == h.Command && rh.Context == h.Context {
			return rh, rbody, nil
		}
		// A reply to something else (a request given up on) is skipped.
	}
}

// tagPath encodes a Logix tag name as symbolic segments, one per dotted
// member, each array index as a member (element) segment.
func tagPath(tag string) ([]byte, error) {
	tag = strings.TrimSpace(tag)
	if tag == "" {
		return nil, errors.New("no tag name")
	}
	var path []byte
	for part := range strings.SplitSeq(tag, ".") {
		name, index, hasIndex := strings.Cut(part, "[")
		if name == "" || len(name) > 255 {
			return nil, fmt.Errorf("tag %q: bad name %q", tag, part)
		}
		path = appendSymbolic(path, name)
		if !hasIndex {
			continue
		}
		index, ok := strings.CutSuffix(index, "]")
		if !ok {
			return nil, fmt.Errorf("tag %q: unclosed index in %q", tag, part)
		}
		for n := range strings.SplitSeq(index, ",") {
			i, err := strconv.ParseUint(strings.TrimSpace(n), 10, 32)
			if err != nil {
				return nil, fmt.Errorf("tag %q: index %q is not a number", tag, n)
			}
			path = appendLogical(path, logicalMember, uint32(i))
		}
	}
	if len(path) > 2*255 {
		return nil, fmt.Errorf("tag %q is too long", tag)
	}
	return path, nil
}

package fieldbus

// The OPC UA device's services. gopcua v0.8.0's server trusts its clients:
// it accepts any user name and password (it never looks at the identity
// token), lets any client write any node, serves Read, Browse and Write
// without a session, lets one session delete another's monitored items,
// numbers subscriptions so that a new one can take a live one's number,
// and panics — taking the whole process with it, since it serves requests
// on one goroutine without recover — on a subscription asked to publish
// every 0 ms, on a subscription or monitored item sent without a session,
// or on a non-RSA client certificate. Its only hook is RegisterHandler,
// which, called before Start, replaces a service's handler. The device
// registers its own Read, Write, Browse and discovery services, and wraps
// the library's session, subscription and monitored item services with the
// checks they lack; every handler it registers recovers from a panic.

import (
	"bytes"
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"
	"unsafe"

	"github.com/gopcua/opcua/id"
	"github.com/gopcua/opcua/server"
	"github.com/gopcua/opcua/ua"
	"github.com/gopcua/opcua/uapolicy"
	"github.com/gopcua/opcua/uasc"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// Limits of one OPC UA device, beyond which requests are refused rather
// than served: a plant client needs a session or two, a subscription and a
// few dozen monitored items.
const (
	maxOPCUASessions       = 100
	maxOPCUASubscriptions  = 100
	maxOPCUAMonitoredItems = 10000
	maxOPCUAOperations     = 1000 // nodes per Read, Browse or CreateMonitoredItems
	maxOPCUAWrites         = 64   // values per Write
	maxOPCUAWritesInFlight = 8

	minOPCUASessionTimeout = 10 * time.Second
	maxOPCUASessionTimeout = time.Hour
)

// rsaOAEP is how a Basic256Sha256 user token's password is encrypted.
const rsaOAEP = "http://www.w3.org/2001/04/xmlenc#rsa-oaep"

// sessionAuth is what the device knows of a session beyond the library.
type sessionAuth struct {
	token   *ua.NodeID
	nonce   []byte              // the server nonce a password must carry: the last one the session was sent
	channel *uasc.SecureChannel // the secure channel that activated it; nil until then
	user    string              // the signed-in user name; "" when anonymous
	active  bool
	timeout time.Duration
	seen    time.Time
}

// librarySessions returns the library's Session Service bound to srv. The
// library keeps its own unexported; its struct holds nothing but the
// server, which is checked here, so a library that changes it fails the
// start instead of writing where it should not.
func librarySessions(srv *server.Server) (*server.SessionService, error) {
	t := reflect.TypeFor[server.SessionService]()
	if t.NumField() != 1 || t.Field(0).Type != reflect.TypeFor[*server.Server]() || t.Field(0).Offset != 0 {
		return nil, errors.New("OPC UA device: gopcua's SessionService is no longer a bare *Server; the device's session checks need updating")
	}
	s := new(server.SessionService)
	*(**server.Server)(unsafe.Pointer(s)) = srv //nolint:gosec // G103: the struct's one field is a *server.Server at offset 0, checked above
	return s, nil
}

// register installs the device's services; the library's remain for the
// rest (each of which answers "unsupported").
func (d *opcuaDevice) register(srv *server.Server) {
	for typeID, h := range map[uint16]server.Handler{
		id.GetEndpointsRequest_Encoding_DefaultBinary:         d.getEndpoints,
		id.FindServersRequest_Encoding_DefaultBinary:          d.findServers,
		id.CreateSessionRequest_Encoding_DefaultBinary:        d.createSession,
		id.ActivateSessionRequest_Encoding_DefaultBinary:      d.activateSession,
		id.CloseSessionRequest_Encoding_DefaultBinary:         d.closeSession,
		id.ReadRequest_Encoding_DefaultBinary:                 d.read,
		id.WriteRequest_Encoding_DefaultBinary:                d.writeValues,
		id.BrowseRequest_Encoding_DefaultBinary:               d.browse,
		id.CreateSubscriptionRequest_Encoding_DefaultBinary:   d.createSubscription,
		id.DeleteSubscriptionsRequest_Encoding_DefaultBinary:  d.deleteSubscriptions,
		id.PublishRequest_Encoding_DefaultBinary:              d.publish,
		id.CreateMonitoredItemsRequest_Encoding_DefaultBinary: d.createMonitoredItems,
		id.SetMonitoringModeRequest_Encoding_DefaultBinary:    d.setMonitoringMode,
		id.DeleteMonitoredItemsRequest_Encoding_DefaultBinary: d.deleteMonitoredItems,
	} {
		srv.RegisterHandler(typeID, d.recovering(h))
	}
}

// recovering turns a panic while serving one request into a fault for that
// request.
func (d *opcuaDevice) recovering(h server.Handler) server.Handler {
	return func(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (resp ua.Response, err error) {
		defer func() {
			if p := recover(); p != nil {
				d.log.Error("OPC UA device: a request failed the service", "twin", d.id, "request", fmt.Sprintf("%T", r), "panic", p)
				resp, err = fault(r, ua.StatusBadInternalError)
			}
		}()
		return h(sc, r, reqID)
	}
}

func responseHeader(r ua.Request, code ua.StatusCode) *ua.ResponseHeader {
	var handle uint32
	if h := r.Header(); h != nil {
		handle = h.RequestHandle
	}
	return &ua.ResponseHeader{Timestamp: time.Now(), RequestHandle: handle, ServiceResult: code,
		ServiceDiagnostics: &ua.DiagnosticInfo{}, StringTable: []string{}, AdditionalHeader: ua.NewExtensionObject(nil)}
}

func fault(r ua.Request, code ua.StatusCode) (ua.Response, error) {
	return &ua.ServiceFault{ResponseHeader: responseHeader(r, code)}, nil
}

// session is the activated session r comes in, which must be on the
// secure channel that activated it; it counts as the session's activity.
func (d *opcuaDevice) session(sc *uasc.SecureChannel, r ua.Request) (sessionAuth, ua.StatusCode) {
	h := r.Header()
	if h == nil || h.AuthenticationToken == nil {
		return sessionAuth{}, ua.StatusBadSessionIDInvalid
	}
	d.authMu.Lock()
	defer d.authMu.Unlock()
	a := d.auth[h.AuthenticationToken.String()]
	switch {
	case a == nil:
		return sessionAuth{}, ua.StatusBadSessionIDInvalid
	case !a.active:
		return sessionAuth{}, ua.StatusBadSessionNotActivated
	case a.channel != sc:
		return sessionAuth{}, ua.StatusBadSecureChannelIDInvalid
	}
	a.seen = time.Now()
	return *a, ua.StatusOK
}

// endpoints are the server's endpoints at the guard's address, the only
// one clients are told of: the library also lists the loopback port it
// listens on behind the guard, first, and a client that took that one
// would bypass the guard.
func (d *opcuaDevice) endpoints() []*ua.EndpointDescription {
	var eps []*ua.EndpointDescription
	for _, ep := range d.srv.Endpoints() {
		if ep.EndpointURL != d.url {
			continue
		}
		e := *ep
		app := *ep.Server
		app.DiscoveryURLs = []string{d.url}
		app.ProductURI = "urn:journeyman:devices:" + d.id
		e.Server = &app
		eps = append(eps, &e)
	}
	return eps
}

func (d *opcuaDevice) getEndpoints(_ *uasc.SecureChannel, r ua.Request, _ uint32) (ua.Response, error) {
	req, ok := r.(*ua.GetEndpointsRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	eps := d.endpoints()
	if len(req.ProfileURIs) > 0 && len(eps) > 0 && !slices.Contains(req.ProfileURIs, eps[0].TransportProfileURI) {
		eps = nil
	}
	return &ua.GetEndpointsResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Endpoints: eps}, nil
}

func (d *opcuaDevice) findServers(_ *uasc.SecureChannel, r ua.Request, _ uint32) (ua.Response, error) {
	if _, ok := r.(*ua.FindServersRequest); !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	return &ua.FindServersResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Servers: []*ua.ApplicationDescription{d.endpoints()[0].Server}}, nil
}

func (d *opcuaDevice) createSession(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.CreateSessionRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	if len(req.ClientCertificate) > 0 {
		// The library asserts the key is RSA, panicking on any other.
		c, err := x509.ParseCertificate(req.ClientCertificate)
		if err != nil {
			return fault(r, ua.StatusBadCertificateInvalid)
		}
		if _, ok := c.PublicKey.(*rsa.PublicKey); !ok {
			return fault(r, ua.StatusBadCertificateInvalid)
		}
	}
	if !d.roomForSession() {
		return fault(r, ua.StatusBadTooManySessions)
	}
	resp, err := d.sessions.CreateSession(sc, r, reqID)
	if err != nil {
		return resp, err
	}
	res, ok := resp.(*ua.CreateSessionResponse)
	if !ok || res.AuthenticationToken == nil {
		return resp, nil
	}
	res.ServerEndpoints = d.endpoints()
	// The library revises every timeout to 0 ms (it compares milliseconds
	// with nanoseconds) and keeps sessions for ever; the device keeps them
	// for the timeout the client asked, within bounds.
	timeout := time.Duration(req.RequestedSessionTimeout * float64(time.Millisecond))
	if math.IsNaN(req.RequestedSessionTimeout) || timeout < minOPCUASessionTimeout {
		timeout = minOPCUASessionTimeout
	}
	timeout = min(timeout, maxOPCUASessionTimeout)
	res.RevisedSessionTimeout = float64(timeout / time.Millisecond)
	d.authMu.Lock()
	d.auth[res.AuthenticationToken.String()] = &sessionAuth{token: res.AuthenticationToken, nonce: res.ServerNonce, timeout: timeout, seen: time.Now()}
	d.authMu.Unlock()
	return res, nil
}

// roomForSession closes the sessions that outlived their timeout without
// a request (the library never does) and says whether another fits.
func (d *opcuaDevice) roomForSession() bool {
	now := time.Now()
	var expired []*ua.NodeID
	d.authMu.Lock()
	for k, a := range d.auth {
		if now.Sub(a.seen) > a.timeout {
			expired = append(expired, a.token)
			delete(d.auth, k)
		}
	}
	room := len(d.auth) < maxOPCUASessions
	d.authMu.Unlock()
	for _, token := range expired {
		_, _ = d.sessions.CloseSession(nil, &ua.CloseSessionRequest{RequestHeader: &ua.RequestHeader{AuthenticationToken: token}}, 0)
	}
	return room
}

// activateSession signs the session's user in, then lets the library check
// the client's signature and issue the next nonce. A user name and
// password must be the device's login (DeviceLogin); anything else fails
// the activation. Anonymous sessions may read and browse.
func (d *opcuaDevice) activateSession(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.ActivateSessionRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	if req.RequestHeader == nil || req.RequestHeader.AuthenticationToken == nil || req.ClientSignature == nil {
		return fault(r, ua.StatusBadSessionIDInvalid)
	}
	key := req.RequestHeader.AuthenticationToken.String()
	d.authMu.Lock()
	a := d.auth[key]
	var nonce []byte
	if a != nil {
		nonce = a.nonce
	}
	d.authMu.Unlock()
	if a == nil {
		return fault(r, ua.StatusBadSessionIDInvalid)
	}
	user, code := d.identify(req.UserIdentityToken, nonce)
	if code != ua.StatusOK {
		d.log.Info("OPC UA device: sign-in refused", "twin", d.id, "status", code.Error())
		return fault(r, code)
	}
	resp, err := d.sessions.ActivateSession(sc, r, reqID)
	if err != nil {
		return resp, err
	}
	if res, ok := resp.(*ua.ActivateSessionResponse); ok {
		d.authMu.Lock()
		if a := d.auth[key]; a != nil {
			a.nonce, a.channel, a.user, a.active, a.seen = res.ServerNonce, sc, user, true, time.Now()
		}
		d.authMu.Unlock()
	}
	return resp, nil
}

// identify checks a session's identity token: anonymous, or a user name
// whose password, encrypted with the server's key under Basic256Sha256,
// carries the session's last nonce. It returns the user name ("" for
// anonymous).
func (d *opcuaDevice) identify(token *ua.ExtensionObject, nonce []byte) (string, ua.StatusCode) {
	if token == nil || token.Value == nil {
		return "", ua.StatusOK // a null token is anonymous
	}
	switch t := token.Value.(type) {
	case *ua.AnonymousIdentityToken:
		return "", ua.StatusOK
	case *ua.UserNameIdentityToken:
		// The endpoints offer user names under Basic256Sha256 only: the
		// password comes encrypted, whatever the channel.
		if t.EncryptionAlgorithm != rsaOAEP {
			return "", ua.StatusBadIdentityTokenInvalid
		}
		password, ok := d.decryptPassword(t.Password, nonce)
		if !ok {
			return "", ua.StatusBadIdentityTokenInvalid
		}
		if d.login == nil || !d.login(d.id, t.UserName, password) {
			return "", ua.StatusBadUserAccessDenied
		}
		return t.UserName, ua.StatusOK
	}
	return "", ua.StatusBadIdentityTokenInvalid
}

// decryptPassword reads an encrypted user token secret: its length, the
// password, then the server nonce, which must be nonce (OPC UA Part 4,
// 7.36.2.2); an old token replayed in another session carries another.
func (d *opcuaDevice) decryptPassword(secret, nonce []byte) (string, bool) {
	alg, err := uapolicy.Asymmetric(ua.SecurityPolicyURIBasic256Sha256, d.key, nil)
	if err != nil || len(nonce) == 0 {
		return "", false
	}
	plain, err := alg.Decrypt(secret)
	if err != nil || len(plain) < 4 {
		return "", false
	}
	n := binary.LittleEndian.Uint32(plain[:4])
	body := plain[4:]
	if uint64(n) > uint64(len(body)) || int(n) < len(nonce) {
		return "", false
	}
	body = body[:n]
	password, tail := body[:len(body)-len(nonce)], body[len(body)-len(nonce):]
	if !bytes.Equal(tail, nonce) {
		return "", false
	}
	return string(password), true
}

func (d *opcuaDevice) closeSession(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	h := r.Header()
	if h == nil || h.AuthenticationToken == nil {
		return fault(r, ua.StatusBadSessionIDInvalid)
	}
	key := h.AuthenticationToken.String()
	d.authMu.Lock()
	a := d.auth[key]
	ok := a != nil && (a.channel == nil || a.channel == sc)
	if ok {
		delete(d.auth, key)
	}
	d.authMu.Unlock()
	if !ok {
		return fault(r, ua.StatusBadSessionIDInvalid)
	}
	return d.sessions.CloseSession(sc, r, reqID)
}

func (d *opcuaDevice) read(sc *uasc.SecureChannel, r ua.Request, _ uint32) (ua.Response, error) {
	req, ok := r.(*ua.ReadRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	sess, code := d.session(sc, r)
	switch {
	case code != ua.StatusOK:
		return fault(r, code)
	case len(req.NodesToRead) == 0:
		return fault(r, ua.StatusBadNothingToDo)
	case len(req.NodesToRead) > maxOPCUAOperations:
		return fault(r, ua.StatusBadTooManyOperations)
	case req.TimestampsToReturn > ua.TimestampsToReturnNeither:
		return fault(r, ua.StatusBadTimestampsToReturnInvalid)
	case req.MaxAge < 0:
		return fault(r, ua.StatusBadMaxAgeInvalid)
	}
	now := time.Now()
	results := make([]*ua.DataValue, len(req.NodesToRead))
	for i, rv := range req.NodesToRead {
		if rv == nil || rv.NodeID == nil {
			results[i] = statusValue(ua.StatusBadNodeIDInvalid)
			continue
		}
		var dv *ua.DataValue
		if rv.NodeID.Namespace() == d.space.index {
			dv = d.space.read(rv.NodeID, rv.AttributeID, sess.user != "", now)
		} else if ns, err := d.srv.Namespace(int(rv.NodeID.Namespace())); err != nil {
			dv = statusValue(ua.StatusBadNodeIDUnknown)
		} else {
			dv = ns.Attribute(rv.NodeID, rv.AttributeID)
		}
		results[i] = stamped(dv, req.TimestampsToReturn, rv.AttributeID == ua.AttributeIDValue, now)
	}
	return &ua.ReadResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Results: results, DiagnosticInfos: []*ua.DiagnosticInfo{}}, nil
}

// stamped is a copy of dv with the timestamps the client asked for: a
// Value's source timestamp (when the reading was taken) and the server's
// (now); other attributes carry none.
func stamped(dv *ua.DataValue, ttr ua.TimestampsToReturn, isValue bool, now time.Time) *ua.DataValue {
	c := *dv
	source := c.EncodingMask&ua.DataValueSourceTimestamp != 0
	c.EncodingMask &^= ua.DataValueSourceTimestamp | ua.DataValueServerTimestamp | ua.DataValueSourcePicoseconds | ua.DataValueServerPicoseconds
	c.SourceTimestamp, c.ServerTimestamp = time.Time{}, time.Time{}
	if !isValue {
		return &c
	}
	if source && (ttr == ua.TimestampsToReturnSource || ttr == ua.TimestampsToReturnBoth) {
		c.EncodingMask |= ua.DataValueSourceTimestamp
		c.SourceTimestamp = dv.SourceTimestamp
	}
	if ttr == ua.TimestampsToReturnServer || ttr == ua.TimestampsToReturnBoth {
		c.EncodingMask |= ua.DataValueServerTimestamp
		c.ServerTimestamp = now
	}
	return &c
}

func (d *opcuaDevice) browse(sc *uasc.SecureChannel, r ua.Request, _ uint32) (ua.Response, error) {
	req, ok := r.(*ua.BrowseRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	_, code := d.session(sc, r)
	switch {
	case code != ua.StatusOK:
		return fault(r, code)
	case len(req.NodesToBrowse) == 0:
		return fault(r, ua.StatusBadNothingToDo)
	case len(req.NodesToBrowse) > maxOPCUAOperations:
		return fault(r, ua.StatusBadTooManyOperations)
	case req.View != nil && req.View.ViewID != nil && req.View.ViewID.String() != "i=0":
		return fault(r, ua.StatusBadViewIDUnknown)
	}
	results := make([]*ua.BrowseResult, len(req.NodesToBrowse))
	for i, bd := range req.NodesToBrowse {
		switch {
		case bd == nil || bd.NodeID == nil:
			results[i] = &ua.BrowseResult{StatusCode: ua.StatusBadNodeIDInvalid, References: []*ua.ReferenceDescription{}}
		case bd.NodeID.Namespace() == d.space.index:
			results[i] = d.space.Browse(bd)
		default:
			ns, err := d.srv.Namespace(int(bd.NodeID.Namespace()))
			if err != nil {
				results[i] = &ua.BrowseResult{StatusCode: ua.StatusBadNodeIDUnknown, References: []*ua.ReferenceDescription{}}
				continue
			}
			if bd.ReferenceTypeID == nil {
				c := *bd
				c.ReferenceTypeID = ua.NewTwoByteNodeID(0)
				bd = &c
			}
			results[i] = ns.Browse(bd)
		}
	}
	return &ua.BrowseResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Results: results, DiagnosticInfos: []*ua.DiagnosticInfo{}}, nil
}

// writeValues stores the values a signed-in client writes to the twin's
// writable sensors as readings, through Fleet.Write. It answers once they
// are stored, from its own goroutine, so the device serves others
// meanwhile.
func (d *opcuaDevice) writeValues(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.WriteRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	sess, code := d.session(sc, r)
	switch {
	case code != ua.StatusOK:
		return fault(r, code)
	case len(req.NodesToWrite) == 0:
		return fault(r, ua.StatusBadNothingToDo)
	case len(req.NodesToWrite) > maxOPCUAWrites:
		return fault(r, ua.StatusBadTooManyOperations)
	}
	select {
	case d.writing <- struct{}{}:
	default:
		return fault(r, ua.StatusBadTooManyOperations)
	}
	go func() {
		defer func() { <-d.writing }()
		var resp ua.Response
		func() {
			defer func() {
				if p := recover(); p != nil {
					d.log.Error("OPC UA device: a write failed", "twin", d.id, "panic", p)
					resp, _ = fault(r, ua.StatusBadInternalError)
				}
			}()
			results := make([]ua.StatusCode, len(req.NodesToWrite))
			for i, wv := range req.NodesToWrite {
				results[i] = d.writeValue(wv, sess.user)
			}
			resp = &ua.WriteResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Results: results, DiagnosticInfos: []*ua.DiagnosticInfo{}}
		}()
		ctx, cancel := context.WithTimeout(d.ctx, exchangeTimeout)
		defer cancel()
		_ = sc.SendResponseWithContext(ctx, reqID, resp) // a client gone meanwhile has no one to tell
	}()
	return nil, nil // answered when stored
}

// writeValue stores one value written by user ("" anonymous).
func (d *opcuaDevice) writeValue(wv *ua.WriteValue, user string) ua.StatusCode {
	if wv == nil || wv.NodeID == nil {
		return ua.StatusBadNodeIDInvalid
	}
	n := d.space.node(wv.NodeID)
	if n == nil {
		if wv.NodeID.Namespace() != d.space.index && d.srv.Node(wv.NodeID) != nil {
			return ua.StatusBadNotWritable // the server's own nodes
		}
		return ua.StatusBadNodeIDUnknown
	}
	switch {
	case wv.AttributeID != ua.AttributeIDValue || n.variable == "" || !d.snapshot().writable[n.variable]:
		return ua.StatusBadNotWritable
	case user == "":
		return ua.StatusBadUserAccessDenied
	case wv.IndexRange != "":
		return ua.StatusBadWriteNotSupported
	case wv.Value == nil || wv.Value.Value == nil:
		return ua.StatusBadTypeMismatch
	}
	v, ok := wv.Value.Value.Value().(float64)
	switch {
	case !ok:
		return ua.StatusBadTypeMismatch // the sensors are Double
	case !inRange(n.sensor, v) || math.IsInf(v, 0):
		return ua.StatusBadOutOfRange
	}
	now := time.Now()
	ctx, cancel := context.WithTimeout(d.ctx, exchangeTimeout)
	defer cancel()
	err := d.write(ctx, twin.SensorUpdate{EquipmentID: d.id, Values: []twin.Value{{Key: n.sensor.Key, Value: v}}, Timestamp: now, ReceivedAt: now})
	switch {
	case err == nil:
		return ua.StatusOK
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return ua.StatusBadTimeout
	case apperr.Code(err) == apperr.EINVALID:
		return ua.StatusBadOutOfRange
	case apperr.Code(err) == apperr.ENOTFOUND:
		return ua.StatusBadNodeIDUnknown
	case apperr.Code(err) == apperr.ERATELIMIT:
		return ua.StatusBadResourceUnavailable
	}
	d.log.Error("OPC UA device: store a written value", "twin", d.id, "sensor", n.sensor.Key, "err", err)
	return ua.StatusBadInternalError
}

// createSubscription revises what the library would take as given (it
// echoes the requested values as revised, and its publishing ticker panics
// at 0 ms) and keeps its numbering from reusing a live subscription's.
func (d *opcuaDevice) createSubscription(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.CreateSubscriptionRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	if _, code := d.session(sc, r); code != ua.StatusOK {
		return fault(r, code)
	}
	if d.srv.Session(req.RequestHeader) == nil {
		return fault(r, ua.StatusBadSessionIDInvalid) // the subscription's goroutine would panic on it
	}
	interval := req.RequestedPublishingInterval
	if math.IsNaN(interval) || interval < 50 {
		interval = 50
	}
	req.RequestedPublishingInterval = math.Min(interval, 60_000)
	req.RequestedMaxKeepAliveCount = min(max(req.RequestedMaxKeepAliveCount, 1), 1000)
	req.RequestedLifetimeCount = min(max(req.RequestedLifetimeCount, 3*req.RequestedMaxKeepAliveCount), 100_000)
	subs := d.srv.SubscriptionService
	subs.Mu.Lock()
	live := 0
	for _, s := range subs.Subs {
		if s.Session != nil {
			live++
		}
	}
	if live < maxOPCUASubscriptions {
		fillSubscriptionGaps(subs.Subs)
	}
	subs.Mu.Unlock()
	if live >= maxOPCUASubscriptions {
		return fault(r, ua.StatusBadTooManySubscriptions)
	}
	return subs.CreateSubscription(sc, req, reqID)
}

// fillSubscriptionGaps keeps the number the library gives a new
// subscription, len(subs)+1, free. Once a subscription other than the
// newest has ended, that number is a live subscription's, which the new
// one would replace in the table (and whose monitored items it would end
// with its own). A placeholder, a subscription without a session, fills
// each gap below the highest live number; those above it are dropped.
func fillSubscriptionGaps(subs map[uint32]*server.Subscription) {
	var top uint32
	for n, s := range subs {
		if s.Session != nil {
			top = max(top, n)
		}
	}
	for n, s := range subs {
		if s.Session == nil && n > top {
			delete(subs, n)
		}
	}
	for n := uint32(1); n <= top; n++ {
		if _, ok := subs[n]; !ok {
			subs[n] = &server.Subscription{ID: n}
		}
	}
}

// ownSubscription says whether subscription n is the session's.
func (d *opcuaDevice) ownSubscription(n uint32, token *ua.NodeID) bool {
	subs := d.srv.SubscriptionService
	subs.Mu.Lock()
	defer subs.Mu.Unlock()
	s := subs.Subs[n]
	return s != nil && s.Session != nil && s.Session.AuthTokenID.String() == token.String()
}

// ownItem says whether monitored item n is the session's.
func (d *opcuaDevice) ownItem(n uint32, token *ua.NodeID) bool {
	items := d.srv.MonitoredItemService
	items.Mu.Lock()
	defer items.Mu.Unlock()
	it := items.Items[n]
	return it != nil && it.Sub != nil && it.Sub.Session != nil && it.Sub.Session.AuthTokenID.String() == token.String()
}

func (d *opcuaDevice) deleteSubscriptions(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.DeleteSubscriptionsRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	if _, code := d.session(sc, r); code != ua.StatusOK {
		return fault(r, code)
	}
	token := req.RequestHeader.AuthenticationToken
	results, own, at := splitIDs(req.SubscriptionIDs, ua.StatusBadSubscriptionIDInvalid, func(n uint32) bool { return d.ownSubscription(n, token) })
	if len(own) > 0 {
		resp, err := d.srv.SubscriptionService.DeleteSubscriptions(sc, &ua.DeleteSubscriptionsRequest{RequestHeader: req.RequestHeader, SubscriptionIDs: own}, reqID)
		if err != nil {
			return resp, err
		}
		if res, ok := resp.(*ua.DeleteSubscriptionsResponse); ok {
			mergeResults(results, at, res.Results)
		}
	}
	return &ua.DeleteSubscriptionsResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Results: results, DiagnosticInfos: []*ua.DiagnosticInfo{}}, nil
}

func (d *opcuaDevice) publish(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	if _, code := d.session(sc, r); code != ua.StatusOK {
		return fault(r, code)
	}
	return d.srv.SubscriptionService.Publish(sc, r, reqID)
}

// createMonitoredItems checks the subscription is the session's and each
// item complete: the library dereferences both unchecked.
func (d *opcuaDevice) createMonitoredItems(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.CreateMonitoredItemsRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	if _, code := d.session(sc, r); code != ua.StatusOK {
		return fault(r, code)
	}
	items := d.srv.MonitoredItemService
	items.Mu.Lock()
	total := len(items.Items)
	items.Mu.Unlock()
	switch {
	case !d.ownSubscription(req.SubscriptionID, req.RequestHeader.AuthenticationToken):
		return fault(r, ua.StatusBadSubscriptionIDInvalid)
	case len(req.ItemsToCreate) == 0:
		return fault(r, ua.StatusBadNothingToDo)
	case len(req.ItemsToCreate) > maxOPCUAOperations:
		return fault(r, ua.StatusBadTooManyOperations)
	case total+len(req.ItemsToCreate) > maxOPCUAMonitoredItems:
		return fault(r, ua.StatusBadTooManyMonitoredItems)
	case req.TimestampsToReturn > ua.TimestampsToReturnNeither:
		return fault(r, ua.StatusBadTimestampsToReturnInvalid)
	}
	for _, it := range req.ItemsToCreate {
		if it == nil || it.ItemToMonitor == nil || it.ItemToMonitor.NodeID == nil || it.RequestedParameters == nil {
			return fault(r, ua.StatusBadMonitoredItemFilterInvalid)
		}
	}
	return items.CreateMonitoredItems(sc, req, reqID)
}

// setMonitoringMode and deleteMonitoredItems pass on only the session's own
// items: the library checks, then acts on another's anyway.
func (d *opcuaDevice) setMonitoringMode(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.SetMonitoringModeRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	if _, code := d.session(sc, r); code != ua.StatusOK {
		return fault(r, code)
	}
	token := req.RequestHeader.AuthenticationToken
	results, own, at := splitIDs(req.MonitoredItemIDs, ua.StatusBadMonitoredItemIDInvalid, func(n uint32) bool { return d.ownItem(n, token) })
	if len(own) > 0 {
		c := *req
		c.MonitoredItemIDs = own
		resp, err := d.srv.MonitoredItemService.SetMonitoringMode(sc, &c, reqID)
		if err != nil {
			return resp, err
		}
		if res, ok := resp.(*ua.SetMonitoringModeResponse); ok {
			mergeResults(results, at, res.Results)
		}
	}
	return &ua.SetMonitoringModeResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Results: results, DiagnosticInfos: []*ua.DiagnosticInfo{}}, nil
}

func (d *opcuaDevice) deleteMonitoredItems(sc *uasc.SecureChannel, r ua.Request, reqID uint32) (ua.Response, error) {
	req, ok := r.(*ua.DeleteMonitoredItemsRequest)
	if !ok {
		return nil, ua.StatusBadRequestTypeInvalid
	}
	if _, code := d.session(sc, r); code != ua.StatusOK {
		return fault(r, code)
	}
	token := req.RequestHeader.AuthenticationToken
	results, own, at := splitIDs(req.MonitoredItemIDs, ua.StatusBadMonitoredItemIDInvalid, func(n uint32) bool { return d.ownItem(n, token) })
	if len(own) > 0 {
		c := *req
		c.MonitoredItemIDs = own
		resp, err := d.srv.MonitoredItemService.DeleteMonitoredItems(sc, &c, reqID)
		if err != nil {
			return resp, err
		}
		if res, ok := resp.(*ua.DeleteMonitoredItemsResponse); ok {
			mergeResults(results, at, res.Results)
		}
	}
	return &ua.DeleteMonitoredItemsResponse{ResponseHeader: responseHeader(r, ua.StatusOK), Results: results, DiagnosticInfos: []*ua.DiagnosticInfo{}}, nil
}

// splitIDs picks the ids that pass own, with their positions; the others'
// results are refused.
func splitIDs(ids []uint32, refused ua.StatusCode, own func(uint32) bool) (results []ua.StatusCode, kept []uint32, at []int) {
	results = make([]ua.StatusCode, len(ids))
	for i, n := range ids {
		if own(n) {
			kept, at = append(kept, n), append(at, i)
			continue
		}
		results[i] = refused
	}
	return results, kept, at
}

// mergeResults puts the library's results for the kept ids in place.
func mergeResults(results []ua.StatusCode, at []int, got []ua.StatusCode) {
	for j, i := range at {
		if j < len(got) {
			results[i] = got[j]
		}
	}
}

// notify reports the changed variables to the subscriptions that monitor
// them, after each update, until the device closes. It does what the
// library's ChangeNotification does, except that it never blocks: the
// library sends on each subscription's channel while holding the monitored
// items' lock, so one subscription that has stopped taking notifications
// (its client stopped reading) would stall updates, and with them the
// fleet.
func (d *opcuaDevice) notify() {
	for {
		select {
		case <-d.ctx.Done():
			return
		case <-d.wake:
		}
		d.changedMu.Lock()
		changed := d.changed
		d.changed = map[string]bool{}
		d.changedMu.Unlock()
		items := d.srv.MonitoredItemService
		for name := range changed {
			nodeID := d.space.variableID(name)
			items.Mu.Lock()
			monitoring := slices.Clone(items.Nodes[nodeID.String()])
			items.Mu.Unlock()
			now := time.Now()
			for _, it := range monitoring {
				if it == nil || it.Sub == nil || it.Req == nil || it.Req.ItemToMonitor == nil || it.Req.RequestedParameters == nil {
					continue
				}
				ch := it.Sub.NotifyChannel
				if len(ch) >= cap(ch)/2 {
					continue // a subscription not taking its notifications; leave room for the library's own
				}
				n := &ua.MonitoredItemNotification{ClientHandle: it.Req.RequestedParameters.ClientHandle,
					Value: d.space.read(nodeID, it.Req.ItemToMonitor.AttributeID, false, now)}
				select {
				case ch <- n:
				default:
				}
			}
		}
	}
}

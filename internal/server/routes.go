package server

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"journeyman/internal/identity"
)

// apiRoute is one entry of the route table: who may call it and whose
// data it touches. A handler never decides access on its own; the table's
// entries are enforced by authorize and walked by the authorization test.
type apiRoute struct {
	pattern string
	access  identity.Level
	// scope, when set, checks that the records named in the path are the
	// caller's to touch; without it the handler touches only the caller's
	// own records or their organisation's (it reads both from the caller).
	scope   func(*http.Request, identity.Caller) error
	handler http.HandlerFunc
}

// Access levels, named as the table reads.
const (
	anyone     = identity.Anyone
	identified = identity.Identified
	member     = identity.Member
	orgMember  = identity.OrgMember
	staff      = identity.Staff
	orgAdmin   = identity.OrgAdmin
)

// apiRoutes is the one route table of the JSON API.
func (s *Server) apiRoutes() []apiRoute {
	// One write budget per learner for every learning and personalization
	// save, and one per address for every write a guest can make.
	learningWrites := newLearnerLimiter(func() time.Time { return s.store.Now() })
	writes := func(h http.HandlerFunc) http.HandlerFunc {
		return s.byAddr(s.limits.writesAddr, "changes from your address", h)
	}
	learnerWrite := func(h http.HandlerFunc) http.HandlerFunc { return writes(learningWrites.limit(s, h)) }
	links := func(h http.HandlerFunc) http.HandlerFunc { return s.byAddr(s.limits.linkAddr, "link look-ups", h) }

	return []apiRoute{
		// Who am I, and accounts.
		{"GET /api/me", anyone, nil, s.handleMe},
		{"POST /api/account/sign-up", anyone, nil, s.byAddr(s.limits.signUpAddr, "sign-ups from your address", s.handleSignUp)},
		{"POST /api/account/sign-in", anyone, nil, s.handleSignIn},
		{"POST /api/account/sign-out", anyone, nil, s.handleSignOut},
		{"PATCH /api/account", member, nil, s.handleUpdateAccount},
		{"POST /api/account/password", member, nil, s.handleChangePassword},
		{"POST /api/account/sign-out-everywhere", member, nil, s.handleSignOutEverywhere},
		{"GET /api/account/password-reset/{token}", anyone, nil, links(s.handleGetPasswordLink)},
		{"POST /api/account/password-reset", anyone, nil, links(s.handleUsePasswordLink)},
		{"GET /api/invites/{token}", anyone, nil, links(s.handleGetInvite)},
		{"POST /api/invites/{token}/accept", member, nil, links(s.handleAcceptInvite)},
		{"GET /api/setup/{token}", anyone, nil, links(s.handleGetSetupLink)},
		{"POST /api/setup/{token}", anyone, nil, s.byAddr(s.limits.signUpAddr, "sign-ups from your address", s.handleSetUp)},

		// Organisations and cohorts: always the caller's own organisation.
		{"GET /api/organisation", orgMember, nil, s.handleGetOrganisation},
		{"GET /api/organisation/members", staff, nil, s.handleListMembers},
		{"PATCH /api/organisation/members/{userId}", orgAdmin, nil, s.handleSetMemberRole},
		{"DELETE /api/organisation/members/{userId}", orgAdmin, nil, s.handleRemoveMember},
		{"POST /api/organisation/members/{userId}/password-reset", orgAdmin, nil, s.handleMemberPasswordLink},
		{"GET /api/organisation/invites", orgAdmin, nil, s.handleListInvites},
		{"POST /api/organisation/invites", orgAdmin, nil, s.handleCreateInvite},
		{"DELETE /api/organisation/invites/{id}", orgAdmin, nil, s.handleRevokeInvite},
		{"POST /api/organisation/roster", orgAdmin, nil, s.handleImportRoster},
		{"GET /api/organisation/xapi/credentials", orgAdmin, nil, s.handleListXAPICredentials},
		{"POST /api/organisation/xapi/credentials", orgAdmin, nil, s.handleCreateXAPICredential},
		{"DELETE /api/organisation/xapi/credentials/{id}", orgAdmin, nil, s.handleRevokeXAPICredential},
		{"GET /api/organisation/xapi/forwarding", orgAdmin, nil, s.handleGetXAPIForwarding},
		{"PUT /api/organisation/xapi/forwarding", orgAdmin, nil, s.handleSetXAPIForwarding},
		{"DELETE /api/organisation/xapi/forwarding", orgAdmin, nil, s.handleDeleteXAPIForwarding},
		{"POST /api/organisation/xapi/forwarding/pause", orgAdmin, nil, s.handlePauseXAPIForwarding},
		{"POST /api/organisation/xapi/forwarding/resume", orgAdmin, nil, s.handleResumeXAPIForwarding},
		{"GET /api/cohorts", staff, nil, s.handleListCohorts},
		{"POST /api/cohorts", staff, nil, s.handleCreateCohort},
		{"GET /api/cohorts/{id}", staff, s.cohortScope, s.handleGetCohort},
		{"PATCH /api/cohorts/{id}", staff, s.cohortScope, s.handleUpdateCohort},
		{"POST /api/cohorts/{id}/members", staff, s.cohortScope, s.handleAddCohortMember},
		{"DELETE /api/cohorts/{id}/members/{userId}", staff, s.cohortScope, s.handleRemoveCohortMember},

		// cmi5 courses of the caller's organisation: staff import them,
		// members launch their AUs (the store checks the AU is theirs).
		{"GET /api/cmi5/courses", orgMember, nil, s.handleListCmi5Courses},
		{"POST /api/cmi5/courses", staff, nil, s.handleImportCmi5Course},
		{"DELETE /api/cmi5/courses/{id}", staff, nil, s.handleDeleteCmi5Course},
		{"POST /api/cmi5/aus/{id}/launch", orgMember, nil, writes(s.handleLaunchCmi5)},

		// PORTAL: an instructor's cohorts and learners, and their exports.
		{"GET /api/portal/cohorts/{id}/learners", staff, s.cohortScope, s.handleCohortLearners},
		{"GET /api/portal/cohorts/{id}/export.csv", staff, s.cohortScope, s.handleCohortExport},
		{"GET /api/portal/learners/{userId}", staff, s.userScope, s.handlePortalLearner},
		{"GET /api/portal/learners/{userId}/export.csv", staff, s.userScope, s.handleLearnerExport},
		{"GET /api/portal/live", staff, nil, s.handleLive},
		{"POST /api/portal/live/{sessionId}/message", staff, s.liveScope, s.handleInstructorMessage},
		{"POST /api/portal/live/{sessionId}/stop", staff, s.liveScope, s.handleInstructorStop},
		{"POST /api/safety-alerts/{id}/acknowledge", staff, nil, s.handleAcknowledgeAlert}, // the store keeps it to the caller's organisation
		// Competencies: the learner reads their own; their organisation's
		// staff read them and sign off (never their own, see the store).
		{"GET /api/users/{userId}/competencies", identified, s.userScope, s.handleCompetencies},
		{"POST /api/users/{userId}/competencies/sign-off", staff, s.userScope, s.handleSignOff},
		{"POST /api/users/{userId}/competencies/revoke", staff, s.userScope, s.handleRevokeSignOff},
		{"GET /api/certificates/{id}", identified, s.certificateScope, s.handleGetCertificate},
		// Public, as a printed certificate's code is: limited like links.
		{"GET /api/verify/{code}", anyone, nil, links(s.handleVerify)},

		// The public site.
		{"GET /api/trade-categories", anyone, nil, s.cached(s.handleListTrades)},
		{"GET /api/training-modules", anyone, nil, s.cached(s.handleListModules)},
		{"GET /api/analytics/dashboard-stats", anyone, nil, s.handleDashboardStats},
		{"GET /api/analytics/benchmarks", orgMember, nil, s.handleBenchmarks},
		{"GET /api/demo-requests", identified, nil, s.handleListDemoRequests},
		{"POST /api/demo-requests", identified, nil, s.byAddr(s.limits.demoAddr, "demo requests from your address", s.handleCreateDemoRequest)},

		// XR Training Center. A session is updated only by its learner
		// (checked in the update's transaction, training.Session.Apply).
		{"POST /api/xr-sessions", identified, nil, writes(s.handleCreateSession)},
		{"PATCH /api/xr-sessions/{id}", identified, nil, s.handlePatchSession},
		{"GET /api/users/{userId}/xr-sessions", identified, s.userScope, s.handleListSessions},
		{"GET /api/users/{userId}/xr-sessions/{id}", identified, s.userScope, s.handleGetSession},
		{"GET /api/users/{userId}/xr-sessions/{id}/review", identified, s.userScope, s.handleSessionReview},
		{"GET /api/users/{userId}/xr-analytics", identified, s.userScope, s.handleAnalytics},
		{"GET /api/training-modules/{id}/xr-content", anyone, nil, s.cached(s.handleXRContent)},
		{"GET /api/xr-scenes/{id}", anyone, nil, s.cached(s.handleScene)},
		// Live sessions and alerts of the caller's channel: their
		// organisation's, or the demo channel of everyone outside one.
		{"GET /api/live-sessions", anyone, nil, s.handleLiveSessions},
		{"GET /api/safety-alerts", anyone, nil, s.handleListAlerts},
		{"GET /api/voice-modules", anyone, nil, s.cached(s.handleListVoiceModules)},
		{"POST /api/voice-training/runs", identified, nil, learnerWrite(s.handleAddVoiceRun)},
		{"GET /api/voice-training/runs", identified, nil, s.handleListVoiceRuns},

		// Learning and personalization: the caller's own records.
		{"GET /api/ai-learning/learning-preferences", identified, nil, s.handleGetLearningPreferences},
		{"POST /api/ai-learning/learning-preferences", identified, nil, learnerWrite(s.handleSaveLearningPreferences)},
		{"POST /api/ai-learning/skill-assessment", identified, nil, learnerWrite(s.handleAddSkillAssessment)},
		{"GET /api/ai-learning/skill-assessments", identified, nil, s.handleListSkillAssessments},
		{"POST /api/ai-learning/generate-recommendations", identified, nil, learnerWrite(s.handleGenerateRecommendations)},
		{"GET /api/ai-learning/recommendations", identified, nil, s.handleLatestRecommendations},
		{"GET /api/ai-learning/refreshers", identified, nil, s.handleRefreshers},
		{"GET /api/personalization", identified, nil, s.handleGetPersonalization},
		{"POST /api/personalization/save", identified, nil, learnerWrite(s.handleSavePersonalization)},

		// Digital twins: anyone watches. A twin added by an organisation's
		// staff is theirs alone to drive and manage; the seeded fleet is
		// every organisation's to drive and none's to manage (twinScope).
		{"GET /api/digital-twin/equipment", anyone, nil, s.handleListEquipment},
		{"GET /api/digital-twin-equipment", anyone, nil, s.handleListEquipment}, // the marketing page's path
		{"POST /api/digital-twin/equipment", staff, nil, s.handleCreateEquipment},
		{"PUT /api/digital-twin/equipment/{id}", staff, s.twinScope(manageTwin), s.handleDefineEquipment},
		{"DELETE /api/digital-twin/equipment/{id}", staff, s.twinScope(manageTwin), s.handleRetireEquipment},
		{"POST /api/digital-twin/connection-test", staff, nil, s.handleConnectionTest},
		{"GET /api/digital-twin/equipment-alerts", anyone, nil, s.handleEquipmentAlerts},
		{"GET /api/digital-twin/equipment/{id}/data-streams", anyone, nil, s.handleDataStreams},
		{"POST /api/digital-twin/equipment/{id}/sensor-data", staff, s.twinScope(driveTwin), s.handleSensorData},
		{"POST /api/digital-twin/equipment/{id}/simulate-communication", staff, s.twinScope(driveTwin), s.handleSimulateCommunication},
		// A device's login to the embedded broker: whoever holds it can
		// publish that twin's readings.
		{"GET /api/equipment/{id}/mqtt-credentials", staff, s.twinScope(manageTwin), s.handleMQTTCredentials},
	}
}

// routes wires the route table, the realtime channel, health, metrics and
// the app. API handlers are registered on their own mux so that an unknown
// /api path or method gets a JSON answer, never the app.
func (s *Server) routes(reg *prometheus.Registry) http.Handler {
	api := newAPIMux("/api/")
	for _, rt := range s.apiRoutes() {
		api.HandleFunc(rt.pattern, s.authorize(rt))
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", s.identify(api))
	mux.Handle("/xapi/", s.xapiHandler())
	// Not the whole of /cmi5/: the mux would redirect the app's /cmi5 page there.
	cmi5 := s.cmi5Handler()
	mux.Handle("/cmi5/fetch/", cmi5)
	mux.Handle("/cmi5/content/", cmi5)
	mux.Handle("GET /ws", s.handleWS())
	mux.HandleFunc("GET /healthz", s.handleHealthz)
	mux.HandleFunc("GET /readyz", s.handleReadyz)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("/", s.appHandler())
	return s.observe(mux)
}

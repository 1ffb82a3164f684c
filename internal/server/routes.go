package server

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// routes is the one route table. API handlers are registered on their own mux
// so that an unknown /api path or method gets a JSON answer, never the app.
func (s *Server) routes(reg *prometheus.Registry) http.Handler {
	api := http.NewServeMux()
	api.HandleFunc("GET /api/me", s.handleMe)
	api.HandleFunc("GET /api/trade-categories", s.handleListTrades)
	api.HandleFunc("GET /api/training-modules", s.handleListModules)
	api.HandleFunc("GET /api/analytics/dashboard-stats", s.handleDashboardStats)
	api.HandleFunc("GET /api/demo-requests", s.handleListDemoRequests)
	api.HandleFunc("POST /api/demo-requests", s.handleCreateDemoRequest)
	api.HandleFunc("POST /api/xr-sessions", s.handleCreateSession)
	api.HandleFunc("PATCH /api/xr-sessions/{id}", s.handlePatchSession)
	api.HandleFunc("GET /api/users/{userId}/xr-sessions", s.handleListSessions)
	api.HandleFunc("GET /api/users/{userId}/xr-analytics", s.handleAnalytics)
	api.HandleFunc("GET /api/training-modules/{id}/xr-content", s.handleXRContent)
	api.HandleFunc("GET /api/xr-scenes/{id}", s.handleScene)
	api.HandleFunc("GET /api/live-sessions", s.handleLiveSessions)
	api.HandleFunc("GET /api/safety-alerts", s.handleListAlerts)
	api.HandleFunc("GET /api/voice-modules", s.handleListVoiceModules)

	// One write budget per learner for every learning and personalization save.
	learningWrites := newLearnerLimiter(func() time.Time { return s.store.Now() })
	api.HandleFunc("GET /api/ai-learning/learning-preferences", s.handleGetLearningPreferences)
	api.HandleFunc("POST /api/ai-learning/learning-preferences", learningWrites.limit(s, s.handleSaveLearningPreferences))
	api.HandleFunc("POST /api/ai-learning/skill-assessment", learningWrites.limit(s, s.handleAddSkillAssessment))
	api.HandleFunc("GET /api/ai-learning/skill-assessments", s.handleListSkillAssessments)
	api.HandleFunc("POST /api/ai-learning/generate-recommendations", learningWrites.limit(s, s.handleGenerateRecommendations))
	api.HandleFunc("GET /api/ai-learning/recommendations", s.handleLatestRecommendations)
	api.HandleFunc("GET /api/ai-learning/refreshers", s.handleRefreshers)
	api.HandleFunc("GET /api/personalization", s.handleGetPersonalization)
	api.HandleFunc("POST /api/personalization/save", learningWrites.limit(s, s.handleSavePersonalization))
	api.HandleFunc("GET /api/digital-twin/equipment", s.handleListEquipment)
	api.HandleFunc("GET /api/digital-twin-equipment", s.handleListEquipment) // the marketing page's path
	api.HandleFunc("GET /api/digital-twin/equipment-alerts", s.handleEquipmentAlerts)
	api.HandleFunc("GET /api/digital-twin/equipment/{id}/data-streams", s.handleDataStreams)
	api.HandleFunc("POST /api/digital-twin/equipment/{id}/sensor-data", s.handleSensorData)
	api.HandleFunc("POST /api/digital-twin/equipment/{id}/simulate-communication", s.handleSimulateCommunication)

	mux := http.NewServeMux()
	mux.Handle("/api/", s.identify(apiErrors(api)))
	mux.Handle("GET /ws", s.handleWS())
	mux.HandleFunc("GET /healthz", s.handleHealthz)
	mux.HandleFunc("GET /readyz", s.handleReadyz)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("/", s.appHandler())

	return s.observe(mux)
}

package server

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/portal"
	"journeyman/internal/store"
	"journeyman/internal/training"
)

type cohortLearners struct {
	Cohort   store.Cohort            `json:"cohort"`
	Total    int                     `json:"total"`
	Learners []portal.LearnerFigures `json:"learners"`
}

func (s *Server) handleCohortLearners(w http.ResponseWriter, r *http.Request) {
	q, err := learnerQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	co, err := s.store.GetCohort(r.Context(), caller(r).OrgID, r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list, total, err := s.store.CohortLearners(r.Context(), co.ID, q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, cohortLearners{Cohort: co, Total: total, Learners: list})
}

func learnerQuery(r *http.Request) (portal.LearnerQuery, error) {
	v := r.URL.Query()
	q := portal.LearnerQuery{Q: v.Get("q"), Flag: v.Get("flag"), Sort: v.Get("sort")}
	switch v.Get("dir") {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, apperr.Invalid("dir must be asc or desc, not %q", v.Get("dir"))
	}
	var err error
	if q.Limit, q.Offset, err = queryPage(r, portal.DefaultLearnerPage, portal.MaxLearnerPage); err != nil {
		return q, err
	}
	return q, q.Validate()
}

type portalLearner struct {
	Learner store.Member          `json:"learner"`
	Figures portal.LearnerFigures `json:"figures"`
}

func (s *Server) handlePortalLearner(w http.ResponseWriter, r *http.Request) {
	c := caller(r)
	m, err := s.store.GetMember(r.Context(), c.OrgID, r.PathValue("userId"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	figures, err := s.store.LearnerFigures(r.Context(), m.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, portalLearner{Learner: m, Figures: figures})
}

// sessionReview is the body of GET /api/users/{userId}/xr-sessions/{id}/review.
type sessionReview struct {
	Session      training.SessionSummary `json:"session"`
	Steps        []training.StepReview   `json:"steps"`
	SafetyChecks []reviewedCheck         `json:"safetyChecks"`
	Events       []training.ReviewEvent  `json:"events"`
	// Welds are the AR welding simulator's welds in the session, [] for none.
	Welds []training.WeldReview `json:"welds"`
}

type reviewedCheck struct {
	training.SafetyCheck
	Status string `json:"status"`
}

func (s *Server) handleSessionReview(w http.ResponseWriter, r *http.Request) {
	x, err := s.store.GetSession(r.Context(), r.PathValue("id"))
	if err == nil && x.UserID != r.PathValue("userId") {
		err = apperr.NotFound("XR session %q does not exist among learner %s's sessions", r.PathValue("id"), r.PathValue("userId"))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	m, err := s.store.GetModule(r.Context(), x.ModuleID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	scene := training.RecordedScene(m.ID, m.TradeID, x.InteractionData.Interactions)
	steps, events := training.ReviewSteps(scene, x.InteractionData.Interactions)
	// The stored checks are the server's judgement at the session's end; a
	// running session has none yet, and shows every check as not passed.
	status := map[string]string{}
	for _, c := range x.InteractionData.SafetyChecks {
		status[c.ID] = c.Status
	}
	checks := make([]reviewedCheck, 0, len(scene.SafetyChecks))
	for _, c := range scene.SafetyChecks {
		st := status[c.ID]
		if st == "" {
			st = training.CheckSkipped
		}
		checks = append(checks, reviewedCheck{SafetyCheck: c, Status: st})
	}
	writeJSON(w, http.StatusOK, sessionReview{
		Session: x.Summary(),
		Steps:   steps, SafetyChecks: checks, Events: events,
		Welds: training.ReviewWelds(x.InteractionData.Interactions),
	})
}

func (s *Server) handleCohortExport(w http.ResponseWriter, r *http.Request) {
	co, err := s.store.GetCohort(r.Context(), caller(r).OrgID, r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.streamCSV(w, r, "cohort "+co.Name, func(out *portal.CSVWriter) error {
		if err := out.Write("Learner", "Email", "Module ID", "Module", "Status", "Best verified score", "Attempts",
			"Time (minutes)", "Last active (UTC)"); err != nil {
			return err
		}
		return s.store.EachCohortProgress(r.Context(), co.ID, func(p store.ModuleProgress) error {
			return out.Write(p.LearnerName, p.LearnerEmail, p.ModuleID, p.ModuleTitle, p.Status(), scoreCell(p.BestVerifiedScore),
				strconv.Itoa(p.Attempts), minutesCell(p.TimeSeconds), timeCell(p.LastActive))
		})
	})
}

func (s *Server) handleLearnerExport(w http.ResponseWriter, r *http.Request) {
	m, err := s.store.GetMember(r.Context(), caller(r).OrgID, r.PathValue("userId"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.streamCSV(w, r, "sessions "+m.DisplayName, func(out *portal.CSVWriter) error {
		if err := out.Write("Session ID", "Module ID", "Module", "Mode", "Device", "Started (UTC)", "Ended (UTC)", "Duration (seconds)",
			"Status", "Outcome", "Safety score", "Verified", "Verification issues", "Safety checks passed", "Safety checks skipped"); err != nil {
			return err
		}
		return s.store.EachLearnerSession(r.Context(), m.ID, func(x training.SessionSummary) error {
			var passed, skipped []string
			for _, c := range x.SafetyChecks {
				if c.Status == training.CheckPassed {
					passed = append(passed, c.ID)
				} else {
					skipped = append(skipped, c.ID)
				}
			}
			verified := "no"
			if x.Verified {
				verified = "yes"
			}
			return out.Write(x.ID, x.ModuleID, x.ModuleTitle, x.SessionType, x.DeviceType, timeCell(&x.StartedAt), timeCell(x.EndedAt),
				strconv.FormatInt(x.Duration, 10), x.CompletionStatus, x.Outcome, scoreCell(x.SafetyScore), verified,
				strings.Join(x.VerificationIssues, " "), strings.Join(passed, " "), strings.Join(skipped, " "))
		})
	})
}

// streamCSV answers a CSV download written row by row as fill reads the
// rows. An error after the first row has gone out cannot become an error
// answer: the connection is cut, so that the browser reports a failed
// download rather than saving a file that looks whole.
func (s *Server) streamCSV(w http.ResponseWriter, r *http.Request, name string, fill func(*portal.CSVWriter) error) {
	filename := fileSlug(name) + "-" + s.store.Now().UTC().Format("2006-01-02") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	w.Header().Set("Cache-Control", "no-store")
	out := portal.NewCSVWriter(w)
	err := fill(out)
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		if !clientGone(r) {
			s.log.ErrorContext(r.Context(), "csv export failed", "request_id", requestID(r), "path", r.URL.Path, "err", err)
		}
		panic(http.ErrAbortHandler)
	}
}

// fileSlug makes a name safe for every file system: lower-case ASCII
// letters and digits joined by dashes.
func fileSlug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "export"
	}
	return b.String()
}

func scoreCell(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func minutesCell(secs int64) string {
	return strconv.FormatFloat(float64(secs)/60, 'f', 1, 64)
}

func timeCell(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

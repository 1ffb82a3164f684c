package training

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxClientLead is how far an interaction's sessionTime may run ahead of the
// wall time the server measured from the session's start to the update that
// delivered it. The player starts its session clock when the start is
// acknowledged, so an honest client runs behind the server's clock; the
// margin absorbs clock-rate and adjustment differences between browser and
// server, and between the processes sharing one database.
const MaxClientLead = 2 * time.Second

// IssueRecordedBeforeVerification is the reason given for sessions recorded
// before the server kept the times it checks. Migration 00007 writes the
// same words into the sessions that had ended by then.
const IssueRecordedBeforeVerification = "This session was recorded before scores were checked, so its score cannot be confirmed."

// maxListed bounds how many steps one issue names, so a reason stays readable.
const maxListed = 3

// Verification is the server's judgement of whether a session record can be
// trusted: what it could check of the recorded interactions, never the
// client's word.
type Verification struct {
	Verified bool
	// Issues are the reasons a session is not verified, in words for the
	// learner; empty when it is.
	Issues []string
}

// Verify checks a session's recorded interactions against its scene, from
// what the server itself saw: serverStartedAt, when it received the session's
// start, and each interaction's ReceivedAt, when it received the update that
// carried it. It is a pure function of the recorded interactions, in the
// order they were stored, so it does not depend on how they are stored.
//
// A session is verified when:
//
//   - every interaction carries sessionTime no smaller than the one recorded
//     before it (two actions may share a millisecond);
//   - no sessionTime is ahead of the wall time the server measured from the
//     start to the interaction's receipt, plus MaxClientLead;
//   - the steps were recorded in the scene's order: the first completion and
//     first skip of each step never come after a later step's;
//   - no step was completed faster than its MinDurationMs, measured in
//     sessionTime from the previous step's completion or skip (or from the
//     session's start, for the first one).
//
// Interactions that name no step of the scene (looking around, selecting
// other objects) count only for the clock checks. Together the checks make
// a perfect score cost real time: a client can claim any sessionTime, but
// not more of it than has passed.
func Verify(scene Scene, serverStartedAt time.Time, interactions []Interaction) Verification {
	if serverStartedAt.IsZero() {
		return unverified(IssueRecordedBeforeVerification)
	}
	for _, in := range interactions {
		if in.ReceivedAt.IsZero() {
			return unverified(IssueRecordedBeforeVerification)
		}
	}

	var issues []string
	index := map[string]int{}
	for k, st := range scene.Steps {
		index[st.ID] = k
	}

	// Clock checks, each reported at its first occurrence.
	var backwards, ahead string
	for i, in := range interactions {
		if i > 0 && backwards == "" && in.SessionTime < interactions[i-1].SessionTime {
			backwards = fmt.Sprintf("The session clock went backwards: an action at %s was recorded after one at %s.",
				seconds(in.SessionTime), seconds(interactions[i-1].SessionTime))
		}
		elapsed := in.ReceivedAt.Sub(serverStartedAt)
		if ahead == "" && time.Duration(in.SessionTime)*time.Millisecond > elapsed+MaxClientLead {
			ahead = fmt.Sprintf("Actions were recorded ahead of real time: one at %s arrived when only %s of the session had passed.",
				seconds(in.SessionTime), seconds(max(elapsed.Milliseconds(), 0)))
		}
	}

	// Order and pacing, over the events that move the learner on: the first
	// completion and the first skip of each step.
	var outOfOrder string
	var tooFast []string
	completed := map[string]bool{}
	skipped := map[string]bool{}
	furthest := -1  // index of the furthest step reached so far
	var since int64 // sessionTime at which the current step began
	for _, in := range interactions {
		k, ok := index[in.StepID]
		if !ok {
			continue
		}
		st := scene.Steps[k]
		kind := in.Kind()
		completes := kind == st.Action && in.ObjectID == st.Target && !completed[st.ID]
		skips := kind == ActionSkip && !skipped[st.ID] && !completed[st.ID]
		if !completes && !skips {
			continue
		}
		if k < furthest && outOfOrder == "" {
			outOfOrder = fmt.Sprintf("Steps were recorded out of order: %s was recorded after %s.",
				stepLabel(scene, k), stepLabel(scene, furthest))
		}
		if completes {
			completed[st.ID] = true
			if took := in.SessionTime - since; took < st.MinDurationMs {
				tooFast = append(tooFast, fmt.Sprintf("%s took %s, at least %s is needed",
					stepLabel(scene, k), seconds(max(took, 0)), seconds(st.MinDurationMs)))
			}
		} else {
			skipped[st.ID] = true
		}
		furthest = max(furthest, k)
		since = in.SessionTime
	}

	if outOfOrder != "" {
		issues = append(issues, outOfOrder)
	}
	if len(tooFast) > 0 {
		listed := tooFast[:min(len(tooFast), maxListed)]
		msg := "Steps were recorded faster than the scene allows: " + strings.Join(listed, "; ")
		if n := len(tooFast) - len(listed); n > 0 {
			msg += fmt.Sprintf("; and %d more", n)
		}
		issues = append(issues, msg+".")
	}
	if backwards != "" {
		issues = append(issues, backwards)
	}
	if ahead != "" {
		issues = append(issues, ahead)
	}
	if len(issues) > 0 {
		return Verification{Issues: issues}
	}
	return Verification{Verified: true, Issues: []string{}}
}

func unverified(issue string) Verification {
	return Verification{Issues: []string{issue}}
}

// seconds formats milliseconds as seconds for a learner, rounded down to a
// tenth so that a step just short of its minimum never reads as meeting it:
// 2999 ms is "2.9 s", 3000 ms "3 s".
func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms/100)/10, 'f', -1, 64) + " s"
}

// stepLabel names step k of the scene for a learner: its number and the
// instruction's first clause, as the step list shows them.
func stepLabel(scene Scene, k int) string {
	return fmt.Sprintf("step %d “%s”", k+1, StepName(scene.Steps[k]))
}

// StepName is a step's instruction shortened to its first clause, enough to
// recognise the step: "Put on safety glasses: the spray is pressurized."
// becomes "Put on safety glasses".
func StepName(st Step) string {
	name := st.Instruction
	for _, sep := range []string{": ", ". "} {
		if i := strings.Index(name, sep); i > 0 {
			name = name[:i]
		}
	}
	return strings.TrimSuffix(strings.TrimSpace(name), ".")
}

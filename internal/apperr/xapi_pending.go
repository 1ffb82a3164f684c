package apperr

// Temporary: the lead adds these two codes to apperr.go on branch xapi;
// this file goes when that branch is merged.
const (
	EPRECONDITION = "precondition_failed"   // 412
	EPRECONDREQ   = "precondition_required" // 428
)

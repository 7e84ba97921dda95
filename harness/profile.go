package harness

// Profile says what a validator may do with a distorted call: the verdict rule judge applies to
// a must-reject case the gate accepts.
type Profile string

// The profiles.
const (
	// Strict: every distortion must be rejected.
	Strict Profile = "strict"
	// Repair: a distortion may be accepted if the value passed on equals the original valid
	// value exactly (the gate repaired it); anything else accepted is a wrong repair.
	Repair Profile = "repair"
)

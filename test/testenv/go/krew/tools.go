//go:build tools

// Wrapper module that pins krew (sigs.k8s.io/krew/cmd/krew) from the Go module proxy; the release
// test installs cpcred's krew archive with the real `kubectl krew`.
package tools

import _ "sigs.k8s.io/krew/cmd/krew"

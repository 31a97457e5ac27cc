//go:build tools

// Wrapper module that pins registry (github.com/distribution/distribution/v3/cmd/registry) from the Go module proxy; the release test
// signs, describes and serves cpcred's release with it.
package tools

import _ "github.com/distribution/distribution/v3/cmd/registry"

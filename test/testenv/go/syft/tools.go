//go:build tools

// Wrapper module that pins syft (github.com/anchore/syft/cmd/syft) from the Go module proxy; the release test
// signs, describes and serves cpcred's release with it.
package tools

import _ "github.com/anchore/syft/cmd/syft"

//go:build tools

// Wrapper module that pins cosign (github.com/sigstore/cosign/v3/cmd/cosign) from the Go module proxy; the release test
// signs, describes and serves cpcred's release with it.
package tools

import _ "github.com/sigstore/cosign/v3/cmd/cosign"

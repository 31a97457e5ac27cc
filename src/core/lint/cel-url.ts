// The URL checks of the Kubernetes CEL library (k8s.io/apiserver/pkg/cel/library/urls.go) that the
// v1alpha2 ClusterProfile CRD's rules call: `isURL(s)` is Go's url.ParseRequestURI(s) succeeding,
// `url(s).getScheme()` its Scheme and `url(s).getHost()` its Host: the host with its port, so
// `https://:6443` has a host (":6443") and passes `getHost() != ''`. Ported by hand from Go's net/url so lint agrees with what the apiserver admits; the
// integration test applies the same strings to a real apiserver (test/integration/lint.test.ts).

export interface CelUrl {
  /** Lower case, as Go keeps it. */
  scheme: string
  /** getHost(): URL.Host, the host and its port; '' when the authority names neither. */
  host: string
}

/** The URL CEL sees in `s`, or undefined when isURL(s) is false. */
export function celUrl(s: string): CelUrl | undefined {
  // Go refuses a URL with an ASCII control character anywhere in it.
  // eslint-disable-next-line no-control-regex
  if (s === '' || /[\u0000-\u001f\u007f]/.test(s)) return undefined
  if (s === '*') return {scheme: '', host: ''}
  const split = schemeOf(s)
  if (split === undefined) return undefined
  const scheme = split.scheme.toLowerCase()
  let rest = split.rest
  // A request URI keeps a fragment in its path; only the query is cut off.
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1)
  else rest = rest.split('?')[0]!
  if (!rest.startsWith('/')) {
    // An opaque URL (mailto:x) is a URL, without a host; a relative path is not a request URI.
    return scheme === '' ? undefined : {scheme, host: ''}
  }
  let host = ''
  if (scheme !== '' && rest.startsWith('//')) {
    const afterSlashes = rest.slice(2)
    const slash = afterSlashes.indexOf('/')
    const authority = slash === -1 ? afterSlashes : afterSlashes.slice(0, slash)
    rest = slash === -1 ? '' : afterSlashes.slice(slash)
    const at = authority.lastIndexOf('@')
    if (at !== -1 && !validUserinfo(authority.slice(0, at))) return undefined
    const hostPort = parseHost(at === -1 ? authority : authority.slice(at + 1))
    if (hostPort === undefined) return undefined
    host = hostPort
  }
  if (!validEscapes(rest)) return undefined
  return {scheme, host}
}

function schemeOf(s: string): {scheme: string; rest: string} | undefined {
  // Character codes, not a regular expression per character: lint reads every server of a fleet.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) continue
    // 0-9 + . -
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e || c === 0x2d) {
      if (i === 0) return {scheme: '', rest: s}
      continue
    }
    if (c === 0x3a) return i === 0 ? undefined : {scheme: s.slice(0, i), rest: s.slice(i + 1)}
    return {scheme: '', rest: s}
  }
  return {scheme: '', rest: s}
}

/** Go's parseHost: an optional [IPv6] and :port, and only the characters a host may hold. */
function parseHost(host: string): string | undefined {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']')
    if (close === -1 || !validOptionalPort(host.slice(close + 1))) return undefined
    return validHostEscapes(host.slice(0, close + 1)) ? host : undefined
  }
  const colon = host.lastIndexOf(':')
  if (colon !== -1 && !validOptionalPort(host.slice(colon))) return undefined
  return validHostEscapes(host) ? host : undefined
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port)
}

function validUserinfo(userinfo: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo) && validEscapes(userinfo)
}

/** Every % starts two hex digits. */
function validEscapes(text: string): boolean {
  return !/%(?![0-9A-Fa-f]{2})/.test(text)
}

const PLAIN_HOST = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]*$/

/** Go's unescape in host mode: no ASCII a host may not hold, and escapes only for non-ASCII or %25. */
function validHostEscapes(host: string): boolean {
  // Nearly every host: only the ASCII a host may hold, no escape.
  if (PLAIN_HOST.test(host)) return true
  for (let i = 0; i < host.length; i++) {
    const c = host[i]!
    if (c === '%') {
      const hex = host.slice(i + 1, i + 3)
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return false
      if (parseInt(hex[0]!, 16) < 8 && hex !== '25') return false
      i += 2
      continue
    }
    if (c.charCodeAt(0) < 0x80 && !/[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/.test(c)) return false
  }
  return true
}

/** Kubernetes' label value rule (validation.IsValidLabelValue), which CEL's format.labelValue() applies. */
export function isLabelValue(value: string): boolean {
  return value.length <= 63 && /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(value)
}

/** The length OpenAPI's maxLength counts: characters (runes), not UTF-16 units. */
export function runeLength(value: string): number {
  // Without a surrogate, each UTF-16 unit is a character.
  return SURROGATE.test(value) ? [...value].length : value.length
}

const SURROGATE = /[\uD800-\uDFFF]/

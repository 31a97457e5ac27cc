/**
 * Anything a terminal acts on instead of showing: C0 controls other than the line feed, DEL, C1 and
 * the bidirectional controls. Human-readable output must never contain one from hub or plugin data.
 */
export const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** A string with one of every kind of hostile sequence, for profiles and plugin output. */
export const HOSTILE = '\x1b]0;pwned\x07\x1b[31mred\x1b[0m\u009b2J\u202Eevil\u0000\rfake'

/** The hidden command the shell completion scripts call (bin/run.js routes it to the fast path too). */
export const COMPLETE_COMMAND = '__complete'

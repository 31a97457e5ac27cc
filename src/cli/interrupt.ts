// Commands that run until interrupted (sync --watch, list --watch): SIGINT and SIGTERM end them
// cleanly, through an AbortSignal, instead of killing cpcred in the middle of a write.
export async function untilInterrupted<T>(action: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController()
  const signals = ['SIGINT', 'SIGTERM'] as const
  const onSignal = () => stop.abort()
  for (const signal of signals) process.on(signal, onSignal)
  try {
    return await action(stop.signal)
  } finally {
    for (const signal of signals) process.off(signal, onSignal)
  }
}

// The one way cpcred works through many items a few at a time (exec's fan-out, doctor on a fleet):
// at most `limit` at once, started in the items' order, each result in its item's place.

export interface PoolOptions {
  /** Once aborted, no further item starts; those left have no result (undefined). */
  signal?: AbortSignal
}

/**
 * `work` for every item, at most `limit` at a time, started in order; the results in the items'
 * order. The first failure rejects at once and no further item starts (those running go on: the
 * caller owns what they hold).
 */
export function inPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]>
/** The same, stopping at `options.signal`: an item that never started has no result. */
export function inPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  options: PoolOptions,
): Promise<(R | undefined)[]>
export async function inPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  options: PoolOptions = {},
): Promise<(R | undefined)[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`a pool needs at least one worker, got ${limit}`)
  const results: (R | undefined)[] = Array.from({length: items.length}, () => undefined)
  let next = 0
  let failed = false
  const worker = async () => {
    while (next < items.length && !failed && !options.signal?.aborted) {
      const index = next++
      try {
        results[index] = await work(items[index]!, index)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({length: Math.min(limit, items.length)}, worker))
  return results
}

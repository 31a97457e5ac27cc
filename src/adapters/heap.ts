// How V8 sizes the heap of a cpcred that runs for hours (sync --watch). By default V8 lets the old
// generation grow to up to four times what was live at its last full collection before it collects
// again, and sizes the young generation for speed: trades for short programs. A watch of 10,000
// profiles holds about 80 MB live, and each pass leaves tens of MB of garbage behind, so it sat at
// 340 to 420 MB resident after 1,000 updates and peaked at 510 to 570 MB. Set at run time rather than
// on Node's command line, the flags hold alike from the npm install, the standalone archive and the
// image, and touch no other command.
import {setFlagsFromString} from 'node:v8'

/** From now on, V8 lets the old generation grow 15% past what was live, not up to four times. */
export function keepNearLive(): void {
  setFlagsFromString('--heap-growing-percent=15')
}

/**
 * From now on, V8 favours memory over speed: a smaller young generation as well. It costs time in
 * GC (the first pass of a watch of 10,000 took 40-70% more CPU with it), so it is for a process past
 * its busy start.
 */
export function keepSmall(): void {
  setFlagsFromString('--optimize-for-size')
}

// The kubeconfig exec's command line is completed with at TAB: the one `cpcred kubeconfig` writes
// for the target, so kubectl's completion asks the target, not the hub; and for get's line, the
// servers its targets' kubeconfig names, whose kept discovery gives the types after `--`. It holds no secret (its
// user runs `cpcred credential`, which answers from the credential cache when it can), lives in the
// private completion cache for a few minutes per exec line, and is written by a run of cpcred that
// is stopped if it takes longer than a TAB may wait.
import {execFile} from 'node:child_process'
import {createHash} from 'node:crypto'
import {readFile, rename, rm, stat} from 'node:fs/promises'
import path from 'node:path'
import {isRecord} from '../core/json.js'
import {parseKubeconfig} from '../core/kubeconfig/text.js'
import {ensurePrivateDir} from './directories.js'
import type {TargetArgs} from '../core/profiles/completion.js'

/** A target's kubeconfig changes only with its profile; written again after this long. */
export const TARGET_KUBECONFIG_FRESH_MS = 10 * 60_000
/** How long a TAB waits for the kubeconfig to be written (a hub request; no plugin runs for it). */
export const TARGET_KUBECONFIG_WAIT_MS = 4000

export class CompletionTargets {
  /** Beside the profile lists of the completion cache. */
  readonly dir: string

  constructor(
    completionDir: string,
    /** How to run this cpcred (node and its script). */
    private readonly cpcred: string[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = path.join(completionDir, 'targets')
  }

  /** The target's kubeconfig file, written if missing or stale; undefined if it cannot be written in time. */
  async kubeconfig(target: TargetArgs): Promise<string | undefined> {
    // The hub and the provider file may come from the environment as well as from the flags.
    const key = JSON.stringify([this.env.KUBECONFIG ?? '', this.env.CPCRED_PROVIDER_FILE ?? '', target])
    const file = path.join(this.dir, `${createHash('sha256').update(key).digest('hex')}.kubeconfig`)
    const written = await stat(file).catch(() => undefined)
    if (written && this.now() - written.mtimeMs < TARGET_KUBECONFIG_FRESH_MS) return file
    ensurePrivateDir(this.dir)
    const temporary = `${file}.${process.pid}`
    const [command, ...args] = this.cpcred
    const ok = await new Promise<boolean>((resolve) => {
      try {
        execFile(
          command!,
          [
            ...args,
            'kubeconfig',
            ...target.profiles,
            ...target.flags,
            '--set-current',
            '--overwrite',
            `--output-file=${temporary}`,
          ],
          // What it says is not shown: a TAB must leave the terminal clean.
          {env: this.env, timeout: TARGET_KUBECONFIG_WAIT_MS},
          (error) => resolve(!error),
        )
      } catch {
        // A start failure is a miss too (spawn throws E2BIG and the like instead of calling back).
        resolve(false)
      }
    })
    if (!ok) {
      await rm(temporary, {force: true})
      return undefined
    }
    await rename(temporary, file)
    return file
  }

  /** The servers of the targets' kubeconfig (written as `kubeconfig` writes it), each once; none if it cannot be had. */
  async servers(targets: TargetArgs): Promise<string[]> {
    const file = await this.kubeconfig(targets)
    if (!file) return []
    const document = await parseKubeconfig(await readFile(file, 'utf8'), file)
    const clusters = isRecord(document) && Array.isArray(document.clusters) ? document.clusters : []
    const servers = clusters.flatMap((entry: unknown) =>
      isRecord(entry) && isRecord(entry.cluster) && typeof entry.cluster.server === 'string'
        ? [entry.cluster.server]
        : [],
    )
    return [...new Set(servers)]
  }
}

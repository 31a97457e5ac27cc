// The ports only doctor needs: the provider file as it reads it, and where it looks without changing
// anything (servers, executables, the credential cache, the profile snapshots).
import type {CacheFiles} from '../../core/doctor/cache.js'
import type {ExecutableLookup} from '../../core/doctor/plugin.js'
import type {ServerProbe} from '../../core/doctor/server-tls.js'
import type {Endpoint} from './hub.js'

/** The consumer's provider file, as doctor reads it. */
/** Where doctor looks, without changing anything. */
export interface DoctorProbes {
  /** TCP, TLS and an anonymous GET /version (no credential is sent). */
  probe(endpoint: Endpoint): Promise<ServerProbe>
  findExecutable(command: string, pathVariable: string | undefined): Promise<ExecutableLookup>
  /** What is on disk for one credential cache key (only read), or why it cannot be read (an errno code). */
  cacheFiles(key: string): Promise<CacheFiles | {unreadable: string}>
  /** Where cached credentials live. */
  readonly cacheDir: string
  /** When the last copy of a profile was read, for the hub outage hint; undefined when none is kept. */
  lastSnapshot(hubIdentity: string, namespace: string, name: string): Promise<number | undefined>
}

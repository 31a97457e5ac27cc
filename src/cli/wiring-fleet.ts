// The part of the one wiring (cli/wiring.ts) that a run on many targets uses: exec's fan-out view,
// the logs and reports it writes, the copies of stdin, the children it starts; lint's reports.
// wire() spreads it into the wiring it builds, so it is built once per run with the rest. Each member
// imports its adapters on first use, as the wiring's others do.
import * as interrupts from '../adapters/interrupts.js'
import type {Printer} from '../adapters/printer.js'
import type {
  ChildRunner,
  FanOutPorts,
  ForwardingSignals,
  RenewCredential,
  ReportFiles,
  TempKubeconfigs,
} from '../usecases/ports.js'

export interface FleetWiring {
  /** What exec on many targets shows and writes with: its view, logs, reports, the copies of stdin. */
  fanOutPorts(): Promise<FanOutPorts>
  /** Where lint writes its reports. */
  reportFiles(): Promise<ReportFiles>
  /** What `cpcred exec` runs a target's command with. */
  execPorts(): Promise<{
    children: ChildRunner
    temp: TempKubeconfigs
    renew: RenewCredential
    forwardingSignals: ForwardingSignals
  }>
}

/** The fleet's members of the wiring of one run in `env`; `printer` is the wiring's own. */
export function fleetWiring(env: NodeJS.ProcessEnv, printer: () => Printer): FleetWiring {
  // A report keeps the mode of a file it replaces and refuses to write through a symlink.
  const reportWriter = async () => {
    const {writeFileAtomic} = await import('../adapters/files.js')
    return (file: string, content: string) =>
      writeFileAtomic(file, content, {mode: 'keep', refuseSymlink: true})
  }
  return {
    async fanOutPorts() {
      const [{fanOutView}, {makeDirectory}, {LogFile}, {spoolStdin}, writeReport] = await Promise.all([
        import('../adapters/fan-out-view.js'),
        import('../adapters/directories.js'),
        import('../adapters/files.js'),
        import('../adapters/stdin-spool.js'),
        reportWriter(),
      ])
      const out = printer()
      return {
        view: async (input) => fanOutView({...input, printer: out, chalk: await out.paint()}),
        makeDirectory,
        openLog: (file) => LogFile.open(file),
        writeReport,
        spoolStdin: (file) => spoolStdin(process.stdin, file),
        readerGone: () => interrupts.readerGone(out),
        error: (message, hint) => out.error(message, hint),
        date: () => new Date(),
      }
    },
    async reportFiles() {
      const [{makeDirectory}, writeReport] = await Promise.all([
        import('../adapters/directories.js'),
        reportWriter(),
      ])
      return {makeDirectory, writeReport}
    },
    async execPorts() {
      const [{nodeChildRunner}, {tempKubeconfigs}, {renewCredential}] = await Promise.all([
        import('../adapters/child-runner.js'),
        import('../adapters/temp-kubeconfigs.js'),
        import('../adapters/credential-renewal.js'),
      ])
      return {
        children: nodeChildRunner,
        temp: tempKubeconfigs(env),
        renew: renewCredential,
        forwardingSignals: interrupts.forwardingSignals,
      }
    },
  }
}

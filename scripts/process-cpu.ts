/** How the benchmarks read a server's own CPU time, which a busy machine disturbs less than its throughput. */
import { readFile } from 'node:fs/promises';

/** CPU milliseconds a process has used, all its threads (user + system, from /proc; clock ticks of 10 ms). */
export async function processCpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

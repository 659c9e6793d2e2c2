import { readdirSync, readFileSync } from 'node:fs';

/**
 * The background processes (a site check's, a probe's) that process `parent` started and that
 * still run, found by their code's file name (`probe-process.js`): their pids, read from /proc (a
 * fresh machine may have no `ps`).
 */
export function backgroundProcesses(parent: number, file: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        // "pid (command) state ppid ...": the command may hold spaces and parentheses, so read from its last ")".
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        // A process ended but not yet reaped has an empty command line.
        return ppid === parent && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(file) ? [Number(pid)] : [];
      } catch {
        return []; // ended meanwhile
      }
    });
}

/** A process's environment as anyone allowed to read /proc/<pid>/environ sees it: name -> value. */
export function environmentOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

/** A process's scheduling policy (the 41st field of /proc/<pid>/stat: 0 normal, 5 idle). */
export function schedulingPolicyOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields from the third on follow the command's last ")".
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
}

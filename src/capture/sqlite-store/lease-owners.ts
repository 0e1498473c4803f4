import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * The SQLite store's lease owners and its policy for giving back leases early.
 *
 * An owner id is `host:pid:random`. Correctness never reads it: leases expire by time, and a
 * judgment is UNIQUE per capture and judge version, so two workers judging one capture store one
 * judgment. The host and pid only let a restarted worker give back, at once, the leases of a worker
 * that is known to be gone instead of waiting for them to expire: a stopped worker of this process
 * (its id is no longer live here), or a process on this host that no longer runs. Leases of other
 * hosts always wait for expiry. Two processes sharing one file from different PID namespaces under
 * the same host name could take each other's live leases for dead ones: that costs a judge call
 * twice, never a second judgment.
 */

export interface LeaseOwnerEnvironment {
  /** [hostname=os.hostname()] */
  hostname?: string;
  /** [pid=process.pid] */
  pid?: number;
  /** [randomId=crypto.randomUUID] */
  randomId?: () => string;
  /** Whether a process of this host runs. [processAlive=signal 0] */
  processAlive?: (pid: number) => boolean;
}

/** Owners created in this process and not yet released (shared by every store object of the process). */
const liveOwners = new Set<string>();

export class HostLeaseOwners {
  private readonly hostname: string;
  private readonly pid: number;
  private readonly randomId: () => string;
  private readonly processAlive: (pid: number) => boolean;

  constructor(environment: LeaseOwnerEnvironment = {}) {
    this.hostname = environment.hostname ?? hostname();
    this.pid = environment.pid ?? process.pid;
    this.randomId = environment.randomId ?? randomUUID;
    this.processAlive = environment.processAlive ?? processAlive;
  }

  create(): string {
    const owner = `${this.hostname}:${this.pid}:${this.randomId()}`;
    liveOwners.add(owner);
    return owner;
  }

  retire(owner: string): void {
    liveOwners.delete(owner);
  }

  /** Whether `owner`'s leases can be given back now: it is of this host and known to be gone. */
  isAbandoned(owner: string, self: string): boolean {
    if (owner === self) return false;
    const randomAt = owner.lastIndexOf(':');
    const pidAt = owner.lastIndexOf(':', randomAt - 1);
    if (randomAt < 0 || pidAt < 0 || owner.slice(0, pidAt) !== this.hostname) return false;
    const pid = Number(owner.slice(pidAt + 1, randomAt));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    return pid === this.pid ? !liveOwners.has(owner) : !this.processAlive(pid);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

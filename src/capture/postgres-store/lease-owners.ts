import { randomUUID } from 'node:crypto';

/**
 * Lease owners of the Postgres store. An owner id is random (`pg:<uuid>`) and says nothing about
 * its host or process: workers on many hosts share the store, and a host name and pid cannot tell
 * from here whether a worker elsewhere is alive. Leases therefore expire by time only. The one
 * early give-back is of owners this process made and has stopped (`releaseLeasesOf` retired
 * them): a claim still in flight when its worker stopped can leave leases that nobody holds.
 */

/** Owners made in this process: live until retired (shared by every store object of the process). */
const liveOwners = new Set<string>();
const retiredOwners = new Set<string>();

export class ProcessLeaseOwners {
  constructor(private readonly randomId: () => string = randomUUID) {}

  create(): string {
    const owner = `pg:${this.randomId()}`;
    liveOwners.add(owner);
    return owner;
  }

  retire(owner: string): void {
    if (liveOwners.delete(owner)) retiredOwners.add(owner);
  }

  /** Whether `owner`'s leases can be given back now: made by this process and stopped, and not the caller. */
  isAbandoned(owner: string, self: string): boolean {
    return owner !== self && retiredOwners.has(owner);
  }
}

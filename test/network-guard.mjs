// Network guard for the test suite: any TCP connection to a host other than loopback fails, and
// the attempt is recorded so the test that made it fails even if the code under test swallowed
// the error. Loaded by vitest's setup file, and by child processes through
// NODE_OPTIONS=--import=<this file> (see test/child-env.ts).
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

const STATE = Symbol.for('groundcheck.networkGuard');

function isLoopback(host) {
  if (host === undefined || host === null || host === '') return true; // Node defaults to localhost
  const value = String(host).replace(/^\[|\]$/g, '').toLowerCase();
  return value === 'localhost' || value === '::1' || /^127\./.test(value) || /^::ffff:127\./.test(value) || value === '0:0:0:0:0:0:0:1';
}

function target(args) {
  const [first, second] = args;
  if (Array.isArray(first)) return target(first); // internal normalized form
  if (first !== null && typeof first === 'object') return { host: first.host ?? first.hostname, port: first.port, path: first.path };
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { host: typeof second === 'string' ? second : undefined, port: first };
}

if (!globalThis[STATE]) {
  const state = { blocked: [] };
  globalThis[STATE] = state;
  const block = (what) => {
    const error = new Error(`network guard: blocked ${what}; tests may only reach 127.0.0.1 or ::1`);
    error.code = 'ENETWORKGUARD';
    state.blocked.push(error.message);
    return error;
  };

  const originalConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const { host, port, path } = target(args);
    if (path === undefined && !isLoopback(host)) throw block(`connection to ${host}:${port}`);
    return originalConnect.apply(this, args);
  };

  const originalLookup = dns.lookup;
  dns.lookup = function guardedLookup(hostname, ...rest) {
    if (!isLoopback(hostname)) {
      const callback = rest[rest.length - 1];
      const error = block(`DNS lookup of ${hostname}`);
      if (typeof callback === 'function') return process.nextTick(callback, error);
      throw error;
    }
    return originalLookup.call(this, hostname, ...rest);
  };
  const originalPromisesLookup = dns.promises.lookup;
  dns.promises.lookup = async function guardedPromisesLookup(hostname, ...rest) {
    if (!isLoopback(hostname)) throw block(`DNS lookup of ${hostname}`);
    return originalPromisesLookup.call(this, hostname, ...rest);
  };

  const originalSend = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guardedSend(...args) {
    const address = args.find((value, index) => index > 0 && typeof value === 'string');
    if (!isLoopback(address)) throw block(`UDP datagram to ${address}`);
    return originalSend.apply(this, args);
  };
}

/** Blocked attempts since the last call, emptied. */
export function takeBlockedConnections() {
  const state = globalThis[STATE];
  return state.blocked.splice(0, state.blocked.length);
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOpenAI } from '../src/providers/openai.js';
// @ts-expect-error plain ESM module without types
import { takeBlockedConnections } from './network-guard.mjs';

describe('network guard (vitest setup)', () => {
  it('blocks a TCP connection outside loopback and records it', () => {
    expect(() => net.connect({ host: '203.0.113.7', port: 443 })).toThrow(/network guard: blocked connection to 203\.0\.113\.7:443/);
    expect(takeBlockedConnections()).toHaveLength(1);
  });

  it('blocks the SDK from reaching a real host even if the caller swallows the error', async () => {
    const chat = createOpenAI({ apiKey: 'k', baseURL: 'https://api.openai.com/v1', maxRetries: 0 }).chat('gpt-4o-mini');
    await expect(chat.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
    const blocked = takeBlockedConnections() as string[];
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked[0]).toMatch(/api\.openai\.com/);
  });

  it('allows 127.0.0.1', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe('ok');
    server.close();
    expect(takeBlockedConnections()).toEqual([]);
  });
});

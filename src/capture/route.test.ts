import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createRagPipeline } from '../rag/pipeline.js';
import { handbookIndex } from '../test-support/fixtures.js';
import { MockChatModel } from '../testing/index.js';
import { ragChatHandler } from './route.js';

async function appWith(options: { withheldChunks?: boolean }, minSimilarity: number) {
  const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'Twenty weeks.' }), retrieval: { minSimilarity, topK: 4 } });
  const app = express();
  app.post('/api/chat', express.json(), ragChatHandler({ pipeline, ...options }));
  return app;
}

const question = { message: 'How many weeks of parental leave does a birth parent get?' };

describe('ragChatHandler: a gate refusal answers with the chunks the gate withheld', () => {
  it('returns them as withheldChunks, in the shape of sources, never as sources', async () => {
    const response = await request(await appWith({}, 0.99)).post('/api/chat').send(question);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ refused: true, sources: [] });
    expect(response.body.withheldChunks).toHaveLength(4);
    expect(response.body.withheldChunks.map((chunk: { chunkId: string }) => chunk.chunkId)).toContain('leave-policy#parental-leave');
    for (const chunk of response.body.withheldChunks) expect(Object.keys(chunk).sort()).toEqual(['chunkId', 'score', 'section', 'text', 'title', 'updated']);
  });

  it('leaves them out with withheldChunks: false, and an answered question never has them', async () => {
    const hidden = await request(await appWith({ withheldChunks: false }, 0.99)).post('/api/chat').send(question);
    expect(hidden.body).toMatchObject({ refused: true, sources: [] });
    expect(hidden.body).not.toHaveProperty('withheldChunks');
    const answered = await request(await appWith({}, 0)).post('/api/chat').send(question);
    expect(answered.body).toMatchObject({ refused: false, answer: 'Twenty weeks.' });
    expect(answered.body.sources.length).toBeGreaterThan(0);
    expect(answered.body).not.toHaveProperty('withheldChunks');
  });

  it('rejects a withheldChunks option that is not true or false', () => {
    expect(() => ragChatHandler({ pipeline: {} as never, withheldChunks: 'yes' as never })).toThrow(/withheldChunks must be true or false/);
  });
});

// One app process of the chaos test: writes `count` captures to the store at `url` in batches of
// 1 to 8, as the middleware does (one writeCaptures per batch), up to 0.8 s apart, then exits 0. Each capture's
// answer is the chunk's own sentence, so the offline heuristic judge can judge it.
import { openCaptureStore } from '../../store.js';
import { sampleCapture } from '../../../test-support/capture-samples.js';

const [url, prefix, countText] = process.argv.slice(2);
if (url === undefined || prefix === undefined || countText === undefined) throw new Error('usage: chaos-app <url> <prefix> <count>');
const count = Number(countText);
const store = openCaptureStore({ path: url as `postgres://${string}`, maxConnections: 2 });
let written = 0;
while (written < count) {
  const size = Math.min(count - written, 1 + Math.floor(Math.random() * 8));
  const batch = Array.from({ length: size }, (_, index) => sampleCapture(`${prefix}-${written + index}`, { capturedAt: new Date().toISOString() }));
  await store.writeCaptures(batch);
  written += size;
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 800)));
}
await store.close();
process.stdout.write(`wrote ${written}\n`);

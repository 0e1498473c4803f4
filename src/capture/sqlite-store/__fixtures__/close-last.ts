// A program whose last step is `await store.close()`: it must print "closed" after the await
// (run by close-last.test.ts). Arguments: <capture file> <writerThread on|off> <backgroundCheckpoints on|off>.
import { sampleCapture } from '../../../test-support/capture-samples.js';
import { openSqliteCaptureStore } from '../../store.js';

const [path, writerThread, checkpoints] = process.argv.slice(2);
const store = openSqliteCaptureStore({ path: path!, writerThread: writerThread === 'on', backgroundCheckpoints: checkpoints === 'on' });
await store.writeCaptures([sampleCapture('close-last-1'), sampleCapture('close-last-2')]);
await store.close();
process.stdout.write('closed\n');

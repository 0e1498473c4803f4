import { describe, expect, it } from 'vitest';
import { answererChunk as chunk, offlineAnswer as answer } from '../../test-support/answerer.js';
import { REFUSAL_SENTENCE } from '../../contract/refusal.js';

// A section is a part of what its document's title names (local-extractive-v26).
describe('offline answerer: a phrase held by the title and the section heading', () => {
  it('"sick note" is answered from the "Sickness Absence" document\'s "Fit Notes" section', async () => {
    // Before, "sick" (in the title and "sickness absence") and "note" (in "fit note") stood apart: refused.
    const notes = chunk('sickness#fit-notes', 'Sickness Absence', 'Self-Certification and Fit Notes',
      'For sickness absence of up to 7 calendar days, you self-certify on your return.\n\nFrom the 8th calendar day of absence, you need a fit note from a GP.');
    expect(await answer('do i need a sick note', [notes])).toContain('you need a fit note from a GP');
    // In any domain: a "Parking" document's "Fines" section answers a question about a parking fine.
    const fines = chunk('parking#fines', 'Parking', 'Fines and Appeals',
      'If you park on a yellow line or without a permit, we may issue a penalty charge. A penalty charge of £70 is halved if paid within 14 days.');
    expect(await answer('how much is a parking fine', [fines])).toContain('A penalty charge of £70');
    // The other way round, the head in the title and the first word in the section, the words still stand apart.
    const minutes = chunk('meetings#sickness-cover', 'Meeting Notes', 'Sickness Cover',
      'Cover for a sickness absence is arranged by the team lead.\n\nNotes of each handover are shared on Fridays.');
    expect(await answer('do i need a sick note', [minutes])).toBe(REFUSAL_SENTENCE);
  });
});

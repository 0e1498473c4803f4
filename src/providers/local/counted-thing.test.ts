import { describe, expect, it } from 'vitest';
import { answererChunk as chunk, offlineAnswer as answer } from '../../test-support/answerer.js';

// A "how many" question counts a thing: only a sentence stating a number of it holds that word (local-extractive-v26).
describe('offline answerer: what a "how many" question counts', () => {
  it('"how many days holiday" is answered by "25 days", not by a sibling section that says "day" without a number', async () => {
    // Before, the bank-holiday rule (first in the evidence, its heading holding "holiday", its
    // "another day off" holding "day") outranked the entitlement, third.
    const chunks = [
      chunk('leave#bank-holidays', 'Leave Policy', 'Bank Holidays', 'If you are asked to work on a bank holiday, you may take another day off instead, within 3 months.'),
      chunk('pay#pay-day', 'Pay and Payroll', 'Pay Day', 'Salaries are paid on the 25th of each month. If the 25th falls on a weekend or bank holiday, you are paid on the last working day before it.'),
      chunk('leave#entitlement', 'Leave Policy', 'Annual Leave Entitlement', 'The leave year runs from January to December. Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays.'),
    ];
    const text = await answer('how many days holiday do i get', chunks);
    expect(text).toMatch(/^Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays\./);
    expect(text).not.toContain('another day off');
  });

  it('in any domain: "how many nights" is answered by the sentence that counts nights', async () => {
    // Before, the first section's sentence, holding "night" twice and "stay" but counting no night, won.
    const chunks = [
      chunk('stay#late-nights', 'Your Stay', 'Late Nights', 'If you stay out late at night, the night porter will let you in.'),
      chunk('stay#length', 'Your Stay', 'Length of Stay', 'You can book up to 14 nights in a row.'),
    ];
    expect(await answer('how many nights can i stay', chunks)).toMatch(/^You can book up to 14 nights in a row\./);
    // Where no sentence counts the thing, its word counts wherever it is written, as before.
    expect(await answer('how many nights is the porter there', chunks.slice(0, 1))).toContain('the night porter will let you in');
  });
});

import { describe, expect, it } from 'vitest';
import { answererChunk as chunk, offlineAnswer as answer } from '../../test-support/answerer.js';

// A unit naming the question's place or day is in its region as much as one naming the region (local-extractive-v26).
describe('offline answerer: a place is in its region', () => {
  it('"hotel limit in london" is answered by the London row, not by the row or the sentence that names only the UK', async () => {
    // Before, "London" weighed as a detail and its region "UK" as more: the booking sentence (its
    // address ends in ".co.uk") and the "Elsewhere in the UK" row outranked the London row.
    const chunks = [
      chunk('travel#booking', 'Travel and Expenses', 'Booking Business Travel', 'Book all trains, flights and hotels through the travel desk (travel@example.co.uk) at least 14 days ahead.'),
      chunk('travel#hotel-caps', 'Travel and Expenses', 'Hotel Nightly Caps',
        '| Location | Maximum per night |\n| --- | --- |\n| London (inside the M25) | £190 |\n| Elsewhere in the UK | £120 |\n| Europe | £150 |'),
    ];
    const text = await answer('hotel limit in london', chunks);
    expect(text).toMatch(/^Location: London \(inside the M25\); Maximum per night: £190\./);
    expect(text).not.toContain('£120');
  });

  it('in any domain: a Sunday is a weekend day, so "Sundays" in a row counts for the weekend', async () => {
    // Before, the row holding "Sundays" lost to the first section's sentence holding "weekend" and "price".
    const chunks = [
      chunk('pool#weekend-swims', 'Swimming Pool', 'Weekend Swims', 'The weekend price list is shown at reception.'),
      chunk('pool#prices', 'Swimming Pool', 'Prices',
        '| Day | Adult swim |\n| --- | --- |\n| Monday to Saturday | £5 |\n| Sundays and bank holidays | £6 |'),
    ];
    expect(await answer('what is the price of a swim on a sunday', chunks)).toMatch(/^Day: Sundays and bank holidays; Adult swim: £6\./);
  });
});
